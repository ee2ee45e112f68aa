"""The HTTP API: the app factory (`app.create_app`), its dependencies, routes by resource,
admin load jobs, the web explorer and the Neo4j Browser guide."""
