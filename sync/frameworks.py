"""Frameworks a user adds: where their catalog file lives for a store, and adding or removing one
in that file and in the store together.

The file (`loaders/user_frameworks.py` reads and writes it) is the user's catalog; the store
holds its `Framework` nodes. A change is checked whole, written to the store, and only then moved
into place as the file, so a refused or failed change leaves both as they were.
"""

from __future__ import annotations

import os
from pathlib import Path
from urllib.parse import urlsplit

from ..graph.batch import prepare_batch
from ..graph.store import NEO4J_SCHEMES, Store, resolve_store_target
from ..loaders.catalog import Catalog, FrameworkEntry, catalog_records, read_catalog
from ..loaders.user_frameworks import Addition, user_entries, write_user_frameworks
from .report import SyncReport
from .state import change_state

USER_FRAMEWORKS_SUFFIX = ".frameworks.jsonl"


def _config_root() -> Path:
    base = os.environ.get("XDG_CONFIG_HOME") or os.path.expanduser("~/.config")
    return Path(base) / "uptake"


def user_frameworks_path(target: str | None = None) -> Path:
    """The user's framework catalog for a store: `$UPTAKE_FRAMEWORKS` if set; beside a Ladybug
    store (`graph.lbug` -> `graph.frameworks.jsonl`); for a Neo4j server, a file per server and
    database under `$XDG_CONFIG_HOME/uptake/neo4j/` (`~/.config/uptake/neo4j/`)."""
    if os.environ.get("UPTAKE_FRAMEWORKS"):
        return Path(os.environ["UPTAKE_FRAMEWORKS"])
    target = resolve_store_target(target)
    if target.startswith(NEO4J_SCHEMES):
        url = urlsplit(target)  # host and port only: a URI may carry a password
        database = os.environ.get("NEO4J_DATABASE") or "default"
        name = f"{url.hostname or 'localhost'}-{url.port or 7687}-{database}"
        return _config_root() / "neo4j" / (name + USER_FRAMEWORKS_SUFFIX)
    path = Path(target.rstrip("/\\") or ".")
    stem = path.name.removesuffix(".lbug") or "uptake"
    return path.with_name(stem + USER_FRAMEWORKS_SUFFIX)


def store_catalog(target: str | None = None) -> Catalog:
    """The shipped catalog with the frameworks the user added to this store."""
    return read_catalog(user_frameworks=user_frameworks_path(target))


def add_framework(store: Store, target: str | None, catalog: Catalog, addition: Addition) -> SyncReport:
    """Write the added framework, with the catalog its commits link to, into the store; then the file."""
    entries = [e for e in user_entries(catalog) if e.repo != addition.entry.repo] + [addition.entry]
    return _change(store, target, entries, f"framework {addition.entry.slug} {addition.change}")


def remove_framework(store: Store, target: str | None, catalog: Catalog, entry: FrameworkEntry) -> SyncReport:
    """Remove a user's framework from the store (everything mined or fetched for it) and the file."""
    entries = [e for e in user_entries(catalog) if e.slug != entry.slug]
    return _change(store, target, entries, f"framework {entry.slug} removed", removed=entry.slug)


def _change(
    store: Store, target: str | None, entries: list[FrameworkEntry], step: str, removed: str | None = None
) -> SyncReport:
    path = user_frameworks_path(target)
    pending = write_user_frameworks(path, entries)
    try:
        catalog = read_catalog(user_frameworks=pending)  # the new file, checked as a user's edit would be
        report = SyncReport(step, sources=[str(path)])
        if removed is None:
            # The whole catalog, so that a fresh store has the methods the framework's commits link to.
            records = list(catalog_records(catalog))
            prepare_batch(records)
            report.add(store.write(records))
        else:
            for part in ("reports", "parts", "rules", "node"):
                rows = change_state(store, f"framework-remove-{part}", {"slug": removed})
                report.notes.append(f"{rows[0]['removed'] if rows else 0} {part} removed")
    except BaseException:
        pending.unlink(missing_ok=True)
        raise
    pending.replace(path)
    return report
