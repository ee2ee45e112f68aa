// name: paper-list-fields
// description: Internal state for the paper-list loader: the stored title, sources, headings and abstract flag of the given papers.
// param: ids STRING[]
// returns: arxiv_id, title, sources, source_tags, has_abstract
MATCH (p:Paper)
WHERE p.arxiv_id IN $ids
RETURN p.arxiv_id AS arxiv_id, p.title AS title, p.sources AS sources, p.source_tags AS source_tags,
       p.abstract IS NOT NULL AS has_abstract
