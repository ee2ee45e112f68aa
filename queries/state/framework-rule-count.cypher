// name: framework-rule-count
// description: Internal state for `uptake update`: how many contribution rules are stored for one framework.
// param: slug STRING
// returns: rules
MATCH (f:Framework {slug: $slug})
OPTIONAL MATCH (f)-[:HAS_RULE]->(r:ContributionRule)
RETURN count(r) AS rules
