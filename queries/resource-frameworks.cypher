// name: resource-frameworks
// description: Every framework with its repository and its methods two ways (the API's /frameworks list): `methods` with mined evidence (a commit IMPLEMENTS it; the rows of framework-methods), `claimed` by the catalog (SUPPORTS), and how many of each the other lacks.
// returns: slug, name, repo, methods, claimed, agreed, evidence_only, claim_only
// graph: nodes=slug:Framework(name)
MATCH (f:Framework)
OPTIONAL MATCH (c:Commit)-[i:IMPLEMENTS]->(m:Method)
WHERE c.framework = f.slug AND c.excluded IS NULL
WITH f, collect(DISTINCT m.slug) AS implemented
OPTIONAL MATCH (f)-[:SUPPORTS]->(s:Method)
WITH f, size(implemented) AS methods, count(DISTINCT s.slug) AS claimed,
     count(DISTINCT CASE WHEN s.slug IN implemented THEN s.slug END) AS agreed
RETURN f.slug AS slug, f.name AS name, f.repo AS repo, methods, claimed, agreed,
       methods - agreed AS evidence_only, claimed - agreed AS claim_only
ORDER BY slug
