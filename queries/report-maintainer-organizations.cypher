// name: report-maintainer-organizations
// description: The organizations that maintain the chosen frameworks (their papers are set aside in the report's second comparison).
// param: frameworks STRING[] = [] -- framework slugs; empty for every framework
// returns: framework, organization
// graph: nodes=framework:Framework
MATCH (f:Framework)-[:MAINTAINED_BY]->(o:Organization)
WHERE size($frameworks) = 0 OR f.slug IN $frameworks
RETURN f.slug AS framework, o.slug AS organization
ORDER BY framework, organization
