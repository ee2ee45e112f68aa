"""CLI commands of the GitHub loaders: `uptake load github` and `uptake load rules`."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from .options import StoreOption, framework_entry, read_catalog_or_fail

# A paused load exits with EX_TEMPFAIL, so scripts can tell "resume later" from a failure.
EXIT_RESUME_LATER = 75


def _framework(name: str, repo: str | None, store: str | None, fail):
    """(slug, owner/name, methods) from the catalog; --repo names a repository outside it."""
    catalog = read_catalog_or_fail(fail, store)
    methods = list(catalog.methods.values())
    if repo is not None and catalog.find_framework(name) is None:
        return name, repo, methods
    entry = framework_entry(catalog, name, fail)
    return entry.slug, repo or entry.repo, methods


def register(app, load_app, connect, fail) -> None:
    """Add this area's commands; `connect(store)` opens a store, `fail(msg)` exits with an error."""

    @load_app.command("github")
    def load_github_command(
        framework: Annotated[str, typer.Option("--framework", "-F", help="framework slug, e.g. trl")],
        api_url: Annotated[str, typer.Option("--api-url", help="GitHub REST API base URL")] = (
            "https://api.github.com"
        ),
        dump: Annotated[
            Path | None, typer.Option("--dump", help="folder of saved REST JSON (gh api --paginate) instead")
        ] = None,
        git: Annotated[
            Path | None, typer.Option("--git", help="local clone or bare mirror: FIXES from commit messages")
        ] = None,
        repo: Annotated[
            str | None, typer.Option("--repo", help="owner/name, for a repo outside the catalog")
        ] = None,
        cache: Annotated[
            Path | None, typer.Option("--cache", help="cache folder (default $UPTAKE_CACHE/github)")
        ] = None,
        max_wait: Annotated[
            float, typer.Option("--max-wait", help="seconds to wait for a rate-limit reset before stopping")
        ] = 900.0,
        store: StoreOption = None,
    ) -> None:
        """Issues, pull requests and comments of one framework (token from $GITHUB_TOKEN)."""
        from ...graph.store import StoreError
        from ...loaders.github import DumpError, GitHubError
        from ...sync.github import sync_github
        from .display import print_report, progress_bar

        slug, full_name, methods = _framework(framework, repo, store, fail)
        with connect(store) as s, progress_bar(f"github {full_name}") as advance:
            try:
                result = sync_github(
                    s,
                    slug,
                    full_name,
                    methods,
                    api_url=api_url,
                    dump=dump,
                    cache_root=cache,
                    git_dir=git,
                    max_wait=max_wait,
                    progress=advance,
                )
            except (GitHubError, DumpError, StoreError) as exc:
                fail(str(exc))
        print_report(result)
        if result.stopped:
            typer.secho(f"paused: {result.stopped}", fg=typer.colors.YELLOW, err=True)
            raise typer.Exit(EXIT_RESUME_LATER)

    @load_app.command("rules")
    def load_rules_command(
        framework: Annotated[str, typer.Option("--framework", "-F", help="framework slug, e.g. trl")],
        git: Annotated[
            Path | None,
            typer.Option("--git", help="local clone or bare mirror (default: the git miner's clone)"),
        ] = None,
        repo: Annotated[
            str | None, typer.Option("--repo", help="owner/name, for a repo outside the catalog")
        ] = None,
        store: StoreOption = None,
    ) -> None:
        """Contribution rules of one framework, read from its git tree at HEAD."""
        from ...graph.store import StoreError
        from ...loaders.cache import clone_path
        from ...loaders.rules import RulesError
        from ...sync.rules import sync_rules
        from .display import print_report

        slug, full_name, _ = _framework(framework, repo, store, fail)
        git_dir = git or clone_path(full_name)
        if not git_dir.exists():
            fail(f"no clone of {full_name} at {git_dir}; run `uptake load git` first or pass --git")
        with connect(store) as s:
            try:
                report = sync_rules(s, slug, git_dir)
            except (RulesError, StoreError) as exc:
                fail(str(exc))
        print_report(report)
