"""Turning query rows into nodes and relationships a graph view can draw.

Rows can describe a graph two ways: edge rows (columns source_label,
source_key, type, target_label, target_key, optional source_name/target_name),
which is what the resource queries return because both engines agree on
them, and node values (`{"_label": ...}`) or paths anywhere in a row.
"""

from __future__ import annotations

from typing import Any

from ...graph.schema import NODE_TYPES
from ...queries import EDGE_ROW_COLUMNS
from .graph import Graph, GraphNode, GraphRelationship

_NAME_PROPS = ("name", "title", "subject", "symptom", "tag", "kind")


def node_id(label: str, key: Any) -> str:
    return f"{label}:{key}"


class _Builder:
    def __init__(self) -> None:
        self.nodes: dict[str, GraphNode] = {}
        self.rels: dict[str, GraphRelationship] = {}

    def node(self, label: str, key: Any, name: Any = None, properties: dict | None = None) -> str:
        nid = node_id(label, key)
        known = self.nodes.get(nid)
        if known is None:
            self.nodes[nid] = GraphNode(
                id=nid, label=label, key=str(key), name=name, properties=properties or {}
            )
        else:
            known.name = known.name or name
            known.properties.update(properties or {})
        return nid

    def node_value(self, value: dict[str, Any]) -> str | None:
        label = value.get("_label")
        spec = NODE_TYPES.get(label)
        if spec is None or value.get(spec.key) is None:
            return None
        props = {k: v for k, v in value.items() if k != "_label"}
        name = next((props[p] for p in _NAME_PROPS if props.get(p)), None)
        return self.node(label, props[spec.key], name, props)

    def rel(self, type_: str, source: str, target: str, properties: dict | None = None) -> None:
        rid = f"{source}-{type_}->{target}"
        self.rels.setdefault(
            rid,
            GraphRelationship(id=rid, type=type_, source=source, target=target, properties=properties or {}),
        )

    def walk(self, value: Any) -> None:
        if isinstance(value, dict):
            if "_label" in value:
                self.node_value(value)
            elif "nodes" in value and "relationships" in value:
                self.path(value)
            else:
                for v in value.values():
                    self.walk(v)
        elif isinstance(value, list):
            for v in value:
                self.walk(v)

    def path(self, path: dict[str, Any]) -> None:
        # Paths come without internal ids: the i-th relationship joins the i-th and (i+1)-th node.
        ids = [self.node_value(n) for n in path["nodes"]]
        for i, rel in enumerate(path["relationships"]):
            if i + 1 < len(ids) and ids[i] and ids[i + 1]:
                props = {k: v for k, v in rel.items() if k != "_type"}
                self.rel(rel.get("_type", "RELATED"), ids[i], ids[i + 1], props)


def graph_from_rows(rows: list[dict[str, Any]]) -> Graph:
    builder = _Builder()
    for row in rows:
        if all(row.get(c) is not None for c in EDGE_ROW_COLUMNS):
            source = builder.node(row["source_label"], row["source_key"], row.get("source_name"))
            target = builder.node(row["target_label"], row["target_key"], row.get("target_name"))
            builder.rel(row["type"], source, target)
        else:
            builder.walk(row)
    return Graph(nodes=list(builder.nodes.values()), relationships=list(builder.rels.values()))
