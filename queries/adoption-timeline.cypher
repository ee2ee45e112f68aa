// name: adoption-timeline
// description: When each framework first implemented one method: first commit, number of implementing commits, days after the paper (from its month where only its arXiv id dates it; date_precision says which).
// param: slug STRING = "grpo" -- the method's slug
// returns: framework, first_commit_date, first_commit, commits, days_after_paper, date_precision
// graph: nodes=slug:Method,framework:Framework,first_commit:Commit edges=first_commit-IMPLEMENTS->slug,first_commit-PART_OF->framework
MATCH (m:Method {slug: $slug})<-[:IMPLEMENTS]-(c:Commit)-[:PART_OF]->(f:Framework)
WITH m, f, min(c.commit_day) AS first_day, count(DISTINCT c) AS commits
MATCH (m)<-[:IMPLEMENTS]-(c:Commit)-[:PART_OF]->(f)
WHERE c.commit_day = first_day
WITH m, f, first_day, commits, min(c.sha) AS first_commit, min(c.commit_date) AS first_commit_date
OPTIONAL MATCH (p:Paper)-[:PROPOSES]->(m)
WITH f, first_day, commits, first_commit, first_commit_date, min(p.published_day) AS exact_day,
     min(p.month_day) AS month_day
RETURN f.slug AS framework, first_commit_date, first_commit, commits, first_day - coalesce(exact_day, month_day) AS days_after_paper,
       CASE WHEN exact_day IS NOT NULL THEN 'day' WHEN month_day IS NOT NULL THEN 'month' END AS date_precision
ORDER BY first_commit_date, framework
