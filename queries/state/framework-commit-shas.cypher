// name: framework-commit-shas
// description: Internal state of the git miner: every stored commit of one framework, to find those a force-push dropped.
// param: framework STRING
// returns: sha
MATCH (c:Commit)
WHERE c.framework = $framework
RETURN c.sha AS sha
