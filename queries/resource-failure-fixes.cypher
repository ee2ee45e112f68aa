// name: resource-failure-fixes
// description: A failure report as drawable edges: the issue it was reported in, the commits and pull requests that fix that issue, what it affects.
// param: id STRING = "skyrl#1633/failure" -- the failure report's id
// returns: source_label, source_key, source_name, type, target_label, target_key, target_name
// graph: edge-rows
MATCH (x:FailureReport {id: $id})-[:REPORTED_IN]->(i:Issue)
RETURN 'FailureReport' AS source_label, x.id AS source_key, x.symptom AS source_name, 'REPORTED_IN' AS type,
       'Issue' AS target_label, i.id AS target_key, i.title AS target_name
UNION ALL
MATCH (x:FailureReport {id: $id})-[:REPORTED_IN]->(i:Issue)<-[:FIXES]-(c:Commit)
RETURN 'Commit' AS source_label, c.sha AS source_key, c.subject AS source_name, 'FIXES' AS type,
       'Issue' AS target_label, i.id AS target_key, i.title AS target_name
UNION ALL
MATCH (x:FailureReport {id: $id})-[:REPORTED_IN]->(i:Issue)<-[:FIXES]-(r:PullRequest)
RETURN 'PullRequest' AS source_label, r.id AS source_key, r.title AS source_name, 'FIXES' AS type,
       'Issue' AS target_label, i.id AS target_key, i.title AS target_name
UNION ALL
MATCH (x:FailureReport {id: $id})-[:AFFECTS]->(m:Method)
RETURN 'FailureReport' AS source_label, x.id AS source_key, x.symptom AS source_name, 'AFFECTS' AS type,
       'Method' AS target_label, m.slug AS target_key, m.name AS target_name
UNION ALL
MATCH (x:FailureReport {id: $id})-[:AFFECTS]->(f:Framework)
RETURN 'FailureReport' AS source_label, x.id AS source_key, x.symptom AS source_name, 'AFFECTS' AS type,
       'Framework' AS target_label, f.slug AS target_key, f.name AS target_name
