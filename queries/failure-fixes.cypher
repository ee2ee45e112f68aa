// name: failure-fixes
// description: Training failures reported in issues (the commit that fixed each, with the evidence of the link) or stated by the commit that fixed them, the methods that commit implements, its pull request, and the first release that shipped the fix.
// param: framework STRING = "" -- the framework's slug; empty for every framework
// param: symptom STRING = "" -- nan-loss, kl-blowup, entropy-collapse, reward-collapse, oom, hang, divergence, throughput-regression, accuracy-regression, wrong-after-upgrade; empty for all
// param: method STRING = "" -- only failures naming this method or fixed by a commit implementing it; empty for all
// returns: failure, symptom, framework, issue, issue_title, reported_date, method, fix_commit, fix_subject, fix_pr, fix_rule, fix_confidence, fix_location, implements, release, release_date, days_to_release
// graph: nodes=failure:FailureReport,framework:Framework,issue:Issue(issue_title),method:Method,fix_commit:Commit(fix_subject),fix_pr:PullRequest edges=issue-PART_OF->framework,failure-REPORTED_IN->issue,failure-AFFECTS->method,fix_commit-PART_OF->framework,fix_commit-FIXES->issue{rule=fix_rule,confidence=fix_confidence,location=fix_location},fix_pr-MERGED_AS->fix_commit
MATCH (x:FailureReport)-[:REPORTED_IN]->(i:Issue)<-[fx:FIXES]-(c:Commit)
WHERE ($framework = '' OR x.framework = $framework) AND ($symptom = '' OR x.symptom = $symptom)
OPTIONAL MATCH (x)-[:AFFECTS]->(am:Method)
OPTIONAL MATCH (c)-[:IMPLEMENTS]->(im:Method)
OPTIONAL MATCH (c)-[:RELEASED_IN]->(r:Release)
WITH x, i, fx, c, am, collect(DISTINCT im.slug) AS implements, min(r.release_day) AS release_day
WHERE $method = '' OR am.slug = $method OR $method IN implements
OPTIONAL MATCH (c)-[:RELEASED_IN]->(first:Release)
WHERE first.release_day = release_day
OPTIONAL MATCH (pr:PullRequest)-[:MERGED_AS]->(c)
RETURN x.id AS failure, x.symptom AS symptom, x.framework AS framework, i.id AS issue, i.title AS issue_title,
       x.reported_date AS reported_date, am.slug AS method, c.sha AS fix_commit, coalesce(c.subject, pr.title) AS fix_subject,
       pr.id AS fix_pr, fx.rule AS fix_rule, fx.confidence AS fix_confidence, fx.location AS fix_location,
       implements, first.tag AS release, first.release_date AS release_date,
       release_day - x.reported_day AS days_to_release
UNION ALL
MATCH (x:FailureReport)-[fx:REPORTED_IN]->(c:Commit)
WHERE ($framework = '' OR x.framework = $framework) AND ($symptom = '' OR x.symptom = $symptom)
OPTIONAL MATCH (x)-[:AFFECTS]->(am:Method)
OPTIONAL MATCH (c)-[:IMPLEMENTS]->(im:Method)
OPTIONAL MATCH (c)-[:RELEASED_IN]->(r:Release)
WITH x, fx, c, am, collect(DISTINCT im.slug) AS implements, min(r.release_day) AS release_day
WHERE $method = '' OR am.slug = $method OR $method IN implements
OPTIONAL MATCH (c)-[:RELEASED_IN]->(first:Release)
WHERE first.release_day = release_day
OPTIONAL MATCH (pr:PullRequest)-[:MERGED_AS]->(c)
RETURN x.id AS failure, x.symptom AS symptom, x.framework AS framework, CASE WHEN false THEN '' END AS issue,
       CASE WHEN false THEN '' END AS issue_title,
       x.reported_date AS reported_date, am.slug AS method, c.sha AS fix_commit, coalesce(c.subject, pr.title) AS fix_subject,
       pr.id AS fix_pr, 'failure-stated-by-fix' AS fix_rule, x.confidence AS fix_confidence, x.location AS fix_location,
       implements, first.tag AS release, first.release_date AS release_date,
       release_day - x.reported_day AS days_to_release
ORDER BY reported_date, failure, fix_commit
