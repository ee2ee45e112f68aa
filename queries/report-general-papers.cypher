// name: report-general-papers
// description: Study cohort: each general-method paper in the window with its first implementing commit in the chosen frameworks, its screening traits and its thread count. A paper dated only by its arXiv id counts from the first day of that month (date_precision = month).
// param: since DATE = "1990-01-01" -- first day of the paper window (first version)
// param: until DATE = "2100-12-31" -- last day of the paper window
// param: frameworks STRING[] = [] -- framework slugs; empty for every framework
// returns: arxiv_id, published_date, published_day, date_precision, screened_on, first_implementation_day, frameworks_reached, max_policy_params_b, changes_existing_loss, code_url, organizations, affiliations, threads
// graph: nodes=arxiv_id:Paper
MATCH (p:Paper)
WITH p, coalesce(p.published_day, p.month_day) AS paper_day
WHERE p.is_general_method = true AND paper_day >= $since_day AND paper_day <= $until_day
OPTIONAL MATCH (p)-[:PROPOSES]->(:Method)<-[:IMPLEMENTS]-(c:Commit)-[:PART_OF]->(f:Framework)
WHERE size($frameworks) = 0 OR f.slug IN $frameworks
WITH p, paper_day, min(c.commit_day) AS first_day, count(DISTINCT f) AS frameworks_reached
OPTIONAL MATCH (p)-[:AFFILIATED_WITH]->(o:Organization)
WITH p, paper_day, first_day, frameworks_reached, collect(DISTINCT o.slug) AS affiliations
RETURN p.arxiv_id AS arxiv_id, coalesce(p.published_date, p.month_date) AS published_date, paper_day AS published_day,
       CASE WHEN p.published_day IS NOT NULL THEN 'day' ELSE 'month' END AS date_precision, p.screened_on AS screened_on,
       first_day AS first_implementation_day, frameworks_reached,
       p.max_policy_params_b AS max_policy_params_b, p.changes_existing_loss AS changes_existing_loss,
       p.code_url AS code_url, p.organizations AS organizations, affiliations,
       COUNT { MATCH (p)<-[:CITES]-(t)-[:PART_OF]->(tf:Framework)
               WHERE size($frameworks) = 0 OR tf.slug IN $frameworks }
       + COUNT { MATCH (p)-[:PROPOSES]->(:Method)<-[:NAMES]-(t)-[:PART_OF]->(tf:Framework)
                 WHERE size($frameworks) = 0 OR tf.slug IN $frameworks } AS threads
ORDER BY published_day, arxiv_id
