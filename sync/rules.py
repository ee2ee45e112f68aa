"""Contribution rules, read from the frameworks' own trees, into a store."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from ..graph.store import Store
from ..loaders.cache import clone_path, clones_dir
from ..loaders.catalog import Catalog, read_catalog
from ..loaders.rules import GitTree, rule_records
from .report import SyncReport
from .state import read_state


def sync_rules(
    store: Store, framework: str, git_dir: Path, rev: str = "HEAD", *, head_moved: bool = True
) -> SyncReport:
    """One framework's rules at `rev` (upserted by kind; none removed). With `head_moved` False
    (the mining run found HEAD where it was), stored rules are kept without reading the tree:
    they were read at this head, by the last update or from the data release."""
    report = SyncReport(f"contribution rules of {framework}")
    if not head_moved and read_state(store, "framework-rule-count", {"slug": framework})[0]["rules"]:
        report.notes.append("unchanged: HEAD has not moved since they were read")
        return report
    report.add(store.write(list(rule_records(framework, GitTree(git_dir, rev)))))
    return report


def sync_rules_offline(
    store: Store, progress: Callable[[int], None] | None = None, catalog: Catalog | None = None
) -> SyncReport:
    """Build step: rules of every catalog framework whose clone is already on disk; no network."""
    report = SyncReport("contribution rules")
    missing = []
    for slug, entry in (catalog or read_catalog()).frameworks.items():
        git_dir = clone_path(entry.repo)
        if not git_dir.exists():
            missing.append(slug)
            continue
        report.add(sync_rules(store, slug, git_dir).written)
        report.sources.append(slug)
        if progress:
            progress(1)
    if missing:
        report.skipped.append(
            f"{', '.join(missing)}: no local clone in {clones_dir()}, so their rules are the data "
            "release's, read at the mined heads; for newer ones run `uptake update`"
        )
    return report
