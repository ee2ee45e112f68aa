// name: framework-thread-versions
// description: Internal state for the GitHub loader: the number and last update of every stored issue and pull request of a framework, so a store lacking threads the cache holds (a second store, or one built from git only) gets them.
// param: framework STRING
// returns: number, updated_at
MATCH (t:Issue)
WHERE t.framework = $framework
RETURN t.number AS number, t.updated_at AS updated_at
UNION ALL
MATCH (t:PullRequest)
WHERE t.framework = $framework
RETURN t.number AS number, t.updated_at AS updated_at
