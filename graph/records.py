"""Plain records that loaders produce and stores write.

Loaders never talk to a database: they yield `Node` and `Edge` records, plain frozen
dataclasses. `graph/batch.py` merges them by identity and turns them into typed Arrow columns
(the validation); it is kept apart so that what only makes or reads records (every loader, the
CLI at start-up) never imports Arrow.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

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


@dataclass(frozen=True)
class Evidence:
    """Why an inferred link exists, so a user can audit it: what kind of source said so, where
    (`path:line`, `owner#12 body`), the identifier that matched, the rule that matched it and
    how sure that rule is."""

    source_kind: str
    location: str
    identifier: str | None
    rule: str
    confidence: float
    implementation: str | None = None  # IMPLEMENTS: code or recipe
    vendored: bool | None = None  # True when found in a copied tree of another framework

    def props(self) -> dict[str, Any]:
        """The relationship properties it is stored as (the schema's evidence columns); the
        implementation kind and the vendored flag only where they are known."""
        props = {
            "source_kind": self.source_kind,
            "location": self.location,
            "identifier": self.identifier,
            "rule": self.rule,
            "confidence": self.confidence,
        }
        if self.implementation is not None:
            props["implementation"] = self.implementation
        if self.vendored is not None:
            props["vendored"] = self.vendored
        return props


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
