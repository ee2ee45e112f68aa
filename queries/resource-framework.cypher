// name: resource-framework
// description: One framework with all its properties (the API's /frameworks/{slug}).
// param: slug STRING = "trl" -- the framework's slug
// returns: node
// graph: values=node
MATCH (f:Framework {slug: $slug})
RETURN f AS node
