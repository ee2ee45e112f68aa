"""CLI commands for seeing the graph elsewhere: `uptake export`."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from .options import StoreOption


def register(app, load_app, connect, fail) -> None:
    """Add this area's commands; `connect(store)` opens a store, `fail(msg)` exits with an error."""

    @app.command("export")
    def export(
        format: Annotated[str, typer.Option("--format", "-f", help="graphml, gexf, json or mermaid")],
        query: Annotated[
            str | None, typer.Option("--query", "-q", help="a stored query whose result is exported")
        ] = None,
        param: Annotated[
            list[str] | None, typer.Option("--param", "-p", help="k=v for the stored query, repeatable")
        ] = None,
        framework: Annotated[
            str | None, typer.Option("--framework", help="export a whole framework's subgraph instead")
        ] = None,
        out: Annotated[Path | None, typer.Option("--out", "-o", help="file to write; default stdout")] = None,
        store: StoreOption = None,
    ) -> None:
        """Export a lineage, a path query's result or a whole framework as GraphML, GEXF, JSON or Mermaid."""
        from ...queries import QueryError, parse_params
        from ..views.export import FORMATS, ExportError, export_graph
        from ..views.subgraph import framework_subgraph, query_subgraph

        if format not in FORMATS:
            fail(f"--format must be one of {', '.join(FORMATS)}, got {format!r}")
        if (query is None) == (framework is None):
            fail("give exactly one of --query NAME or --framework NAME")
        if framework is not None and param:
            fail("--param goes with --query, not --framework")
        with connect(store, read_only=True) as s:
            try:
                if query is not None:
                    graph = query_subgraph(s, query, parse_params(param or []))
                else:
                    graph = framework_subgraph(s, framework)
                text = export_graph(graph, format)
            except (QueryError, ExportError) as exc:
                fail(str(exc))
        if out is None:
            typer.echo(text, nl=False)
        else:
            out.parent.mkdir(parents=True, exist_ok=True)
            out.write_text(text, encoding="utf-8")
            typer.echo(
                f"wrote {len(graph.nodes)} nodes and {len(graph.relationships)} relationships to {out}",
                err=True,
            )
