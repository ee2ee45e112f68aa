"""A Neo4j Browser guide and style sheet, served by the API and generated from `queries/`.

The guide has one page per stored query: its description, its parameters as a
`:params` command and its Cypher (the Neo4j dialect), both runnable with one
click. It is generated on each request from `load_queries()`, so it cannot
drift from the files. Two renderings: HTML slides (`/browser/guide`, what
Neo4j Browser 5 plays with `:guide URL`) and AsciiDoc (`/browser/guide.adoc`,
for the newer Browser and the Query tool). `/browser/style.grass` colours and
captions each label (`:style URL`).

Browser fetches these cross-origin with cache headers, so every route answers
CORS preflights; the Neo4j server must also list this host in
`browser.remote_content_hostname_whitelist`.
"""

from __future__ import annotations

import datetime as dt
import html
import json
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import PlainTextResponse, Response

from ...queries import StoredQuery, load_queries
from ...queries.run import bind_params
from ..views.graph_style import grass

router = APIRouter(prefix="/browser", include_in_schema=False)

# Queries whose result Browser draws as a graph come first, so the guide opens on a picture.
FIRST = ("method-family",)
CORS = {
    "Access-Control-Allow-Origin": "*",
    "Access-Control-Allow-Methods": "GET, OPTIONS",
    "Access-Control-Allow-Headers": "*",
    "Access-Control-Max-Age": "600",
    "Cache-Control": "no-cache",
}


def guide_queries() -> list[StoredQuery]:
    queries = load_queries()
    first = [queries[name] for name in FIRST if name in queries]
    return first + [q for name, q in queries.items() if name not in FIRST]


def _cypher_value(value: Any) -> str:
    """A Cypher literal for a parameter value (Browser evaluates `:params` maps as Cypher)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "null"
    if isinstance(value, dt.date):
        return f'date("{value.isoformat()}")'
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, list):
        return "[" + ", ".join(_cypher_value(v) for v in value) + "]"
    return json.dumps(str(value))


def params_command(query: StoredQuery) -> str:
    """`:params {...}` with the defaults, including the day numbers the Cypher compares with."""
    bound = bind_params(query, {p.name: p.default for p in query.params if p.default is not None})
    if not bound:
        return ":params {}"
    return ":params {" + ", ".join(f"{k}: {_cypher_value(v)}" for k, v in bound.items()) + "}"


def _default_text(param) -> str:
    return "required" if param.required else html.escape(json.dumps(param.default, default=str))


def _param_rows(query: StoredQuery) -> str:
    if not query.params:
        return "<p>No parameters.</p>"
    rows = "".join(
        f"<tr><td><code>${html.escape(p.name)}</code></td><td>{p.type}</td>"
        f"<td><code>{_default_text(p)}</code></td>"
        f"<td>{html.escape(p.doc)}</td></tr>"
        for p in query.params
    )
    return (
        '<table class="table table-condensed"><thead><tr><th>parameter</th><th>type</th><th>default</th>'
        f"<th>meaning</th></tr></thead><tbody>{rows}</tbody></table>"
    )


def guide_html(base_url: str) -> str:
    style_url = f"{base_url}/browser/style.grass"
    queries = guide_queries()
    contents = "".join(
        f'<li><a data-exec="guide {base_url}/browser/guide#slide-{i}">{html.escape(q.name)}</a></li>'
        for i, q in enumerate(queries, 1)
    )
    slides = [
        '<slide class="row-fluid">'
        '<div class="col-sm-3"><h3>Uptake</h3>'
        '<p class="lead">How RL post-training methods travel from arXiv papers into the open-source '
        "frameworks, as stored queries you can run here.</p></div>"
        '<div class="col-sm-9">'
        "<p>Colour each label and caption it readably (click, then run):</p>"
        f'<pre class="runnable">:style {html.escape(style_url)}</pre>'
        "<p>Each of the next pages is one stored query: first set its parameters, then run its Cypher. "
        "Change a parameter with <code>:param name =&gt; value</code>.</p>"
        f"<ol>{contents}</ol></div></slide>"
    ]
    for query in queries:
        slides.append(
            '<slide class="row-fluid">'
            f'<div class="col-sm-3"><h3>{html.escape(query.name)}</h3>'
            f'<p class="lead">{html.escape(query.description)}</p>'
            f"<p>Returns: <code>{html.escape(', '.join(query.returns))}</code></p></div>"
            '<div class="col-sm-9">'
            f"{_param_rows(query)}"
            "<p>1. Set the parameters:</p>"
            f'<pre class="runnable params">{html.escape(params_command(query))}</pre>'
            "<p>2. Run the query:</p>"
            f'<pre class="runnable cypher" data-query="{html.escape(query.name)}">'
            f"{html.escape(query.cypher_for('neo4j'))}</pre>"
            "</div></slide>"
        )
    return (
        '<!doctype html><html><head><meta charset="utf-8"><title>Uptake stored queries</title></head><body>'
        '<article class="guide"><carousel class="deck container-fluid">'
        + "".join(slides)
        + "</carousel></article></body></html>\n"
    )


def guide_asciidoc(base_url: str) -> str:
    lines = [
        "= Uptake stored queries",
        "",
        "== Uptake",
        "",
        "How RL post-training methods travel from arXiv papers into the open-source frameworks.",
        "Colour each label and caption it readably:",
        "",
        "[source,cypher,role=runnable]",
        "----",
        f":style {base_url}/browser/style.grass",
        "----",
        "",
    ]
    for query in guide_queries():
        lines += [f"== {query.name}", "", query.description, "", f"Returns: `{', '.join(query.returns)}`", ""]
        for p in query.params:
            default = "required" if p.required else json.dumps(p.default, default=str)
            lines.append(f"* `${p.name}` ({p.type}, default `{default}`): {p.doc}")
        lines += [
            "",
            "[source,cypher,role=runnable]",
            "----",
            params_command(query),
            "----",
            "",
            "[source,cypher,role=runnable]",
            "----",
            query.cypher_for("neo4j"),
            "----",
            "",
        ]
    return "\n".join(lines)


def _base_url(request: Request) -> str:
    return str(request.base_url).rstrip("/")


@router.get("/guide")
def guide(request: Request) -> Response:
    return Response(guide_html(_base_url(request)), media_type="text/html; charset=utf-8", headers=CORS)


@router.get("/guide.adoc")
def guide_adoc(request: Request) -> Response:
    return PlainTextResponse(guide_asciidoc(_base_url(request)), headers=CORS)


@router.get("/style.grass")
def style() -> Response:
    return PlainTextResponse(grass(), headers=CORS)


@router.options("/{name}")
def preflight(name: str) -> Response:
    return Response(status_code=204, headers=CORS)
