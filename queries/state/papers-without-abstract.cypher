// name: papers-without-abstract
// description: Internal state for `uptake update`: papers known only by id, title or list entry, whose abstract and exact dates arXiv has not given yet.
// returns: arxiv_id
MATCH (p:Paper)
WHERE p.abstract IS NULL
RETURN p.arxiv_id AS arxiv_id
ORDER BY arxiv_id
