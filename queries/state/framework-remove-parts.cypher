// name: framework-remove-parts
// description: Removing a framework a user added: its commits, releases, issues and pull requests, with their links.
// param: slug STRING
// returns: removed
MATCH (x)-[:PART_OF]->(:Framework {slug: $slug})
DETACH DELETE x
RETURN count(*) AS removed
