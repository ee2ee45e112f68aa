// name: explore-commit-summary
// description: Framework, date and first release of the given commits, so the explorer can draw a framework's commits as one box (its first commit, date, release and "+N more").
// param: shas STRING[] = ["0f5ffad26e96d1a0eef568be91da956e81b4a11b"] -- the commits' shas
// returns: sha, framework, commit_date, commit_ts, release
// graph: nodes=sha:Commit
MATCH (c:Commit)
WHERE c.sha IN $shas
OPTIONAL MATCH (c)-[:RELEASED_IN]->(r:Release)
RETURN c.sha AS sha, c.framework AS framework, c.commit_date AS commit_date, c.commit_ts AS commit_ts,
       min(r.tag) AS release
