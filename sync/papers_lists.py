"""Papers from curated lists (and the frameworks' own citations) into a store."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from ..graph.batch import prepare_batch
from ..graph.store import Store
from ..loaders.arxiv import catalog_analyzer
from ..loaders.paper_lists import ListRepository, PaperList, merge_papers, read_list
from ..loaders.paper_release import paper_records, paper_rows, read_papers
from .report import SyncReport
from .state import read_state


def _stored(store: Store, ids: list[str]) -> dict[str, dict]:
    return {row["arxiv_id"]: row for row in read_state(store, "paper-list-fields", {"ids": ids})}


def sync_paper_release(
    store: Store, progress: Callable[[int], None] | None = None, path: Path | None = None
) -> SyncReport:
    """Build step: the release's papers, titled ones screened on their title (before the arXiv
    step, so a paper's abstract, when loaded, decides its screening). A paper already screened
    on its abstract keeps that screening and its arXiv title."""
    rows = list(read_papers(path))
    stored = _stored(store, [row["arxiv_id"] for _, row in rows])
    keep = {i for i, row in stored.items() if row["has_abstract"]}
    records = list(paper_records(rows, catalog_analyzer(), keep_screening=keep))
    prepare_batch(records)  # every record checked before the first write
    report = SyncReport("papers (curated lists and framework citations)")
    report.add(store.write_all(records, progress=progress))
    titled = sum(1 for _, row in rows if row.get("title"))
    report.notes.append(f"{len(rows)} papers, {titled} with a title (screened on the title alone)")
    return report


def sync_paper_list(store: Store, repo_path: Path, entry: PaperList) -> SyncReport:
    """One fetched list: its papers, with the sources and headings already stored kept."""
    merged = merge_papers(read_list(ListRepository(repo_path), entry), [entry.repo])
    stored = _stored(store, [p.arxiv_id for p in merged])
    for paper in merged:
        before = stored.get(paper.arxiv_id) or {}
        paper.sources = list(dict.fromkeys([*(before.get("sources") or []), *paper.sources]))
        paper.tags = list(dict.fromkeys([*(before.get("source_tags") or []), *paper.tags]))
    changed = [p for p in merged if not _holds(stored.get(p.arxiv_id), p)]
    report = SyncReport(f"papers of {entry.repo}")
    titled = sum(1 for p in merged if p.title)
    report.notes.append(f"{len(merged)} papers, {titled} with a title, {len(changed)} new or changed")
    if not changed:  # a list fetched again unchanged: nothing to screen or write
        return report
    keep = {i for i, row in stored.items() if row["has_abstract"]}
    rows = list(enumerate(paper_rows(changed, ()), 1))
    records = list(paper_records(rows, catalog_analyzer(), keep_screening=keep, origin=entry.repo))
    report.add(store.write_all(records))
    return report


def _holds(row: dict | None, paper) -> bool:
    """Whether the store already holds what the list says of a paper: its sources and headings,
    and its title (a paper read from arXiv keeps arXiv's)."""
    if row is None:
        return False
    title_held = row["has_abstract"] or not paper.title or row.get("title") == paper.title
    return (
        title_held
        and list(row.get("sources") or []) == paper.sources
        and list(row.get("source_tags") or []) == list(paper.tags)
    )
