"""Resources by kind: papers, methods, frameworks and failures, each a node with its neighbourhood."""

from __future__ import annotations

import datetime as dt
from typing import Any

from fastapi import APIRouter, Request

from ..dependencies import HolderDep, Limit, Offset, SettingsDep
from ..errors import ApiError, Moved
from ..models import IsoDate, Page, Resource, Rows
from ..running import resource, run_stored, stored_result
from . import route

router = APIRouter()
get = route(router, "GET")


def _paged(rows: Rows) -> Page[dict[str, Any]]:
    return Page[dict[str, Any]](data=rows.data, count=rows.count, limit=rows.limit, offset=rows.offset)


def canonical(request: Request, holder: HolderDep, settings: SettingsDep, kind: str, key: str) -> str:
    """`key` as stored, found in any letter case; a 404 if there is none, a redirect if the case differs.

    Every route under /methods/{slug}, /frameworks/{slug} and /papers/{arxiv_id} asks this first,
    so an unknown key is a 404 on all of them alike, never an empty answer that looks like a result.
    """
    rows = stored_result(holder, settings, "resource-key", {"kind": kind, "key": key}).rows
    if not rows:
        raise ApiError(404, "not_found", f"no {kind} {key!r}")
    stored = rows[0]["key"]
    if stored != key:
        parts = request.url.path.split("/")
        parts[2] = stored  # /kind/{key}/...
        query = f"?{request.url.query}" if request.url.query else ""
        raise Moved("/".join(parts) + query)
    return stored


@get("/papers", Page[dict[str, Any]], "list_papers", "resources")
def list_papers(
    holder: HolderDep,
    settings: SettingsDep,
    since: IsoDate | None = None,
    until: IsoDate | None = None,
    general_only: bool = False,
    limit: Limit = 50,
    offset: Offset = 0,
) -> Page[dict[str, Any]]:
    """Every paper, by first-version date; papers with no known date come last, and only when
    neither `since` nor `until` is given. `count` is the number of papers in all."""
    values: dict[str, Any] = {
        "since": since or dt.date(1, 1, 1),
        "until": until or dt.date(9999, 12, 31),
        "general_only": general_only,
        "undated": since is None and until is None,
    }
    # Every paper is read, past the row cap, and the page sliced here: paging inside the query
    # (SKIP) crashes the embedded engine when the SKIP lies far past the last row.
    rows = stored_result(holder, settings, "resource-papers", values, row_cap=None).rows
    return Page[dict[str, Any]](
        data=rows[offset : offset + limit], count=len(rows), limit=limit, offset=offset
    )


@get("/papers/{arxiv_id}", Resource, "get_paper", "resources")
def get_paper(arxiv_id: str, request: Request, holder: HolderDep, settings: SettingsDep) -> Resource:
    arxiv_id = canonical(request, holder, settings, "paper", arxiv_id)
    return resource(holder, settings, "paper", arxiv_id, {"arxiv_id": arxiv_id}, "resource-paper-graph")


@get("/papers/{arxiv_id}/implementations", Rows, "get_paper_implementations", "resources")
def get_paper_implementations(
    arxiv_id: str,
    request: Request,
    holder: HolderDep,
    settings: SettingsDep,
    limit: Limit = 50,
    offset: Offset = 0,
) -> Rows:
    values = {"arxiv_id": canonical(request, holder, settings, "paper", arxiv_id)}
    return run_stored(holder, settings, "paper-proposal-implementation", values, limit, offset)


@get("/methods", Page[dict[str, Any]], "list_methods", "resources")
def list_methods(
    holder: HolderDep, settings: SettingsDep, limit: Limit = 50, offset: Offset = 0
) -> Page[dict[str, Any]]:
    return _paged(run_stored(holder, settings, "resource-methods", {}, limit, offset))


@get("/methods/{slug}", Resource, "get_method", "resources")
def get_method(slug: str, request: Request, holder: HolderDep, settings: SettingsDep) -> Resource:
    slug = canonical(request, holder, settings, "method", slug)
    return resource(holder, settings, "method", slug, {"slug": slug}, "resource-method-graph")


@get("/methods/{slug}/lineage", Rows, "get_method_lineage", "resources")
def get_method_lineage(
    slug: str,
    request: Request,
    holder: HolderDep,
    settings: SettingsDep,
    limit: Limit = 50,
    offset: Offset = 0,
) -> Rows:
    values = {"slug": canonical(request, holder, settings, "method", slug)}
    return run_stored(holder, settings, "method-lineage", values, limit, offset)


@get("/methods/{slug}/adoption", Rows, "get_method_adoption", "resources")
def get_method_adoption(
    slug: str,
    request: Request,
    holder: HolderDep,
    settings: SettingsDep,
    limit: Limit = 50,
    offset: Offset = 0,
) -> Rows:
    values = {"slug": canonical(request, holder, settings, "method", slug)}
    return run_stored(holder, settings, "adoption-timeline", values, limit, offset)


@get("/frameworks", Page[dict[str, Any]], "list_frameworks", "resources")
def list_frameworks(
    holder: HolderDep, settings: SettingsDep, limit: Limit = 50, offset: Offset = 0
) -> Page[dict[str, Any]]:
    return _paged(run_stored(holder, settings, "resource-frameworks", {}, limit, offset))


@get("/frameworks/{slug}", Resource, "get_framework", "resources")
def get_framework(slug: str, request: Request, holder: HolderDep, settings: SettingsDep) -> Resource:
    slug = canonical(request, holder, settings, "framework", slug)
    return resource(holder, settings, "framework", slug, {"slug": slug}, "resource-framework-graph")


@get("/failures/{failure_id:path}/fixes", Rows, "get_failure_fixes", "resources")
def get_failure_fixes(
    failure_id: str, holder: HolderDep, settings: SettingsDep, limit: Limit = 50, offset: Offset = 0
) -> Rows:
    """The issue a failure was reported in and what fixes it; ids contain '#' (send it as %23)."""
    rows = run_stored(holder, settings, "resource-failure-fixes", {"id": failure_id}, limit, offset)
    if rows.count == 0:
        raise ApiError(404, "not_found", f"no failure report {failure_id!r} or nothing recorded about it")
    return rows
