// name: framework-remove-reports
// description: Removing a framework a user added: the failure reports read from its issues, before the issues go.
// param: slug STRING
// returns: removed
MATCH (r:FailureReport)-[:REPORTED_IN]->(:Issue)-[:PART_OF]->(:Framework {slug: $slug})
DETACH DELETE r
RETURN count(*) AS removed
