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

from .records import Batch
from .schema import META_LABEL, NODE_TYPES, REL_TYPES, SCHEMA_VERSION, NodeType, Prop
from .store import QueryTimeout, ReadOnlyError, Store, StoreError, WriteError, WriteStats

ARROW_TYPES = {
    "STRING": pa.string(),
    "INT64": pa.int64(),
    "DOUBLE": pa.float64(),
    "BOOL": pa.bool_(),
    "DATE": pa.date32(),
    "STRING[]": pa.list_(pa.string()),
}


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


def _arrow(rows: list[dict[str, Any]], columns: dict[str, str]) -> pa.Table:
    """A typed Arrow table; explicit types keep nulls and empty lists unambiguous."""
    return pa.table(
        {
            name: pa.array([row.get(name) for row in rows], ARROW_TYPES[type_])
            for name, type_ in columns.items()
        }
    )


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

    def _write_batch(self, batch: Batch) -> WriteStats:
        if self._read_only:
            raise ReadOnlyError(f"{self.location} was opened read-only")
        conn = self._connection()
        stats = WriteStats()
        conn.execute("BEGIN TRANSACTION")
        step = "nodes"
        try:
            for label, rows in batch.nodes.items():
                step = f"{label} nodes"
                created, updated = self._upsert_nodes(conn, NODE_TYPES[label], rows)
                stats.nodes_created += created
                stats.nodes_updated += updated
            for (rel_type, src_label, dst_label), pairs in batch.edges.items():
                step = f"{rel_type} relationships {src_label}->{dst_label}"
                created, updated = self._upsert_edges(conn, rel_type, src_label, dst_label, pairs)
                stats.edges_created += created
                stats.edges_updated += updated
            conn.execute("COMMIT")
        except Exception as exc:
            conn.execute("ROLLBACK")
            raise WriteError(f"batch rolled back while writing {step}: {exc}") from exc
        finally:
            self._drop_read_only()
        return stats

    def _upsert_nodes(self, conn, spec: NodeType, rows: dict[str, dict]) -> tuple[int, int]:
        types = spec.prop_types
        fields = sorted({name for props in rows.values() for name in props})
        found = self._existing(
            conn,
            f"LOAD FROM $keys MATCH (n:{spec.label} {{{spec.key}: k}}) RETURN k"
            + "".join(f", n.{f}" for f in fields),
            pa.table({"k": pa.array(list(rows), pa.string())}),
            fields,
        )
        new = [{spec.key: key, **props} for key, props in rows.items() if key not in found]
        if new:
            conn.execute(f"COPY {spec.label} FROM $rows", {"rows": _arrow(new, types)})
        changed = [{"k": key, **props} for key, props in rows.items() if _differs(props, found.get(key))]
        if changed:
            self._set_changed(conn, f"MATCH (n:{spec.label} {{{spec.key}: k}})", "n", changed, types)
        return len(new), len(changed)

    def _upsert_edges(self, conn, rel_type, src_label, dst_label, pairs) -> tuple[int, int]:
        rel = REL_TYPES[rel_type]
        types = rel.prop_types
        src_key, dst_key = NODE_TYPES[src_label].key, NODE_TYPES[dst_label].key
        match = f"MATCH (a:{src_label} {{{src_key}: s}})-[r:{rel_type}]->(b:{dst_label} {{{dst_key}: d}})"
        fields = sorted({name for props in pairs.values() for name in props})
        found = self._existing(
            conn,
            f"LOAD FROM $keys {match} RETURN s, d" + "".join(f", r.{f}" for f in fields),
            pa.table(
                {
                    "s": pa.array([p[0] for p in pairs], pa.string()),
                    "d": pa.array([p[1] for p in pairs], pa.string()),
                }
            ),
            fields,
            key_width=2,
        )
        new = [{"from": s, "to": d, **props} for (s, d), props in pairs.items() if (s, d) not in found]
        if new:
            rows = _arrow(new, {"from": "STRING", "to": "STRING", **types})
            option = f" (from='{src_label}', to='{dst_label}')" if len(rel.endpoints) > 1 else ""
            conn.execute(f"COPY {rel_type} FROM $rows{option}", {"rows": rows})
        changed = [
            {"s": s, "d": d, **props} for (s, d), props in pairs.items() if _differs(props, found.get((s, d)))
        ]
        if changed:
            self._set_changed(conn, match, "r", changed, types)
        return len(new), len(changed)

    @staticmethod
    def _existing(conn, query: str, keys: pa.Table, fields: list[str], key_width: int = 1) -> dict:
        """Stored values of `fields` for the keys that already exist."""
        found = {}
        for row in conn.execute(query, {"keys": keys}).get_all():
            key = row[0] if key_width == 1 else tuple(row[:key_width])
            found[key] = dict(zip(fields, row[key_width:], strict=True))
        return found

    @staticmethod
    def _set_changed(conn, match: str, var: str, rows: list[dict], types: dict[str, str]) -> None:
        """Overwrite changed properties; LOAD FROM binds each column as a variable."""
        keys = {c: "STRING" for c in ("k", "s", "d") if c in rows[0]}
        fields = sorted({name for row in rows for name in row} - set(keys))
        changes = _arrow(rows, {**keys, **{f: types[f] for f in fields}})
        sets = ", ".join(f"{var}.{f} = coalesce(`{f}`, {var}.{f})" for f in fields)
        conn.execute(f"LOAD FROM $rows {match} SET {sets}", {"rows": changes})


def _first_rows(result, limit: int) -> list[list[Any]]:
    rows = []
    while len(rows) < limit and result.has_next():
        rows.append(result.get_next())
    return rows


def _differs(new: dict, stored: dict | None) -> bool:
    return stored is not None and any(stored.get(name) != value for name, value in new.items())


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
