"""The HTTP API's app factory: stored queries, resources, guarded ad-hoc Cypher, admin loads,
the web explorer and the Neo4j Browser guide.

Routes stay thin: they validate, call a stored query through `StoreHolder`,
and shape the rows. Every error, validation included, answers with one
shape, `{"error": {"code", "message", "detail"}}`.
"""

from __future__ import annotations

import json
import os
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi import FastAPI

from ...graph.adhoc import AdhocLimits, prestart_worker, stop_spare_workers
from ...graph.store import resolve_store_target
from . import browser_guide, docs, explorer
from .body_limit import BodyLimit, max_body_bytes
from .dependencies import StoreHolder
from .errors import ApiError, install_error_handlers
from .hosts import TrustedHosts
from .jobs import JOBS_DIR_VARIABLE, LoadJobs
from .models import ErrorResponse
from .routes import admin, cypher, matrix, queries, resources, service, whatsnew
from .settings import ApiSettings

__all__ = ["ApiError", "create_app", "share_with_workers"]


def create_app(store_target: str | None = None, settings: ApiSettings | None = None) -> FastAPI:
    """The API over one store: a Ladybug path or a Neo4j URI (default like every command)."""
    settings = settings or ApiSettings()
    target = resolve_store_target(store_target or settings.store)
    holder = StoreHolder(target, settings)
    jobs = LoadJobs(target)

    @asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        prestart_worker(AdhocLimits.from_env().memory_bytes)  # the first ad-hoc query skips a cold start
        yield
        stop_spare_workers()
        holder.close()
        jobs.close()

    app = FastAPI(
        lifespan=lifespan,
        title="Uptake",
        version="1",
        description="How RL post-training methods travel from arXiv papers into open-source frameworks.",
        responses={422: {"model": ErrorResponse}},
        docs_url=None,  # served by `docs` from installed files instead of a CDN
        redoc_url=None,
    )
    app.state.settings = settings
    app.state.holder = holder
    app.state.jobs = jobs
    app.add_middleware(BodyLimit, max_bytes=max_body_bytes())
    app.add_middleware(TrustedHosts, allowed=settings.trusted_hosts)
    install_error_handlers(app)
    for module in (service, queries, cypher, resources, matrix, whatsnew, admin):
        app.include_router(module.router)
    app.include_router(docs.router)  # /docs and /redoc, offline
    app.include_router(explorer.router)  # the web explorer at /
    app.include_router(browser_guide.router)  # the Neo4j Browser guide at /browser
    app.include_router(queries.typed_router())
    return app


def share_with_workers(app: FastAPI) -> None:
    """Tell server processes started after this one (`uptake serve --workers N`), each building its
    app from the environment, what this app was given: the store, trusted hosts and jobs folder."""
    os.environ["UPTAKE_STORE"] = app.state.holder.target
    os.environ["UPTAKE_TRUSTED_HOSTS"] = json.dumps(app.state.settings.trusted_hosts)
    os.environ[JOBS_DIR_VARIABLE] = str(app.state.jobs.folder)
