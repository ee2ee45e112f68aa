// name: contribution-rules
// description: What a framework asks of a contribution, read from its own tree: contributing guide, PR and issue templates, CLA or DCO, pre-commit hooks, linters, code owners, policy on new algorithms; each with its source file and last change.
// param: framework STRING = "trl" -- the framework's slug
// returns: kind, value, source_path, commit_sha, rule_date
MATCH (f:Framework)-[:HAS_RULE]->(r:ContributionRule)
WHERE f.slug = $framework
RETURN r.kind AS kind, r.value AS value, r.source_path AS source_path, r.commit_sha AS commit_sha,
       r.rule_date AS rule_date
ORDER BY kind, source_path, value
