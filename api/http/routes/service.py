"""`/health`: whether the API is up and its store is there."""

from __future__ import annotations

from fastapi import APIRouter
from fastapi.concurrency import run_in_threadpool

from ..dependencies import HolderDep
from ..errors import ApiError
from ..models import Health
from . import route

router = APIRouter()
get = route(router, "GET")


@get("/health", Health, "health", "service")
async def health(holder: HolderDep) -> Health:
    """It runs no query, so it answers while queries run."""
    # On the event loop once the store is open: no worker thread, no connection, no lock.
    store = holder._store or await run_in_threadpool(holder.store)
    if not store.is_available():
        raise ApiError(503, "store_unavailable", f"no store at {store.location}")
    return Health(status="ok", backend=store.backend, store=store.location)
