"""`POST /cypher`: guarded ad-hoc Cypher."""

from __future__ import annotations

from fastapi import APIRouter

from ...views.graph_view import graph_from_rows
from ..dependencies import HolderDep, Limit, Offset, SettingsDep
from ..models import CypherRequest, Rows
from ..running import read_ad_hoc
from ..settings import MAX_PAGE_SIZE
from . import route

router = APIRouter()
post = route(router, "POST")


@post("/cypher", Rows, "run_cypher", "ad-hoc Cypher")
def run_cypher(
    request: CypherRequest,
    holder: HolderDep,
    settings: SettingsDep,
    limit: Limit = MAX_PAGE_SIZE,
    offset: Offset = 0,
) -> Rows:
    """Read-only Cypher: read clauses only (others refused with 403), capped rows, server-side timeout."""
    rows, truncated = read_ad_hoc(
        holder, settings, request.statement, request.params, timeout=request.timeout
    )
    page = rows[offset : offset + limit]
    columns = list(rows[0]) if rows else []
    return Rows(
        columns=columns,
        data=page,
        count=len(rows),
        limit=limit,
        offset=offset,
        truncated=truncated,
        graph=graph_from_rows(page),
    )
