// name: lineage-adoption
// description: For a method and every method in its family tree (ancestors and descendants through EXTENDS, up to 10 steps), when each framework first implemented it: first commit, number of implementing commits, days after the paper (from its month where only its arXiv id dates it; date_precision says which).
// param: slug STRING = "grpo" -- the method's slug
// returns: method, framework, first_commit_date, first_commit, commits, days_after_paper, date_precision
// graph: nodes=method:Method,framework:Framework,first_commit:Commit edges=first_commit-IMPLEMENTS->method,first_commit-PART_OF->framework
MATCH (m:Method {slug: $slug})
OPTIONAL MATCH (m)-[:EXTENDS*1..10]->(a:Method)
WITH m, collect(DISTINCT a.slug) AS ancestors
OPTIONAL MATCH (d:Method)-[:EXTENDS*1..10]->(m)
WITH m, ancestors, collect(DISTINCT d.slug) AS descendants
MATCH (x:Method)<-[:IMPLEMENTS]-(c:Commit)-[:PART_OF]->(f:Framework)
WHERE x.slug = m.slug OR x.slug IN ancestors OR x.slug IN descendants
WITH x, f, min(c.commit_day) AS first_day, count(DISTINCT c) AS commits
MATCH (x)<-[:IMPLEMENTS]-(c:Commit)-[:PART_OF]->(f)
WHERE c.commit_day = first_day
WITH x, f, first_day, commits, min(c.sha) AS first_commit, min(c.commit_date) AS first_commit_date
OPTIONAL MATCH (p:Paper)-[:PROPOSES]->(x)
WITH x, f, first_day, commits, first_commit, first_commit_date, min(p.published_day) AS exact_day,
     min(p.month_day) AS month_day
RETURN x.slug AS method, f.slug AS framework, first_commit_date, first_commit, commits,
       first_day - coalesce(exact_day, month_day) AS days_after_paper,
       CASE WHEN exact_day IS NOT NULL THEN 'day' WHEN month_day IS NOT NULL THEN 'month' END AS date_precision
ORDER BY method, first_commit_date, framework
