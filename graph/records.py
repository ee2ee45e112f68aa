"""Plain records that loaders produce and stores write.

Loaders never talk to a database: they yield `Node` and `Edge` records.
`prepare_batch` checks every record against the schema before anything is
written, so a bad record is named and the batch never reaches the store.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from .schema import NODE_TYPES, REL_TYPES, day_column

EPOCH = dt.date(1970, 1, 1)


@dataclass(frozen=True)
class Node:
    label: str
    key: str
    props: dict[str, Any] = field(default_factory=dict)
    origin: str = ""  # where the record came from (file:line), for error messages


@dataclass(frozen=True)
class Edge:
    type: str
    src: tuple[str, str]  # (label, key)
    dst: tuple[str, str]
    props: dict[str, Any] = field(default_factory=dict)
    origin: str = ""


Record = Node | Edge


class RecordError(ValueError):
    """A record does not fit the schema; the message names it and the field."""


def describe(record: Record) -> str:
    if isinstance(record, Node):
        what = f"{record.label} {record.key!r}"
    else:
        what = f"{record.type} {record.src[0]} {record.src[1]!r} -> {record.dst[0]} {record.dst[1]!r}"
    return f"{what} (from {record.origin})" if record.origin else what


def day_number(value: dt.date) -> int:
    """Days since 1970-01-01: integer arithmetic every engine does the same way."""
    return (value - EPOCH).days


def _coerce(value: Any, type_: str, record: Record, name: str) -> Any:
    def fail(expected: str) -> RecordError:
        return RecordError(f"{describe(record)}: field {name!r} must be {expected}, got {value!r}")

    if type_ == "STRING":
        if not isinstance(value, str):
            raise fail("a string")
        return value
    if type_ == "INT64":
        if isinstance(value, bool) or not isinstance(value, int):
            raise fail("an integer")
        return value
    if type_ == "DOUBLE":
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise fail("a number")
        return float(value)
    if type_ == "BOOL":
        if not isinstance(value, bool):
            raise fail("true or false")
        return value
    if type_ == "DATE":
        if isinstance(value, dt.datetime):
            return value.date()
        if isinstance(value, dt.date):
            return value
        if isinstance(value, str):
            try:
                return dt.date.fromisoformat(value[:10])
            except ValueError:
                raise fail("an ISO date (YYYY-MM-DD)") from None
        raise fail("a date")
    if type_ == "STRING[]":
        if not isinstance(value, list | tuple) or not all(isinstance(v, str) for v in value):
            raise fail("a list of strings")
        return list(value)
    raise AssertionError(type_)


def _clean_props(record: Record, props: dict[str, Any], types: dict[str, str]) -> dict[str, Any]:
    """Validated, typed properties; None means 'unknown' and is dropped so it never erases."""
    out: dict[str, Any] = {}
    for name, value in props.items():
        if name not in types:
            raise RecordError(f"{describe(record)}: unknown field {name!r}")
        if value is None:
            continue
        type_ = types[name]
        out[name] = _coerce(value, type_, record, name)
        if type_ == "DATE":
            out[day_column(name)] = day_number(out[name])
    return out


def check_node(node: Node) -> Node:
    spec = NODE_TYPES.get(node.label)
    if spec is None:
        raise RecordError(f"{describe(node)}: unknown label {node.label!r}")
    if not isinstance(node.key, str) or not node.key:
        raise RecordError(f"{describe(node)}: field {spec.key!r} (the key) must be a non-empty string")
    props = dict(node.props)
    props.pop(spec.key, None)
    return Node(node.label, node.key, _clean_props(node, props, spec.prop_types), node.origin)


def check_edge(edge: Edge) -> Edge:
    spec = REL_TYPES.get(edge.type)
    if spec is None:
        raise RecordError(f"{describe(edge)}: unknown relationship type {edge.type!r}")
    if (edge.src[0], edge.dst[0]) not in spec.endpoints:
        allowed = ", ".join(f"{a}->{b}" for a, b in spec.endpoints)
        raise RecordError(f"{describe(edge)}: {edge.type} connects only {allowed}")
    for end in (edge.src, edge.dst):
        if not isinstance(end[1], str) or not end[1]:
            raise RecordError(f"{describe(edge)}: endpoint key must be a non-empty string")
    return Edge(edge.type, edge.src, edge.dst, _clean_props(edge, edge.props, spec.prop_types), edge.origin)


@dataclass
class Batch:
    """Validated records, merged by identity: the last record with the same key wins per field."""

    nodes: dict[str, dict[str, dict[str, Any]]] = field(default_factory=dict)  # label -> key -> props
    edges: dict[tuple[str, str, str], dict[tuple[str, str], dict[str, Any]]] = field(
        default_factory=dict
    )  # (type, src label, dst label) -> (src key, dst key) -> props

    def __len__(self) -> int:
        return sum(map(len, self.nodes.values())) + sum(map(len, self.edges.values()))

    def add(self, record: Record) -> None:
        if isinstance(record, Node):
            node = check_node(record)
            self.nodes.setdefault(node.label, {}).setdefault(node.key, {}).update(node.props)
        elif isinstance(record, Edge):
            edge = check_edge(record)
            group = self.edges.setdefault((edge.type, edge.src[0], edge.dst[0]), {})
            group.setdefault((edge.src[1], edge.dst[1]), {}).update(edge.props)
        else:
            raise RecordError(f"not a Node or Edge: {record!r}")

    def with_endpoints(self) -> Batch:
        """Add key-only nodes for edge endpoints, so an edge never points nowhere."""
        for (_, src_label, dst_label), pairs in self.edges.items():
            for src_key, dst_key in pairs:
                self.nodes.setdefault(src_label, {}).setdefault(src_key, {})
                self.nodes.setdefault(dst_label, {}).setdefault(dst_key, {})
        return self


def prepare_batch(records: Iterable[Record]) -> Batch:
    batch = Batch()
    for record in records:
        batch.add(record)
    return batch.with_endpoints()


def batched(records: Iterable[Record], size: int) -> Iterator[list[Record]]:
    """Chunks of at most `size` records, so a writer's memory follows the batch, not the graph."""
    chunk: list[Record] = []
    for record in records:
        chunk.append(record)
        if len(chunk) >= size:
            yield chunk
            chunk = []
    if chunk:
        yield chunk
