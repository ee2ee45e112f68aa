// name: resource-frameworks
// description: Every framework with its repository and how many methods it supports (the API's /frameworks list).
// returns: slug, name, repo, methods
// graph: nodes=slug:Framework(name)
MATCH (f:Framework)
RETURN f.slug AS slug, f.name AS name, f.repo AS repo, COUNT { MATCH (f)-[:SUPPORTS]->(:Method) } AS methods
ORDER BY slug
