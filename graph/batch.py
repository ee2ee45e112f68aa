"""Records merged by identity into typed Arrow columns, which is their validation.

A `Batch` turns `Node` and `Edge` records into one table per label and relationship group;
building those columns is the check, so a bad record is named (label, key, field, origin) before
anything reaches a store, and a batch of a million rows is checked at Arrow's speed rather than
one Python value at a time.
"""

from __future__ import annotations

import datetime as dt
import functools
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from .records import Edge, Node, Record, RecordError, describe
from .schema import NODE_TYPES, REL_TYPES, day_column

ARROW_TYPES = {
    "STRING": pa.string(),
    "INT64": pa.int64(),
    "DOUBLE": pa.float64(),
    "BOOL": pa.bool_(),
    "DATE": pa.date32(),
    "STRING[]": pa.list_(pa.string()),
}


def _coerce(value: Any, type_: str, what: Callable[[], str], name: str) -> Any:
    """One value converted to its declared type, or an error naming the record and field."""

    def fail(expected: str) -> RecordError:
        return RecordError(f"{what()}: field {name!r} must be {expected}, got {value!r}")

    if type_ == "STRING":
        if not isinstance(value, str):
            raise fail("a string")
    elif type_ == "INT64":
        if isinstance(value, bool) or not isinstance(value, int):
            raise fail("an integer")
    elif type_ == "DOUBLE":
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise fail("a number")
        return float(value)
    elif type_ == "BOOL":
        if not isinstance(value, bool):
            raise fail("true or false")
    elif type_ == "DATE":
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
    elif type_ == "STRING[]":
        if not isinstance(value, list | tuple) or not all(isinstance(v, str) for v in value):
            raise fail("a list of strings")
        return list(value)
    return value


def _column(type_: str, values: list[Any], name: str, what: Callable[[int], str]) -> pa.Array:
    """A typed Arrow column; Arrow infers and checks, Python only looks when something is off."""
    target = ARROW_TYPES[type_]
    if type_ == "DATE":  # ISO strings, dates and datetimes all occur; few columns, so per value
        values = [
            v if v is None else _coerce(v, type_, lambda i=i: what(i), name) for i, v in enumerate(values)
        ]
        return pa.array(values, target)
    try:
        inferred = pa.array(values)
    except (pa.ArrowInvalid, pa.ArrowTypeError, OverflowError):
        inferred = None
    if inferred is not None:
        if inferred.type == target:
            return inferred
        if pa.types.is_null(inferred.type):
            return pa.nulls(len(values), target)
        widening = (inferred.type, target) == (pa.int64(), pa.float64())
        empty_lists = inferred.type == pa.list_(pa.null()) and target == ARROW_TYPES["STRING[]"]
        if widening or empty_lists:
            return inferred.cast(target)
    for i, value in enumerate(values):  # find and name the culprit
        if value is not None:
            _coerce(value, type_, lambda i=i: what(i), name)
    return pa.array([v if v is None else _coerce(v, type_, str, name) for v in values], target)


class _Group:
    """Records of one label, or of one relationship type between two labels, merged by identity."""

    __slots__ = ("index", "identities", "props", "origins")

    def __init__(self) -> None:
        self.index: dict[Any, int] = {}
        self.identities: list[Any] = []
        self.props: list[dict[str, Any]] = []
        self.origins: dict[int, str] = {}

    def merge(self, identity: Any, props: dict[str, Any], origin: str) -> None:
        # Runs once per record, so one dictionary operation finds or places it.
        count = len(self.identities)
        position = self.index.setdefault(identity, count)
        if position == count:
            self.identities.append(identity)
            # Shared, not copied: stored dicts are only read, and replaced (never mutated) on merge.
            self.props.append(
                {k: v for k, v in props.items() if v is not None} if None in props.values() else props
            )
        else:  # the later record wins per field; None means unknown and never erases
            merged = dict(self.props[position])
            merged.update((k, v) for k, v in props.items() if v is not None)
            self.props[position] = merged
        if origin:
            self.origins[position] = origin

    def columns(self, types: dict[str, str], what: Callable[[int], str]) -> pa.Table:
        """The properties present in this group as typed columns, day numbers derived."""
        names = sorted({name for props in self.props for name in props})
        derived = sorted(set(names) & {day_column(n) for n, t in types.items() if t == "DATE"})
        if derived:
            raise RecordError(f"field {derived[0]!r} is derived from its date; set the date instead")
        unknown = [name for name in names if name not in types]
        if unknown:  # checked here, once per group, rather than once per record
            culprit = next(i for i, props in enumerate(self.props) if unknown[0] in props)
            raise RecordError(f"{what(culprit)}: unknown field {unknown[0]!r}")
        columns: dict[str, pa.Array] = {}
        for name in names:
            type_ = types[name]
            columns[name] = _column(type_, [p.get(name) for p in self.props], name, what)
            if type_ == "DATE":
                columns[day_column(name)] = columns[name].cast(pa.int32()).cast(pa.int64())
        return pa.table(columns)


@dataclass
class NodeTable:
    label: str
    keys: list[str]
    props: pa.Table  # typed columns of the properties present, one row per key
    key_column: pa.Array  # the keys again, as Arrow, built while preparing rather than writing

    @functools.cached_property
    def identity_hashes(self) -> np.ndarray:
        """A 64-bit hash per row's key, valid within this process (what a writer may remember)."""
        return _hashes(self.keys)


@dataclass
class EdgeTable:
    type: str
    src_label: str
    dst_label: str
    identities: list[tuple[str, str]]  # (source key, target key) per row
    props: pa.Table
    src_column: pa.Array  # the endpoint keys again, as Arrow, built while preparing
    dst_column: pa.Array

    @functools.cached_property
    def identity_hashes(self) -> np.ndarray:
        """A 64-bit hash per row's (source key, target key), valid within this process."""
        return _hashes(self.identities)


def _hashes(identities: list) -> np.ndarray:
    return np.fromiter(map(hash, identities), np.int64, len(identities))


def rows_without_nulls(props: pa.Table, count: int) -> list[dict[str, Any]]:
    """Per-record property dicts with unknown (null) values left out, so they never erase."""
    if not props.num_columns:
        return [{} for _ in range(count)]
    return [{k: v for k, v in row.items() if v is not None} for row in props.to_pylist()]


class Batch:
    """Records merged by identity, checked against the schema, ready to write as tables."""

    def __init__(self) -> None:
        self._nodes: dict[str, _Group] = {}
        self._edges: dict[tuple[str, str, str], _Group] = {}
        self._node_types: dict[str, tuple[_Group, str]] = {}  # label -> (group, key name)

    def __len__(self) -> int:
        return sum(len(g.identities) for g in (*self._nodes.values(), *self._edges.values()))

    def add(self, record: Record) -> None:
        # Checked once per record at Python speed, so kept to the few checks Arrow cannot do.
        kind = type(record)
        if kind is Edge:
            self._add_edge(record)
        elif kind is Node:
            self._add_node(record)
        else:
            raise RecordError(f"not a Node or Edge: {record!r}")

    def _add_node(self, node: Node) -> None:
        known = self._node_types.get(node.label)
        if known is None:
            spec = NODE_TYPES.get(node.label)
            if spec is None:
                raise RecordError(f"{describe(node)}: unknown label {node.label!r}")
            group = self._nodes.setdefault(node.label, _Group())
            known = self._node_types[node.label] = (group, spec.key)
        group, key_name = known
        if type(node.key) is not str or not node.key:
            raise RecordError(f"{describe(node)}: field {key_name!r} (the key) must be a non-empty string")
        props = node.props
        if key_name in props:
            props = {k: v for k, v in props.items() if k != key_name}
        group.merge(node.key, props, node.origin)

    def _add_edge(self, edge: Edge) -> None:
        (src_label, src_key), (dst_label, dst_key) = edge.src, edge.dst
        group_key = (edge.type, src_label, dst_label)
        group = self._edges.get(group_key)
        if group is None:
            spec = REL_TYPES.get(edge.type)
            if spec is None:
                raise RecordError(f"{describe(edge)}: unknown relationship type {edge.type!r}")
            if (src_label, dst_label) not in spec.endpoints:
                allowed = ", ".join(f"{a}->{b}" for a, b in spec.endpoints)
                raise RecordError(f"{describe(edge)}: {edge.type} connects only {allowed}")
            group = self._edges[group_key] = _Group()
        if type(src_key) is not str or not src_key or type(dst_key) is not str or not dst_key:
            raise RecordError(f"{describe(edge)}: endpoint key must be a non-empty string")
        group.merge((src_key, dst_key), edge.props, edge.origin)

    def prepared(self) -> PreparedBatch:
        """Typed tables of every label and relationship group; raises RecordError on a bad record."""
        endpoints = {
            group_key: (
                pa.array([s for s, _ in group.identities], pa.string()),
                pa.array([d for _, d in group.identities], pa.string()),
            )
            for group_key, group in self._edges.items()
        }
        return PreparedBatch(self._node_tables(endpoints), self._edge_tables(endpoints))

    def _node_tables(self, endpoints) -> list[NodeTable]:
        """Every edge endpoint the batch does not hold as a node is added key-only, so an edge
        never points nowhere; Arrow finds those keys rather than a Python loop over edges.
        """
        referenced: dict[str, list[pa.Array]] = {}
        for (_, src_label, dst_label), (src, dst) in endpoints.items():
            referenced.setdefault(src_label, []).append(src)
            referenced.setdefault(dst_label, []).append(dst)
        tables = []
        for label in dict.fromkeys([*self._nodes, *referenced]):
            group = self._nodes.get(label) or _Group()

            def what(i: int, label=label, group=group) -> str:
                return _where(f"{label} {group.identities[i]!r}", group.origins.get(i))

            props = group.columns(NODE_TYPES[label].prop_types, what)
            known = pa.array(group.identities, pa.string())
            stubs = _missing(referenced.get(label, []), known)
            keys = pa.concat_arrays([known, stubs])
            all_keys = group.identities + stubs.to_pylist()
            tables.append(NodeTable(label, all_keys, _pad(props, len(stubs)), keys))
        return tables

    def _edge_tables(self, endpoints) -> list[EdgeTable]:
        tables = []
        for (rel, src_label, dst_label), group in self._edges.items():

            def what(i: int, rel=rel, src_label=src_label, dst_label=dst_label, group=group) -> str:
                s, d = group.identities[i]
                return _where(f"{rel} {src_label} {s!r} -> {dst_label} {d!r}", group.origins.get(i))

            props = group.columns(REL_TYPES[rel].prop_types, what)
            src, dst = endpoints[(rel, src_label, dst_label)]
            tables.append(EdgeTable(rel, src_label, dst_label, group.identities, props, src, dst))
        return tables


def _missing(referenced: list[pa.Array], known: pa.Array) -> pa.Array:
    """Distinct referenced keys that are not among `known`."""
    if not referenced:
        return pa.array([], pa.string())
    distinct = pc.unique(pa.concat_arrays(referenced))
    return distinct.filter(pc.invert(pc.is_in(distinct, value_set=known)))


def _pad(props: pa.Table, count: int) -> pa.Table:
    """`count` more rows of nulls: the key-only nodes' unknown properties."""
    if not count or not props.num_columns:
        return props
    return pa.table(
        {
            name: pa.concat_arrays(
                [props.column(name).combine_chunks(), pa.nulls(count, props.column(name).type)]
            )
            for name in props.column_names
        }
    )


def _where(what: str, origin: str | None) -> str:
    return f"{what} (from {origin})" if origin else what


@dataclass
class PreparedBatch:
    """A batch that passed every check: what the stores write."""

    nodes: list[NodeTable]
    edges: list[EdgeTable]


def prepare_batch(records: Iterable[Record]) -> PreparedBatch:
    batch = Batch()
    add_node, add_edge = batch._add_node, batch._add_edge  # the per-record path, without `add`
    for record in records:
        kind = type(record)
        if kind is Edge:
            add_edge(record)
        elif kind is Node:
            add_node(record)
        else:
            batch.add(record)  # names what it is not
    return batch.prepared()
