// name: explore-search
// description: Methods, papers and frameworks matching what was typed in the explorer: a method's slug, name or alias; a paper's arXiv id or every word of its title; a framework's slug or name. Rank 0 is an exact match.
// param: text STRING = "grpo" -- the search text, lower-cased
// param: words STRING[] = ["grpo"] -- the text's words, lower-cased; a paper's title must contain each
// returns: kind, key, name, detail, rank
MATCH (m:Method)
WITH m, $text AS text
WHERE toLower(m.slug) CONTAINS text OR toLower(coalesce(m.name, '')) CONTAINS text
   OR any(a IN coalesce(m.aliases, []) WHERE toLower(a) CONTAINS text)
RETURN 'Method' AS kind, m.slug AS key, m.name AS name, m.family AS detail,
       CASE WHEN toLower(m.slug) = text OR toLower(coalesce(m.name, '')) = text THEN 0 ELSE 1 END AS rank
UNION ALL
MATCH (p:Paper)
WHERE p.arxiv_id STARTS WITH $text
   OR (size($words) > 0 AND all(w IN $words WHERE toLower(coalesce(p.title, '')) CONTAINS w))
RETURN 'Paper' AS kind, p.arxiv_id AS key, p.title AS name, p.year_month AS detail,
       CASE WHEN p.arxiv_id = $text THEN 0 ELSE 2 END AS rank
UNION ALL
MATCH (f:Framework)
WHERE toLower(f.slug) CONTAINS $text OR toLower(coalesce(f.name, '')) CONTAINS $text
RETURN 'Framework' AS kind, f.slug AS key, f.name AS name, f.repo AS detail,
       CASE WHEN toLower(f.slug) = $text THEN 0 ELSE 1 END AS rank
