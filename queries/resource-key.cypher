// name: resource-key
// description: The stored key of a method, framework or paper written in any letter case (the API redirects to it).
// param: kind STRING = "method" -- method, framework or paper
// param: key STRING = "GRPO" -- the slug or arXiv id as typed
// returns: key
MATCH (m:Method)
WHERE $kind = 'method' AND toLower(m.slug) = toLower($key)
RETURN m.slug AS key
UNION ALL
MATCH (f:Framework)
WHERE $kind = 'framework' AND toLower(f.slug) = toLower($key)
RETURN f.slug AS key
UNION ALL
MATCH (p:Paper)
WHERE $kind = 'paper' AND toLower(p.arxiv_id) = toLower($key)
RETURN p.arxiv_id AS key
