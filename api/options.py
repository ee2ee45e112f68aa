"""Options every command shares, declared once."""

from __future__ import annotations

from typing import Annotated

import typer

StoreOption = Annotated[
    str | None,
    typer.Option(
        "--store",
        "-s",
        help="Ladybug directory, or bolt:// / neo4j:// / neo4j+s:// URI; "
        "default $UPTAKE_STORE, else ./uptake.lbug",
    ),
]
FormatOption = Annotated[str, typer.Option("--format", "-f", help="table, json or csv")]
