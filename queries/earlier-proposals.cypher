// name: earlier-proposals
// description: Issues and pull requests of a framework that cite a paper or name a method before you propose it, with their status, comments and whether and when a maintainer replied (unknown, null, for a pull request known only from its merge commit).
// param: framework STRING = "trl" -- the framework's slug; empty for every framework
// param: method STRING = "" -- a method's slug; also matches threads citing its paper
// param: paper STRING = "" -- an arXiv id; also matches threads naming its method; with method empty too, every proposal
// returns: kind, thread, framework, title, state, created_date, closed_date, merged_date, comments, answered, first_reply_date, days_to_reply, labels, via, identifier, location, rule, confidence
// graph: nodes=framework:Framework
MATCH (t:Issue)-[e:CITES]->(p:Paper)
WHERE ($framework = '' OR t.framework = $framework)
  AND (($method = '' AND $paper = '') OR p.arxiv_id = $paper
       OR EXISTS { MATCH (m:Method) WHERE m.slug = $method AND m.arxiv_id = p.arxiv_id }
       OR EXISTS { MATCH (p)-[:PROPOSES]->(m:Method) WHERE m.slug = $method })
RETURN 'issue' AS kind, t.id AS thread, t.framework AS framework, t.title AS title, t.state AS state,
       t.created_date AS created_date, t.closed_date AS closed_date, CASE WHEN false THEN t.created_date END AS merged_date,
       t.comments AS comments, CASE WHEN t.source_kind = 'git' THEN NULL ELSE t.first_maintainer_reply_day IS NOT NULL END AS answered,
       t.first_maintainer_reply_date AS first_reply_date, t.first_maintainer_reply_day - t.created_day AS days_to_reply,
       t.labels AS labels, 'cites ' + p.arxiv_id AS via, e.identifier AS identifier, e.location AS location,
       e.rule AS rule, e.confidence AS confidence
UNION ALL
MATCH (t:PullRequest)-[e:CITES]->(p:Paper)
WHERE ($framework = '' OR t.framework = $framework)
  AND (($method = '' AND $paper = '') OR p.arxiv_id = $paper
       OR EXISTS { MATCH (m:Method) WHERE m.slug = $method AND m.arxiv_id = p.arxiv_id }
       OR EXISTS { MATCH (p)-[:PROPOSES]->(m:Method) WHERE m.slug = $method })
RETURN 'pull-request' AS kind, t.id AS thread, t.framework AS framework, t.title AS title, t.state AS state,
       t.created_date AS created_date, t.closed_date AS closed_date, t.merged_date AS merged_date,
       t.comments AS comments, CASE WHEN t.source_kind = 'git' THEN NULL ELSE t.first_maintainer_reply_day IS NOT NULL END AS answered,
       t.first_maintainer_reply_date AS first_reply_date, t.first_maintainer_reply_day - t.created_day AS days_to_reply,
       t.labels AS labels, 'cites ' + p.arxiv_id AS via, e.identifier AS identifier, e.location AS location,
       e.rule AS rule, e.confidence AS confidence
UNION ALL
MATCH (t:Issue)-[e:NAMES]->(m:Method)
WHERE ($framework = '' OR t.framework = $framework)
  AND (($method = '' AND $paper = '') OR m.slug = $method OR m.arxiv_id = $paper
       OR EXISTS { MATCH (p:Paper)-[:PROPOSES]->(m) WHERE p.arxiv_id = $paper })
RETURN 'issue' AS kind, t.id AS thread, t.framework AS framework, t.title AS title, t.state AS state,
       t.created_date AS created_date, t.closed_date AS closed_date, CASE WHEN false THEN t.created_date END AS merged_date,
       t.comments AS comments, CASE WHEN t.source_kind = 'git' THEN NULL ELSE t.first_maintainer_reply_day IS NOT NULL END AS answered,
       t.first_maintainer_reply_date AS first_reply_date, t.first_maintainer_reply_day - t.created_day AS days_to_reply,
       t.labels AS labels, 'names ' + m.slug AS via, e.identifier AS identifier, e.location AS location,
       e.rule AS rule, e.confidence AS confidence
UNION ALL
MATCH (t:PullRequest)-[e:NAMES]->(m:Method)
WHERE ($framework = '' OR t.framework = $framework)
  AND (($method = '' AND $paper = '') OR m.slug = $method OR m.arxiv_id = $paper
       OR EXISTS { MATCH (p:Paper)-[:PROPOSES]->(m) WHERE p.arxiv_id = $paper })
RETURN 'pull-request' AS kind, t.id AS thread, t.framework AS framework, t.title AS title, t.state AS state,
       t.created_date AS created_date, t.closed_date AS closed_date, t.merged_date AS merged_date,
       t.comments AS comments, CASE WHEN t.source_kind = 'git' THEN NULL ELSE t.first_maintainer_reply_day IS NOT NULL END AS answered,
       t.first_maintainer_reply_date AS first_reply_date, t.first_maintainer_reply_day - t.created_day AS days_to_reply,
       t.labels AS labels, 'names ' + m.slug AS via, e.identifier AS identifier, e.location AS location,
       e.rule AS rule, e.confidence AS confidence
