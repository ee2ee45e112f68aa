// name: framework-incomplete-commits
// description: Internal state of the git miner: the commits of one framework mined while some files' contents were missing, to mine again once they are present.
// param: framework STRING
// returns: sha
MATCH (c:Commit)
WHERE c.framework = $framework AND c.incomplete = true
RETURN c.sha AS sha
