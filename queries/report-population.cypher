// name: report-population
// description: Who the study report speaks of: papers in the graph, how many have a title, how many were screened and on what (with an abstract, or without one: the title alone or with list headings), how many are dated only by their arXiv id's month, and the threads loaded by where they came from.
// returns: papers, titled, from_lists, screened, screened_on_title, screened_on_abstract, general_methods, dated_by_month, dated_by_day, threads_from_github, pulls_from_git, issues_from_git
MATCH (p:Paper)
WITH count(p) AS papers, count(p.title) AS titled, count(p.sources) AS from_lists,
     count(p.is_general_method) AS screened,
     count(CASE WHEN p.screened_on STARTS WITH 'title' AND NOT p.screened_on CONTAINS 'abstract' THEN 1 END)
       AS screened_on_title,
     count(CASE WHEN p.screened_on CONTAINS 'abstract' THEN 1 END) AS screened_on_abstract,
     count(CASE WHEN p.is_general_method = true THEN 1 END) AS general_methods,
     count(CASE WHEN p.published_day IS NULL AND p.month_day IS NOT NULL THEN 1 END) AS dated_by_month,
     count(CASE WHEN p.published_day IS NOT NULL THEN 1 END) AS dated_by_day
OPTIONAL MATCH (t:PullRequest)
WITH papers, titled, from_lists, screened, screened_on_title, screened_on_abstract, general_methods,
     dated_by_month, dated_by_day,
     count(CASE WHEN t.source_kind = 'github' THEN 1 END) AS github_pulls,
     count(CASE WHEN t.source_kind = 'git' THEN 1 END) AS pulls_from_git
OPTIONAL MATCH (i:Issue)
WITH papers, titled, from_lists, screened, screened_on_title, screened_on_abstract, general_methods,
     dated_by_month, dated_by_day, github_pulls, pulls_from_git,
     count(CASE WHEN i.source_kind = 'github' THEN 1 END) AS github_issues,
     count(CASE WHEN i.source_kind = 'git' THEN 1 END) AS issues_from_git
RETURN papers, titled, from_lists, screened, screened_on_title, screened_on_abstract, general_methods,
       dated_by_month, dated_by_day, github_pulls + github_issues AS threads_from_github, pulls_from_git,
       issues_from_git
