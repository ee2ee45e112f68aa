// name: framework-remove-rules
// description: Removing a framework a user added: the contribution rules read from its tree.
// param: slug STRING
// returns: removed
MATCH (:Framework {slug: $slug})-[:HAS_RULE]->(r:ContributionRule)
DETACH DELETE r
RETURN count(*) AS removed
