// Neo4j has no CAST: the claim-only rows' missing values are plain nulls here.
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
       null AS first_commit, null AS commit_date, null AS release,
       null AS identifier, null AS evidence, null AS rule,
       0 AS commits, false AS implemented, true AS claimed, 'claim only' AS agreement
