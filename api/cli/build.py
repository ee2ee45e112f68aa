"""CLI commands that fill a store from what Uptake ships: `uptake build`, `uptake load catalog`."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from ...graph.store import StoreError
from .display import print_report, progress_bar
from .options import StoreOption, read_catalog_or_fail


def register(app, load_app, connect, fail) -> None:
    """Add this area's commands; `connect(store)` opens a store, `fail(msg)` exits with an error."""

    @load_app.command("catalog")
    def load_catalog_command(
        store: StoreOption = None,
        folder: Annotated[
            Path | None,
            typer.Option("--folder", help="a catalog folder; default: the one shipped with Uptake"),
        ] = None,
    ) -> None:
        """The method and framework catalog shipped with Uptake, and the frameworks added to this store."""
        from ...loaders.catalog import CatalogError, read_catalog
        from ...sync.catalog import sync_catalog
        from ...sync.frameworks import user_frameworks_path

        with connect(store) as s:
            try:
                report = sync_catalog(s, catalog=read_catalog(folder, user_frameworks_path(store)))
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
        from ...sync.build import run_build

        catalog = read_catalog_or_fail(fail, store)
        with connect(store) as s:
            try:
                for report in run_build(s, offline=offline, progress=progress_bar, catalog=catalog):
                    print_report(report)
            except (StoreError, ValueError) as exc:
                fail(str(exc))
