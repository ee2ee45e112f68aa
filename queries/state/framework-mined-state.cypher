// name: framework-mined-state
// description: Internal state of the git miner: the head and tags last mined for one framework.
// param: slug STRING
// returns: head, tags
MATCH (f:Framework {slug: $slug})
RETURN f.mined_head AS head, f.mined_tags AS tags
