"""The embedded default: LadybugDB, one directory on disk, no server.

Writes use bulk `COPY` for records the graph does not have yet and a
`LOAD FROM ... SET` for records whose properties changed, inside one
transaction per batch. Row-wise `MERGE` degrades badly as Ladybug tables grow;
bulk copy does not, and checking which keys exist first keeps it idempotent.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import ladybug
import pyarrow as pa

from .records import ARROW_TYPES, EdgeTable, NodeTable, PreparedBatch
from .schema import META_LABEL, NODE_TYPES, REL_TYPES, SCHEMA_VERSION, Prop
from .store import QueryTimeout, ReadOnlyError, Store, StoreError, WriteError, WriteStats


def _columns(props: tuple[Prop, ...]) -> str:
    return ", ".join(f"{p.name} {p.type}" for p in props)


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
    backend = "ladybug"

    def __init__(self, path: str | Path, *, read_only: bool = False):
        self.location = str(path)
        self._path = Path(path)
        self._read_only = read_only
        self._db: ladybug.Database | None = None
        self._conn: ladybug.Connection | None = None
        self._ro_conn: ladybug.Connection | None = None  # refreshed after each write
        self._ro_db: ladybug.Database | None = None

    # -- connections -------------------------------------------------------

    def _connection(self) -> ladybug.Connection:
        if self._conn is None:
            if self._read_only and not self._path.exists():
                raise StoreError(f"no Uptake store at {self.location}: run `uptake build` first")
            try:
                self._db = ladybug.Database(str(self._path), read_only=self._read_only)
            except RuntimeError as exc:
                raise StoreError(f"cannot open Ladybug store {self.location}: {exc}") from exc
            self._conn = ladybug.Connection(self._db)
        return self._conn

    def _read_only_connection(self) -> ladybug.Connection:
        """A connection the database itself refuses writes on."""
        if self._read_only:
            return self._connection()
        self._connection()  # the store must exist and be open for writing
        if self._ro_conn is None:
            self._ro_db = ladybug.Database(str(self._path), read_only=True)
            self._ro_conn = ladybug.Connection(self._ro_db)
        return self._ro_conn

    def _drop_read_only(self) -> None:
        if self._ro_conn is not None:
            self._ro_conn.close()
            self._ro_db.close()
        self._ro_conn = self._ro_db = None

    def close(self) -> None:
        self._drop_read_only()
        if self._conn is not None:
            self._conn.close()
            self._db.close()
        self._conn = self._db = None

    # -- schema ------------------------------------------------------------

    def init(self) -> None:
        conn = self._connection()
        for statement in ladybug_ddl():
            conn.execute(statement)
        self.check_version()
        conn.execute(
            f"MERGE (m:{META_LABEL} {{key: 'schema'}}) SET m.schema_version = $v",
            {"v": SCHEMA_VERSION},
        )
        self._drop_read_only()

    def schema_version(self) -> int | None:
        conn = self._connection()
        tables = {row[0] for row in conn.execute("CALL show_tables() RETURN name").get_all()}
        if META_LABEL not in tables:
            return None
        rows = conn.execute(f"MATCH (m:{META_LABEL} {{key: 'schema'}}) RETURN m.schema_version").get_all()
        return rows[0][0] if rows else None

    def reset(self) -> None:
        conn = self._connection()
        tables = conn.execute("CALL show_tables() RETURN name, type").get_all()
        for name, _kind in sorted(tables, key=lambda t: t[1] != "REL"):  # relationships first
            conn.execute(f"DROP TABLE {name}")
        self.init()

    # -- reading -----------------------------------------------------------

    def read(self, cypher, params=None, *, read_only=True, timeout=None, limit=None):
        conn = self._read_only_connection() if read_only else self._connection()
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
        if not read_only:
            self._drop_read_only()
        return rows

    # -- writing -----------------------------------------------------------

    def _write_batch(self, batch: PreparedBatch) -> WriteStats:
        if self._read_only:
            raise ReadOnlyError(f"{self.location} was opened read-only")
        conn = self._connection()
        stats = WriteStats()
        conn.execute("BEGIN TRANSACTION")
        step = "nodes"
        try:
            for nodes in batch.nodes:
                step = f"{nodes.label} nodes"
                created, updated = self._upsert_nodes(conn, nodes)
                stats.nodes_created += created
                stats.nodes_updated += updated
            for edges in batch.edges:
                step = f"{edges.type} relationships {edges.src_label}->{edges.dst_label}"
                created, updated = self._upsert_edges(conn, edges)
                stats.edges_created += created
                stats.edges_updated += updated
            conn.execute("COMMIT")
        except Exception as exc:
            conn.execute("ROLLBACK")
            raise WriteError(f"batch rolled back while writing {step}: {exc}") from exc
        finally:
            self._drop_read_only()
        return stats

    def _upsert_nodes(self, conn, nodes: NodeTable) -> tuple[int, int]:
        spec = NODE_TYPES[nodes.label]
        match = f"MATCH (n:{spec.label} {{{spec.key}: k}})"
        new, changed = self._update_stored(conn, match, "n", {"k": nodes.keys}, nodes.props)
        if new:
            keys = {spec.key: pa.array(nodes.keys, pa.string())}
            table = full_width_table(spec.all_props, keys, nodes.props, new)
            conn.execute(f"COPY {spec.label} FROM $rows", {"rows": table})
        return len(new), changed

    def _upsert_edges(self, conn, edges: EdgeTable) -> tuple[int, int]:
        rel = REL_TYPES[edges.type]
        src_key, dst_key = NODE_TYPES[edges.src_label].key, NODE_TYPES[edges.dst_label].key
        match = (
            f"MATCH (a:{edges.src_label} {{{src_key}: s}})-[r:{edges.type}]->"
            f"(b:{edges.dst_label} {{{dst_key}: d}})"
        )
        key_columns = {"s": edges.src_keys, "d": edges.dst_keys}
        new, changed = self._update_stored(conn, match, "r", key_columns, edges.props)
        if new:
            ends = {
                "from": pa.array(edges.src_keys, pa.string()),
                "to": pa.array(edges.dst_keys, pa.string()),
            }
            columns = (Prop("from"), Prop("to"), *rel.all_props)
            table = full_width_table(columns, ends, edges.props, new)
            option = f" (from='{edges.src_label}', to='{edges.dst_label}')" if len(rel.endpoints) > 1 else ""
            conn.execute(f"COPY {edges.type} FROM $rows{option}", {"rows": table})
        return len(new), changed

    @staticmethod
    def _update_stored(
        conn, match: str, var: str, key_columns: dict, props: pa.Table
    ) -> tuple[list[int], int]:
        """Overwrite changed properties of records already stored, in the database.

        Returns the positions of the records not stored yet, and how many changed.
        Existence is checked on keys alone, so a fresh load builds no extra table;
        the comparison runs in Ladybug over Arrow, so a re-run moves no rows through Python.
        """
        count = len(next(iter(key_columns.values())))
        keys = pa.table(
            {"i": pa.array(range(count), pa.int64())}
            | {c: pa.array(values, pa.string()) for c, values in key_columns.items()}
        )
        stored = conn.execute(f"LOAD FROM $rows {match} RETURN i", {"rows": keys}).get_as_arrow()
        stored = stored.column("i").to_pylist()
        changed = 0
        if stored and props.num_columns:
            found = keys.take(stored)
            for name in props.column_names:
                found = found.append_column(name, props.column(name).take(stored))
            fields = props.column_names
            differs = " OR ".join(
                f"(`{f}` IS NOT NULL AND ({var}.{f} IS NULL OR {var}.{f} <> `{f}`))" for f in fields
            )
            sets = ", ".join(f"{var}.{f} = coalesce(`{f}`, {var}.{f})" for f in fields)
            result = conn.execute(
                f"LOAD FROM $rows {match} WHERE {differs} SET {sets} RETURN count(*)", {"rows": found}
            )
            changed = result.get_all()[0][0]
        stored_set = set(stored)
        return [i for i in range(count) if i not in stored_set], changed


def full_width_table(columns, given: dict[str, pa.Array], props: pa.Table, positions: list[int]) -> pa.Table:
    """Every column of the table, in declared order, for the rows at `positions` (COPY wants all)."""
    take = pa.array(positions, pa.int64())
    out = {}
    for prop in columns:
        if prop.name in given:
            out[prop.name] = given[prop.name].take(take)
        elif prop.name in props.column_names:
            out[prop.name] = props.column(prop.name).take(take)
        else:
            out[prop.name] = pa.nulls(len(positions), ARROW_TYPES[prop.type])
    return pa.table(out)


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
