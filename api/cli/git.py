"""CLI commands of the git loaders: `uptake load git`, `uptake update`, `uptake release ...`."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Annotated

import typer

from .display import print_report, progress_bar
from .options import StoreOption, framework_entry, read_catalog_or_fail

WorkersOption = Annotated[
    int | None, typer.Option("--workers", help="processes; default: the number of cores")
]


FrameworksOption = Annotated[
    list[str] | None, typer.Option("--framework", help="only these frameworks (repeatable); default all")
]


def _selected(catalog, slugs: list[str] | None, fail):
    """The named catalog frameworks, or all of them."""
    if not slugs:
        return list(catalog.frameworks.values())
    return [framework_entry(catalog, slug, fail) for slug in slugs]


def _mine(
    store, entry, repo: Path | None, catalog, workers, fail, unshallow: bool = False, strict: bool = False
):
    from ...loaders.repository import GitError, clone_or_fetch, fetch_full_history
    from ...sync.git import sync_git

    try:
        path = repo if repo is not None else clone_or_fetch(entry.repo)
        if unshallow and fetch_full_history(path):
            typer.echo(f"{entry.slug}: fetched the whole history of the shallow clone {path}", err=True)
        with progress_bar(f"mining {entry.slug}") as advance:
            report = sync_git(
                store, entry.slug, path, list(catalog.methods.values()), workers=workers, progress=advance,
                vendored=catalog.vendored_packages(entry.slug), repo=entry.repo,
            )  # fmt: skip
    except GitError as exc:
        fail(f"{entry.slug}: {exc}")
    print_report(report)
    for line in report.mined.incomplete_warning(path):
        typer.echo(line, err=True)
    if strict and report.mined.incomplete:
        raise typer.Exit(3)  # stored, but not whole: a script asked to hear it by the exit status
    return report


def register(app, load_app, connect, fail) -> None:
    """Add this area's commands; `connect(store)` opens a store, `fail(msg)` exits with an error."""

    @load_app.command("git")
    def load_git(
        framework: Annotated[
            str, typer.Option("--framework", help="a framework's slug, e.g. trl, or one you added")
        ],
        repo: Annotated[
            Path | None,
            typer.Option("--repo", help="a local clone or bare repository; default: clone or fetch"),
        ] = None,
        store: StoreOption = None,
        workers: WorkersOption = None,
        unshallow: Annotated[
            bool,
            typer.Option("--unshallow", help="a shallow clone: fetch its whole history first (network)"),
        ] = False,
        strict: Annotated[
            bool, typer.Option("--strict", help="exit with status 3 when some commits are stored incomplete")
        ] = False,
    ) -> None:
        """Mine one framework's git history (new commits only after the first run)."""
        catalog = read_catalog_or_fail(fail, store)
        entry = framework_entry(catalog, framework, fail)
        with connect(store) as s:
            _mine(s, entry, repo, catalog, workers, fail, unshallow, strict)

    @app.command("update")
    def update(
        store: StoreOption = None,
        framework: FrameworksOption = None,
        workers: WorkersOption = None,
        offline: Annotated[
            bool,
            typer.Option("--offline", help="no network: mine the copies in the cache, skip lists and arXiv"),
        ] = False,
        papers: Annotated[
            bool, typer.Option("--papers/--no-papers", help="refresh curated lists and arXiv papers")
        ] = True,
        lists: Annotated[
            list[str] | None,
            typer.Option("--list", help="only these curated lists, OWNER/NAME (repeatable); default all"),
        ] = None,
        arxiv_url: Annotated[
            str | None, typer.Option("--arxiv-url", help="arXiv API URL format with {} for the query string")
        ] = None,
        github_url: Annotated[
            str | None,
            typer.Option("--github-url", help="GitHub API URL (GitHub Enterprise); default api.github.com"),
        ] = None,
    ) -> None:
        """Refresh every source: fetch and mine each framework (catalog and added ones) with the
        pull requests, fixes and failures its new commits state, contribution rules at the new
        heads, GitHub threads (with GITHUB_TOKEN), curated paper lists and arXiv; then say what
        is new. A source that cannot be reached is skipped with the reason."""
        from concurrent.futures import ThreadPoolExecutor

        from ...graph.store import WriteStats
        from ...sync.rules import sync_rules
        from ..views.whatsnew import added, render_lines, whats_new

        catalog = read_catalog_or_fail(fail, store)
        entries = _selected(catalog, framework, fail)
        with connect(store) as s, ThreadPoolExecutor(max_workers=1) as background:
            copies = background.submit(_fetched_copies, entries, offline)  # fetching waits on git
            background.submit(_import_later_steps, offline)  # while the store is read and mined
            before = whats_new(s)
            reports = []
            for entry, path in zip(entries, copies.result(), strict=True):
                if path is not None:
                    reports.append(_mine(s, entry, path, catalog, workers, fail))
                    head_moved = not reports[-1].mined.up_to_date
                    reports.append(sync_rules(s, entry.slug, path, head_moved=head_moved))
                    print_report(reports[-1])
            if offline:
                typer.echo("github threads: not refreshed (--offline)", err=True)
            elif os.environ.get("GITHUB_TOKEN"):
                reports += _update_threads(s, entries, list(catalog.methods.values()), github_url)
            else:
                typer.echo("github threads: not refreshed; set GITHUB_TOKEN to load them", err=True)
            if papers and offline:
                typer.echo("papers: not refreshed (--offline)", err=True)
            elif papers:
                reports += _update_papers(s, lists, arxiv_url)
            typer.echo("What is new:")
            wrote = any(r.written != WriteStats() for r in reports)  # else the graph is as it was
            for line in render_lines(added(before, whats_new(s)) if wrote else []):
                typer.echo(line)

    def _import_later_steps(offline: bool) -> None:
        """The GitHub client library and the paper steps' modules take a third of a second to
        import; imported on the background thread, that time overlaps the mining."""
        import importlib

        if not offline:
            for module in ("github", "uptake.sync.github", "uptake.sync.update"):
                importlib.import_module(module)

    def _fetched_copies(entries, offline: bool) -> list[Path | None]:
        """Each framework's copy in the cache, all fetched at once unless `offline`; a copy that
        cannot be fetched is mined as it is, and a framework with no copy is skipped, each said."""
        from ...loaders.cache import clone_path
        from ...loaders.repository import fetch_all

        if offline:
            fetched = ["not fetched (--offline)"] * len(entries)
        else:
            fetched = [
                got if isinstance(got, Path) else f"not fetched ({got})"
                for got in fetch_all([e.repo for e in entries])
            ]
        copies: list[Path | None] = []
        for entry, got in zip(entries, fetched, strict=True):
            cached = clone_path(entry.repo)
            if isinstance(got, Path):
                copies.append(got)
            elif (cached / "HEAD").exists():
                typer.echo(f"{entry.slug}: {got}; mining the copy in the cache", err=True)
                copies.append(cached)
            else:
                typer.echo(f"{entry.slug}: skipped: {got} and no copy in the cache", err=True)
                copies.append(None)
        return copies

    def _update_papers(s, lists: list[str] | None, arxiv_url: str | None) -> list:
        from ...loaders.arxiv import DEFAULT_API_URL, ArxivFetcher
        from ...loaders.paper_lists import list_entries
        from ...sync.update import sync_arxiv_update, sync_fetched_lists

        from_lists = sync_fetched_lists(s, list_entries(lists))
        print_report(from_lists)
        fetcher = ArxivFetcher(api_url=arxiv_url or DEFAULT_API_URL)
        with progress_bar("arXiv papers") as advance:
            from_arxiv = sync_arxiv_update(s, fetcher, progress=advance)
        print_report(from_arxiv)
        return [from_lists, from_arxiv]

    def _update_threads(s, entries, methods, api_url: str | None) -> list:
        """Each framework's new threads; one GitHub cannot answer for is skipped with the reason."""
        from ...loaders.github import DEFAULT_API_URL, GitHubError
        from ...sync.github import sync_github

        reports = []
        for entry in entries:
            try:
                reports.append(
                    sync_github(s, entry.slug, entry.repo, methods, api_url=api_url or DEFAULT_API_URL)
                )
            except GitHubError as exc:
                typer.echo(f"github threads of {entry.slug}: skipped: {exc}", err=True)
                continue
            print_report(reports[-1])
        return reports

    @app.command("whatsnew")
    def whatsnew(
        since: Annotated[str, typer.Option("--since", help="first day, YYYY-MM-DD")],
        store: StoreOption = None,
        format: Annotated[
            str, typer.Option("--format", "-f", help="text (one line per item), table, json or csv")
        ] = "text",
    ) -> None:
        """New first implementations, failure reports with their fixes, and proposals since a day."""
        import datetime as dt

        from ..views.whatsnew import headline, render_lines, whats_new
        from .display import print_rows

        try:
            day = dt.date.fromisoformat(since)
        except ValueError:
            fail(f"--since: not a date (YYYY-MM-DD): {since!r}")
        if format not in ("text", "table", "json", "csv"):
            fail(f"--format must be text, table, json or csv, not {format!r}")
        with connect(store, read_only=True) as s:
            rows = whats_new(s, day)
        if format != "text":
            print_rows([r | {"headline": headline(r)} for r in rows], format)
            return
        for line in render_lines(rows):
            typer.echo(line)

    release_app = typer.Typer(
        help="The data release of mined git facts (data/git).",
        no_args_is_help=True,
        pretty_exceptions_show_locals=False,
    )
    app.add_typer(release_app, name="release")

    @release_app.command("build")
    def release_build(
        mirrors: Annotated[
            Path | None,
            typer.Option(
                "--mirrors", help="folder of fetched repositories; default: clone or fetch into the cache"
            ),
        ] = None,
        out: Annotated[Path | None, typer.Option("--out", help="release folder; default data/git")] = None,
        framework: FrameworksOption = None,
        workers: WorkersOption = None,
        compress: Annotated[
            bool, typer.Option("--gzip", help="write each file gzipped (FILE.jsonl.gz); loading reads either")
        ] = False,
    ) -> None:
        """Mine every shipped framework's full history and write the data release files; a framework
        whose copy is not in --mirrors is skipped with a line saying so."""
        from ...loaders.git import mine_repository
        from ...loaders.link.methods import MethodMatcher
        from ...loaders.release import find_repository, framework_history, write_release
        from ...loaders.repository import GitError, clone_or_fetch
        from ...loaders.rules import GitTree, RulesError, rule_records

        catalog = read_catalog_or_fail(fail, shipped_only=True)  # the release is of shipped frameworks
        entries = _selected(catalog, framework, fail)
        methods = list(catalog.methods.values())
        matcher = MethodMatcher(methods)
        facts, extras = [], {}
        for entry in entries:
            try:
                path = find_repository(mirrors, entry.repo) if mirrors else clone_or_fetch(entry.repo)
            except FileNotFoundError as exc:
                if framework:  # named on the command line: its absence is an error
                    fail(f"{entry.slug}: {exc}")
                typer.echo(f"{entry.slug}: skipped, not in this release: {exc}", err=True)
                continue
            except GitError as exc:
                fail(f"{entry.slug}: {exc}")
            try:
                vendored = catalog.vendored_packages(entry.slug)
                facts.append(mine_repository(entry.slug, path, methods, workers, vendored))
                rules = list(rule_records(entry.slug, GitTree(path, facts[-1].head)))
            except (GitError, FileNotFoundError, RulesError) as exc:
                fail(f"{entry.slug}: {exc}")
            extras[entry.slug] = (framework_history(facts[-1], entry.repo, matcher, path), rules)
            typer.echo(
                f"{entry.slug}: {len(facts[-1].commits)} commits mined{facts[-1].incomplete_note()}", err=True
            )
        if not facts:
            fail("no framework's repository was found; nothing written")
        counts = write_release(facts, out, extras, compress=compress)
        if mirrors:
            papers_out = (out.parent / "papers" / "papers.jsonl.gz") if out else None
            counts["papers.jsonl.gz"] = _release_papers(mirrors, out, papers_out, catalog)
        typer.echo(", ".join(f"{name}: {n}" for name, n in counts.items()))

    def _release_papers(mirrors: Path, git_folder: Path | None, out: Path | None, catalog) -> int:
        from ...loaders.paper_release import release_paper_rows, write_papers

        rows = release_paper_rows(
            mirrors, git_folder, catalog.methods.values(), warn=lambda m: typer.echo(m, err=True)
        )
        return write_papers(rows, out)

    @release_app.command("load")
    def release_load(
        store: StoreOption = None,
        folder: Annotated[Path | None, typer.Option("--folder", help="default: the shipped data/git")] = None,
    ) -> None:
        """Load the data release into a store (load the catalog first)."""
        from ...loaders.release import ReleaseError
        from ...sync.release import sync_data_release

        with connect(store) as s:
            try:
                with progress_bar("git data release") as advance:
                    report = sync_data_release(s, folder, advance)
            except ReleaseError as exc:
                fail(str(exc))
            print_report(report)
