// name: report-general-papers
// description: Study cohort: each general-method paper in the window with its first implementing commit in the chosen frameworks, its screening traits and its thread count.
// param: since DATE = "1990-01-01" -- first day of the paper window (first version)
// param: until DATE = "2100-12-31" -- last day of the paper window
// param: frameworks STRING[] = [] -- framework slugs; empty for every framework
// returns: arxiv_id, published_date, published_day, first_implementation_day, frameworks_reached, max_policy_params_b, changes_existing_loss, code_url, organizations, affiliations, threads
// graph: nodes=arxiv_id:Paper
MATCH (p:Paper)
WHERE p.is_general_method = true AND p.published_day >= $since_day AND p.published_day <= $until_day
OPTIONAL MATCH (p)-[:PROPOSES]->(:Method)<-[:IMPLEMENTS]-(c:Commit)-[:PART_OF]->(f:Framework)
WHERE size($frameworks) = 0 OR f.slug IN $frameworks
WITH p, min(c.commit_day) AS first_day, count(DISTINCT f) AS frameworks_reached
OPTIONAL MATCH (p)-[:AFFILIATED_WITH]->(o:Organization)
WITH p, first_day, frameworks_reached, collect(DISTINCT o.slug) AS affiliations
RETURN p.arxiv_id AS arxiv_id, p.published_date AS published_date, p.published_day AS published_day,
       first_day AS first_implementation_day, frameworks_reached,
       p.max_policy_params_b AS max_policy_params_b, p.changes_existing_loss AS changes_existing_loss,
       p.code_url AS code_url, p.organizations AS organizations, affiliations,
       COUNT { MATCH (p)<-[:CITES]-(t)-[:PART_OF]->(tf:Framework)
               WHERE size($frameworks) = 0 OR tf.slug IN $frameworks }
       + COUNT { MATCH (p)-[:PROPOSES]->(:Method)<-[:NAMES]-(t)-[:PART_OF]->(tf:Framework)
                 WHERE size($frameworks) = 0 OR tf.slug IN $frameworks } AS threads
ORDER BY published_day, arxiv_id
