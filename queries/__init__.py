"""Stored Cypher queries: one `.cypher` file each, with a documented header.

A file starts with `//` header lines::

    // name: method-lineage
    // description: Ancestors and descendants of a method through EXTENDS.
    // param: slug STRING = "grpo" -- the method's slug
    // param: since DATE -- no default: required
    // returns: direction, method, name, change, depth
    // graph: nodes=method:Method(name),via:Method edges=method-EXTENDS->via{change}[direction=descendant]

The optional `graph:` line says which graph the rows describe, so views draw it
without knowing the query (see `GraphShape`); the columns it names must be
returned or be parameters. The same file runs on every backend;
`NAME.neo4j.cypher` or `NAME.ladybug.cypher` next to it overrides it where a
dialect forces that.
`queries.run.run_query` binds the parameters and runs a query on a store.
"""

from __future__ import annotations

import datetime as dt
import json
import re
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from ..graph.schema import NODE_TYPES, REL_TYPES

QUERY_DIR = Path(__file__).parent
BACKENDS = ("ladybug", "neo4j")
_PARAM = re.compile(
    r"(?P<name>[a-z_][a-z0-9_]*)\s+(?P<type>STRING\[\]|STRING|INT64|DOUBLE|BOOL|DATE)"
    r"(?:\s*=\s*(?P<default>.+?))?\s*(?:--\s*(?P<doc>.*))?$"
)


_ISO_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")


class QueryError(ValueError):
    """A stored query file or a parameter value is wrong; the message names it."""


@dataclass(frozen=True)
class QueryParam:
    name: str
    type: str
    default: Any = None
    required: bool = True
    doc: str = ""

    @property
    def signature(self) -> str:
        shown = f"={json.dumps(self.default, default=str)}" if not self.required else ""
        return f"{self.name}: {self.type}{shown}"

    def coerce(self, value: Any) -> Any:
        """Convert a CLI string or JSON value to this parameter's type, or say why not."""
        try:
            return _coerce(self.type, value)
        except (ValueError, TypeError):
            raise QueryError(f"parameter {self.name!r} must be {self.type}, got {value!r}") from None


def _coerce(type_: str, value: Any) -> Any:
    if value is None:
        return None
    if type_ == "STRING":
        if not isinstance(value, str):
            raise TypeError
        return value
    if type_ == "INT64":
        if isinstance(value, bool) or isinstance(value, float):
            raise TypeError
        return int(value)
    if type_ == "DOUBLE":
        if isinstance(value, bool):
            raise TypeError
        return float(value)
    if type_ == "BOOL":
        if isinstance(value, bool):
            return value
        if str(value).lower() in ("true", "1", "yes"):
            return True
        if str(value).lower() in ("false", "0", "no"):
            return False
        raise ValueError
    if type_ == "DATE":
        if isinstance(value, dt.date):
            return value
        if not isinstance(value, str) or not _ISO_DATE.match(value):
            raise ValueError  # not 0, a timestamp or the compact 20240101: a date reads YYYY-MM-DD
        return dt.date.fromisoformat(value)
    if type_ == "STRING[]":
        if isinstance(value, str):
            return [v.strip() for v in value.split(",") if v.strip()]
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise TypeError
        return value
    raise AssertionError(type_)


# The columns of an edge-shaped row; source_name and target_name may come too.
EDGE_ROW_COLUMNS = ("source_label", "source_key", "type", "target_label", "target_key")
_NODE = re.compile(r"(?P<column>\w+):(?P<label>\w+)(?:\((?P<name>\w+)\))?")
_EDGE = re.compile(
    r"(?P<source>\w+)-(?P<type>\w+)->(?P<target>\w+)(?:\{(?P<props>[\w=, ]*)\})?"
    r"(?:\[(?P<when>\w+)=(?P<value>[\w-]+)\])?"
)
_TOP_LEVEL_COMMA = re.compile(r",(?![^{]*\})")


@dataclass(frozen=True)
class NodeColumn:
    """A column whose value is the key of a node; `name` is the column naming that node."""

    column: str
    label: str
    name: str | None = None


@dataclass(frozen=True)
class EdgeColumns:
    """A relationship between the nodes of two node columns; `props` maps property -> column, and
    `when` (column, value) draws it only on rows where that column holds that value."""

    source: str
    type: str
    target: str
    props: tuple[tuple[str, str], ...] = ()
    when: tuple[str, str] | None = None

    def drawn_for(self, row: dict[str, Any]) -> bool:
        return self.when is None or row.get(self.when[0]) == self.when[1]


@dataclass(frozen=True)
class GraphShape:
    """Which graph a query's rows describe, from its `// graph:` header line, one of:

    * `edge-rows`: each row is an edge (`EDGE_ROW_COLUMNS`, with optional source_name, target_name);
    * `values=a,b,c`: those columns hold nodes, relationships or paths as the store returns them;
    * `nodes=col:Label(name_col),... edges=src-TYPE->dst{prop=col,...}[col=value],...`: a table
      whose named columns hold node keys; `[col=value]` draws an edge only on the rows where `col`
      holds `value` (method-lineage's direction); a parameter may stand for a node column the rows
      leave out.
    """

    edge_rows: bool = False
    values: tuple[str, ...] = ()
    nodes: tuple[NodeColumn, ...] = ()
    edges: tuple[EdgeColumns, ...] = ()

    @property
    def columns(self) -> set[str]:
        """Every column the shape reads."""
        if self.edge_rows:
            return set(EDGE_ROW_COLUMNS)
        named = {c for n in self.nodes for c in (n.column, n.name) if c}
        conditions = {e.when[0] for e in self.edges if e.when}
        return named | set(self.values) | conditions | {c for e in self.edges for _, c in e.props}


@dataclass(frozen=True)
class StoredQuery:
    name: str
    description: str
    params: tuple[QueryParam, ...]
    returns: tuple[str, ...]
    cypher: str
    path: Path
    overrides: dict[str, str] = field(default_factory=dict)
    graph: GraphShape | None = None

    def cypher_for(self, backend: str, limit: int | None = None) -> str:
        """The text for `backend`; with `limit`, the engine itself stops after that many rows.

        A trailing LIMIT lets the engine keep only the top rows of an ORDER BY instead of sorting
        every row (a hub method's commits) for the caller to drop. After a UNION it would bind to
        the last part alone, so those queries are capped by the caller only.
        """
        cypher = self.overrides.get(backend, self.cypher)
        if limit is None or _UNION.search(cypher) or _TRAILING_LIMIT.search(cypher):
            return cypher
        return f"{cypher}\nLIMIT {int(limit)}"


_UNION = re.compile(r"\bUNION\b", re.IGNORECASE)
_TRAILING_LIMIT = re.compile(r"\bLIMIT\s+\S+\s*$", re.IGNORECASE)


def _body(text: str) -> str:
    return "\n".join(line for line in text.splitlines() if not line.lstrip().startswith("//")).strip()


def parse_query_file(path: Path) -> StoredQuery:
    header: dict[str, Any] = {"param": []}
    for number, line in enumerate(path.read_text().splitlines(), 1):
        if not line.startswith("//"):
            break
        key, _, value = line[2:].strip().partition(":")
        key, value = key.strip(), value.strip()
        if key == "param":
            header["param"].append(_parse_param(path, number, value))
        elif key in ("name", "description", "returns", "graph"):
            header[key] = value
        else:
            raise QueryError(f"{path.name} line {number}: unknown header field {key!r}")
    for required in ("name", "description", "returns"):
        if not header.get(required):
            raise QueryError(f"{path.name}: header field {required!r} is missing")
    if header["name"] != path.stem:
        raise QueryError(f"{path.name}: header name {header['name']!r} must match the file name")
    body = _body(path.read_text())
    if not body:
        raise QueryError(f"{path.name}: no Cypher after the header")
    overrides = {
        b: _body(o.read_text()) for b in BACKENDS if (o := path.with_suffix(f".{b}.cypher")).exists()
    }
    returns = tuple(c.strip() for c in header["returns"].split(","))
    graph = None
    if "graph" in header:
        graph = parse_graph_shape(header["graph"], f"{path.name}: graph")
        params = {p.name for p in header["param"]}
        unknown = sorted(graph.columns - set(returns) - params)
        if unknown:
            raise QueryError(
                f"{path.name}: graph names {', '.join(unknown)}, which the query neither returns "
                f"({', '.join(returns)}) nor takes as a parameter"
            )
    return StoredQuery(
        name=header["name"],
        description=header["description"],
        params=tuple(header["param"]),
        returns=returns,
        cypher=body,
        path=path,
        overrides=overrides,
        graph=graph,
    )


def parse_graph_shape(text: str, where: str = "graph") -> GraphShape:
    """A `// graph:` header's value as a `GraphShape`; a label, type or endpoint the schema does not
    know is an error naming it."""
    if text.strip() == "edge-rows":
        return GraphShape(edge_rows=True)
    parts: dict[str, str] = {}
    for token in text.split():
        key, sep, value = token.partition("=")
        if not sep or key not in ("nodes", "edges", "values") or key in parts:
            raise QueryError(
                f"{where}: expected 'edge-rows', 'values=...' or 'nodes=... edges=...', got {token!r}"
            )
        parts[key] = value
    if "values" in parts:
        if len(parts) > 1:
            raise QueryError(f"{where}: 'values=' stands alone")
        return GraphShape(values=tuple(c.strip() for c in parts["values"].split(",") if c.strip()))
    nodes = tuple(_node_column(t, where) for t in parts.get("nodes", "").split(",") if t)
    if not nodes:
        raise QueryError(f"{where}: 'nodes=' names no node column")
    labels = {n.column: n.label for n in nodes}
    edges = tuple(
        _edge_columns(t, labels, where) for t in _TOP_LEVEL_COMMA.split(parts.get("edges", "")) if t
    )
    return GraphShape(nodes=nodes, edges=edges)


def _node_column(text: str, where: str) -> NodeColumn:
    m = _NODE.fullmatch(text)
    if not m:
        raise QueryError(
            f"{where}: a node column reads 'column:Label' or 'column:Label(name_column)', got {text!r}"
        )
    if m.group("label") not in NODE_TYPES:
        raise QueryError(f"{where}: no node label {m.group('label')!r} in the schema")
    return NodeColumn(m.group("column"), m.group("label"), m.group("name"))


def _edge_columns(text: str, labels: dict[str, str], where: str) -> EdgeColumns:
    m = _EDGE.fullmatch(text)
    if not m:
        raise QueryError(
            f"{where}: an edge reads 'source-TYPE->target' or '...{{prop=column,...}}', got {text!r}"
        )
    source, type_, target = m.group("source", "type", "target")
    for column in (source, target):
        if column not in labels:
            raise QueryError(f"{where}: edge {text!r} joins {column!r}, which 'nodes=' does not declare")
    rel = REL_TYPES.get(type_)
    if rel is None or (labels[source], labels[target]) not in rel.endpoints:
        raise QueryError(f"{where}: the schema has no {labels[source]}-{type_}->{labels[target]}")
    props = []
    for item in (m.group("props") or "").split(","):
        if item.strip():
            prop, _, column = item.strip().partition("=")
            if prop not in rel.prop_types:
                raise QueryError(f"{where}: {type_} has no property {prop!r}")
            props.append((prop, column or prop))
    when = (m.group("when"), m.group("value")) if m.group("when") else None
    return EdgeColumns(source, type_, target, tuple(props), when)


def _parse_param(path: Path, number: int, text: str) -> QueryParam:
    m = _PARAM.match(text)
    if not m:
        raise QueryError(f"{path.name} line {number}: param must read 'name TYPE [= default] [-- doc]'")
    default = m.group("default")
    param = QueryParam(
        m.group("name"), m.group("type"), None, default is None, (m.group("doc") or "").strip()
    )
    if default is None:
        return param
    try:
        value = None if default == "null" else param.coerce(json.loads(default))
    except (json.JSONDecodeError, QueryError) as exc:
        raise QueryError(f"{path.name} line {number}: bad default for {param.name!r}: {exc}") from None
    return QueryParam(param.name, param.type, value, False, param.doc)


@cache
def load_queries(folder: Path = QUERY_DIR) -> dict[str, StoredQuery]:
    files = sorted(p for p in folder.glob("*.cypher") if p.suffixes == [".cypher"])
    return {q.name: q for q in map(parse_query_file, files)}


def parse_params(pairs: list[str]) -> dict[str, str]:
    """`["slug=grpo", "depth=3"]` -> dict; the stored query's types convert the values."""
    out = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        if not sep or not name:
            raise QueryError(f"--param takes name=value, got {pair!r}")
        out[name.strip()] = value
    return out
