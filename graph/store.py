"""The store interface both backends implement, and how a store is chosen."""

from __future__ import annotations

import contextlib
import os
import queue
import sys
import threading
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .records import Record, RecordError, batched
from .schema import NODE_TYPES, REL_TYPES, SCHEMA_VERSION

if TYPE_CHECKING:
    from .batch import PreparedBatch

DEFAULT_STORE = "uptake.lbug"
NEO4J_SCHEMES = ("bolt://", "bolt+s://", "bolt+ssc://", "neo4j://", "neo4j+s://", "neo4j+ssc://")


class StoreError(RuntimeError):
    """A store could not do what was asked; the message says what and why."""


class SchemaVersionError(StoreError):
    pass


class WriteError(StoreError):
    """A batch failed and was rolled back whole; earlier batches stay."""


class ReadOnlyError(StoreError):
    """The database refused a write in a read-only query."""


class QueryTimeout(StoreError):
    pass


@dataclass
class WriteStats:
    nodes_created: int = 0
    nodes_updated: int = 0
    edges_created: int = 0
    edges_updated: int = 0

    def __iadd__(self, other: WriteStats) -> WriteStats:
        self.nodes_created += other.nodes_created
        self.nodes_updated += other.nodes_updated
        self.edges_created += other.edges_created
        self.edges_updated += other.edges_updated
        return self


class Store(ABC):
    """One writing entry point (`write`), one reading entry point (`read`), and `execute`
    for the few maintenance statements that are not records."""

    backend: str
    location: str
    batch_size: int  # records per transaction in write_all, each engine's sweet spot

    @abstractmethod
    def init(self) -> None:
        """Create the schema if absent; refuse a store written by another schema version."""

    @abstractmethod
    def _write_batch(self, batch) -> WriteStats: ...

    @abstractmethod
    def read(
        self,
        cypher: str,
        params: dict[str, Any] | None = None,
        *,
        timeout: float | None = None,
        limit: int | None = None,
    ) -> list[dict[str, Any]]:
        """Rows as dicts, read-only: the database itself refuses a write (`ReadOnlyError`).

        `limit` stops reading after that many rows, so a caller can cap an
        ad-hoc query's result without rewriting the query text.
        """

    @abstractmethod
    def execute(self, cypher: str, params: dict[str, Any] | None = None) -> list[dict[str, Any]]:
        """Run a maintenance statement that may write (schema, metadata, repairs); rows as dicts.

        Records are written with `write` and `write_all`; this is for what is not a record.
        """

    @abstractmethod
    def schema_version(self) -> int | None: ...

    @abstractmethod
    def reset(self) -> None:
        """Remove every node and relationship, then recreate the empty schema."""

    @abstractmethod
    def close(self) -> None: ...

    def is_available(self) -> bool:
        """Whether the store looks servable, answered without a query, a lock or the network.

        For health checks: it never waits behind a running query.
        """
        return True

    def write(self, records: Iterable[Record]) -> WriteStats:
        """Upsert one batch of records in one transaction: all of it or none of it."""
        try:
            return self._write_one(records)
        finally:
            self.flush()

    def _write_one(self, records: Iterable[Record]) -> WriteStats:
        from .batch import prepare_batch  # Arrow is imported by the first write, not at start-up

        try:
            batch = prepare_batch(records)
        except RecordError as exc:
            raise WriteError(f"batch refused, nothing written: {exc}") from exc
        return self._write_batch(batch)

    def write_all(
        self,
        records: Iterable[Record],
        batch_size: int | None = None,
        progress: Callable[[int], None] | None = None,
    ) -> WriteStats:
        """Write a stream in batches; a failing batch is rolled back, earlier ones stay.

        The next batch is read and checked in a second thread while the database writes
        this one, so the loader's Python work and the engine's overlap.
        """
        total = WriteStats()
        with _short_thread_slices():
            ahead = _PreparedAhead(batched(records, batch_size or self.batch_size), self._prepare)
            try:
                for count, batch in ahead:
                    total += self._write_batch(batch)
                    if progress:
                        progress(count)
            finally:
                ahead.stop()
                self.flush()
        return total

    def _prepare(self, records: list[Record]) -> PreparedBatch:
        """Runs in the preparing thread of `write_all`: checks and shapes one batch."""
        from .batch import prepare_batch

        return prepare_batch(records)

    def flush(self) -> None:  # noqa: B027 - a no-op where commits are already in the main files
        """Make committed batches durable in the main files and visible to read-only handles."""

    def counts(self) -> dict[str, int]:
        """Nodes per label and relationships per type, every declared one listed."""
        out: dict[str, int] = {}
        for label in NODE_TYPES:
            out[label] = self.read(f"MATCH (n:{label}) RETURN count(n) AS c")[0]["c"]
        for rel in REL_TYPES:
            out[rel] = self.read(f"MATCH ()-[r:{rel}]->() RETURN count(r) AS c")[0]["c"]
        return out

    def check_version(self) -> None:
        found = self.schema_version()
        if found is not None and found != SCHEMA_VERSION:
            raise SchemaVersionError(
                f"{self.location} was written with schema version {found}, this Uptake uses "
                f"{SCHEMA_VERSION}; rebuild it with `uptake db reset` then `uptake build`"
            )

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def resolve_store_target(target: str | None) -> str:
    """The store a command means: the given target, else $UPTAKE_STORE, else ./uptake.lbug."""
    return target or os.environ.get("UPTAKE_STORE") or DEFAULT_STORE


def open_store(
    target: str | None = None,
    *,
    user: str | None = None,
    password: str | None = None,
    database: str | None = None,
    read_only: bool = False,
    refresh_interval: float | None = None,
) -> Store:
    """A Ladybug directory path, or a bolt:// / neo4j:// / neo4j+s:// URI.

    Falls back to $UPTAKE_STORE, then ./uptake.lbug. Neo4j credentials come from
    the arguments, else $NEO4J_USER, $NEO4J_PASSWORD and $NEO4J_DATABASE; a read-only
    store uses $NEO4J_READ_USER and $NEO4J_READ_PASSWORD when they are set.
    `refresh_interval` applies to a read-only Ladybug store: see `LadybugStore`.
    """
    target = resolve_store_target(target)
    if target.startswith(NEO4J_SCHEMES):
        from .neo4j_store import Neo4jStore

        if read_only and user is None and os.environ.get("NEO4J_READ_USER"):
            # A user with the reader role only (Enterprise or Aura); community has no roles, so
            # there the ad-hoc statement check is what keeps readers from writing.
            user, password = os.environ["NEO4J_READ_USER"], os.environ.get("NEO4J_READ_PASSWORD", "")
        return Neo4jStore(
            target,
            user=user or os.environ.get("NEO4J_USER", "neo4j"),
            password=password if password is not None else os.environ.get("NEO4J_PASSWORD", ""),
            database=database or os.environ.get("NEO4J_DATABASE") or None,
        )
    if "://" in target:
        raise StoreError(f"unsupported store URI {target!r}: use a directory path or one of {NEO4J_SCHEMES}")
    from .ladybug_store import LadybugStore

    return LadybugStore(target, read_only=read_only, refresh_interval=refresh_interval)


@contextlib.contextmanager
def _short_thread_slices(seconds: float = 0.0005):
    """Let the writing thread take the interpreter back quickly while the preparing one runs.

    The writer makes many short calls into the engine and Arrow, each releasing the interpreter
    lock; with Python's default 5 ms slices it waits out the preparing thread's slice after each
    (a convoy), which cost about 1 s of 8 in a 1.27M-record load. The setting is process-wide,
    so it is restored afterwards.
    """
    before = sys.getswitchinterval()
    sys.setswitchinterval(min(before, seconds))
    try:
        yield
    finally:
        sys.setswitchinterval(before)


class _PreparedAhead:
    """Batches prepared one step ahead in a thread; at most three exist at once."""

    _DONE = object()

    def __init__(self, chunks: Iterator[list[Record]], prepare: Callable[[list[Record]], PreparedBatch]):
        self._queue: queue.Queue = queue.Queue(maxsize=1)
        self._stopped = threading.Event()
        self._thread = threading.Thread(target=self._run, args=(chunks, prepare), daemon=True)
        self._thread.start()

    def _run(self, chunks: Iterator[list[Record]], prepare) -> None:
        try:
            for chunk in chunks:
                try:
                    item = (len(chunk), prepare(chunk))
                except RecordError as exc:
                    item = WriteError(f"batch refused, nothing written: {exc}")
                if not self._put(item) or isinstance(item, Exception):
                    return
        except BaseException as exc:  # the loader itself failed: its error surfaces in the writer
            self._put(exc)
            return
        self._put(self._DONE)

    def _put(self, item) -> bool:
        while not self._stopped.is_set():
            try:
                self._queue.put(item, timeout=0.1)
                return True
            except queue.Full:
                continue
        return False

    def __iter__(self):
        while (item := self._queue.get()) is not self._DONE:
            if isinstance(item, BaseException):
                raise item
            yield item

    def stop(self) -> None:
        self._stopped.set()
        self._thread.join()
