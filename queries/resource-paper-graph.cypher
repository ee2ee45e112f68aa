// name: resource-paper-graph
// description: A paper's neighbourhood as drawable edges: methods it proposes, frameworks the catalog says support them (SUPPORTS) and those whose commits implement them (IMPLEMENTS), organizations, citing threads, mentioning commits.
// param: arxiv_id STRING = "2402.03300" -- the paper's arXiv id
// returns: source_label, source_key, source_name, type, target_label, target_key, target_name
// graph: edge-rows
MATCH (p:Paper {arxiv_id: $arxiv_id})-[:PROPOSES]->(m:Method)
RETURN 'Paper' AS source_label, p.arxiv_id AS source_key, p.title AS source_name, 'PROPOSES' AS type,
       'Method' AS target_label, m.slug AS target_key, m.name AS target_name
UNION ALL
MATCH (p:Paper {arxiv_id: $arxiv_id})-[:PROPOSES]->(m:Method)<-[:SUPPORTS]-(f:Framework)
RETURN 'Framework' AS source_label, f.slug AS source_key, f.name AS source_name, 'SUPPORTS' AS type,
       'Method' AS target_label, m.slug AS target_key, m.name AS target_name
UNION ALL
MATCH (p:Paper {arxiv_id: $arxiv_id})-[:AFFILIATED_WITH]->(o:Organization)
RETURN 'Paper' AS source_label, p.arxiv_id AS source_key, p.title AS source_name, 'AFFILIATED_WITH' AS type,
       'Organization' AS target_label, o.slug AS target_key, o.name AS target_name
UNION ALL
MATCH (p:Paper {arxiv_id: $arxiv_id})<-[:CITES]-(t:Issue)
RETURN 'Issue' AS source_label, t.id AS source_key, t.title AS source_name, 'CITES' AS type,
       'Paper' AS target_label, p.arxiv_id AS target_key, p.title AS target_name
UNION ALL
MATCH (p:Paper {arxiv_id: $arxiv_id})<-[:CITES]-(t:PullRequest)
RETURN 'PullRequest' AS source_label, t.id AS source_key, t.title AS source_name, 'CITES' AS type,
       'Paper' AS target_label, p.arxiv_id AS target_key, p.title AS target_name
UNION ALL
MATCH (p:Paper {arxiv_id: $arxiv_id})<-[:MENTIONS]-(c:Commit)
RETURN 'Commit' AS source_label, c.sha AS source_key, c.subject AS source_name, 'MENTIONS' AS type,
       'Paper' AS target_label, p.arxiv_id AS target_key, p.title AS target_name
UNION ALL
MATCH (p:Paper {arxiv_id: $arxiv_id})-[:PROPOSES]->(m:Method)<-[:IMPLEMENTS]-(c:Commit)
WHERE c.excluded IS NULL
WITH DISTINCT c.framework AS framework, m
MATCH (f:Framework)
WHERE f.slug = framework
RETURN 'Framework' AS source_label, f.slug AS source_key, f.name AS source_name, 'IMPLEMENTS' AS type,
       'Method' AS target_label, m.slug AS target_key, m.name AS target_name
