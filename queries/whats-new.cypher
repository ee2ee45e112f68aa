// name: whats-new
// description: What happened since a day: first implementations of a method in a framework (with the first release that shipped it), failure reports with the commit that fixed them, and issues or pull requests proposing a paper or method. One row per item, newest first.
// param: since DATE = "2026-01-01" -- the first day to report
// returns: kind, date, framework, subject, commit, release, detail
// graph: nodes=framework:Framework,commit:Commit edges=commit-PART_OF->framework
MATCH (m:Method)<-[:IMPLEMENTS]-(c:Commit)
WHERE c.excluded IS NULL
WITH m, c.framework AS framework, min(c.commit_day) AS first_day
WHERE first_day >= $since_day
MATCH (m)<-[:IMPLEMENTS]-(f:Commit)
WHERE f.framework = framework AND f.commit_day = first_day AND f.excluded IS NULL
OPTIONAL MATCH (f)-[:RELEASED_IN]->(r:Release)
WITH m, framework, min(f.sha) AS sha, min(f.commit_date) AS day, min(r.tag) AS tag
RETURN 'first-implementation' AS kind, day AS date, framework, m.slug AS subject, sha AS commit,
       tag AS release, m.name AS detail
UNION ALL
MATCH (x:FailureReport)
WHERE x.reported_day >= $since_day
OPTIONAL MATCH (x)-[:REPORTED_IN]->(:Issue)<-[:FIXES]-(ci:Commit)
OPTIONAL MATCH (x)-[:REPORTED_IN]->(cs:Commit)
WITH x, coalesce(min(ci.sha), min(cs.sha)) AS sha
OPTIONAL MATCH (fix:Commit {sha: sha})-[:RELEASED_IN]->(r:Release)
RETURN 'failure' AS kind, x.reported_date AS date, x.framework AS framework, x.id AS subject, sha AS commit,
       min(r.tag) AS release, x.symptom AS detail
UNION ALL
MATCH (t:Issue)-[:CITES|NAMES]->(target)
WHERE t.created_day >= $since_day
RETURN 'proposal' AS kind, t.created_date AS date, t.framework AS framework, t.id AS subject,
       CASE WHEN false THEN '' END AS commit, CASE WHEN false THEN '' END AS release,
       min(coalesce(target.slug, target.arxiv_id)) AS detail
UNION ALL
MATCH (t:PullRequest)-[:CITES|NAMES]->(target)
WHERE coalesce(t.created_day, t.merged_day) >= $since_day
RETURN 'proposal' AS kind, coalesce(t.created_date, t.merged_date) AS date, t.framework AS framework,
       t.id AS subject, t.merge_commit_sha AS commit, CASE WHEN false THEN '' END AS release,
       min(coalesce(target.slug, target.arxiv_id)) AS detail
ORDER BY date DESC, kind, framework, subject
