"""The shipped data release of the frameworks' histories into a store."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from ..graph.records import prepare_batch
from ..graph.store import Store
from ..loaders.release import data_release_records
from .report import SyncReport


def sync_data_release(
    store: Store, folder: Path | None = None, progress: Callable[[int], None] | None = None
) -> SyncReport:
    """The git facts of the release (after the catalog, so methods exist). Every file is read
    and checked first; a malformed release writes nothing."""
    records = data_release_records(folder)
    prepare_batch(records)  # schema check of everything before the first write
    report = SyncReport("framework histories (data release)")
    report.add(store.write_all(records, progress=progress))
    return report
