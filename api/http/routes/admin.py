"""`/admin/loads`: loads into the API's store, started by an admin with the API key."""

from __future__ import annotations

from fastapi import APIRouter, Request

from ..dependencies import AdminDep
from ..models import LoadJob, LoadRequest
from . import route

router = APIRouter()
get = route(router, "GET")
post = route(router, "POST")


@post("/admin/loads", LoadJob, "start_load", "admin", status_code=202)
def start_load(body: LoadRequest, request: Request, _: AdminDep) -> LoadJob:
    """Run `uptake load <loader> <args>` into the API's store in a separate process."""
    return request.app.state.jobs.start(body)


@get("/admin/loads/{job_id}", LoadJob, "get_load", "admin")
def get_load(job_id: str, request: Request, _: AdminDep) -> LoadJob:
    return request.app.state.jobs.get(job_id)
