// name: report-widely-included-methods
// description: Methods implemented in at least N of the chosen frameworks, and how many model technical reports state each.
// param: frameworks STRING[] = [] -- framework slugs; empty for every framework
// param: min_frameworks INT64 = 2 -- implemented in at least this many of them
// returns: method, frameworks, stating_reports
// graph: nodes=method:Method
MATCH (m:Method)<-[:IMPLEMENTS]-(:Commit)-[:PART_OF]->(f:Framework)
WHERE size($frameworks) = 0 OR f.slug IN $frameworks
WITH m, count(DISTINCT f) AS frameworks
WHERE frameworks >= $min_frameworks
RETURN m.slug AS method, frameworks, COUNT { MATCH (m)<-[:STATES_USE_OF]-(:ModelReport) } AS stating_reports
ORDER BY method
