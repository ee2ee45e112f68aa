"""CLI commands on the store itself: `uptake db init|info|reset|schema`."""

from __future__ import annotations

from typing import Annotated

import typer

from .display import print_json, print_rows
from .options import FormatOption, StoreOption


def register(app, load_app, connect, fail) -> None:
    """Add this area's commands; `connect(store)` opens a store, `fail(msg)` exits with an error."""
    db_app = typer.Typer(
        help="Create, inspect and empty a store.", no_args_is_help=True, pretty_exceptions_show_locals=False
    )
    app.add_typer(db_app, name="db")

    @db_app.command("init")
    def db_init(store: StoreOption = None) -> None:
        """Create the schema (idempotent)."""
        with connect(store) as s:
            typer.echo(f"{s.backend} store ready at {s.location}")

    @db_app.command("info")
    def db_info(store: StoreOption = None, format: FormatOption = "table") -> None:
        """Schema version and counts per label and relationship type."""
        with connect(store, read_only=True) as s:
            counts = s.counts()
            version = s.schema_version()
            if format == "json":  # one JSON document, nothing else on stdout
                about = {"backend": s.backend, "store": s.location, "schema_version": version}
                print_json({**about, "counts": counts})
                return
            if format == "table":  # a CSV is the rows only
                typer.echo(f"{s.backend} store at {s.location}, schema version {version}")
            print_rows([{"name": name, "count": n} for name, n in counts.items()], format)

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
        from ...graph.schema import SCHEMA_VERSION, schema_markdown

        typer.echo(f"Schema version {SCHEMA_VERSION}\n")
        typer.echo(schema_markdown())
