"""The `uptake` command: a thin veneer over the library.

Every command takes its store from --store, else $UPTAKE_STORE, else
./uptake.lbug (see `uptake.graph.store.open_store`).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Annotated

import click
import requests
import typer
from typer.core import TyperGroup

from ..graph.adhoc import AdhocLimits, run_adhoc
from ..graph.cypher_guard import check_statement
from ..graph.redaction import redact_secrets
from ..graph.store import DEFAULT_STORE, StoreError, open_store
from ..loaders.input_error import InputError
from ..queries import QueryError, load_queries, parse_params
from ..queries.run import bind_params, run_query, stored_query
from . import commands_arxiv, commands_git, commands_github, commands_serve, commands_viz
from .display import print_report, print_rows, progress_bar
from .options import FormatOption, StoreOption


class _UserErrorsAsOneLine(TyperGroup):
    """Bad input ends in one line naming file, line and field, exit status 1; `--debug` shows why."""

    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except InputError as exc:
            if _debugging():
                raise
            typer.secho(f"error: {redact_secrets(str(exc))}", fg=typer.colors.RED, err=True)
            raise typer.Exit(1) from None
        except (requests.ConnectionError, requests.Timeout) as exc:
            if _debugging():
                raise
            # A network failure is the environment's, not a bug: one line, the URL without secrets.
            typer.secho(f"error: network: {redact_secrets(str(exc))}", fg=typer.colors.RED, err=True)
            raise typer.Exit(1) from None


app = typer.Typer(
    help="Uptake: how RL post-training methods travel from papers into frameworks.",
    no_args_is_help=True,
    cls=_UserErrorsAsOneLine,
    pretty_exceptions_show_locals=False,  # locals hold tokens and passwords
)
db_app = typer.Typer(
    help="Create, inspect and empty a store.", no_args_is_help=True, pretty_exceptions_show_locals=False
)
load_app = typer.Typer(
    help="Run one loader into a store.", no_args_is_help=True, pretty_exceptions_show_locals=False
)
app.add_typer(db_app, name="db")
app.add_typer(load_app, name="load")


@app.callback()
def _global_options(
    debug: Annotated[bool, typer.Option("--debug", help="show the traceback of an input error")] = False,
) -> None:
    """Uptake: how RL post-training methods travel from papers into frameworks."""


def _debugging() -> bool:
    ctx = click.get_current_context(silent=True)
    return bool(ctx and ctx.find_root().params.get("debug"))


def fail(message: str) -> None:
    if _debugging() and sys.exc_info()[1] is not None:
        raise  # fail() is called in an except block: --debug shows the error being handled
    typer.secho(f"error: {redact_secrets(message)}", fg=typer.colors.RED, err=True)
    raise typer.Exit(1)


def connect(store: str | None, *, read_only: bool = False):
    try:
        s = open_store(store, read_only=read_only)
        if not read_only:
            s.init()
        else:
            s.check_version()
        return s
    except StoreError as exc:
        fail(str(exc))


@db_app.command("init")
def db_init(store: StoreOption = None) -> None:
    """Create the schema (idempotent)."""
    with connect(store) as s:
        typer.echo(f"{s.backend} store ready at {s.location}")


@db_app.command("info")
def db_info(store: StoreOption = None, format: FormatOption = "table") -> None:
    """Schema version and counts per label and relationship type."""
    with connect(store, read_only=True) as s:
        rows = [{"name": name, "count": n} for name, n in s.counts().items()]
        typer.echo(f"{s.backend} store at {s.location}, schema version {s.schema_version()}")
        print_rows(rows, format)


@db_app.command("reset")
def db_reset(
    store: StoreOption = None,
    yes: Annotated[bool, typer.Option("--yes", help="do not ask")] = False,
) -> None:
    """Delete everything in the store and recreate the empty schema."""
    if not yes:
        typer.confirm("Delete every node and relationship in the store?", abort=True)
    with connect(store) as s:
        s.reset()
        typer.echo(f"emptied {s.location}")


@db_app.command("schema")
def db_schema() -> None:
    """Print the schema (labels, keys, properties, relationships) as Markdown."""
    from ..graph.schema import SCHEMA_VERSION, schema_markdown

    typer.echo(f"Schema version {SCHEMA_VERSION}\n")
    typer.echo(schema_markdown())


@load_app.command("catalog")
def load_catalog_command(
    store: StoreOption = None,
    folder: Annotated[
        Path | None, typer.Option("--folder", help="a catalog folder; default: the one shipped with Uptake")
    ] = None,
) -> None:
    """The method and framework catalog shipped with Uptake."""
    from ..loaders.catalog import CatalogError
    from ..sync.catalog import sync_catalog

    with connect(store) as s:
        try:
            report = sync_catalog(s, folder)
        except CatalogError as exc:
            fail(str(exc))
        print_report(report)


@app.command("build")
def build(
    store: StoreOption = None,
    offline: Annotated[
        bool,
        typer.Option(
            "--offline/--online",
            help="only what is on this machine; --online also fetches every framework's history",
        ),
    ] = True,
) -> None:
    """Run every loader that has data into the store, one line per step."""
    from ..sync.build import run_build

    with connect(store) as s:
        try:
            for report in run_build(s, offline=offline, progress=progress_bar):
                print_report(report)
        except (StoreError, ValueError) as exc:
            fail(str(exc))


@app.command("queries")
def list_queries(format: FormatOption = "table") -> None:
    """List the stored queries with their parameters."""
    rows = [
        {"name": q.name, "description": q.description, "parameters": ", ".join(p.signature for p in q.params)}
        for q in load_queries().values()
    ]
    print_rows(rows, format)


@app.command("query")
def query_command(
    name: Annotated[str, typer.Argument(help="a stored query, see `uptake queries`")],
    param: Annotated[list[str] | None, typer.Option("--param", "-p", help="k=v, repeatable")] = None,
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


CLI_MAX_ROWS = 1_000_000  # the byte cap (UPTAKE_ADHOC_MAX_BYTES) usually binds first


@app.command("cypher")
def cypher(
    statement: Annotated[str, typer.Argument(help="a read-only Cypher statement")],
    param: Annotated[list[str] | None, typer.Option("--param", "-p", help="k=v, repeatable")] = None,
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
    target = store or os.environ.get("UPTAKE_STORE") or DEFAULT_STORE
    try:
        # A separate process under a memory limit: a crash or runaway query cannot take this one down.
        result = run_adhoc(target, statement, parse_params(param or []), limits=limits)
    except (StoreError, QueryError, ValueError) as exc:
        fail(str(exc))
    print_rows(result.rows, format)
    if result.truncated:
        typer.secho(f"(truncated to {len(result.rows)} rows by {result.cut_by})", err=True)


commands_git.register(app, load_app, connect, fail)
commands_arxiv.register(app, load_app, connect, fail)
commands_github.register(app, load_app, connect, fail)
commands_serve.register(app, load_app, connect, fail)
commands_viz.register(app, load_app, connect, fail)


def main() -> None:
    try:
        app()
    except BrokenPipeError:  # `uptake ... | head` is fine
        sys.stderr.close()


if __name__ == "__main__":
    main()
