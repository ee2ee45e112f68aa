"""GitHub issues and pull requests into a store: fetched, from a dump, or from the cache."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..graph.records import Node, Record
from ..graph.store import Store
from ..loaders.cache import github_cache_folder
from ..loaders.catalog import Catalog, read_catalog
from ..loaders.github import (
    DEFAULT_API_URL,
    FetchReport,
    GitHubClient,
    GitHubError,
    RateLimited,
    RawThreads,
    build_threads,
    fixes_from_git,
    read_dump,
    thread_records,
)
from ..loaders.link.methods import MethodMatcher
from .report import SyncReport
from .state import read_state


@dataclass
class GitHubSync(SyncReport):
    """A GitHub step; `stopped` is the rate-limit message when it paused early."""

    threads: int = 0
    fetched: FetchReport | None = None
    stopped: str | None = None
    resume_at: dt.datetime | None = None

    def details(self) -> list[str]:
        fetched = [f"fetched {self.fetched.summary()}"] if self.fetched else []
        return [f"{self.threads} threads linked", *fetched, *self.notes]


def sync_github(
    store: Store,
    framework: str,
    repo: str,
    methods: Iterable,
    *,
    api_url: str = DEFAULT_API_URL,
    dump: Path | None = None,
    cache_root: Path | None = None,
    token: str | None = None,
    git_dir: Path | None = None,
    max_wait: float = 900.0,
    progress: Callable[[int], None] | None = None,
    client_options: dict[str, Any] | None = None,
) -> GitHubSync:
    """Fetch (or read a dump of) one framework's threads, link them and write them.

    A rate-limited fetch still writes everything fetched so far, then reports
    `stopped` with the time to resume; the cache makes the next run continue.
    """
    result = GitHubSync(f"github threads of {framework}")
    if dump is None:
        client = GitHubClient(
            repo,
            github_cache_folder(repo, cache_root),
            api_url=api_url,
            token=token,
            max_wait=max_wait,
            progress=progress,
            **(client_options or {}),
        )
        try:
            client.fetch()
        except RateLimited as exc:
            result.stopped, result.resume_at = str(exc), exc.resume_at
        except GitHubError:
            _write_unwritten(store, result, framework, repo, methods, client, git_dir)
            raise
        _write_unwritten(store, result, framework, repo, methods, client, git_dir)
        return result
    raw = read_dump(Path(dump))
    result.add(store.write_all(_linked(framework, repo, methods, raw, None, git_dir)))
    result.threads = len(raw.issues) + len(raw.pulls)
    return result


def _linked(
    framework: str,
    repo: str,
    methods: Iterable,
    raw: RawThreads,
    numbers: set[int] | None,
    git_dir: Path | None,
) -> list[Record]:
    threads = build_threads(framework, raw)
    matcher = MethodMatcher(list(methods))
    records: list[Record] = [Node("Framework", framework, {"repo": repo})]
    records += thread_records(threads, repo=repo, matcher=matcher, numbers=numbers)
    if git_dir is not None:
        records += fixes_from_git(framework, repo, Path(git_dir), threads)
    return records


def _write_unwritten(
    store: Store,
    result: GitHubSync,
    framework: str,
    repo: str,
    methods: Iterable,
    client: GitHubClient,
    git_dir: Path | None,
) -> None:
    """Write every cached thread this store lacks or holds in an older version: this run's, an
    interrupted run's, and all of them for a store the cache never fed (the cursor is the store's
    own contents, so one warm cache serves any number of stores alike)."""
    result.fetched = client.report
    raw = client.cache.read()
    numbers = set(client.cache.state.get("unwritten", [])) | _behind(store, framework, raw)
    if numbers:  # else the store holds every cached thread as it is: nothing to link or write
        result.add(store.write_all(_linked(framework, repo, methods, raw, numbers, git_dir)))
    result.threads = len(numbers)
    client.cache.save_state(unwritten=[])


def _behind(store: Store, framework: str, raw: RawThreads) -> set[int]:
    """Cached threads whose last update the store does not hold."""
    stored = {
        row["number"]: row["updated_at"]
        for row in read_state(store, "framework-thread-versions", {"framework": framework})
    }
    return {t.number for t in build_threads(framework, raw) if stored.get(t.number, "") != t.updated_at}


def sync_github_offline(
    store: Store, progress: Callable[[int], None] | None = None, catalog: Catalog | None = None
) -> SyncReport:
    """Build step: threads from earlier fetches in the local cache; no token or network needed.
    Every catalog framework whose cache folder exists is (re)linked from it."""
    catalog = catalog or read_catalog()
    report = SyncReport("github threads")
    missing = []
    for slug, entry in catalog.frameworks.items():
        folder = github_cache_folder(entry.repo)
        if not (folder / "issues.jsonl").exists():
            missing.append(slug)
            continue
        loaded = sync_github(
            store, slug, entry.repo, catalog.methods.values(), dump=folder, progress=progress
        )
        report.add(loaded.written)
        report.sources.append(slug)
    if missing:
        report.skipped.append(
            f"{', '.join(missing)}: nothing fetched yet; "
            "run `uptake load github --framework NAME` (network) or `--dump DIR`"
        )
    return report
