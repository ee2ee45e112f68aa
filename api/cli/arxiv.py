"""CLI commands of the arXiv and model-report loaders: `uptake load arxiv`, `uptake load reports`."""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Annotated

import typer

from .display import print_report, progress_bar
from .options import StoreOption


def _date(value: str | None, option: str, fail) -> dt.date | None:
    if value is None:
        return None
    try:
        return dt.date.fromisoformat(value)
    except ValueError:
        fail(f"{option} must be a date YYYY-MM-DD, got {value!r}")


def _ids(ids: list[str], ids_file: Path | None, fail) -> list[str]:
    from ...loaders.input_files import read_text
    from ...loaders.link.arxiv_ids import ArxivIdError, normalize_arxiv_id

    raw = [part for value in ids for part in value.replace(",", " ").split()]
    if ids_file is not None:
        if not ids_file.is_file():
            fail(f"{ids_file}: no such file (--ids-file)")
        for number, line in enumerate(read_text(ids_file).splitlines(), start=1):
            if line.strip() and not line.lstrip().startswith("#"):
                raw.append(f"{line.strip()}\t{ids_file}:{number}")
    out = []
    for item in raw:
        value, _, where = item.partition("\t")
        try:
            out.append(normalize_arxiv_id(value))
        except ArxivIdError as exc:
            fail(f"{where or '--ids'}: {exc}")
    return out


def register(app, load_app, connect, fail) -> None:
    """Add this area's commands; `connect(store)` opens a store, `fail(msg)` exits with an error."""

    @load_app.command("arxiv")
    def load_arxiv(
        ids: Annotated[
            list[str] | None, typer.Option("--ids", help="arXiv ids or URLs, repeatable or comma-separated")
        ] = None,
        ids_file: Annotated[
            Path | None, typer.Option("--ids-file", help="a file with one id per line")
        ] = None,
        query: Annotated[
            list[str] | None,
            typer.Option("--query", help="keywords searched in abstracts, OR-ed (repeatable)"),
        ] = None,
        category: Annotated[
            list[str] | None,
            typer.Option("--category", help="arXiv categories for --query (default cs.LG cs.CL cs.AI)"),
        ] = None,
        since: Annotated[
            str | None, typer.Option("--since", help="--query: submitted on or after YYYY-MM-DD")
        ] = None,
        until: Annotated[
            str | None, typer.Option("--until", help="--query: submitted on or before YYYY-MM-DD")
        ] = None,
        max_results: Annotated[
            int | None, typer.Option("--max", help="--query: at most this many papers")
        ] = None,
        snapshot: Annotated[
            list[Path] | None, typer.Option("--snapshot", help="arXiv metadata snapshot (JSON Lines, .gz ok)")
        ] = None,
        atom: Annotated[
            list[Path] | None, typer.Option("--atom", help="a folder of saved arXiv API Atom responses")
        ] = None,
        cache: Annotated[
            Path | None,
            typer.Option("--cache", help="where API responses are kept (default $UPTAKE_CACHE/arxiv)"),
        ] = None,
        offline: Annotated[
            bool, typer.Option("--offline", help="no network: load only cached responses, snapshots, Atom")
        ] = False,
        refresh: Annotated[
            bool, typer.Option("--refresh", help="ask the API again for what is cached")
        ] = False,
        api_url: Annotated[
            str | None, typer.Option("--api-url", help="API URL format with {} for the query string")
        ] = None,
        store: StoreOption = None,
    ) -> None:
        """Papers from arXiv: by id or query (cached, incremental), or offline from a snapshot or Atom files.

        Every paper is screened (RL for language models? a general method?) with
        its reasons, its features extracted and its proposed methods linked.
        """
        from ...loaders.arxiv import (
            DEFAULT_API_URL,
            ArxivFetcher,
            ArxivLoadError,
            ArxivQuery,
            catalog_analyzer,
        )
        from ...sync.arxiv import sync_papers, sync_papers_offline
        from .display import print_report

        wanted = _ids(ids or [], ids_file, fail)
        online = bool(wanted or query)
        if not (online or snapshot or atom or offline):
            fail(
                "say what to load: --ids, --ids-file, --query, --snapshot FILE, --atom DIR "
                "or --offline (the cache)"
            )
        analyze = catalog_analyzer()
        partial = False  # whether an error may leave the papers read before it written
        with connect(store) as s:
            try:
                if snapshot or atom or offline:
                    with progress_bar("papers (offline)") as advance:
                        result = sync_papers_offline(
                            s,
                            snapshots=snapshot or [],
                            atom_dirs=atom or [],
                            cache_dir=cache if cache else ("default" if offline else None),
                            analyze=analyze,
                            progress=advance,
                        )
                    print_report(result)
                if online and offline:
                    typer.echo(
                        "skipped --ids/--query: --offline given (the cached responses were loaded instead)"
                    )
                elif online:
                    partial = True
                    fetcher = ArxivFetcher(cache, api_url=api_url or DEFAULT_API_URL)
                    if wanted:
                        with progress_bar("papers by id", total=len(wanted)) as advance:
                            result = sync_papers(
                                s, fetcher.fetch_ids(wanted, refresh=refresh), analyze, progress=advance
                            )
                        result.sources.append(f"arXiv ids ({fetcher.requests_made} API requests)")
                        print_report(result)
                    if query:
                        search = ArxivQuery(
                            categories=tuple(category) if category else ArxivQuery().categories,
                            keywords=tuple(query),
                            submitted_from=_date(since, "--since", fail),
                            submitted_to=_date(until, "--until", fail),
                            max_results=max_results,
                        )
                        with progress_bar("papers by query") as advance:
                            result = sync_papers(
                                s, fetcher.fetch_query(search, refresh=refresh), analyze, progress=advance
                            )
                        result.sources.append(f"arXiv query ({fetcher.requests_made} API requests)")
                        print_report(result)
            except ArxivLoadError as exc:
                # Offline inputs are checked whole before writing; API pages are written as they come.
                fail(f"{exc} (papers read before it were loaded)" if partial else str(exc))

    @load_app.command("lists")
    def load_lists(
        repo: Annotated[Path, typer.Option("--repo", help="a fetched list repository (tree or bare)")],
        name: Annotated[
            str | None, typer.Option("--name", help="its owner/name; default: guessed from the folder")
        ] = None,
        store: StoreOption = None,
    ) -> None:
        """Papers of a curated list: arXiv ids, titles, headings as tags (screened on titles)."""
        from ...loaders.paper_lists import PaperListError, list_entry_for
        from ...sync.papers_lists import sync_paper_list

        try:
            entry = list_entry_for(repo, name)
        except PaperListError as exc:
            fail(str(exc))
        with connect(store) as s:
            try:
                report = sync_paper_list(s, repo, entry)
            except (PaperListError, FileNotFoundError) as exc:
                fail(str(exc))
        print_report(report)

    @load_app.command("reports")
    def load_reports_command(
        full_text: Annotated[
            list[str] | None,
            typer.Option("--full-text", help="ID=FILE: a report's full text to read stated methods from"),
        ] = None,
        facts: Annotated[
            Path | None,
            typer.Option("--facts", help="a facts file (JSON Lines); default: the one shipped with Uptake"),
        ] = None,
        store: StoreOption = None,
    ) -> None:
        """Technical reports of large open-weight models and the RL methods they state they used."""
        from ...loaders.reports import ReportError
        from ...sync.reports import sync_reports
        from .display import print_report

        texts = {}
        for item in full_text or []:
            arxiv_id, sep, path = item.partition("=")
            if not sep or not Path(path).is_file():
                fail(f"--full-text {item!r}: expected ID=FILE with an existing file")
            texts[arxiv_id] = Path(path)
        with connect(store) as s:
            try:
                report = sync_reports(s, full_texts=texts, **({"path": facts} if facts else {}))
            except (ReportError, ValueError) as exc:
                fail(str(exc))
            print_report(report)
