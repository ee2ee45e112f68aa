// name: resource-method
// description: One method with all its properties (the API's /methods/{slug}).
// param: slug STRING = "grpo" -- the method's slug
// returns: node
// graph: values=node
MATCH (m:Method {slug: $slug})
RETURN m AS node
