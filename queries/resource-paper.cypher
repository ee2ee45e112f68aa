// name: resource-paper
// description: One paper with all its properties (the API's /papers/{arxiv_id}).
// param: arxiv_id STRING = "2402.03300" -- the paper's arXiv id
// returns: node
// graph: values=node
MATCH (p:Paper {arxiv_id: $arxiv_id})
RETURN p AS node
