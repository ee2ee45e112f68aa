"""Model technical reports into a store, with the abstracts of their papers read back first."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path

from ..graph.store import Store
from ..loaders.input_files import read_text
from ..loaders.link.arxiv_ids import normalize_arxiv_id
from ..loaders.reports import REPORTS_FILE, catalog_entries, read_report_facts, report_records
from .report import SyncReport
from .state import read_state


def sync_reports(
    store: Store,
    progress: Callable[[int], None] | None = None,
    *,
    path: str | Path = REPORTS_FILE,
    full_texts: dict[str, str | Path] | None = None,
    catalog: tuple[Iterable, Iterable] | None = None,
) -> SyncReport:
    """Every report in the facts file, in one batch (all or nothing). The abstracts of the
    reports come from Paper nodes already stored, so papers must be synced first;
    `full_texts` maps arXiv ids to text files a user supplies."""
    facts = read_report_facts(path)
    methods, organizations = catalog if catalog is not None else catalog_entries()
    rows = read_state(store, "paper-abstracts", {"ids": [f.arxiv_id for f in facts]})
    texts = {row["arxiv_id"]: ("abstract", row["abstract"]) for row in rows}
    for arxiv_id, file in (full_texts or {}).items():
        texts[normalize_arxiv_id(arxiv_id)] = ("full text", read_text(file))
    report = SyncReport("model reports")
    report.add(store.write(list(report_records(facts, methods, organizations, texts))))
    report.notes.append(f"{len(facts)} reports, {len(rows)} with a stored abstract")
    if progress:
        progress(len(facts))
    return report
