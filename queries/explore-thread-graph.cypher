// name: explore-thread-graph
// description: An issue's or pull request's neighbourhood as drawable edges: its framework, the papers it cites, the methods it names, what fixes it or what it fixes, the commit a pull request was merged as, failures reported in it.
// param: id STRING = "trl#2565" -- the thread's id, framework#number
// returns: source_label, source_key, source_name, type, target_label, target_key, target_name
// graph: edge-rows
MATCH (t:Issue {id: $id})-[:PART_OF]->(f:Framework)
RETURN 'Issue' AS source_label, t.id AS source_key, t.title AS source_name, 'PART_OF' AS type,
       'Framework' AS target_label, f.slug AS target_key, f.name AS target_name
UNION ALL
MATCH (t:PullRequest {id: $id})-[:PART_OF]->(f:Framework)
RETURN 'PullRequest' AS source_label, t.id AS source_key, t.title AS source_name, 'PART_OF' AS type,
       'Framework' AS target_label, f.slug AS target_key, f.name AS target_name
UNION ALL
MATCH (t:Issue {id: $id})-[:CITES]->(p:Paper)
RETURN 'Issue' AS source_label, t.id AS source_key, t.title AS source_name, 'CITES' AS type,
       'Paper' AS target_label, p.arxiv_id AS target_key, p.title AS target_name
UNION ALL
MATCH (t:PullRequest {id: $id})-[:CITES]->(p:Paper)
RETURN 'PullRequest' AS source_label, t.id AS source_key, t.title AS source_name, 'CITES' AS type,
       'Paper' AS target_label, p.arxiv_id AS target_key, p.title AS target_name
UNION ALL
MATCH (t:Issue {id: $id})-[:NAMES]->(m:Method)
RETURN 'Issue' AS source_label, t.id AS source_key, t.title AS source_name, 'NAMES' AS type,
       'Method' AS target_label, m.slug AS target_key, m.name AS target_name
UNION ALL
MATCH (t:PullRequest {id: $id})-[:NAMES]->(m:Method)
RETURN 'PullRequest' AS source_label, t.id AS source_key, t.title AS source_name, 'NAMES' AS type,
       'Method' AS target_label, m.slug AS target_key, m.name AS target_name
UNION ALL
MATCH (c:Commit)-[:FIXES]->(t:Issue {id: $id})
RETURN 'Commit' AS source_label, c.sha AS source_key, c.subject AS source_name, 'FIXES' AS type,
       'Issue' AS target_label, t.id AS target_key, t.title AS target_name
UNION ALL
MATCH (pr:PullRequest)-[:FIXES]->(t:Issue {id: $id})
RETURN 'PullRequest' AS source_label, pr.id AS source_key, pr.title AS source_name, 'FIXES' AS type,
       'Issue' AS target_label, t.id AS target_key, t.title AS target_name
UNION ALL
MATCH (t:PullRequest {id: $id})-[:FIXES]->(i:Issue)
RETURN 'PullRequest' AS source_label, t.id AS source_key, t.title AS source_name, 'FIXES' AS type,
       'Issue' AS target_label, i.id AS target_key, i.title AS target_name
UNION ALL
MATCH (t:PullRequest {id: $id})-[:MERGED_AS]->(c:Commit)
RETURN 'PullRequest' AS source_label, t.id AS source_key, t.title AS source_name, 'MERGED_AS' AS type,
       'Commit' AS target_label, c.sha AS target_key, c.subject AS target_name
UNION ALL
MATCH (x:FailureReport)-[:REPORTED_IN]->(t:Issue {id: $id})
RETURN 'FailureReport' AS source_label, x.id AS source_key, x.symptom AS source_name, 'REPORTED_IN' AS type,
       'Issue' AS target_label, t.id AS target_key, t.title AS target_name
