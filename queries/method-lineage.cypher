// name: method-lineage
// description: Ancestors and descendants of a method through EXTENDS (up to 10 steps), with what each step changes.
// param: slug STRING = "grpo" -- the method's slug
// returns: direction, method, name, depth, via, change, detail
// graph: nodes=slug:Method,method:Method(name),via:Method edges=via-EXTENDS->method{change,detail}[direction=ancestor],method-EXTENDS->via{change,detail}[direction=descendant]

// Each step's last hop is matched as a pattern (depth 1 apart): testing membership in a path's node list per path was most of the cost.
MATCH (m:Method {slug: $slug})-[e:EXTENDS]->(a:Method)
RETURN 'ancestor' AS direction, a.slug AS method, a.name AS name, 1 AS depth,
       m.slug AS via, e.change AS change, e.detail AS detail
UNION ALL
MATCH p = (m:Method {slug: $slug})-[:EXTENDS*1..9]->(child:Method)-[e:EXTENDS]->(a:Method)
RETURN 'ancestor' AS direction, a.slug AS method, a.name AS name, length(p) AS depth,
       child.slug AS via, e.change AS change, e.detail AS detail
UNION ALL
MATCH (d:Method)-[e:EXTENDS]->(m:Method {slug: $slug})
RETURN 'descendant' AS direction, d.slug AS method, d.name AS name, 1 AS depth,
       m.slug AS via, e.change AS change, e.detail AS detail
UNION ALL
MATCH p = (d:Method)-[e:EXTENDS]->(parent:Method)-[:EXTENDS*1..9]->(m:Method {slug: $slug})
RETURN 'descendant' AS direction, d.slug AS method, d.name AS name, length(p) AS depth,
       parent.slug AS via, e.change AS change, e.detail AS detail
