"""A framework's git history into a store, incrementally: the store's mined state is read here,
handed to the miner, and the miner's records (its new mined state last) are written."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

from ..graph.records import Record
from ..graph.store import Store
from ..loaders.catalog import Catalog, read_catalog
from ..loaders.git import MinedState, MineResult, has_commit, history_rewritten, mine_framework
from ..loaders.link.methods import MethodMatcher
from ..loaders.release import history_fact_records, new_history
from ..loaders.repository import GitError, clone_or_fetch, resolve_repository, run_git
from .report import SyncReport
from .state import change_state, read_state


@dataclass
class GitSync(SyncReport):
    """A git step, with what the miner found (`mined`)."""

    mined: MineResult | None = None


def mined_state(store: Store, framework: str, git_dir: Path, current: str) -> MinedState:
    """What `store` holds of the framework's history (`git_dir` resolved, its HEAD at `current`):
    its head and tags, the commits stored as incomplete, and the stored commits only when HEAD was
    rewritten since, as only then does the miner need them."""
    rows = read_state(store, "framework-mined-state", {"slug": framework})
    head, tags = (rows[0]["head"], rows[0]["tags"]) if rows else (None, None)
    moved = head is not None and head != current
    if moved and not has_commit(git_dir, head):
        # Mined from another copy (the data release's, or a newer one): this copy is read whole,
        # and nothing stored is taken for dropped by a force-push.
        head, tags, moved = None, None, False
    rows = read_state(store, "framework-incomplete-commits", {"framework": framework})
    incomplete = frozenset(r["sha"] for r in rows)
    if not (moved and history_rewritten(git_dir, head)):
        return MinedState(head, tags, incomplete=incomplete)
    rows = read_state(store, "framework-commit-shas", {"framework": framework})
    return MinedState(head, tags, frozenset(r["sha"] for r in rows), incomplete)


def sync_git(
    store: Store,
    framework: str,
    repo_path: str | Path,
    methods: list,
    *,
    workers: int | None = None,
    progress: Callable[[int], None] | None = None,
    batch_size: int = 5000,
    vendored: tuple[str, ...] = (),
    repo: str = "",
) -> GitSync:
    """Mine new commits of one framework into `store`, with the pull requests, issue fixes and
    failures their messages state (`repo`, OWNER/NAME, lets `owner/name#12` count as an issue of
    this framework); safe to interrupt and re-run."""
    git_dir = resolve_repository(repo_path)
    head = run_git(git_dir, "rev-parse", "HEAD").strip()
    state = mined_state(store, framework, git_dir, head)
    mining = mine_framework(
        framework, git_dir, methods, state, workers=workers, progress=progress, vendored=vendored, head=head
    )
    report = GitSync(f"git history of {framework}")
    report.mined = mining.result
    if mining.result.up_to_date:
        report.notes.append(mining.result.summary().removeprefix(f"{framework}: "))
        return report
    if mining.result.remined:
        # Mined whole, a commit may link other methods, or the same ones by another kind of link.
        change_state(store, "commit-links-clear", {"shas": mining.result.remined})
    since = None if mining.result.force_push else state.head
    history = new_history(git_dir, repo, MethodMatcher(methods), mining.result.head, since)
    facts = history_fact_records(framework, history, f"{framework} history")
    report.add(store.write_all(_before_state(mining.records, facts), batch_size=batch_size))
    report.notes.append(mining.result.summary().removeprefix(f"{framework}: "))
    report.notes.append(
        f"from messages: {len(history.pulls)} pull requests, {len(history.fixes)} issue fixes, "
        f"{len(history.failures)} failure reports"
    )
    return report


def _before_state(records: Iterator[Record], extra: list[Record]) -> Iterator[Record]:
    """The mining records with `extra` just before the last one, the framework's new mined state:
    a run stopped before that state is stored reads the same commits again next time."""
    held = None
    for record in records:
        if held is not None:
            yield held
        held = record
    yield from extra
    if held is not None:
        yield held


def sync_fetched_histories(
    store: Store,
    frameworks: list | None = None,
    *,
    workers: int | None = None,
    progress: Callable[[int], None] | None = None,
    catalog: Catalog | None = None,
) -> SyncReport:
    """The online build step: fetch every catalog framework (network) and mine its new commits;
    a framework that cannot be fetched is skipped with the reason."""
    catalog = catalog or read_catalog()
    methods = list(catalog.methods.values())
    report = SyncReport("framework histories (fetched)")
    for entry in frameworks if frameworks is not None else catalog.frameworks.values():
        try:
            path = clone_or_fetch(entry.repo)
        except GitError as exc:
            report.skipped.append(f"{entry.slug}: {exc}")
            continue
        one = sync_git(
            store, entry.slug, path, methods, workers=workers, progress=progress,
            vendored=catalog.vendored_packages(entry.slug), repo=entry.repo,
        )  # fmt: skip
        report.add(one.written)
        report.notes.append(one.mined.summary())
    return report
