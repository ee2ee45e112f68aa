// name: papers-without-threads
// description: General-method papers that no issue or pull request anywhere cites or names a method of, and whether a framework implements them anyway.
// param: since DATE = "1990-01-01" -- first day of the paper window (first version)
// param: until DATE = "2100-12-31" -- last day of the paper window
// returns: arxiv_id, title, published_date, implemented
// graph: nodes=arxiv_id:Paper(title)
MATCH (p:Paper)
WHERE p.is_general_method = true AND p.published_day >= $since_day AND p.published_day <= $until_day
  AND NOT EXISTS { MATCH (p)<-[:CITES]-() }
  AND NOT EXISTS { MATCH (p)-[:PROPOSES]->(:Method)<-[:NAMES]-() }
RETURN p.arxiv_id AS arxiv_id, p.title AS title, p.published_date AS published_date,
       EXISTS { MATCH (p)-[:PROPOSES]->(:Method)<-[:IMPLEMENTS]-(:Commit) } AS implemented
ORDER BY published_date, arxiv_id
