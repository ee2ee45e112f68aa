// name: resource-methods
// description: Every method with the paper proposing it and how many frameworks support it (the API's /methods list).
// returns: slug, name, family, arxiv_id, frameworks
// graph: nodes=slug:Method(name)
MATCH (m:Method)
RETURN m.slug AS slug, m.name AS name, m.family AS family, m.arxiv_id AS arxiv_id,
       COUNT { MATCH (m)<-[:SUPPORTS]-(:Framework) } AS frameworks
ORDER BY slug
