// name: method-spellings
// description: How each framework spells a method in its own code: the identifiers (option values, flags, classes, config keys) learned from changes whose subject names the method, each with the first change that introduced it and its evidence.
// param: method STRING = "grpo" -- the method's slug; empty for every method
// param: include_vendored BOOL = false -- also identifiers found in another framework's copied tree
// returns: framework, method, identifier, commit, commit_date, evidence, rule, confidence, vendored
// graph: nodes=framework:Framework,method:Method,commit:Commit edges=commit-SPELLS->method{location=evidence,identifier,rule,confidence},commit-PART_OF->framework
MATCH (c:Commit)-[s:SPELLS]->(m:Method)
WHERE c.excluded IS NULL AND ($method = "" OR m.slug = $method) AND ($include_vendored OR s.vendored IS NULL)
WITH m, c.framework AS framework, s.identifier AS identifier, min(c.commit_ts) AS first_ts
MATCH (f:Commit)-[i:SPELLS]->(m)
WHERE f.framework = framework AND f.commit_ts = first_ts AND i.identifier = identifier AND f.excluded IS NULL
  AND ($include_vendored OR i.vendored IS NULL)
RETURN framework, m.slug AS method, identifier, f.sha AS commit, f.commit_date AS commit_date,
       i.location AS evidence, i.rule AS rule, i.confidence AS confidence, coalesce(i.vendored, false) AS vendored
ORDER BY method, framework, identifier
