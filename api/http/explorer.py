"""The web explorer: a page at `/` and the graph-shaped JSON it draws.

Everything it shows comes from stored queries run through the API's store
holder; the page itself is plain HTML, CSS and JavaScript shipped in
`api/http/static/` (no CDN, nothing to build), so `pip install` gives a working page
that needs no internet.
"""

from __future__ import annotations

import re
from functools import cache
from importlib import resources
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, JSONResponse, Response

from ...queries.run import QueryResult
from ..views.graph import Graph, GraphNode
from ..views.graph_style import STYLES, caption, evidence_url
from ..views.graph_view import node_id
from ..views.subgraph import query_graph
from .running import query_or_404, stored_result

router = APIRouter(include_in_schema=False)

_ASSET_TYPES = {".js": "text/javascript", ".css": "text/css", ".svg": "image/svg+xml", ".html": "text/html"}
# Which stored query draws the neighbourhood of each kind of node, and its parameter.
NEIGHBOUR_QUERIES = {
    "Method": ("resource-method-graph", "slug"),
    "Paper": ("resource-paper-graph", "arxiv_id"),
    "Framework": ("resource-framework-graph", "slug"),
    "FailureReport": ("resource-failure-fixes", "id"),
    "Commit": ("explore-commit-graph", "sha"),
    "Issue": ("explore-thread-graph", "id"),
    "PullRequest": ("explore-thread-graph", "id"),
}
_FRAMEWORK_PREFIX = re.compile(r"^([^#/]+)[#/]")
# Past this many neighbours of one kind, the rest of them are folded into one box.
FOLD_AFTER = 12


@cache
def _asset(name: str) -> bytes | None:
    folder = resources.files(__package__).joinpath("static")
    names = {entry.name for entry in folder.iterdir() if entry.is_file()}
    return folder.joinpath(name).read_bytes() if name in names else None


def _run(request: Request, name: str, values: dict[str, Any]) -> QueryResult:
    state = request.app.state
    return stored_result(state.holder, state.settings, name, values)


def _graph(request: Request, name: str, values: dict[str, Any]) -> Graph:
    """The graph a stored query's rows describe, as its header declares."""
    result = _run(request, name, values)
    return query_graph(query_or_404(name), result.params, result.rows)


def _not_found(message: str) -> JSONResponse:
    return JSONResponse({"error": {"code": "not_found", "message": message, "detail": None}}, status_code=404)


# -- decorating a graph for drawing -------------------------------------------------------


def _framework_of(node, graph: Graph) -> str | None:
    if node.properties.get("framework"):
        return node.properties["framework"]
    for rel in graph.relationships:
        if rel.source == node.id and rel.type == "PART_OF" and rel.target.startswith("Framework:"):
            return rel.target.split(":", 1)[1]
    if node.label in ("Issue", "PullRequest", "FailureReport", "Release", "ContributionRule"):
        match = _FRAMEWORK_PREFIX.match(node.key)
        return match.group(1) if match else None
    return None


def _drawable(graph: Graph, repos: dict[str, str], focus: str | None = None) -> dict[str, Any]:
    """The graph as JSON with each node's caption and evidence link, and each edge's evidence link."""
    urls: dict[str, str | None] = {}
    nodes = []
    for node in graph.nodes:
        repo = repos.get(_framework_of(node, graph) or "")
        props = dict(node.properties)
        if node.label == "Framework":
            props.setdefault("repo", repos.get(node.key))
        urls[node.id] = evidence_url(node.label, node.key, props, repo)
        nodes.append(
            {
                "id": node.id,
                "label": node.label,
                "key": node.key,
                "name": node.name,
                "caption": caption(node.label, node.key, node.properties, node.name),
                "url": urls[node.id],
                "properties": node.properties,
            }
        )
    claims = _framework_claims(graph)
    rels = []
    for rel in graph.relationships:
        # The evidence of a link is its source's record (the commit, the thread, the paper), except
        # a framework's SUPPORTS, shown by the method's paper, and EXTENDS, by the child's paper.
        source = rel.target if rel.type == "SUPPORTS" else rel.source
        drawn = {**rel.model_dump(mode="json"), "url": rel.properties.get("url") or urls.get(source)}
        if (rel.source, rel.target) in claims:
            drawn["properties"]["agreement"] = claims[(rel.source, rel.target)]
        rels.append(drawn)
    return {"focus": focus, "nodes": nodes, "relationships": rels}


def _framework_claims(graph: Graph) -> dict[tuple[str, str], str]:
    """For each framework and method joined by SUPPORTS (the catalog's claim) or IMPLEMENTS (mined
    commits, summarised per framework): whether both say so, or only one."""
    said: dict[tuple[str, str], set[str]] = {}
    for rel in graph.relationships:
        if rel.type in ("SUPPORTS", "IMPLEMENTS") and rel.source.startswith("Framework:"):
            said.setdefault((rel.source, rel.target), set()).add(rel.type)
    names = {frozenset({"SUPPORTS", "IMPLEMENTS"}): "agree", frozenset({"SUPPORTS"}): "claim only"}
    return {pair: names.get(frozenset(types), "evidence only") for pair, types in said.items()}


def _repos(request: Request) -> dict[str, str]:
    return {r["slug"]: r["repo"] for r in _run(request, "resource-frameworks", {}).rows if r.get("repo")}


# -- keeping a view readable at any size -------------------------------------------------------


def _readable(request: Request, graph: Graph, focus: str | None) -> Graph:
    """A framework's commits as one box each, and a node's neighbours past a dozen folded."""
    return _fold(_group_commits(request, graph, focus), focus)


def _group_commits(request: Request, graph: Graph, focus: str | None) -> Graph:
    """Each framework's commits drawn as one box: its first commit (date, release) and how many more."""
    commits = [n for n in graph.nodes if n.label == "Commit" and n.id != focus]
    if len(commits) < 2:
        return graph
    rows = _run(request, "explore-commit-summary", {"shas": [n.key for n in commits]}).rows
    about = {r["sha"]: r for r in rows}
    by_framework: dict[str, list] = {}
    for node in commits:
        framework = (about.get(node.key) or {}).get("framework")
        if framework:
            by_framework.setdefault(framework, []).append(node)
    merged_into: dict[str, str] = {}
    for framework, nodes in by_framework.items():
        nodes.sort(key=lambda n: (about[n.key]["commit_ts"] or 0, n.key))
        first, rest = nodes[0], nodes[1:]
        info = about[first.key]
        first.properties.update(
            framework=framework,
            commit_date=str(info["commit_date"]) if info["commit_date"] else None,
            release=info["release"],
            commits=len(nodes),
            more_commits=[n.key for n in rest],
        )
        merged_into.update({n.id: first.id for n in rest})
    return _merge_nodes(graph, merged_into)


def _fold(graph: Graph, focus: str | None) -> Graph:
    """Past `FOLD_AFTER` neighbours of the focus of one kind, the rest become one '+N more' box."""
    if focus is None:
        return graph
    # One kind: the same label on the same side of the focus (a method's children fold, its parent
    # stays; a framework's claimed and implemented methods fold together).
    kinds: dict[tuple[str, bool], list] = {}
    nodes = {n.id: n for n in graph.nodes}
    for rel in graph.relationships:
        other = rel.target if rel.source == focus else rel.source if rel.target == focus else None
        if other not in nodes or other == focus:
            continue
        kind = (nodes[other].label, other == rel.source)
        if nodes[other] not in kinds.get(kind, []):
            kinds.setdefault(kind, []).append(nodes[other])
    folded: dict[str, str] = {}
    for (label, incoming), members in kinds.items():
        members = [n for n in members if n.id not in folded]
        if len(members) <= FOLD_AFTER:
            continue
        members.sort(key=lambda n: caption(n.label, n.key, n.properties, n.name).lower())
        hidden = members[FOLD_AFTER:]
        side = "in" if incoming else "out"
        more = GraphNode(
            id=f"More:{label}-{side}",
            label="More",
            key=f"{label} {side}",
            name=f"+{len(hidden)} more {label}",
            properties={"folded": [n.key for n in hidden]},
        )
        graph.nodes.append(more)
        folded.update({n.id: more.id for n in hidden})
    return _merge_nodes(graph, folded)


def _merge_nodes(graph: Graph, into: dict[str, str]) -> Graph:
    """Drop the nodes in `into` and point their relationships at the node each merges into, once."""
    if not into:
        return graph
    nodes = [n for n in graph.nodes if n.id not in into]
    rels, seen = [], set()
    for rel in graph.relationships:
        source, target = into.get(rel.source, rel.source), into.get(rel.target, rel.target)
        rid = f"{source}-{rel.type}->{target}"
        if rid in seen or source == target:
            continue
        seen.add(rid)
        rels.append(rel.model_copy(update={"id": rid, "source": source, "target": target}))
    return Graph(nodes=nodes, relationships=rels)


# -- routes ------------------------------------------------------------------------------------


@router.get("/", response_class=HTMLResponse)
def index() -> HTMLResponse:
    return HTMLResponse(_asset("index.html") or b"")


@router.get("/view/matrix", response_class=HTMLResponse)
def matrix_page() -> HTMLResponse:
    """The method × framework matrix as a page (its data: GET /matrix)."""
    return HTMLResponse(_asset("matrix.html") or b"")


@router.get("/assets/{name}")
def asset(name: str) -> Response:
    body = _asset(name)
    suffix = name[name.rfind(".") :] if "." in name else ""
    if body is None or suffix not in _ASSET_TYPES:
        return _not_found(f"no asset {name!r}")
    return Response(body, media_type=_ASSET_TYPES[suffix], headers={"Cache-Control": "no-cache"})


@router.get("/explore/styles")
def styles() -> dict[str, Any]:
    return {label: {"color": s.color, "border": s.border, "text": s.text} for label, s in STYLES.items()}


@router.get("/explore/search")
def search(request: Request, q: str = "") -> dict[str, Any]:
    text = " ".join(q.lower().split())
    if not text:
        return {"query": q, "results": []}
    words = text.split()
    rows = _run(request, "explore-search", {"text": text, "words": words}).rows
    order = {"Method": 0, "Framework": 1, "Paper": 2}
    rows.sort(key=lambda r: (r["rank"], order.get(r["kind"], 9), str(r["name"] or r["key"]).lower()))
    results = [
        {
            "label": r["kind"],
            "key": r["key"],
            "id": node_id(r["kind"], r["key"]),
            "caption": caption(r["kind"], r["key"], {}, r["name"]),
            "name": r["name"],
            "detail": r["detail"],
        }
        for r in rows[:30]
    ]
    return {"query": q, "results": results}


@router.get("/explore/start")
def starting_points(request: Request, count: int = 8) -> dict[str, Any]:
    """Where to begin: the methods most frameworks implement, the newest first implementations
    and the newest failure reports that something fixed."""
    cells = [c for c in _run(request, "method-framework-matrix", {}).rows if c["implemented"]]
    frameworks: dict[str, set[str]] = {}
    names: dict[str, str] = {}
    for cell in cells:
        frameworks.setdefault(cell["method"], set()).add(cell["framework"])
        names[cell["method"]] = cell["name"] or cell["method"]
    adopted = sorted(frameworks, key=lambda m: (-len(frameworks[m]), m))[:count]
    newest = sorted(cells, key=lambda c: (str(c["commit_date"]), c["method"]), reverse=True)[:count]
    failures = _run(request, "failure-fixes", {}).rows
    failures.sort(key=lambda f: (str(f["reported_date"]), f["failure"]), reverse=True)
    return {
        "adopted": [{"slug": m, "name": names[m], "frameworks": len(frameworks[m])} for m in adopted],
        "newest": [
            {
                "slug": c["method"],
                "name": names[c["method"]],
                "framework": c["framework"],
                "commit_date": str(c["commit_date"]),
            }
            for c in newest
        ],
        "failures": [
            {
                "id": f["failure"],
                "symptom": f["symptom"],
                "framework": f["framework"],
                "reported_date": str(f["reported_date"]) if f["reported_date"] else None,
            }
            for f in list({f["failure"]: f for f in failures}.values())[:count]
        ],
    }


@router.get("/explore/lineage/{slug}")
def lineage(request: Request, slug: str) -> Any:
    """A method's family tree; each method carries where and when each framework first implemented it."""
    methods = {m["slug"]: m for m in _run(request, "resource-methods", {}).rows}
    if slug not in methods:
        return _not_found(f"no method {slug!r}")
    graph = _graph(request, "method-lineage", {"slug": slug})
    if not any(node.key == slug for node in graph.nodes):  # a method with no family is drawn alone
        graph.nodes.append(GraphNode(id=node_id("Method", slug), label="Method", key=slug))
    adoption: dict[str, list[dict[str, Any]]] = {}
    for row in _run(request, "lineage-adoption", {"slug": slug}).rows:  # one query for the whole tree
        adoption.setdefault(row["method"], []).append(row)
    repos = _repos(request)
    for node in graph.nodes:
        known = methods.get(node.key, {})
        node.name = node.name or known.get("name")
        node.properties.update({k: known.get(k) for k in ("arxiv_id", "family") if known.get(k)})
        node.properties["implementations"] = [
            {
                "framework": a["framework"],
                "first_commit": a["first_commit"],
                "first_commit_date": str(a["first_commit_date"]) if a["first_commit_date"] else None,
                "commits": a["commits"],
                "days_after_paper": a["days_after_paper"],
                "url": evidence_url("Commit", a["first_commit"], {}, repos.get(a["framework"])),
            }
            for a in adoption.get(node.key, [])
        ]
    drawn = _drawable(_fold(graph, node_id("Method", slug)), repos, node_id("Method", slug))
    urls = {n["id"]: n["url"] for n in drawn["nodes"]}
    for rel in drawn["relationships"]:
        rel["url"] = urls.get(rel["source"])  # what changed is told by the child's paper
    return drawn


@router.get("/explore/neighbours")
def neighbours(request: Request, label: str, key: str) -> Any:
    if label not in NEIGHBOUR_QUERIES:
        return {"focus": node_id(label, key), "nodes": [], "relationships": []}
    name, param = NEIGHBOUR_QUERIES[label]
    focus = node_id(label, key)
    return _drawable(_readable(request, _graph(request, name, {param: key}), focus), _repos(request), focus)


@router.get("/explore/query/{name}")
def query(request: Request, name: str) -> Any:
    """A stored query's result as a drawable graph (paper -> proposal -> implementation, failure -> fix)."""
    values = {k: v for k, v in request.query_params.items()}
    focus = next((node_id("Paper", v) for k, v in values.items() if k == "arxiv_id"), None)
    return _drawable(_readable(request, _graph(request, name, values), focus), _repos(request), focus)
