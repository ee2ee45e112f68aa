// name: resource-papers
// description: Papers by first-version date (the API's /papers list).
// param: since DATE = "1990-01-01" -- first day of the window
// param: until DATE = "2100-12-31" -- last day of the window
// param: general_only BOOL = false -- only papers screened as general methods
// returns: arxiv_id, title, published_date, is_general_method
// graph: nodes=arxiv_id:Paper(title)
MATCH (p:Paper)
WHERE p.published_day >= $since_day AND p.published_day <= $until_day
  AND ($general_only = false OR p.is_general_method = true)
RETURN p.arxiv_id AS arxiv_id, p.title AS title, p.published_date AS published_date,
       p.is_general_method AS is_general_method
ORDER BY published_date, arxiv_id
