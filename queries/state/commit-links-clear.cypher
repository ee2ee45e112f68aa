// name: commit-links-clear
// description: Internal state of the git miner: removes the links of commits about to be mined again whole, since a link found in an incomplete commit may not be found (or may change kind) in the whole one.
// param: shas STRING[]
// returns: removed
MATCH (c:Commit)-[r:IMPLEMENTS|VENDORS|MENTIONS|SPELLS]->()
WHERE c.sha IN $shas
DELETE r
RETURN count(*) AS removed
