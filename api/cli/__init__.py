"""The `uptake` command: a thin veneer over the library, one module per command group.

Every command takes its store from --store, else $UPTAKE_STORE, else
./uptake.lbug (see `uptake.graph.store.open_store`).
"""

from __future__ import annotations

import sys
from typing import Annotated

import typer

from . import arxiv, build, db, export, framework, git, github, query, serve
from .errors import UserErrorsAsOneLine, fail
from .options import connect

app = typer.Typer(
    help="Uptake: how RL post-training methods travel from papers into frameworks.",
    no_args_is_help=True,
    cls=UserErrorsAsOneLine,
    pretty_exceptions_show_locals=False,  # locals hold tokens and passwords
)
load_app = typer.Typer(
    help="Run one loader into a store.", no_args_is_help=True, pretty_exceptions_show_locals=False
)
app.add_typer(load_app, name="load")


@app.callback()
def _global_options(
    debug: Annotated[bool, typer.Option("--debug", help="show the traceback of an input error")] = False,
) -> None:
    """Uptake: how RL post-training methods travel from papers into frameworks."""


for group in (db, build, framework, query, git, arxiv, github, serve, export):
    group.register(app, load_app, connect, fail)


def main() -> None:
    try:
        app()
    except BrokenPipeError:  # `uptake ... | head` is fine
        sys.stderr.close()


if __name__ == "__main__":
    main()
