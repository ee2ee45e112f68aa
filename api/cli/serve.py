"""CLI commands of the API and the study report (`uptake serve`, `uptake report`)."""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Annotated

import typer

from .options import StoreOption


def register(app, load_app, connect, fail) -> None:
    """Add this area's commands; `connect(store)` opens a store, `fail(msg)` exits with an error."""

    @app.command("serve")
    def serve(
        store: StoreOption = None,
        host: Annotated[str, typer.Option(help="interface to listen on")] = "127.0.0.1",
        port: Annotated[int, typer.Option(help="TCP port")] = 8000,
        workers: Annotated[
            int,
            typer.Option(
                min=1,
                max=64,
                envvar="UPTAKE_WORKERS",
                help="server processes (reads run in parallel across them)",
            ),
        ] = 1,
        log_level: Annotated[str, typer.Option(help="uvicorn log level")] = "info",
    ) -> None:
        """Serve the HTTP API (stored queries, resources, read-only Cypher) over the store."""
        import uvicorn

        from ..http.app import ApiError, create_app, share_with_workers
        from ..http.settings import ApiSettings

        settings = ApiSettings()
        if host not in ("0.0.0.0", "::"):  # the name it listens on is one clients may use
            settings.trusted_hosts = [*settings.trusted_hosts, host]
        api = create_app(store, settings)
        try:  # answer "store unavailable" now rather than on the first request
            api.state.holder.store()
        except ApiError as exc:
            fail(exc.message)
        typer.echo(f"serving {api.state.holder.target} on http://{host}:{port} (OpenAPI at /docs)")
        if workers == 1:
            uvicorn.run(api, host=host, port=port, log_level=log_level)
            return
        # Each process builds its own app from the environment; the checked one above is set aside.
        api.state.holder.close()
        share_with_workers(api)
        factory = "uptake.api.http.app:create_app"
        try:
            uvicorn.run(factory, factory=True, workers=workers, host=host, port=port, log_level=log_level)
        finally:
            api.state.jobs.close()

    @app.command("report")
    def report(
        store: StoreOption = None,
        out: Annotated[
            Path, typer.Option("--out", help="folder for report.md, report.json and charts")
        ] = Path("report"),
        since: Annotated[
            str | None, typer.Option("--from", help="first day of the paper window, YYYY-MM-DD")
        ] = None,
        until: Annotated[
            str | None, typer.Option("--to", help="last day of the paper window, YYYY-MM-DD")
        ] = None,
        frameworks: Annotated[
            str | None, typer.Option("--frameworks", help="comma-separated framework slugs; default all")
        ] = None,
        widely: Annotated[
            int, typer.Option("--widely", help="a method is widely included from this many frameworks")
        ] = 2,
    ) -> None:
        """The study's measures for a paper window and a set of frameworks: Markdown, JSON and charts."""
        from ..views.report import ReportError, StudyWindow, build_report, write_report

        try:
            window = StudyWindow(
                since=_date(since, "--from") or dt.date(1990, 1, 1),
                until=_date(until, "--to") or dt.date(2100, 12, 31),
                frameworks=tuple(f.strip() for f in (frameworks or "").split(",") if f.strip()),
                widely=widely,
            )
        except ValueError as exc:
            fail(str(exc))
        with connect(store, read_only=True) as s:
            try:
                result = build_report(s, window)
            except ReportError as exc:
                fail(str(exc))
        for path in write_report(result, out):
            typer.echo(f"wrote {path}")


def _date(value: str | None, option: str) -> dt.date | None:
    if value is None:
        return None
    try:
        return dt.date.fromisoformat(value)
    except ValueError:
        raise ValueError(f"{option} must be a date YYYY-MM-DD, got {value!r}") from None

