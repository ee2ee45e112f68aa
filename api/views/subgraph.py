"""The subgraph a stored query's rows describe, for exports and the explorer.

Three shapes of rows become a graph:

* edge rows and node/path values: `graph_view.graph_from_rows` reads them;
* method-lineage rows: `graph_view.lineage_graph` turns them into EXTENDS edges;
* table rows (`paper, method, framework, commit, ...`): each column that names
  a node becomes that node, and two such nodes in one row are joined by the
  schema relationship between their labels, so a path query such as
  paper-proposal-implementation reads as Paper -> Method <- Commit -> Framework.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ...graph.store import Store
from ...queries import QueryError
from ...queries.run import run_query
from .graph import Graph, GraphNode, GraphRelationship
from .graph_view import graph_from_rows, lineage_graph, node_id

# Column name -> the label of the node its value is the key of.
NODE_COLUMNS: dict[str, str] = {
    "paper": "Paper",
    "arxiv_id": "Paper",
    "method": "Method",
    "framework": "Framework",
    "commit": "Commit",
    "first_commit": "Commit",
    "fix_commit": "Commit",
    "issue": "Issue",
    "fix_pr": "PullRequest",
    "failure": "FailureReport",
    "report": "ModelReport",
}
# Column whose value names the node of another column: title -> the paper's title.
NAME_COLUMNS: dict[str, str] = {
    "title": "paper",
    "name": "method",
    "issue_title": "issue",
    "fix_subject": "fix_commit",
    "subject": "commit",
}
# (source column, target column) -> the relationship a row means between those two nodes.
# Column pairs, not label pairs: in failure-fixes `method` is the affected method, which the
# fixing commit does not implement.
JOINS: dict[tuple[str, str], str] = {
    ("paper", "method"): "PROPOSES",
    ("arxiv_id", "method"): "PROPOSES",
    ("commit", "method"): "IMPLEMENTS",
    ("first_commit", "method"): "IMPLEMENTS",
    ("commit", "framework"): "PART_OF",
    ("first_commit", "framework"): "PART_OF",
    ("fix_commit", "framework"): "PART_OF",
    ("issue", "framework"): "PART_OF",
    ("failure", "issue"): "REPORTED_IN",
    ("failure", "method"): "AFFECTS",
    ("fix_commit", "issue"): "FIXES",
    ("fix_pr", "fix_commit"): "MERGED_AS",
    ("report", "method"): "STATES_USE_OF",
}
# Evidence columns a row carries about the link between its commit and its method.
_EVIDENCE_COLUMNS = {
    "rule": "rule",
    "confidence": "confidence",
    "evidence": "location",
    "identifier": "identifier",
}


def graph_from_table(rows: Iterable[dict[str, Any]], context: dict[str, Any] | None = None) -> Graph:
    """Nodes from the columns that name them, joined as JOINS says.

    `context` holds the query's parameters: a parameter named like a node column
    (framework-methods' `framework`) stands for that column when the rows leave it out.
    """
    nodes: dict[str, GraphNode] = {}
    rels: dict[str, GraphRelationship] = {}
    implied = {k: v for k, v in (context or {}).items() if k in NODE_COLUMNS and isinstance(v, str) and v}
    for row in rows:
        row = {**implied, **{k: v for k, v in row.items() if v is not None}}
        ids: dict[str, str] = {}
        for column, label in NODE_COLUMNS.items():
            value = row.get(column)
            if value is None or value == "" or isinstance(value, (list, dict)):
                continue
            nid = ids[column] = node_id(label, value)
            name_column = next((n for n, c in NAME_COLUMNS.items() if c == column), None)
            node = nodes.setdefault(nid, GraphNode(id=nid, label=label, key=str(value)))
            node.name = node.name or (row.get(name_column) if name_column else None)
        for (source, target), type_ in JOINS.items():
            if source not in ids or target not in ids:
                continue
            rid = f"{ids[source]}-{type_}->{ids[target]}"
            props = {}
            if type_ == "IMPLEMENTS":
                props = {p: row[c] for c, p in _EVIDENCE_COLUMNS.items() if row.get(c) is not None}
            rel = rels.setdefault(
                rid,
                GraphRelationship(id=rid, type=type_, source=ids[source], target=ids[target], properties={}),
            )
            rel.properties.update(props)
    return Graph(nodes=list(nodes.values()), relationships=list(rels.values()))


def query_graph(name: str, bound: dict[str, Any], rows: list[dict[str, Any]]) -> Graph:
    """The graph a stored query's rows describe, whichever of the three shapes they have."""
    if name == "method-lineage":
        return lineage_graph(bound["slug"], rows)
    drawn = graph_from_rows(rows)
    if drawn.nodes:
        return merge_graphs([drawn, _node_rel_node(rows)])
    return graph_from_table(rows, bound)


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
    result = run_query(store, name, values)
    return query_graph(name, result.params, result.rows)


def framework_subgraph(store: Store, slug: str) -> Graph:
    """A framework's organisations, rules, methods, first implementing commits and fixed failures."""
    graph = merge_graphs(query_subgraph(store, name, {param: slug}) for name, param in FRAMEWORK_QUERIES)
    if not any(n.id == node_id("Framework", slug) for n in graph.nodes):
        raise QueryError(f"no framework {slug!r} in the store, or nothing recorded about it")
    return graph
