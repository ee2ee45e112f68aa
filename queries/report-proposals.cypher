// name: report-proposals
// description: Issues and pull requests in the chosen frameworks that cite a general-method paper of the window or name its method, and whether a maintainer replied (reply_known is false for a pull request known only from its merge commit).
// param: since DATE = "1990-01-01" -- first day of the paper window (first version)
// param: until DATE = "2100-12-31" -- last day of the paper window
// param: frameworks STRING[] = [] -- framework slugs; empty for every framework
// returns: thread, framework, answered, reply_known
// graph: nodes=framework:Framework
MATCH (p:Paper)<-[:CITES]-(t)-[:PART_OF]->(f:Framework)
WHERE p.is_general_method = true AND coalesce(p.published_day, p.month_day) >= $since_day
  AND coalesce(p.published_day, p.month_day) <= $until_day AND (size($frameworks) = 0 OR f.slug IN $frameworks)
RETURN t.id AS thread, f.slug AS framework, t.first_maintainer_reply_date IS NOT NULL AS answered,
       coalesce(t.source_kind, '') <> 'git' AS reply_known
UNION
MATCH (p:Paper)-[:PROPOSES]->(:Method)<-[:NAMES]-(t)-[:PART_OF]->(f:Framework)
WHERE p.is_general_method = true AND coalesce(p.published_day, p.month_day) >= $since_day
  AND coalesce(p.published_day, p.month_day) <= $until_day AND (size($frameworks) = 0 OR f.slug IN $frameworks)
RETURN t.id AS thread, f.slug AS framework, t.first_maintainer_reply_date IS NOT NULL AS answered,
       coalesce(t.source_kind, '') <> 'git' AS reply_known
