"""The embedded default: LadybugDB, one directory on disk, no server.

Writes use bulk `COPY` for records the graph does not have yet and a
`LOAD FROM ... SET` for records whose properties changed, inside one
transaction per batch. Row-wise `MERGE` degrades badly as Ladybug tables grow;
bulk copy does not, and checking which keys exist first keeps it idempotent.
"""

from __future__ import annotations

import collections
import contextlib
import functools
import os
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import ladybug
import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from .batch import ARROW_TYPES, EdgeTable, NodeTable, PreparedBatch
from .schema import META_LABEL, NODE_TYPES, REL_TYPES, SCHEMA_VERSION, Prop
from .store import QueryTimeout, ReadOnlyError, Store, StoreError, WriteError, WriteStats


def _columns(props: tuple[Prop, ...]) -> str:
    return ", ".join(f"{p.name} {p.type}" for p in props)


def buffer_pool_bytes() -> int:
    """Ladybug's page cache: its default (most of the machine's memory) unless set.

    It must hold a load's pages until they are checkpointed, so a small one fails large loads.
    """
    return int(os.environ.get("UPTAKE_LADYBUG_BUFFER_MB", "0")) * 1024 * 1024


def address_space_options() -> dict[str, int]:
    """Ladybug reserves 8 TiB of address space unless told a smaller maximum database size.

    A process under a memory limit (the ad-hoc query worker) sets UPTAKE_LADYBUG_MAX_DB_MB.
    """
    megabytes = int(os.environ.get("UPTAKE_LADYBUG_MAX_DB_MB", "0"))
    return {"max_db_size": megabytes * 1024 * 1024} if megabytes else {}


def ladybug_ddl() -> list[str]:
    """Node and relationship tables, derived from the schema."""
    statements = [
        f"CREATE NODE TABLE IF NOT EXISTS {META_LABEL}(key STRING PRIMARY KEY, schema_version INT64)"
    ]
    for node in NODE_TYPES.values():
        props = node.all_props
        cols = [f"{props[0].name} STRING PRIMARY KEY"] + [f"{p.name} {p.type}" for p in props[1:]]
        statements.append(f"CREATE NODE TABLE IF NOT EXISTS {node.label}({', '.join(cols)})")
    for rel in REL_TYPES.values():
        ends = ", ".join(f"FROM {a} TO {b}" for a, b in rel.endpoints)
        cols = f", {_columns(rel.all_props)}" if rel.all_props else ""
        statements.append(f"CREATE REL TABLE IF NOT EXISTS {rel.type}({ends}{cols})")
    return statements


class LadybugStore(Store):
    """A Ladybug directory, opened for writing or read-only.

    A read-only store serves reads from a pool of connections on one read-only
    database (`ReadPool`), so queries run side by side, up to `readers` at once
    (default: one per core, at least two). It sees the data as of its opening. Another process
    (a loader) may write the directory meanwhile, so with `refresh_interval` set
    it checks the files' sizes and times at most that often and swaps to a newly
    opened database when they changed; the old one is closed when its last
    running query returns. A writable store runs its calls one at a time.
    """

    backend = "ladybug"
    # Bulk COPY pays off with large batches (50k records measured 1.7x slower than 200k).
    batch_size = 200_000

    def __init__(
        self,
        path: str | Path,
        *,
        read_only: bool = False,
        refresh_interval: float | None = None,
        readers: int | None = None,
    ):
        self.location = str(path)
        self._path = Path(path)
        self._read_only = read_only
        self._readers = None
        if read_only:
            self._readers = ReadPool(self._path, readers or _default_readers(), refresh_interval)
        self._lock = threading.RLock()  # a writable store: one call at a time on its connection
        self._db: ladybug.Database | None = None
        self._conn: ladybug.Connection | None = None
        self._ro_conn: ladybug.Connection | None = None  # refreshed after each write
        self._ro_db: ladybug.Database | None = None
        self._dirty = False  # committed writes not yet checkpointed
        self._filled: set[str] = set()  # tables known to have rows
        self._load: _LoadMemory | None = None  # what the running `write_all` created

    # -- connections -------------------------------------------------------

    def _connection(self) -> ladybug.Connection:
        """The writable store's one connection."""
        if self._conn is None:
            self._db = _open_database(
                self._path,
                read_only=False,
                # Checkpointing after each large commit rewrites growing tables again and
                # again (a 1.27M-record load took 10.1 s instead of 7.2 s); commits stay
                # durable in the write-ahead log and `flush` checkpoints once per load.
                auto_checkpoint=False,
            )
            self._conn = ladybug.Connection(self._db)
        return self._conn

    def _read_only_connection(self) -> ladybug.Connection:
        """A writable store's connection the database itself refuses writes on."""
        self._connection()  # the store must exist and be open for writing
        self.flush()  # a read-only handle sees checkpointed data only
        if self._ro_conn is None:
            self._ro_db = _open_database(self._path, read_only=True)
            self._ro_conn = ladybug.Connection(self._ro_db)
        return self._ro_conn

    def _drop_read_only(self) -> None:
        if self._ro_conn is not None:
            self._ro_conn.close()
            self._ro_db.close()
        self._ro_conn = self._ro_db = None

    def flush(self) -> None:
        if self._dirty and self._conn is not None:
            self._conn.execute("CHECKPOINT")
            self._dirty = False
            self._drop_read_only()

    def close(self) -> None:
        """Close the handles; a read-only store's database closes when its running queries return."""
        if self._readers is not None:
            self._readers.close()
            return
        with self._lock:
            self.flush()
            self._drop_read_only()
            self._close_main()

    def is_available(self) -> bool:
        return self._path.exists()

    def _close_main(self) -> None:
        if self._conn is not None:
            self._conn.close()
            self._db.close()
        self._conn = self._db = None

    # -- schema ------------------------------------------------------------

    def init(self) -> None:
        self._refuse_if_read_only()
        conn = self._connection()
        for statement in ladybug_ddl():
            conn.execute(statement)
        self.check_version()
        if self.schema_version() == SCHEMA_VERSION:
            return  # already initialised: nothing to write, nothing to checkpoint
        conn.execute(
            f"MERGE (m:{META_LABEL} {{key: 'schema'}}) SET m.schema_version = $v",
            {"v": SCHEMA_VERSION},
        )
        self._dirty = True

    def schema_version(self) -> int | None:
        if self._readers is not None:
            with self._readers.connection() as conn:
                return _schema_version(conn)
        with self._lock:
            return _schema_version(self._connection())

    def reset(self) -> None:
        self._refuse_if_read_only()
        conn = self._connection()
        tables = conn.execute("CALL show_tables() RETURN name, type").get_all()
        for name, _kind in sorted(tables, key=lambda t: t[1] != "REL"):  # relationships first
            conn.execute(f"DROP TABLE {name}")
        self._filled.clear()
        self.init()

    # -- reading -----------------------------------------------------------

    def read(self, cypher, params=None, *, timeout=None, limit=None):
        if self._readers is not None:
            with self._readers.connection() as conn:
                return self._run(conn, cypher, params, timeout, limit)
        with self._lock:
            return self._run(self._read_only_connection(), cypher, params, timeout, limit)

    def execute(self, cypher, params=None):
        self._refuse_if_read_only()
        with self._lock:
            rows = self._run(self._connection(), cypher, params)
            self._dirty = True  # it may have written
            return rows

    def _refuse_if_read_only(self) -> None:
        if self._read_only:
            raise ReadOnlyError(f"{self.location} was opened read-only")

    def _run(self, conn, cypher, params, timeout=None, limit=None) -> list[dict[str, Any]]:
        conn.set_query_timeout(int(timeout * 1000) if timeout else 0)
        try:
            result = conn.execute(cypher, params or {})
        except RuntimeError as exc:
            message = str(exc)
            if "read-only" in message:
                raise ReadOnlyError(f"refused by the database (read-only): {message}") from exc
            if message.startswith("Interrupted"):
                raise QueryTimeout(f"query cancelled after {timeout} s") from exc
            raise StoreError(message) from exc
        finally:
            conn.set_query_timeout(0)
        names = result.get_column_names()
        raw = result.get_all() if limit is None else _first_rows(result, limit)
        rows = [dict(zip(names, map(_plain, row), strict=True)) for row in raw]
        result.close()
        return rows

    # -- writing -----------------------------------------------------------

    def write_all(self, records, batch_size=None, progress=None) -> WriteStats:
        self._load = _LoadMemory()
        try:
            return super().write_all(records, batch_size, progress)
        finally:
            self._load = None

    def _prepare(self, records) -> PreparedBatch:
        # Hashed while the previous batch is being written, off the writing thread's path.
        batch = super()._prepare(records)
        for table in (*batch.nodes, *batch.edges):
            _ = table.identity_hashes
        return batch

    def _write_batch(self, batch: PreparedBatch) -> WriteStats:
        self._refuse_if_read_only()
        self._connection()
        # A connection per batch: Ladybug's statement cache keys on each bound table's shape
        # and keeps the table alive, so one long-lived connection would hold every batch.
        conn = ladybug.Connection(self._db)
        try:
            return self._write_in_transaction(conn, batch)
        except WriteError:
            if not (self._load and self._load.trusted):
                raise
            # A key-only node taken as stored on its hash may not be (a collision): the batch
            # is written again with the database deciding everything, for the rest of the load.
            self._load = None
            return self._write_batch(batch)
        finally:
            conn.close()

    def _write_in_transaction(self, conn: ladybug.Connection, batch: PreparedBatch) -> WriteStats:
        stats = WriteStats()
        created: dict[str, pa.Array] = {}  # label -> keys this batch created
        conn.execute("BEGIN TRANSACTION")
        if self._load:
            self._load.trusted = False
        step = "nodes"
        try:
            for nodes in batch.nodes:
                step = f"{nodes.label} nodes"
                created[nodes.label], updated = self._upsert_nodes(conn, nodes)
                stats.nodes_created += len(created[nodes.label])
                stats.nodes_updated += updated
            for edges in batch.edges:
                step = f"{edges.type} relationships {edges.src_label}->{edges.dst_label}"
                new, updated = self._upsert_edges(conn, edges, created)
                stats.edges_created += new
                stats.edges_updated += updated
            conn.execute("COMMIT")
            self._dirty = True
            if self._load:
                self._load.commit()
        except Exception as exc:
            if self._load:
                self._load.rollback()
            with contextlib.suppress(RuntimeError):  # an engine error may have ended it already
                conn.execute("ROLLBACK")
            raise WriteError(f"batch rolled back while writing {step}: {exc}") from exc
        finally:
            self._drop_read_only()
        return stats

    def _upsert_nodes(self, conn, nodes: NodeTable) -> tuple[pa.Array, int]:
        spec = NODE_TYPES[nodes.label]
        keys = nodes.key_column
        match = f"MATCH (n:{spec.label} {{{spec.key}: k}})"
        everything = _positions(len(keys))
        table = f"MATCH (n:{spec.label}) RETURN 1 LIMIT 1"
        identities = nodes.identity_hashes if self._load else None
        stored, surely_new = self._split_known(conn, table, identities, everything, nodes.props)
        new, changed = self._update_stored(conn, match, "n", pa.table({"k": keys}), nodes.props, stored)
        new = pa.concat_arrays([surely_new, new])
        if self._load:
            self._load.remember(table, identities, new)
        if len(new):
            table = full_width_table(spec.all_props, {spec.key: keys}, nodes.props, new)
            conn.execute(f"COPY {spec.label} FROM $rows", {"rows": table})
        return keys.take(new), changed

    def _upsert_edges(self, conn, edges: EdgeTable, created: dict[str, pa.Array]) -> tuple[int, int]:
        rel = REL_TYPES[edges.type]
        src_key, dst_key = NODE_TYPES[edges.src_label].key, NODE_TYPES[edges.dst_label].key
        src, dst = edges.src_column, edges.dst_column
        # An edge touching a node this batch created cannot exist yet: only the rest is looked up.
        touches_new = pc.or_(
            pc.is_in(src, value_set=created.get(edges.src_label, pa.array([], pa.string()))),
            pc.is_in(dst, value_set=created.get(edges.dst_label, pa.array([], pa.string()))),
        )
        everything = _positions(len(src))
        match = (
            f"MATCH (a:{edges.src_label} {{{src_key}: s}})-[r:{edges.type}]->"
            f"(b:{edges.dst_label} {{{dst_key}: d}})"
        )
        unknown = everything.filter(pc.invert(touches_new))
        table = f"MATCH (:{edges.src_label})-[r:{edges.type}]->(:{edges.dst_label}) RETURN 1 LIMIT 1"
        identities = edges.identity_hashes if self._load else None
        stored, surely_new = self._split_known(conn, table, identities, unknown)
        keys = pa.table({"s": src, "d": dst})
        maybe_new, changed = self._update_stored(conn, match, "r", keys, edges.props, stored)
        new = pa.concat_arrays([everything.filter(touches_new), surely_new, maybe_new])
        if self._load:
            self._load.remember(table, identities, new)
        if len(new):
            columns = (Prop("from"), Prop("to"), *rel.all_props)
            table = full_width_table(columns, {"from": src, "to": dst}, edges.props, new)
            option = f" (from='{edges.src_label}', to='{edges.dst_label}')" if len(rel.endpoints) > 1 else ""
            conn.execute(f"COPY {edges.type} FROM $rows{option}", {"rows": table})
        return len(new), changed

    def _is_empty(self, conn, probe: str) -> bool:
        """Whether a table (or one endpoint pair of a relationship table) has no rows yet.

        Once it has rows it keeps them until a reset, so only emptiness is asked again.
        """
        if probe in self._filled:
            return False
        if conn.execute(probe).get_all():
            self._filled.add(probe)
            return False
        return True

    def _split_known(
        self, conn, table: str, identities, positions: pa.Array, node_props: pa.Table | None = None
    ) -> tuple[pa.Array, pa.Array]:
        """The positions that may already be stored, and those that surely are not.

        All are surely new in an empty table. In a table this load found empty, only what the
        load remembers creating can be stored; the database is asked about nothing else. A
        remembered node that carries only its key (an edge's endpoint) is taken as stored and
        left out of both: if a hash collision made that wrong, the relationship COPY fails and
        the batch is written again without the memory.
        """
        none = pa.array([], pa.int64())
        if self._is_empty(conn, table):
            if self._load:
                self._load.track(table)
            return none, positions
        if not (self._load and self._load.tracks(table)) or not len(positions):
            return positions, none
        seen = self._load.seen(table, identities[positions.to_numpy()])
        if node_props is not None:
            key_only = _key_only(node_props, len(identities))
            trusted = seen & key_only.take(positions).to_numpy(zero_copy_only=False)
            self._load.trusted |= bool(trusted.any())
            seen &= ~trusted
            return positions.filter(pa.array(seen)), positions.filter(pa.array(~(seen | trusted)))
        return positions.filter(pa.array(seen)), positions.filter(pa.array(~seen))

    @staticmethod
    def _update_stored(conn, match: str, var: str, keys: pa.Table, props: pa.Table, positions: pa.Array):
        """Overwrite changed properties of the records at `positions` already stored.

        Returns the positions (of those given) not stored yet, and how many changed.
        Existence is checked on keys alone, so a fresh load builds no extra table;
        the comparison runs in Ladybug over Arrow, so a re-run moves no rows through Python.
        """
        if not len(positions):
            return positions, 0
        probe = keys.take(positions).append_column("i", positions)
        stored = conn.execute(f"LOAD FROM $rows {match} RETURN i", {"rows": probe}).get_as_arrow()
        stored = stored.column("i").combine_chunks() if stored.num_rows else pa.array([], pa.int64())
        changed = 0
        if len(stored) and props.num_columns:
            found = keys.take(stored)
            for name in props.column_names:
                found = found.append_column(name, props.column(name).take(stored))
            fields = props.column_names
            differs = " OR ".join(
                f"(`{f}` IS NOT NULL AND ({var}.{f} IS NULL OR {var}.{f} <> `{f}`))" for f in fields
            )
            sets = ", ".join(f"{var}.{f} = coalesce(`{f}`, {var}.{f})" for f in fields)
            query = f"LOAD FROM $rows {match} WHERE {differs} SET {sets} RETURN count(*)"
            result = conn.execute(query, {"rows": found})
            changed = result.get_all()[0][0]
        return positions.filter(pc.invert(pc.is_in(positions, value_set=stored))), changed


class ReadPool:
    """Connections on one read-only database, lent to at most `size` queries at a time.

    Ladybug runs queries on different connections of one database side by side (each call
    releases the interpreter lock), so `size` queries proceed together and the rest wait for a
    connection. With `refresh_interval` set, a borrow at most that often compares the files with
    those the database was opened on; when another process changed them, the next borrows get a
    newly opened database, and the old one is closed once its last borrowed connection returns,
    never under a running query.
    """

    def __init__(self, path: Path, size: int, refresh_interval: float | None = None):
        self._path = path
        self._refresh_interval = refresh_interval
        # The connections share the cores rather than each taking all of them: one heavy query
        # then leaves room for the others and for the server answering requests.
        self._threads = max(1, _cores() // size)
        self._slots = _FairSlots(size)
        self._lock = threading.Lock()  # held only to lend and take back, never during a query
        self._current: _Snapshot | None = None
        self._checked = 0.0  # when the files were last compared with the current snapshot's

    @contextlib.contextmanager
    def connection(self) -> Iterator[ladybug.Connection]:
        """A connection for one query; waits while every connection is in use."""
        with self._slots:
            snapshot, conn = self._borrow()
            try:
                yield conn
            finally:
                self._give_back(snapshot, conn)

    def close(self) -> None:
        """Retire the database: closed now if idle, else when its last query returns."""
        with self._lock:
            retired, self._current = self._current, None
            finished = retired is not None and retired.retire()
        if finished:
            retired.close()

    def _borrow(self) -> tuple[_Snapshot, ladybug.Connection]:
        stale = None
        with self._lock:
            if self._current is not None and self._files_changed(self._current):
                stale, self._current = self._current, None
                if not stale.retire():
                    stale = None  # its last reader closes it
            if self._current is None:
                if not self._path.exists():
                    raise StoreError(f"no Uptake store at {self._path}: run `uptake build` first")
                signature = _files_signature(self._path)
                self._current = _Snapshot(_open_database(self._path, read_only=True), signature)
                self._checked = time.monotonic()
            snapshot = self._current
            conn = snapshot.lend(self._threads)
        if stale is not None:
            stale.close()
        return snapshot, conn

    def _give_back(self, snapshot: _Snapshot, conn: ladybug.Connection) -> None:
        with self._lock:
            finished = snapshot.take_back(conn)
        if finished:
            snapshot.close()

    def _files_changed(self, snapshot: _Snapshot) -> bool:
        if self._refresh_interval is None:
            return False
        now = time.monotonic()
        if now - self._checked < self._refresh_interval:
            return False
        self._checked = now
        changed = _files_signature(self._path)
        if changed == snapshot.signature:
            return False
        # Opening files another process is still writing crashed the engine: reopen only once
        # they have stayed the same for a moment, else keep the current copy and look again later.
        time.sleep(_SETTLE_SECONDS)
        return _files_signature(self._path) == changed


class _FairSlots:
    """A counting semaphore that serves waiters in arrival order.

    A freed slot is handed to the longest waiter, never taken back by the thread that freed it:
    with `threading.Semaphore` a thread leaving a query often re-entered first, and under 16
    clients some requests waited seconds while others went round many times.
    """

    def __init__(self, size: int):
        self._free = size
        self._waiters: collections.deque[threading.Event] = collections.deque()
        self._lock = threading.Lock()

    def __enter__(self) -> None:
        with self._lock:
            if self._free and not self._waiters:
                self._free -= 1
                return
            turn = threading.Event()
            self._waiters.append(turn)
        turn.wait()  # set once a slot was handed over: it is ours already

    def __exit__(self, *exc: object) -> None:
        with self._lock:
            if self._waiters:
                self._waiters.popleft().set()
            else:
                self._free += 1


class _Snapshot:
    """One opened read-only database, its idle connections and how many are lent out.

    Its methods are called under the pool's lock, except `close`, which runs once, after
    `retire` or `take_back` said the snapshot is retired and nothing is lent.
    """

    def __init__(self, db: ladybug.Database, signature: tuple):
        self.db = db
        self.signature = signature  # the files as of the opening
        self._idle: list[ladybug.Connection] = []
        self._lent = 0
        self._retired = False

    def lend(self, threads: int) -> ladybug.Connection:
        conn = self._idle.pop() if self._idle else ladybug.Connection(self.db, num_threads=threads)
        self._lent += 1
        return conn

    def take_back(self, conn: ladybug.Connection) -> bool:
        """Whether the snapshot is now retired with nothing lent (the caller then closes it)."""
        self._lent -= 1
        self._idle.append(conn)
        return self._retired and not self._lent

    def retire(self) -> bool:
        self._retired = True
        return not self._lent

    def close(self) -> None:
        for conn in self._idle:
            conn.close()
        self._idle.clear()
        self.db.close()


_SETTLE_SECONDS = 0.05


def _open_database(path: Path, *, read_only: bool, auto_checkpoint: bool = True) -> ladybug.Database:
    try:
        return ladybug.Database(
            str(path),
            read_only=read_only,
            buffer_pool_size=buffer_pool_bytes(),
            auto_checkpoint=auto_checkpoint,
            **address_space_options(),
        )
    except (RuntimeError, ValueError) as exc:  # ValueError: files caught mid-write by another process
        raise StoreError(f"cannot open Ladybug store {path}: {exc}") from exc


def _schema_version(conn: ladybug.Connection) -> int | None:
    tables = {row[0] for row in conn.execute("CALL show_tables() RETURN name").get_all()}
    if META_LABEL not in tables:
        return None
    rows = conn.execute(f"MATCH (m:{META_LABEL} {{key: 'schema'}}) RETURN m.schema_version").get_all()
    return rows[0][0] if rows else None


def _files_signature(path: Path) -> tuple:
    files = sorted(path.iterdir()) if path.is_dir() else [path, path.with_name(path.name + ".wal")]
    return tuple((f.name, s.st_mtime_ns, s.st_size) for f in files if (s := _stat(f)) is not None)


def _default_readers() -> int:
    """One connection per core, and at least two, so one slow query never holds every reader."""
    return max(2, _cores())


def _cores() -> int:
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


def _key_only(props: pa.Table, count: int) -> pa.Array:
    """Per row of `count`: no property known, only the key."""
    if not props.num_columns:
        return pa.array(np.ones(count, bool))
    return pc.invert(functools.reduce(pc.or_, (pc.is_valid(column) for column in props.columns)))


def _positions(count: int) -> pa.Array:
    return pa.array(np.arange(count, dtype=np.int64))


class _LoadMemory:
    """Hashed identities of what one `write_all` created in the tables it found empty.

    In such a table a record the load does not remember creating cannot be stored, so a fresh
    build never asks the database whether a record exists; a remembered hash (a repeat, or a
    rare collision) is still checked there. Past `cap` identities the memory is dropped and the
    database answers every question again, so the writer's memory stays bounded.
    """

    def __init__(self, cap: int = 8_000_000):
        self._known: dict[str, np.ndarray] = {}  # table -> sorted hashes
        self._pending: dict[str, list[np.ndarray]] = {}  # created by the open transaction
        self._cap = cap
        self.trusted = False  # whether the open batch took a key-only node as stored on its hash

    def track(self, table: str) -> None:
        self._known.setdefault(table, np.empty(0, np.int64))

    def tracks(self, table: str) -> bool:
        return table in self._known

    def seen(self, table: str, hashes: np.ndarray) -> np.ndarray:
        known = self._known[table]
        if not len(known):
            return np.zeros(len(hashes), bool)
        # Looked up in sorted order: walking `known` forwards is several times faster than
        # jumping around it in the order the batch happens to have.
        order = np.argsort(hashes)
        ordered = hashes[order]
        at = np.minimum(np.searchsorted(known, ordered), len(known) - 1)
        found = np.empty(len(hashes), bool)
        found[order] = known[at] == ordered
        return found

    def remember(self, table: str, identities: np.ndarray, positions: pa.Array) -> None:
        if table in self._known and len(positions):
            self._pending.setdefault(table, []).append(identities[positions.to_numpy()])

    def commit(self) -> None:
        for table, parts in self._pending.items():
            self._known[table] = np.sort(np.concatenate([self._known[table], *parts]))
        self._pending.clear()
        if sum(map(len, self._known.values())) > self._cap:
            self._known.clear()

    def rollback(self) -> None:
        self._pending.clear()


def full_width_table(columns, given: dict[str, pa.Array], props: pa.Table, positions) -> pa.Table:
    """Every column of the table, in declared order, for the rows at `positions` (COPY wants all).

    When `positions` names every row, in any order, the columns are used as they are: COPY does
    not care about row order, and a fresh build would otherwise copy each column once more.
    """
    count = len(positions)
    every = count == len(next(iter(given.values())))
    take = positions if isinstance(positions, pa.Array) else pa.array(positions, pa.int64())

    def rows(column):
        return column if every else column.take(take)

    out = {}
    for prop in columns:
        if prop.name in given:
            out[prop.name] = rows(given[prop.name])
        elif prop.name in props.column_names:
            out[prop.name] = rows(props.column(prop.name))
        else:
            out[prop.name] = pa.nulls(count, ARROW_TYPES[prop.type])
    return pa.table(out)


def _stat(path: Path) -> os.stat_result | None:
    try:
        return path.stat()
    except OSError:
        return None


def _first_rows(result, limit: int) -> list[list[Any]]:
    rows = []
    while len(rows) < limit and result.has_next():
        rows.append(result.get_next())
    return rows


def _plain(value: Any) -> Any:
    """Ladybug values as plain Python: nodes and relationships as property dicts."""
    if isinstance(value, dict):
        if "_nodes" in value and "_rels" in value:
            return {
                "nodes": [_plain(n) for n in value["_nodes"]],
                "relationships": [_plain(r) for r in value["_rels"]],
            }
        if "_LABEL" in value and "_SRC" in value:
            spec = REL_TYPES.get(value["_LABEL"])
            names = spec.prop_types if spec else {}
            return {
                "_type": value["_LABEL"],
                **{k: v for k, v in value.items() if k in names and v is not None},
            }
        if "_LABEL" in value:
            spec = NODE_TYPES.get(value["_LABEL"])
            names = spec.prop_types if spec else {}
            return {
                "_label": value["_LABEL"],
                **{k: v for k, v in value.items() if k in names and v is not None},
            }
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    return value
