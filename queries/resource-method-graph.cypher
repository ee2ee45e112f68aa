// name: resource-method-graph
// description: A method's neighbourhood as drawable edges: proposing papers, parent and child methods, frameworks the catalog says support it (SUPPORTS) and those whose commits implement it (IMPLEMENTS, drawn from framework to method), model reports stating it, failures affecting it.
// param: slug STRING = "grpo" -- the method's slug
// returns: source_label, source_key, source_name, type, target_label, target_key, target_name
// graph: edge-rows
MATCH (p:Paper)-[:PROPOSES]->(m:Method {slug: $slug})
RETURN 'Paper' AS source_label, p.arxiv_id AS source_key, p.title AS source_name, 'PROPOSES' AS type,
       'Method' AS target_label, m.slug AS target_key, m.name AS target_name
UNION ALL
MATCH (m:Method {slug: $slug})-[:EXTENDS]->(b:Method)
RETURN 'Method' AS source_label, m.slug AS source_key, m.name AS source_name, 'EXTENDS' AS type,
       'Method' AS target_label, b.slug AS target_key, b.name AS target_name
UNION ALL
MATCH (d:Method)-[:EXTENDS]->(m:Method {slug: $slug})
RETURN 'Method' AS source_label, d.slug AS source_key, d.name AS source_name, 'EXTENDS' AS type,
       'Method' AS target_label, m.slug AS target_key, m.name AS target_name
UNION ALL
MATCH (f:Framework)-[:SUPPORTS]->(m:Method {slug: $slug})
RETURN 'Framework' AS source_label, f.slug AS source_key, f.name AS source_name, 'SUPPORTS' AS type,
       'Method' AS target_label, m.slug AS target_key, m.name AS target_name
UNION ALL
MATCH (r:ModelReport)-[:STATES_USE_OF]->(m:Method {slug: $slug})
RETURN 'ModelReport' AS source_label, r.arxiv_id AS source_key, r.title AS source_name, 'STATES_USE_OF' AS type,
       'Method' AS target_label, m.slug AS target_key, m.name AS target_name
UNION ALL
MATCH (x:FailureReport)-[:AFFECTS]->(m:Method {slug: $slug})
RETURN 'FailureReport' AS source_label, x.id AS source_key, x.symptom AS source_name, 'AFFECTS' AS type,
       'Method' AS target_label, m.slug AS target_key, m.name AS target_name
UNION ALL
MATCH (c:Commit)-[:IMPLEMENTS]->(m:Method {slug: $slug})
WHERE c.excluded IS NULL
WITH DISTINCT c.framework AS framework, m
MATCH (f:Framework)
WHERE f.slug = framework
RETURN 'Framework' AS source_label, f.slug AS source_key, f.name AS source_name, 'IMPLEMENTS' AS type,
       'Method' AS target_label, m.slug AS target_key, m.name AS target_name
