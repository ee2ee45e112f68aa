// name: framework-remove-node
// description: Removing a framework a user added: the Framework node itself, last, with its remaining relationships.
// param: slug STRING
// returns: removed
MATCH (f:Framework {slug: $slug})
DETACH DELETE f
RETURN count(*) AS removed
