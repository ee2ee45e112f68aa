"""`uptake build`: every source that has data, into one store, in dependency order.

The catalog comes first (methods and frameworks every other step links to), then the data
release of the frameworks' histories, then papers, then model reports (which read the papers'
abstracts back), then what earlier fetches left in the local cache. A step whose input is not
there says what it skipped and how to get it, so a build without network still gives a useful
graph, and building twice gives the same graph as building once.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager
from dataclasses import dataclass

from ..graph.store import Store
from ..loaders.catalog import Catalog
from .arxiv import sync_papers_offline
from .catalog import sync_catalog
from .git import sync_fetched_histories
from .github import sync_github_offline
from .release import sync_data_release
from .report import SyncReport
from .reports import sync_reports
from .rules import sync_rules_offline

Progress = Callable[[str], AbstractContextManager[Callable[[int], None]]]


@dataclass(frozen=True)
class BuildStep:
    name: str
    run: Callable[..., SyncReport]  # run(store, progress=advance), plus catalog= where it reads one
    offline: bool = True  # runs without network
    reads_catalog: bool = False  # takes the catalog (the shipped one with the user's frameworks)


def _catalog_step(store: Store, progress=None, catalog: Catalog | None = None) -> SyncReport:
    return sync_catalog(store, catalog=catalog)


STEPS = (
    BuildStep("catalog", _catalog_step, reads_catalog=True),
    BuildStep("framework histories (data release)", sync_data_release),
    BuildStep("papers", sync_papers_offline),
    BuildStep("model reports", sync_reports),  # after papers: it reads their abstracts
    BuildStep("contribution rules", sync_rules_offline, reads_catalog=True),
    BuildStep("github threads", sync_github_offline, reads_catalog=True),
    BuildStep("framework histories (fetched)", sync_fetched_histories, offline=False, reads_catalog=True),
)


def run_build(
    store: Store, *, offline: bool = True, progress: Progress | None = None, catalog: Catalog | None = None
) -> Iterator[SyncReport]:
    """Run each step in order, yielding its report as soon as it is done. `catalog` is the one the
    steps read (default: the shipped one); pass the store's to include the user's frameworks."""
    for step in STEPS:
        if offline and not step.offline:
            yield SyncReport(step.name, skipped=["needs network; run `uptake update`"])
            continue
        try:
            yield _run_step(step, store, progress, catalog)
        except FileNotFoundError as exc:
            yield SyncReport(step.name, skipped=[str(exc)])


def _run_step(
    step: BuildStep, store: Store, progress: Progress | None, catalog: Catalog | None
) -> SyncReport:
    extra = {"catalog": catalog} if step.reads_catalog else {}
    if progress is None:
        return step.run(store, progress=None, **extra)
    with progress(step.name) as advance:
        return step.run(store, progress=advance, **extra)
