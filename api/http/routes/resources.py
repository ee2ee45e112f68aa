"""Resources by kind: papers, methods, frameworks and failures, each a node with its neighbourhood."""

from __future__ import annotations

import datetime as dt
from typing import Any

from fastapi import APIRouter

from ..dependencies import HolderDep, Limit, Offset, SettingsDep
from ..errors import ApiError
from ..models import IsoDate, Page, Resource, Rows
from ..running import resource, run_stored
from . import route

router = APIRouter()
get = route(router, "GET")


def _paged(rows: Rows) -> Page[dict[str, Any]]:
    return Page[dict[str, Any]](data=rows.data, count=rows.count, limit=rows.limit, offset=rows.offset)


@get("/papers", Page[dict[str, Any]], "list_papers", "resources")
def list_papers(
    holder: HolderDep,
    settings: SettingsDep,
    since: IsoDate = dt.date(1990, 1, 1),
    until: IsoDate = dt.date(2100, 12, 31),
    general_only: bool = False,
    limit: Limit = 50,
    offset: Offset = 0,
) -> Page[dict[str, Any]]:
    values = {"since": since, "until": until, "general_only": general_only}
    return _paged(run_stored(holder, settings, "resource-papers", values, limit, offset))


@get("/papers/{arxiv_id}", Resource, "get_paper", "resources")
def get_paper(arxiv_id: str, holder: HolderDep, settings: SettingsDep) -> Resource:
    return resource(holder, settings, "paper", arxiv_id, {"arxiv_id": arxiv_id}, "resource-paper-graph")


@get("/papers/{arxiv_id}/implementations", Rows, "get_paper_implementations", "resources")
def get_paper_implementations(
    arxiv_id: str, holder: HolderDep, settings: SettingsDep, limit: Limit = 50, offset: Offset = 0
) -> Rows:
    values = {"arxiv_id": arxiv_id}
    return run_stored(holder, settings, "paper-proposal-implementation", values, limit, offset)


@get("/methods", Page[dict[str, Any]], "list_methods", "resources")
def list_methods(
    holder: HolderDep, settings: SettingsDep, limit: Limit = 50, offset: Offset = 0
) -> Page[dict[str, Any]]:
    return _paged(run_stored(holder, settings, "resource-methods", {}, limit, offset))


@get("/methods/{slug}", Resource, "get_method", "resources")
def get_method(slug: str, holder: HolderDep, settings: SettingsDep) -> Resource:
    return resource(holder, settings, "method", slug, {"slug": slug}, "resource-method-graph")


@get("/methods/{slug}/lineage", Rows, "get_method_lineage", "resources")
def get_method_lineage(
    slug: str, holder: HolderDep, settings: SettingsDep, limit: Limit = 50, offset: Offset = 0
) -> Rows:
    return run_stored(holder, settings, "method-lineage", {"slug": slug}, limit, offset)


@get("/methods/{slug}/adoption", Rows, "get_method_adoption", "resources")
def get_method_adoption(
    slug: str, holder: HolderDep, settings: SettingsDep, limit: Limit = 50, offset: Offset = 0
) -> Rows:
    return run_stored(holder, settings, "adoption-timeline", {"slug": slug}, limit, offset)


@get("/frameworks", Page[dict[str, Any]], "list_frameworks", "resources")
def list_frameworks(
    holder: HolderDep, settings: SettingsDep, limit: Limit = 50, offset: Offset = 0
) -> Page[dict[str, Any]]:
    return _paged(run_stored(holder, settings, "resource-frameworks", {}, limit, offset))


@get("/frameworks/{slug}", Resource, "get_framework", "resources")
def get_framework(slug: str, holder: HolderDep, settings: SettingsDep) -> Resource:
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
