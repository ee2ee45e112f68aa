"""The subgraph a stored query's rows describe, for the HTTP API, the explorer and exports.

Each query says in its `// graph:` header which of its columns are nodes and
edges (`queries.GraphShape`); nothing here knows a query or a column by name, so
a column renamed in a `.cypher` file without its header fails when the queries
load instead of silently dropping an edge.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ...graph.store import Store
from ...queries import GraphShape, QueryError, StoredQuery
from ...queries.run import run_query, stored_query
from .graph import Graph, GraphNode, GraphRelationship
from .graph_view import graph_from_rows, node_id


def query_graph(query: StoredQuery, bound: dict[str, Any], rows: list[dict[str, Any]]) -> Graph:
    """The graph a stored query's rows describe, as its header declares; none without a header."""
    shape = query.graph
    if shape is None:
        return Graph()
    if shape.edge_rows:
        return graph_from_rows(rows)
    if shape.values:
        picked = [{c: row.get(c) for c in shape.values} for row in rows]
        return merge_graphs([graph_from_rows(picked), _node_rel_node(picked)])
    return graph_from_table(shape, rows, bound)


def graph_from_table(shape: GraphShape, rows: Iterable[dict[str, Any]], bound: dict[str, Any]) -> Graph:
    """Nodes from the columns the shape names, joined by the edges it declares.

    A node column the query does not return is one of its parameters (framework-methods'
    `framework`), standing for that node in every row.
    """
    nodes: dict[str, GraphNode] = {}
    rels: dict[str, GraphRelationship] = {}
    implied = {n.column: bound.get(n.column) for n in shape.nodes if n.column in bound}
    for row in rows:
        row = {**implied, **row}
        ids: dict[str, str] = {}
        for column in shape.nodes:
            value = row.get(column.column)
            if value is None or value == "" or isinstance(value, (list, dict)):
                continue
            nid = ids[column.column] = node_id(column.label, value)
            node = nodes.setdefault(nid, GraphNode(id=nid, label=column.label, key=str(value)))
            node.name = node.name or (row.get(column.name) if column.name else None)
        for edge in shape.edges:
            if edge.source not in ids or edge.target not in ids or not edge.drawn_for(row):
                continue
            source, target = ids[edge.source], ids[edge.target]
            rid = f"{source}-{edge.type}->{target}"
            rel = rels.setdefault(
                rid, GraphRelationship(id=rid, type=edge.type, source=source, target=target, properties={})
            )
            rel.properties.update({p: row[c] for p, c in edge.props if row.get(c) is not None})
    return Graph(nodes=list(nodes.values()), relationships=list(rels.values()))


def _node_rel_node(rows: list[dict[str, Any]]) -> Graph:
    """Edges from rows laid out node, relationship, node (method-family's child, extends, parent)."""
    graph = Graph()
    for row in rows:
        values = list(row.values())
        for before, rel, after in zip(values, values[1:], values[2:], strict=False):
            ends = [graph_from_rows([{"n": v}]).nodes for v in (before, after)]
            if not (isinstance(rel, dict) and "_type" in rel and ends[0] and ends[1]):
                continue
            source, target = ends[0][0], ends[1][0]
            props = {k: v for k, v in rel.items() if not k.startswith("_")}
            rid = f"{source.id}-{rel['_type']}->{target.id}"
            graph.nodes += [source, target]
            graph.relationships.append(
                GraphRelationship(
                    id=rid, type=rel["_type"], source=source.id, target=target.id, properties=props
                )
            )
    return graph


def merge_graphs(graphs: Iterable[Graph]) -> Graph:
    """One graph from several; a node seen twice keeps the first name and all properties."""
    nodes: dict[str, GraphNode] = {}
    rels: dict[str, GraphRelationship] = {}
    for graph in graphs:
        for node in graph.nodes:
            known = nodes.get(node.id)
            if known is None:
                nodes[node.id] = node.model_copy(deep=True)
            else:
                known.name = known.name or node.name
                known.properties.update({k: v for k, v in node.properties.items() if v is not None})
        for rel in graph.relationships:
            known_rel = rels.get(rel.id)
            if known_rel is None:
                rels[rel.id] = rel.model_copy(deep=True)
            else:
                known_rel.properties.update(rel.properties)
    return Graph(nodes=list(nodes.values()), relationships=list(rels.values()))


# The stored queries that together make "a whole framework": its organisations, rules and
# supported methods, the first commit implementing each method, and the failures fixed in it.
FRAMEWORK_QUERIES = (
    ("resource-framework-graph", "slug"),
    ("framework-methods", "framework"),
    ("failure-fixes", "framework"),
)


def query_subgraph(store: Store, name: str, values: dict[str, Any]) -> Graph:
    """Run one stored query on a store and return the graph its rows describe."""
    query = stored_query(name)
    result = run_query(store, query, values)
    return query_graph(query, result.params, result.rows)


def framework_subgraph(store: Store, slug: str) -> Graph:
    """A framework's organisations, rules, methods, first implementing commits and fixed failures."""
    graph = merge_graphs(query_subgraph(store, name, {param: slug}) for name, param in FRAMEWORK_QUERIES)
    if not any(n.id == node_id("Framework", slug) for n in graph.nodes):
        raise QueryError(f"no framework {slug!r} in the store, or nothing recorded about it")
    return graph
