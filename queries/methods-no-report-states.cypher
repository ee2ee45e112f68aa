// name: methods-no-report-states
// description: Methods implemented in at least N frameworks that no model technical report states it used.
// param: min_frameworks INT64 = 2 -- implemented in at least this many frameworks
// returns: method, name, frameworks
// graph: nodes=method:Method(name)
MATCH (m:Method)<-[:IMPLEMENTS]-(:Commit)-[:PART_OF]->(f:Framework)
WITH m, count(DISTINCT f) AS frameworks
WHERE frameworks >= $min_frameworks AND NOT EXISTS { MATCH (m)<-[:STATES_USE_OF]-(:ModelReport) }
RETURN m.slug AS method, m.name AS name, frameworks
ORDER BY frameworks DESC, method
