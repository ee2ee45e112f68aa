// name: unanswered-proposals
// description: Open issues and pull requests that cite a paper or name a method and that no maintainer (owner, member or collaborator) has replied to, oldest first.
// param: framework STRING = "" -- the framework's slug; empty for every framework
// returns: kind, thread, framework, title, created_date, comments, cites, names
// graph: nodes=framework:Framework
MATCH (t:Issue)
WHERE ($framework = '' OR t.framework = $framework) AND t.state = 'open' AND t.first_maintainer_reply_day IS NULL
  AND (EXISTS { MATCH (t)-[:CITES]->(:Paper) } OR EXISTS { MATCH (t)-[:NAMES]->(:Method) })
OPTIONAL MATCH (t)-[:CITES]->(p:Paper)
OPTIONAL MATCH (t)-[:NAMES]->(m:Method)
WITH t, collect(DISTINCT p.arxiv_id) AS cites, collect(DISTINCT m.slug) AS names
RETURN 'issue' AS kind, t.id AS thread, t.framework AS framework, t.title AS title, t.created_date AS created_date,
       t.comments AS comments, cites, names
ORDER BY created_date, thread
UNION ALL
MATCH (t:PullRequest)
WHERE ($framework = '' OR t.framework = $framework) AND t.state = 'open' AND t.first_maintainer_reply_day IS NULL
  AND (EXISTS { MATCH (t)-[:CITES]->(:Paper) } OR EXISTS { MATCH (t)-[:NAMES]->(:Method) })
OPTIONAL MATCH (t)-[:CITES]->(p:Paper)
OPTIONAL MATCH (t)-[:NAMES]->(m:Method)
WITH t, collect(DISTINCT p.arxiv_id) AS cites, collect(DISTINCT m.slug) AS names
RETURN 'pull-request' AS kind, t.id AS thread, t.framework AS framework, t.title AS title,
       t.created_date AS created_date, t.comments AS comments, cites, names
ORDER BY created_date, thread
