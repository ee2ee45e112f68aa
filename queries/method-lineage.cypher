// name: method-lineage
// description: Ancestors and descendants of a method through EXTENDS (up to 10 steps), with what each step changes.
// param: slug STRING = "grpo" -- the method's slug
// returns: direction, method, name, depth, via, change, detail
// graph: nodes=slug:Method,method:Method(name),via:Method edges=via-EXTENDS->method{change,detail}[direction=ancestor],method-EXTENDS->via{change,detail}[direction=descendant]
MATCH p = (m:Method {slug: $slug})-[:EXTENDS*1..10]->(a:Method)
MATCH (a)<-[e:EXTENDS]-(child:Method)
WHERE child IN nodes(p)
RETURN 'ancestor' AS direction, a.slug AS method, a.name AS name, length(p) AS depth,
       child.slug AS via, e.change AS change, e.detail AS detail
UNION ALL
MATCH p = (d:Method)-[:EXTENDS*1..10]->(m:Method {slug: $slug})
MATCH (d)-[e:EXTENDS]->(parent:Method)
WHERE parent IN nodes(p)
RETURN 'descendant' AS direction, d.slug AS method, d.name AS name, length(p) AS depth,
       parent.slug AS via, e.change AS change, e.detail AS detail
