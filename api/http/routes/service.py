"""`/health`: whether the store answers."""

from __future__ import annotations

from fastapi import APIRouter

from ..dependencies import HolderDep
from ..models import Health
from . import route

router = APIRouter()
get = route(router, "GET")


@get("/health", Health, "health", "service")
def health(holder: HolderDep) -> Health:
    store = holder.store()
    return Health(status="ok", backend=store.backend, store=store.location)
