"""CLI commands that read: `uptake queries`, `uptake query NAME`, `uptake cypher STATEMENT`."""

from __future__ import annotations

from typing import Annotated

import typer

from ...graph.adhoc import AdhocLimits, run_adhoc
from ...graph.cypher_guard import check_statement
from ...graph.store import StoreError, resolve_store_target
from ...queries import QueryError, load_queries, parse_params
from ...queries.run import bind_params, run_query, stored_query
from .display import print_rows
from .options import FormatOption, StoreOption

CLI_MAX_ROWS = 1_000_000  # the byte cap (UPTAKE_ADHOC_MAX_BYTES) usually binds first
ParamOption = Annotated[list[str] | None, typer.Option("--param", "-p", help="k=v, repeatable")]


def register(app, load_app, connect, fail) -> None:
    """Add this area's commands; `connect(store)` opens a store, `fail(msg)` exits with an error."""

    @app.command("queries")
    def list_queries(format: FormatOption = "table") -> None:
        """List the stored queries with their parameters."""
        rows = [
            {
                "name": q.name,
                "description": q.description,
                "parameters": ", ".join(p.signature for p in q.params),
            }
            for q in load_queries().values()
        ]
        print_rows(rows, format)

    @app.command("query")
    def query_command(
        name: Annotated[str, typer.Argument(help="a stored query, see `uptake queries`")],
        param: ParamOption = None,
        store: StoreOption = None,
        format: FormatOption = "table",
    ) -> None:
        """Run a stored query with validated parameters."""
        try:  # a bad name or parameter is reported before the store is opened
            query = stored_query(name)
            values = parse_params(param or [])
            bind_params(query, values)
        except QueryError as exc:
            fail(str(exc))
        with connect(store, read_only=True) as s:
            try:
                print_rows(run_query(s, query, values).rows, format)
            except (StoreError, QueryError) as exc:
                fail(str(exc))

    @app.command("cypher")
    def cypher(
        statement: Annotated[str, typer.Argument(help="a read-only Cypher statement")],
        param: ParamOption = None,
        store: StoreOption = None,
        format: FormatOption = "table",
        timeout: Annotated[float, typer.Option(help="seconds before the database cancels it")] = 30.0,
    ) -> None:
        """Run ad-hoc Cypher: read clauses only, checked before the database sees it."""
        try:  # limits and the statement check before the store is even opened
            limits = AdhocLimits.from_env(timeout=timeout, max_rows=CLI_MAX_ROWS)
            check_statement(statement)
        except ValueError as exc:
            fail(str(exc))
        with connect(store, read_only=True):
            pass  # a missing store or an old schema reported as for every command
        target = resolve_store_target(store)
        try:
            # A separate process under a memory limit: a crash or runaway query cannot take this one down.
            result = run_adhoc(target, statement, parse_params(param or []), limits=limits)
        except (StoreError, QueryError, ValueError) as exc:
            fail(str(exc))
        print_rows(result.rows, format)
        if result.truncated:
            typer.secho(f"(truncated to {len(result.rows)} rows by {result.cut_by})", err=True)
