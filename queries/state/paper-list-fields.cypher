// name: paper-list-fields
// description: Internal state for the paper-list loader: the stored sources, headings and abstract flag of the given papers.
// param: ids STRING[]
// returns: arxiv_id, sources, source_tags, has_abstract
MATCH (p:Paper)
WHERE p.arxiv_id IN $ids
RETURN p.arxiv_id AS arxiv_id, p.sources AS sources, p.source_tags AS source_tags,
       p.abstract IS NOT NULL AS has_abstract
