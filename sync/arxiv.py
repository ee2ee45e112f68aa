"""Papers into a store: from any iterable of papers, or from every offline input there is."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path

from ..graph.records import Record
from ..graph.store import Store
from ..loaders.arxiv import (
    WRITE_BATCH,
    Analyzer,
    ArxivLoadError,
    PaperAnalysis,
    PaperRecord,
    catalog_analyzer,
    check_inputs,
    paper_node,
    read_atom_dir,
    read_snapshot,
)
from ..loaders.cache import arxiv_cache_dir
from .report import SyncReport


def sync_papers(
    store: Store,
    papers: Iterable[PaperRecord],
    analyze: Analyzer | None = None,
    *,
    batch_size: int = WRITE_BATCH,
    progress: Callable[[int], None] | None = None,
) -> SyncReport:
    """Write papers in batches of `batch_size` papers (with their links).

    When the input turns out bad part-way, the papers read before the bad line
    are written first, then the error (naming file and line) is raised.
    """
    report = SyncReport("papers")
    chunk: list[Record] = []
    count = 0

    def flush() -> None:
        nonlocal chunk, count
        if chunk:
            report.add(store.write(chunk))
            if progress:
                progress(count)
        chunk, count = [], 0

    papers = iter(papers)
    while True:
        try:
            paper = next(papers)
        except StopIteration:
            break
        except ArxivLoadError:
            flush()
            raise
        analysis = analyze(paper) if analyze else PaperAnalysis()
        chunk.append(paper_node(paper, analysis.props))
        chunk.extend(analysis.records)
        count += 1
        if count >= batch_size:
            flush()
    flush()
    return report


def _env_paths(name: str) -> list[str]:
    return [p for p in os.environ.get(name, "").split(os.pathsep) if p]


def sync_papers_offline(
    store: Store,
    *,
    snapshots: Iterable[str | Path] | None = None,
    atom_dirs: Iterable[str | Path] | None = None,
    cache_dir: str | Path | None = "default",
    analyze: Analyzer | None = None,
    progress: Callable[[int], None] | None = None,
) -> SyncReport:
    """The build step: every offline input there is, screened and linked against the catalog.

    Inputs: `snapshots` (default $UPTAKE_ARXIV_SNAPSHOT, paths separated like
    PATH), `atom_dirs` (default $UPTAKE_ARXIV_ATOM) and the fetcher's cache of
    API responses. With none of them it writes nothing and says so.
    """
    snapshots = _env_paths("UPTAKE_ARXIV_SNAPSHOT") if snapshots is None else list(snapshots)
    atom_dirs = _env_paths("UPTAKE_ARXIV_ATOM") if atom_dirs is None else list(atom_dirs)
    cache = arxiv_cache_dir() if cache_dir == "default" else (Path(cache_dir) if cache_dir else None)
    report = SyncReport("papers")
    inputs: list[tuple[str, Callable[[], Iterator[PaperRecord]]]] = []
    for snapshot in snapshots:
        inputs.append((f"snapshot {snapshot}", lambda s=snapshot: read_snapshot(s)))
    for directory in atom_dirs:
        inputs.append((f"Atom responses in {directory}", lambda d=directory: read_atom_dir(d)))
    cached = cache / "responses" if cache else None
    if cached and cached.is_dir() and any(cached.iterdir()):
        inputs.append((f"cached API responses in {cached}", lambda: read_atom_dir(cached)))
    if not inputs:
        report.skipped.append(
            "no snapshot ($UPTAKE_ARXIV_SNAPSHOT), no saved Atom responses "
            f"($UPTAKE_ARXIV_ATOM) and no cached API responses{f' in {cached}' if cached else ''}; "
            "load some with `uptake load arxiv --snapshot FILE | --atom DIR | --ids ... | --query ...`"
        )
        return report
    check_inputs(read for _, read in inputs)
    analyze = analyze or catalog_analyzer()
    for name, read in inputs:
        report.add(sync_papers(store, read(), analyze, progress=progress).written)
        report.sources.append(name)
    return report
