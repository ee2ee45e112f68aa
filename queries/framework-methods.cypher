// name: framework-methods
// description: Every catalog method a framework implements, with its first implementing commit, pull request, first release and the days from the method's paper to that commit (from the paper's month where only its arXiv id dates it: date_precision says day or month); the implementation kind says whether that commit changed package code or only a runnable recipe.
// param: framework STRING = "trl" -- the framework's slug
// param: include_vendored BOOL = false -- also count implementations found in another framework's copied tree
// returns: method, name, arxiv_id, commit, commit_date, pr_number, release, release_date, days_after_paper, date_precision, evidence, identifier, rule, implementation, vendored
// graph: nodes=framework:Framework,method:Method(name),arxiv_id:Paper,commit:Commit edges=arxiv_id-PROPOSES->method,commit-IMPLEMENTS->method{location=evidence,identifier,rule},commit-PART_OF->framework
MATCH (c:Commit)-[i0:IMPLEMENTS|VENDORS]->(m:Method)
WHERE c.framework = $framework AND c.excluded IS NULL AND ($include_vendored OR i0.vendored IS NULL)
WITH m, min(c.commit_ts) AS first_ts
MATCH (f:Commit)-[i:IMPLEMENTS|VENDORS]->(m)
WHERE f.framework = $framework AND f.commit_ts = first_ts AND f.excluded IS NULL
  AND ($include_vendored OR i.vendored IS NULL)
OPTIONAL MATCH (f)-[:RELEASED_IN]->(r:Release)
OPTIONAL MATCH (p:Paper)
WHERE p.arxiv_id = m.arxiv_id
RETURN m.slug AS method, m.name AS name, m.arxiv_id AS arxiv_id, f.sha AS commit, f.commit_date AS commit_date,
       f.pr_number AS pr_number, r.tag AS release, r.release_date AS release_date,
       f.commit_day - coalesce(p.published_day, p.month_day) AS days_after_paper,
       CASE WHEN p.published_day IS NOT NULL THEN 'day' WHEN p.month_day IS NOT NULL THEN 'month' END AS date_precision,
       i.location AS evidence, i.identifier AS identifier, i.rule AS rule,
       coalesce(i.implementation, "code") AS implementation, coalesce(i.vendored, false) AS vendored
ORDER BY commit_date, method
