// name: paper-proposal-implementation
// description: From a paper to the methods it proposes and every framework commit that implements them, with the link's evidence.
// param: arxiv_id STRING = "2402.03300" -- the paper's arXiv id
// returns: paper, title, method, framework, commit, commit_date, days_after_paper, date_precision, rule, confidence
// graph: nodes=paper:Paper(title),method:Method,framework:Framework,commit:Commit edges=paper-PROPOSES->method,commit-IMPLEMENTS->method{rule,confidence},commit-PART_OF->framework
MATCH (p:Paper {arxiv_id: $arxiv_id})-[:PROPOSES]->(m:Method)
OPTIONAL MATCH (m)<-[i:IMPLEMENTS]-(c:Commit)-[:PART_OF]->(f:Framework)
RETURN p.arxiv_id AS paper, p.title AS title, m.slug AS method, f.slug AS framework, c.sha AS commit,
       c.commit_date AS commit_date, c.commit_day - coalesce(p.published_day, p.month_day) AS days_after_paper,
       CASE WHEN p.published_day IS NOT NULL THEN 'day' WHEN p.month_day IS NOT NULL THEN 'month' END AS date_precision,
       i.rule AS rule, i.confidence AS confidence
ORDER BY method, commit_date, commit
