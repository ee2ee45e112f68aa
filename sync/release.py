"""The shipped data release of the frameworks' histories into a store."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from ..graph.batch import prepare_batch
from ..graph.records import Node, Record
from ..graph.store import Store
from ..loaders.release import data_release_records, release_heads
from .report import SyncReport
from .state import read_state


def sync_data_release(
    store: Store, folder: Path | None = None, progress: Callable[[int], None] | None = None
) -> SyncReport:
    """The git facts of the release (after the catalog, so methods exist). Every file is read
    and checked first; a malformed release writes nothing."""
    records = data_release_records(folder)
    records += _mined_states(store, release_heads(folder))
    prepare_batch(records)  # schema check of everything before the first write
    report = SyncReport("framework histories (data release)")
    report.add(store.write_all(records, progress=progress))
    return report


def _mined_states(store: Store, heads: dict[str, tuple[str, str | None]]) -> list[Record]:
    """The release's heads as the frameworks' mined state, where the store has none: a store
    mined further by `uptake update` keeps its own (loading the release again never sends it
    back to re-read commits it has)."""
    records: list[Record] = []
    for framework, (head, tags) in sorted(heads.items()):
        rows = read_state(store, "framework-mined-state", {"slug": framework})
        if rows and rows[0]["head"]:
            continue
        props = {"mined_head": head} | ({"mined_tags": tags} if tags else {})
        records.append(Node("Framework", framework, props, "heads.jsonl"))
    return records
