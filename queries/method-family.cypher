// name: method-family
// description: A method's family tree as nodes and relationships (each EXTENDS step among its ancestors and descendants, up to 10 steps away), for views that draw graphs such as Neo4j Browser.
// param: slug STRING = "grpo" -- the method's slug
// returns: child, extends, parent
// graph: values=child,extends,parent
MATCH (m:Method {slug: $slug})-[:EXTENDS*0..10]->(child:Method)-[extends:EXTENDS]->(parent:Method)
RETURN child, extends, parent
UNION
MATCH (child:Method)-[extends:EXTENDS]->(parent:Method)-[:EXTENDS*0..10]->(m:Method {slug: $slug})
RETURN child, extends, parent
