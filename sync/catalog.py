"""The method and framework catalog into a store."""

from __future__ import annotations

from pathlib import Path

from ..graph.records import prepare_batch
from ..graph.store import Store
from ..loaders.catalog import catalog_records, read_catalog
from .report import SyncReport


def sync_catalog(store: Store, folder: Path | None = None) -> SyncReport:
    """Validate the whole catalog, then write it in one batch (all of it or none of it)."""
    records = list(catalog_records(read_catalog(folder)))
    prepare_batch(records)  # schema check of every record before the store sees any
    report = SyncReport("catalog")
    report.add(store.write_all(records, batch_size=max(len(records), 1)))
    return report
