// name: paper-abstracts
// description: Internal state for model reports: the stored abstracts of the given papers.
// param: ids STRING[]
// returns: arxiv_id, abstract
MATCH (p:Paper)
WHERE p.arxiv_id IN $ids AND p.abstract IS NOT NULL
RETURN p.arxiv_id AS arxiv_id, p.abstract AS abstract
