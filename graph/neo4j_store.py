"""Neo4j 5 through the official driver: a local server, Aura or a cluster alike.

Every batch is one managed write transaction of `UNWIND $rows ... MERGE`
statements, one per label and per relationship type and endpoint pair, so a
failing batch is rolled back whole and retried transient errors stay safe.
"""

from __future__ import annotations

import datetime as dt
import logging
from itertools import islice
from typing import Any

import neo4j
from neo4j.exceptions import ClientError, DriverError, Neo4jError, ServiceUnavailable
from neo4j.graph import Node as NeoNode
from neo4j.graph import Path as NeoPath
from neo4j.graph import Relationship as NeoRelationship

from .batch import PreparedBatch, rows_without_nulls
from .redaction import redact_secrets, redact_uri
from .schema import META_LABEL, NODE_TYPES, SCHEMA_VERSION
from .store import QueryTimeout, ReadOnlyError, Store, StoreError, WriteError, WriteStats


def neo4j_schema_statements() -> dict[str, str]:
    """Uniqueness constraints for every key, range indexes for indexed properties, by name."""
    statements = {
        "uptake_meta_key": f"CREATE CONSTRAINT uptake_meta_key IF NOT EXISTS FOR (n:{META_LABEL}) "
        "REQUIRE n.key IS UNIQUE"
    }
    for node in NODE_TYPES.values():
        name = node.label.lower()
        statements[f"{name}_key"] = (
            f"CREATE CONSTRAINT {name}_key IF NOT EXISTS FOR (n:{node.label}) REQUIRE n.{node.key} IS UNIQUE"
        )
        for prop in node.all_props[1:]:
            if prop.indexed:
                statements[f"{name}_{prop.name}"] = (
                    f"CREATE INDEX {name}_{prop.name} IF NOT EXISTS FOR (n:{node.label}) ON (n.{prop.name})"
                )
    return statements


class Neo4jStore(Store):
    backend = "neo4j"
    batch_size = 20_000  # one transaction's worth of UNWIND rows without straining the heap

    def __init__(self, uri: str, *, user: str, password: str, database: str | None = None):
        shown = redact_uri(uri)  # a password in the URI or its query string never reaches output
        self.location = shown if not database else f"{shown} (database {database})"
        # The server's notices ("property does not exist" where a label has no such property yet)
        # are expected for a partly loaded graph; the driver would log each as a warning. A caller
        # that set the level itself (`uptake --verbose`) keeps it.
        notices = logging.getLogger("neo4j.notifications")
        if notices.level == logging.NOTSET:
            notices.setLevel(logging.ERROR)
        self._database = database
        try:
            self._driver = neo4j.GraphDatabase.driver(uri, auth=(user, password))
            self._driver.verify_connectivity()
        except (ServiceUnavailable, Neo4jError, DriverError, ValueError, OSError) as exc:
            raise StoreError(redact_secrets(f"cannot reach Neo4j at {shown}: {exc}")) from exc

    def close(self) -> None:
        self._driver.close()

    def _session(self, read_only: bool) -> neo4j.Session:
        mode = neo4j.READ_ACCESS if read_only else neo4j.WRITE_ACCESS
        return self._driver.session(database=self._database, default_access_mode=mode)

    # -- schema ------------------------------------------------------------

    def init(self) -> None:
        with self._session(read_only=False) as session:
            existing = {r["name"] for r in session.run("SHOW CONSTRAINTS YIELD name")}
            existing |= {r["name"] for r in session.run("SHOW INDEXES YIELD name")}
            for name, statement in neo4j_schema_statements().items():
                if name not in existing:
                    session.run(statement).consume()
        self.check_version()
        self.execute(
            f"MERGE (m:{META_LABEL} {{key: 'schema'}}) SET m.schema_version = $v", {"v": SCHEMA_VERSION}
        )

    def schema_version(self) -> int | None:
        rows = self.read(f"MATCH (m:{META_LABEL} {{key: 'schema'}}) RETURN m.schema_version AS v")
        return rows[0]["v"] if rows else None

    def reset(self) -> None:
        # One transaction for a small graph. A large one is emptied in batches, relationships
        # first, so no transaction has to detach a hub node's hundreds of thousands at once.
        if self.read("MATCH (n) RETURN count(n) AS n")[0]["n"] <= 50_000:
            self.execute("MATCH (n) DETACH DELETE n")
        else:
            for statement in (
                "MATCH ()-[r]->() CALL (r) { DELETE r } IN TRANSACTIONS OF 50000 ROWS",
                "MATCH (n) CALL (n) { DELETE n } IN TRANSACTIONS OF 50000 ROWS",
            ):
                self._run(statement, read_only=False, implicit=True)
        self.init()

    # -- reading -----------------------------------------------------------

    def read(self, cypher, params=None, *, timeout=None, limit=None):
        return self._run(cypher, params, read_only=True, timeout=timeout, limit=limit)

    def execute(self, cypher, params=None):
        return self._run(cypher, params, read_only=False)

    def _run(self, cypher, params=None, *, read_only, timeout=None, limit=None, implicit=False):
        query = neo4j.Query(cypher, timeout=timeout)

        # Driver 6 takes a Query object only in session.run; managed transactions get the timeout here.
        @neo4j.unit_of_work(timeout=timeout)
        def work(tx):
            result = tx.run(cypher, params or {})
            records = result if limit is None else islice(result, limit)
            return [{k: _plain(v) for k, v in record.items()} for record in records]

        try:
            with self._session(read_only) as session:
                if implicit:  # CALL { } IN TRANSACTIONS needs an auto-commit transaction
                    return [{k: _plain(v) for k, v in r.items()} for r in session.run(query, params or {})]
                execute = session.execute_read if read_only else session.execute_write
                return execute(work)
        except ClientError as exc:
            code = exc.code or ""
            if "AccessMode" in code or "ForbiddenDueToTransactionType" in code or "WriteOnReadOnly" in code:
                raise ReadOnlyError(f"refused by the database (read-only): {exc.message}") from exc
            if "TransactionTimedOut" in code or "Terminated" in code:
                raise QueryTimeout(f"query cancelled after {timeout} s: {exc.message}") from exc
            raise StoreError(f"{code}: {exc.message}") from exc
        except Neo4jError as exc:
            raise StoreError(str(exc)) from exc

    # -- writing -----------------------------------------------------------

    def _write_batch(self, batch: PreparedBatch) -> WriteStats:
        statements = []
        for nodes in batch.nodes:
            key = NODE_TYPES[nodes.label].key
            props = rows_without_nulls(nodes.props, len(nodes.keys))
            statements.append(
                (
                    f"{nodes.label} nodes",
                    f"UNWIND $rows AS row MERGE (n:{nodes.label} {{{key}: row.k}}) SET n += row.p",
                    [{"k": k, "p": p} for k, p in zip(nodes.keys, props, strict=True)],
                )
            )
        for edges in batch.edges:
            src_key, dst_key = NODE_TYPES[edges.src_label].key, NODE_TYPES[edges.dst_label].key
            props = rows_without_nulls(edges.props, len(edges.identities))
            statements.append(
                (
                    f"{edges.type} relationships {edges.src_label}->{edges.dst_label}",
                    f"UNWIND $rows AS row MATCH (a:{edges.src_label} {{{src_key}: row.s}}) "
                    f"MATCH (b:{edges.dst_label} {{{dst_key}: row.d}}) "
                    f"MERGE (a)-[r:{edges.type}]->(b) SET r += row.p",
                    [{"s": s, "d": d, "p": p} for (s, d), p in zip(edges.identities, props, strict=True)],
                )
            )

        def work(tx) -> WriteStats:
            stats = WriteStats()
            for step, cypher, rows in statements:
                try:
                    counters = tx.run(cypher, rows=rows).consume().counters
                except Neo4jError as exc:
                    raise WriteError(f"batch rolled back while writing {step}: {exc}") from exc
                if " nodes" in step:
                    stats.nodes_created += counters.nodes_created
                    stats.nodes_updated += len(rows) - counters.nodes_created
                else:
                    stats.edges_created += counters.relationships_created
                    stats.edges_updated += len(rows) - counters.relationships_created
            return stats

        with self._session(read_only=False) as session:
            return session.execute_write(work)


def _plain(value: Any) -> Any:
    """Driver values as plain Python, in the same shapes the Ladybug store returns."""
    if isinstance(value, NeoNode):
        label = next((lb for lb in value.labels if lb in NODE_TYPES), next(iter(value.labels), ""))
        return {"_label": label, **{k: _plain(v) for k, v in value.items()}}
    if isinstance(value, NeoRelationship):
        return {"_type": value.type, **{k: _plain(v) for k, v in value.items()}}
    if isinstance(value, NeoPath):
        return {
            "nodes": [_plain(n) for n in value.nodes],
            "relationships": [_plain(r) for r in value.relationships],
        }
    if isinstance(value, list):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if hasattr(value, "to_native") and not isinstance(value, dt.date):
        return value.to_native()
    return value
