// name: resource-framework-graph
// description: A framework's neighbourhood as drawable edges: maintaining organizations, contribution rules, methods the catalog says it supports (SUPPORTS) and methods its commits implement (IMPLEMENTS, drawn from framework to method).
// param: slug STRING = "trl" -- the framework's slug
// returns: source_label, source_key, source_name, type, target_label, target_key, target_name
// graph: edge-rows
MATCH (f:Framework {slug: $slug})-[:MAINTAINED_BY]->(o:Organization)
RETURN 'Framework' AS source_label, f.slug AS source_key, f.name AS source_name, 'MAINTAINED_BY' AS type,
       'Organization' AS target_label, o.slug AS target_key, o.name AS target_name
UNION ALL
MATCH (f:Framework {slug: $slug})-[:HAS_RULE]->(r:ContributionRule)
RETURN 'Framework' AS source_label, f.slug AS source_key, f.name AS source_name, 'HAS_RULE' AS type,
       'ContributionRule' AS target_label, r.id AS target_key, r.kind AS target_name
UNION ALL
MATCH (f:Framework {slug: $slug})-[:SUPPORTS]->(m:Method)
RETURN 'Framework' AS source_label, f.slug AS source_key, f.name AS source_name, 'SUPPORTS' AS type,
       'Method' AS target_label, m.slug AS target_key, m.name AS target_name
UNION ALL
MATCH (c:Commit)-[:IMPLEMENTS]->(m:Method)
WHERE c.framework = $slug AND c.excluded IS NULL
WITH DISTINCT c.framework AS framework, m
MATCH (f:Framework)
WHERE f.slug = framework
RETURN 'Framework' AS source_label, f.slug AS source_key, f.name AS source_name, 'IMPLEMENTS' AS type,
       'Method' AS target_label, m.slug AS target_key, m.name AS target_name
