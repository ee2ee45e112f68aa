// name: resource-papers
// description: Papers by first-version date, undated ones last (the API's /papers list).
// param: since DATE = "1990-01-01" -- first day of the window
// param: until DATE = "2100-12-31" -- last day of the window
// param: general_only BOOL = false -- only papers screened as general methods
// param: undated BOOL = true -- also papers with no known first-version date (outside any window)
// returns: arxiv_id, title, published_date, is_general_method
// graph: nodes=arxiv_id:Paper(title)
MATCH (p:Paper)
WHERE ((p.published_day IS NULL AND $undated) OR (p.published_day >= $since_day AND p.published_day <= $until_day))
  AND ($general_only = false OR p.is_general_method = true)
RETURN p.arxiv_id AS arxiv_id, p.title AS title, p.published_date AS published_date,
       p.is_general_method AS is_general_method
ORDER BY coalesce(p.published_day, 2147483647), arxiv_id
