// name: explore-commit-graph
// description: A commit's neighbourhood as drawable edges: its framework, the methods it implements or mentions, the papers it mentions, the issues it fixes, its releases and the pull request merged as it.
// param: sha STRING = "0f5ffad26e96d1a0eef568be91da956e81b4a11b" -- the commit's sha
// returns: source_label, source_key, source_name, type, target_label, target_key, target_name
// graph: edge-rows
MATCH (c:Commit {sha: $sha})-[:PART_OF]->(f:Framework)
RETURN 'Commit' AS source_label, c.sha AS source_key, c.subject AS source_name, 'PART_OF' AS type,
       'Framework' AS target_label, f.slug AS target_key, f.name AS target_name
UNION ALL
MATCH (c:Commit {sha: $sha})-[:IMPLEMENTS]->(m:Method)
RETURN 'Commit' AS source_label, c.sha AS source_key, c.subject AS source_name, 'IMPLEMENTS' AS type,
       'Method' AS target_label, m.slug AS target_key, m.name AS target_name
UNION ALL
MATCH (c:Commit {sha: $sha})-[:MENTIONS]->(m:Method)
RETURN 'Commit' AS source_label, c.sha AS source_key, c.subject AS source_name, 'MENTIONS' AS type,
       'Method' AS target_label, m.slug AS target_key, m.name AS target_name
UNION ALL
MATCH (c:Commit {sha: $sha})-[:MENTIONS]->(p:Paper)
RETURN 'Commit' AS source_label, c.sha AS source_key, c.subject AS source_name, 'MENTIONS' AS type,
       'Paper' AS target_label, p.arxiv_id AS target_key, p.title AS target_name
UNION ALL
MATCH (c:Commit {sha: $sha})-[:FIXES]->(i:Issue)
RETURN 'Commit' AS source_label, c.sha AS source_key, c.subject AS source_name, 'FIXES' AS type,
       'Issue' AS target_label, i.id AS target_key, i.title AS target_name
UNION ALL
MATCH (c:Commit {sha: $sha})-[:RELEASED_IN]->(r:Release)
RETURN 'Commit' AS source_label, c.sha AS source_key, c.subject AS source_name, 'RELEASED_IN' AS type,
       'Release' AS target_label, r.id AS target_key, r.tag AS target_name
UNION ALL
MATCH (pr:PullRequest)-[:MERGED_AS]->(c:Commit {sha: $sha})
RETURN 'PullRequest' AS source_label, pr.id AS source_key, pr.title AS source_name, 'MERGED_AS' AS type,
       'Commit' AS target_label, c.sha AS target_key, c.subject AS target_name
