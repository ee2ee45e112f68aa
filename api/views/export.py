"""A subgraph as GraphML, GEXF (Gephi), JSON or Mermaid: pure conversions of a `Graph`.

Node ids are `Label:key` everywhere, so an export can be joined back to the
store. GraphML and GEXF hold scalar attributes only; lists are written as
JSON text and dates as ISO text. Each node carries `labels` (its label),
`key`, `caption` (what it is drawn with) and its stored properties.
"""

from __future__ import annotations

import datetime as dt
import io
import json
import re
from typing import Any

import networkx as nx

from .graph import Graph
from .graph_style import caption, evidence_url, style_for

FORMATS = ("graphml", "gexf", "json", "mermaid")
_RESERVED = ("labels", "key", "caption", "label", "url", "viz", "type", "id")


class ExportError(ValueError):
    """An export cannot be written; the message says which format or value."""


def _scalar(value: Any) -> str | int | float | bool | None:
    if value is None or isinstance(value, (str, int, float, bool)):
        return value
    if isinstance(value, (dt.date, dt.datetime)):
        return value.isoformat()
    return json.dumps(value, default=str, sort_keys=True)


def _props(properties: dict[str, Any]) -> dict[str, Any]:
    out = {}
    for name, value in properties.items():
        scalar = _scalar(value)
        if scalar is not None and name not in _RESERVED:
            out[name] = scalar
    return out


def to_networkx(graph: Graph) -> nx.MultiDiGraph:
    """One networkx node per graph node, one edge per relationship keyed by its type."""
    g = nx.MultiDiGraph()
    for node in graph.nodes:
        attrs = _props(node.properties)
        attrs.update(
            labels=node.label, key=node.key, caption=caption(node.label, node.key, node.properties, node.name)
        )
        if node.name is not None:
            attrs.setdefault("name", str(node.name))
        url = evidence_url(node.label, node.key, node.properties)
        if url:
            attrs["url"] = url
        g.add_node(node.id, **attrs)
    for rel in graph.relationships:
        if rel.source not in g or rel.target not in g:
            raise ExportError(f"relationship {rel.id} joins a node that is not in the graph")
        g.add_edge(rel.source, rel.target, key=rel.type, type=rel.type, **_props(rel.properties))
    return g


def to_graphml(graph: Graph) -> str:
    buffer = io.BytesIO()
    nx.write_graphml(to_networkx(graph), buffer, encoding="utf-8", prettyprint=True, named_key_ids=True)
    return buffer.getvalue().decode("utf-8")


def to_gexf(graph: Graph) -> str:
    g = to_networkx(graph)
    for _, attrs in g.nodes(data=True):
        # Gephi shows `label`; colour by the same palette as the explorer and Neo4j Browser.
        attrs["label"] = attrs["caption"]
        colour = style_for(attrs["labels"]).color.lstrip("#")
        r, gr, b = (int(colour[i : i + 2], 16) for i in (0, 2, 4))
        attrs["viz"] = {"color": {"r": r, "g": gr, "b": b, "a": 1.0}}
    for _, _, attrs in g.edges(data=True):
        attrs["label"] = attrs["type"]
    buffer = io.BytesIO()
    nx.write_gexf(g, buffer, encoding="utf-8", prettyprint=True)
    return buffer.getvalue().decode("utf-8")


def to_json(graph: Graph) -> str:
    """The API's graph shape (nodes with id/label/key/name/properties, relationships), plus captions."""
    body = graph.model_dump(mode="json")
    for node in body["nodes"]:
        node["caption"] = caption(node["label"], node["key"], node["properties"], node["name"])
        node["url"] = evidence_url(node["label"], node["key"], node["properties"])
    return json.dumps(body, indent=2, sort_keys=False, default=str) + "\n"


_MERMAID_ESCAPES = {'"': "#quot;", "<": "#lt;", ">": "#gt;", "#": "#35;", "|": "#124;", "`": "#96;"}


def _mermaid_text(text: str) -> str:
    # Entity codes rather than backslashes: Mermaid labels have no escape character.
    text = " ".join(str(text).split())
    return re.sub(r'["<>#|`]', lambda m: _MERMAID_ESCAPES[m.group()], text)


def to_mermaid(graph: Graph, direction: str | None = None) -> str:
    """A Mermaid flowchart GitHub renders in Markdown; a lineage reads bottom (children) to top."""
    if direction is None:
        lineage = graph.relationships and all(r.type == "EXTENDS" for r in graph.relationships)
        direction = "BT" if lineage else "LR"
    if direction not in ("TB", "TD", "BT", "LR", "RL"):
        raise ExportError(f"Mermaid direction must be TB, TD, BT, LR or RL, got {direction!r}")
    ids = {node.id: f"n{i}" for i, node in enumerate(graph.nodes)}
    lines = [f"flowchart {direction}"]
    by_label: dict[str, list[str]] = {}
    for node in graph.nodes:
        text = caption(node.label, node.key, node.properties, node.name)
        lines.append(f'    {ids[node.id]}["{_mermaid_text(text)}"]')
        by_label.setdefault(node.label, []).append(ids[node.id])
    for rel in graph.relationships:
        if rel.source not in ids or rel.target not in ids:
            raise ExportError(f"relationship {rel.id} joins a node that is not in the graph")
        label = rel.properties.get("change") if rel.type == "EXTENDS" else None
        text = _mermaid_text(f"{rel.type.lower().replace('_', ' ')}{': ' + str(label) if label else ''}")
        lines.append(f'    {ids[rel.source]} -->|"{text}"| {ids[rel.target]}')
    for label, members in by_label.items():
        s = style_for(label)
        lines.append(f"    classDef {label} fill:{s.color},stroke:{s.border},color:{s.text}")
        lines.append(f"    class {','.join(members)} {label}")
    return "\n".join(lines) + "\n"


def export_graph(graph: Graph, format: str) -> str:
    converters = {"graphml": to_graphml, "gexf": to_gexf, "json": to_json, "mermaid": to_mermaid}
    if format not in converters:
        raise ExportError(f"unknown export format {format!r}; use one of {', '.join(FORMATS)}")
    return converters[format](graph)
