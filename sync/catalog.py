"""The method and framework catalog into a store."""

from __future__ import annotations

from pathlib import Path

from ..graph.batch import prepare_batch
from ..graph.store import Store
from ..loaders.catalog import Catalog, catalog_records, read_catalog
from .report import SyncReport


def sync_catalog(store: Store, folder: Path | None = None, catalog: Catalog | None = None) -> SyncReport:
    """Validate the whole catalog, then write it in one batch (all of it or none of it). `catalog`,
    when given, is one already read (the shipped one with a user's frameworks)."""
    records = list(catalog_records(catalog if catalog is not None else read_catalog(folder)))
    prepare_batch(records)  # schema check of every record before the store sees any
    report = SyncReport("catalog")
    report.add(store.write_all(records, batch_size=max(len(records), 1)))
    return report
