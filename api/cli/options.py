"""What every command shares, declared once: the --store and --format options, opening the store, the
framework look-up."""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, NoReturn

import typer

from ...graph.store import Store, StoreError, open_store
from .errors import fail

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


def read_catalog_or_fail(
    fail: Callable[[str], NoReturn], store: str | None = None, *, shipped_only: bool = False
):
    """The catalog a command works with: the shipped one and the frameworks the user added to the
    store (`uptake framework add`), or the CLI's error naming the bad row."""
    from ...loaders.catalog import CatalogError, read_catalog
    from ...sync.frameworks import store_catalog

    try:
        return read_catalog() if shipped_only else store_catalog(store)
    except CatalogError as exc:
        fail(f"cannot read the catalog: {exc}")


def framework_entry(catalog, name: str, fail: Callable[[str], NoReturn]):
    """The one framework look-up of every command: any spelling the catalog knows (slug, name,
    repository), else an error listing the known slugs."""
    entry = catalog.find_framework(name)
    if entry is None:
        fail(f"unknown framework {name!r}; known: {', '.join(sorted(catalog.frameworks))}")
    return entry


def connect(store: str | None, *, read_only: bool = False) -> Store:
    """The store a command works on: created if missing when writing, version-checked when reading."""
    try:
        s = open_store(store, read_only=read_only)
        if not read_only:
            s.init()
        else:
            s.check_version()
        return s
    except StoreError as exc:
        fail(str(exc))
