// name: paper-implementations
// description: For a paper, the first commit in each framework that implements a method it proposes, with its pull request, first release and the days from the paper to the commit (from the paper's month where only its arXiv id dates it: date_precision says day or month).
// param: arxiv_id STRING = "2402.03300" -- the paper's arXiv id (no version)
// param: include_vendored BOOL = false -- also count implementations found in another framework's copied tree
// returns: framework, method, commit, commit_date, pr_number, release, release_date, days_after_paper, date_precision, evidence, identifier, rule, confidence
// graph: nodes=arxiv_id:Paper,framework:Framework,method:Method,commit:Commit edges=arxiv_id-PROPOSES->method,commit-IMPLEMENTS->method{location=evidence,identifier,rule,confidence},commit-PART_OF->framework
MATCH (m:Method)
WHERE m.arxiv_id = $arxiv_id
MATCH (c:Commit)-[i0:IMPLEMENTS|VENDORS]->(m)
WHERE c.excluded IS NULL AND ($include_vendored OR i0.vendored IS NULL)
WITH m, c.framework AS framework, min(c.commit_ts) AS first_ts
MATCH (f:Commit)-[i:IMPLEMENTS|VENDORS]->(m)
WHERE f.framework = framework AND f.commit_ts = first_ts AND f.excluded IS NULL
  AND ($include_vendored OR i.vendored IS NULL)
OPTIONAL MATCH (f)-[:RELEASED_IN]->(r:Release)
OPTIONAL MATCH (p:Paper)
WHERE p.arxiv_id = $arxiv_id
RETURN framework, m.slug AS method, f.sha AS commit, f.commit_date AS commit_date, f.pr_number AS pr_number,
       r.tag AS release, r.release_date AS release_date, f.commit_day - coalesce(p.published_day, p.month_day) AS days_after_paper,
       CASE WHEN p.published_day IS NOT NULL THEN 'day' WHEN p.month_day IS NOT NULL THEN 'month' END AS date_precision,
       i.location AS evidence, i.identifier AS identifier, i.rule AS rule, i.confidence AS confidence
ORDER BY commit_date, framework, method
