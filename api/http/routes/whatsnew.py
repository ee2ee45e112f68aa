"""What is new since a day: `/whatsnew` as JSON, `/feed.atom` as a feed a reader subscribes to
(the stored query `whats-new`, as `uptake whatsnew` prints it)."""

from __future__ import annotations

import datetime as dt
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import Response
from pydantic import BaseModel, Field

from ...views.whatsnew import atom_feed, headline, newest_first
from ..dependencies import HolderDep, Limit, SettingsDep
from ..models import IsoDate
from ..running import stored_result
from . import route

router = APIRouter()
get = route(router, "GET")

# Without `since`, a reader gets the last quarter: enough to catch up, small enough to poll.
DEFAULT_DAYS = 90


class WhatsNew(BaseModel):
    since: dt.date = Field(description="the first day reported")
    items: list[dict[str, Any]] = Field(
        description="kind (first-implementation, failure, proposal), date, framework, subject, "
        "commit, release, detail and a headline, newest first"
    )
    count: int


def _items(holder, settings, since: dt.date | None, limit: int) -> tuple[dt.date, list[dict[str, Any]]]:
    since = since or dt.date.today() - dt.timedelta(days=DEFAULT_DAYS)
    rows = newest_first(stored_result(holder, settings, "whats-new", {"since": since}).rows)[:limit]
    return since, rows


@get("/whatsnew", WhatsNew, "get_whats_new", "resources")
def get_whats_new(
    holder: HolderDep, settings: SettingsDep, since: IsoDate | None = None, limit: Limit = 50
) -> WhatsNew:
    """New first implementations, failure reports with their fixes, and proposals since a day
    (default: the last 90 days), newest first."""
    since, rows = _items(holder, settings, since, limit)
    return WhatsNew(since=since, items=[r | {"headline": headline(r)} for r in rows], count=len(rows))


@router.get(
    "/feed.atom",
    operation_id="get_feed",
    tags=["resources"],
    response_class=Response,
    responses={200: {"content": {"application/atom+xml": {}}, "description": "an Atom 1.0 feed"}},
)
def get_feed(
    request: Request,
    holder: HolderDep,
    settings: SettingsDep,
    since: IsoDate | None = None,
    limit: Limit = 50,
) -> Response:
    """What is new as an Atom feed: each item links to its commit or thread."""
    _, rows = _items(holder, settings, since, limit)
    repos = {r["slug"]: r["repo"] for r in stored_result(holder, settings, "resource-frameworks", {}).rows}
    body = atom_feed(rows, repos, str(request.url))
    return Response(body, media_type="application/atom+xml")
