// name: method-framework-matrix
// description: Every (method, framework) pair with mined evidence or a catalog claim: the first implementing commit, its date and release, the identifier that turns the method on there and where it was found, how many commits implement it, whether the catalog claims support (SUPPORTS) and whether the two agree. Implementations found only in another framework's copied tree are left out, as in framework-methods.
// param: family STRING = "" -- only methods of this family (empty: all)
// param: change STRING = "" -- only methods whose loss change is this (coefficient, clip, mask, weight…; empty: all)
// returns: method, name, family, change, framework, first_commit, commit_date, release, identifier, evidence, rule, commits, implemented, claimed, agreement
// graph: nodes=method:Method(name),framework:Framework,first_commit:Commit edges=first_commit-IMPLEMENTS->method{location=evidence,identifier,rule},first_commit-PART_OF->framework
MATCH (c:Commit)-[i0:IMPLEMENTS]->(m:Method)
WHERE c.excluded IS NULL
  AND ($family = '' OR m.family = $family) AND ($change = '' OR m.loss_change = $change)
WITH m, c.framework AS framework, min(c.commit_ts) AS first_ts, count(DISTINCT c.sha) AS commits
MATCH (f:Commit)-[i1:IMPLEMENTS]->(m)
WHERE f.framework = framework AND f.commit_ts = first_ts AND f.excluded IS NULL
WITH m, framework, commits, min(f.sha) AS first_sha
MATCH (f:Commit {sha: first_sha})-[i:IMPLEMENTS]->(m)
OPTIONAL MATCH (f)-[:RELEASED_IN]->(r:Release)
WITH m, framework, commits, f, i, min(r.tag) AS release,
     EXISTS { MATCH (:Framework {slug: framework})-[:SUPPORTS]->(m) } AS claimed
RETURN m.slug AS method, m.name AS name, m.family AS family, m.loss_change AS change, framework,
       f.sha AS first_commit, f.commit_date AS commit_date, release, i.identifier AS identifier,
       i.location AS evidence, i.rule AS rule, commits, true AS implemented, claimed,
       CASE WHEN claimed THEN 'agree' ELSE 'evidence only' END AS agreement
UNION ALL
MATCH (fw:Framework)-[:SUPPORTS]->(m:Method)
WHERE ($family = '' OR m.family = $family) AND ($change = '' OR m.loss_change = $change)
  AND NOT EXISTS {
    MATCH (c:Commit)-[v:IMPLEMENTS]->(m) WHERE c.framework = fw.slug AND c.excluded IS NULL
  }
RETURN m.slug AS method, m.name AS name, m.family AS family, m.loss_change AS change, fw.slug AS framework,
       CAST(NULL AS STRING) AS first_commit, CAST(NULL AS DATE) AS commit_date, CAST(NULL AS STRING) AS release,
       CAST(NULL AS STRING) AS identifier, CAST(NULL AS STRING) AS evidence, CAST(NULL AS STRING) AS rule,
       0 AS commits, false AS implemented, true AS claimed, 'claim only' AS agreement
