"""The paper steps of `uptake update`: curated lists fetched again, then arXiv asked for the
papers the graph knows without an abstract and for the study's query since the last run.

Each step needs the network; one that cannot reach its source is skipped with the reason, so
an update on a machine without network still refreshes what it can.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterable
from pathlib import Path

from ..graph.store import Store
from ..loaders.arxiv import ArxivFetcher, ArxivLoadError, ArxivQuery, catalog_analyzer
from ..loaders.paper_lists import PaperList, PaperListError, read_list_catalog
from ..loaders.repository import GitError, fetch_all
from .arxiv import sync_papers
from .papers_lists import sync_paper_list
from .report import SyncReport
from .state import read_state

# The study's window opens in January 2025: a first update asks arXiv for papers from then on,
# later ones only for what was updated since the last complete run (the fetcher's mark).
STUDY_START = dt.date(2025, 1, 1)


def sync_fetched_lists(
    store: Store, lists: Iterable[PaperList] | None = None, cache_dir: Path | None = None
) -> SyncReport:
    """Every curated list of the catalog, fetched (cloned the first time; all at once) and loaded
    one after the other."""
    report = SyncReport("curated paper lists (fetched)")
    entries = list(read_list_catalog().values() if lists is None else lists)
    for entry, copy in zip(entries, fetch_all([e.repo for e in entries], cache_dir), strict=True):
        if isinstance(copy, GitError):
            report.skipped.append(f"{entry.repo}: {copy}")
            continue
        try:
            one = sync_paper_list(store, copy, entry)
        except (PaperListError, FileNotFoundError) as exc:
            report.skipped.append(f"{entry.repo}: {exc}")
            continue
        report.add(one.written)
        report.sources.append(entry.repo)
    return report


def sync_arxiv_update(
    store: Store,
    fetcher: ArxivFetcher,
    query: ArxivQuery | None = None,
    progress: Callable[[int], None] | None = None,
) -> SyncReport:
    """Metadata for the papers the graph has no abstract of, then the study's query; papers
    already asked for (the fetcher's cache) are not asked for again."""
    report = SyncReport("arXiv papers (lacking metadata, and the study's query since the last run)")
    analyze = catalog_analyzer()
    ids = [row["arxiv_id"] for row in read_state(store, "papers-without-abstract", {})]
    query = query or ArxivQuery(submitted_from=STUDY_START)
    try:
        if ids:
            report.add(sync_papers(store, fetcher.fetch_ids(ids), analyze, progress=progress).written)
        report.add(sync_papers(store, fetcher.fetch_query(query), analyze, progress=progress).written)
    except ArxivLoadError as exc:
        report.skipped.append(f"{exc} (papers read before it were loaded); run `uptake update` again")
    report.sources.append(f"arXiv API ({fetcher.requests_made} requests)")
    return report
