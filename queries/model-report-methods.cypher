// name: model-report-methods
// description: The methods each model technical report states it used, and in how many frameworks each is implemented.
// param: report STRING = "" -- a report's arXiv id; empty for every report
// returns: report, title, model_family, method, frameworks, location
// graph: nodes=report:ModelReport(title),method:Method edges=report-STATES_USE_OF->method{location}
MATCH (r:ModelReport)-[s:STATES_USE_OF]->(m:Method)
WHERE $report = '' OR r.arxiv_id = $report
OPTIONAL MATCH (m)<-[:IMPLEMENTS]-(:Commit)-[:PART_OF]->(f:Framework)
RETURN r.arxiv_id AS report, r.title AS title, r.model_family AS model_family, m.slug AS method,
       count(DISTINCT f) AS frameworks, s.location AS location
ORDER BY report, method
