"""The HTTP API: stored queries, resources, guarded ad-hoc Cypher, admin loads.

Routes stay thin: they validate, call a stored query through `StoreHolder`,
and shape the rows. Every error, validation included, answers with one
shape, `{"error": {"code", "message", "detail"}}`.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import hmac
import inspect
import logging
import os
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import asynccontextmanager
from typing import Annotated, Any

from fastapi import Body, Depends, FastAPI, Query, Request, Security
from fastapi.concurrency import run_in_threadpool
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from fastapi.security import APIKeyHeader
from pydantic import BaseModel, ConfigDict, Field, create_model
from starlette.exceptions import HTTPException as StarletteHTTPException

from ..graph.store import DEFAULT_STORE, QueryTimeout, ReadOnlyError, Store, StoreError, open_store
from ..queries import QueryError, StoredQuery, load_queries
from ..queries.run import INT64_RANGE, QueryResult, UnknownQueryError, run_query, stored_query
from .graph_view import graph_from_rows, lineage_graph
from .models import (
    CypherRequest,
    ErrorResponse,
    Health,
    LoadJob,
    LoadRequest,
    Page,
    QueryDetail,
    QueryParamInfo,
    QuerySummary,
    Resource,
    Rows,
    RunQueryRequest,
)
from .settings import MAX_PAGE_SIZE, ApiSettings

PY_TYPES: dict[str, Any] = {
    "STRING": str,
    "INT64": int,
    "DOUBLE": float,
    "BOOL": bool,
    "DATE": dt.date,
    "STRING[]": list[str],
}
ERRORS: dict[int | str, dict[str, Any]] = {
    code: {"model": ErrorResponse} for code in (400, 401, 403, 404, 408, 422, 500, 503)
}


class ApiError(Exception):
    def __init__(self, status: int, code: str, message: str, detail: Any = None):
        super().__init__(message)
        self.status, self.code, self.message, self.detail = status, code, message, detail


def _error(status: int, code: str, message: str, detail: Any = None) -> JSONResponse:
    body = ErrorResponse.model_validate({"error": {"code": code, "message": message, "detail": detail}})
    return JSONResponse(body.model_dump(mode="json"), status_code=status)


# -- the store ------------------------------------------------------------------


class StoreHolder:
    """The API's one store handle, opened lazily and read-only.

    A Ladybug store reopens itself when another process wrote its files (see
    `LadybugStore`); a Neo4j server may still be starting, so opening is retried.
    """

    def __init__(self, target: str, settings: ApiSettings):
        self.target = target
        self.settings = settings
        self._store: Store | None = None
        self._open_lock = threading.Lock()

    @property
    def is_ladybug(self) -> bool:
        return "://" not in self.target

    def store(self) -> Store:
        with self._open_lock:
            if self._store is None:
                self._store = self._open()
            return self._store

    def _open(self) -> Store:
        last: StoreError | None = None
        for attempt in range(max(1, self.settings.connect_attempts)):
            try:
                store = open_store(
                    self.target, read_only=True, refresh_interval=self.settings.refresh_interval
                )
                store.check_version()
                return store
            except StoreError as exc:
                last = exc
                if self.is_ladybug:  # a missing directory does not appear by waiting
                    break
                time.sleep(min(0.2 * 2**attempt, 2.0))
        raise ApiError(503, "store_unavailable", str(last))

    def close(self) -> None:
        with self._open_lock:
            if self._store is not None:
                self._store.close()
                self._store = None


# -- admin loads -----------------------------------------------------------------


class LoadJobs:
    """Loads started by an admin, each `uptake load ...` in its own process."""

    def __init__(self, target: str):
        self.target = target
        self._jobs: dict[str, LoadJob] = {}
        self._lock = threading.Lock()

    def start(self, request: LoadRequest) -> LoadJob:
        job = LoadJob(id=uuid.uuid4().hex[:12], loader=request.loader, status="running")
        command = [
            sys.executable,
            "-c",
            "from uptake.api.cli import main; main()",
            "load",
            request.loader,
            "--store",
            self.target,
            *request.args,
        ]
        process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        with self._lock:
            self._jobs[job.id] = job
        threading.Thread(target=self._wait, args=(job.id, process), daemon=True).start()
        return job

    def _wait(self, job_id: str, process: subprocess.Popen) -> None:
        output, _ = process.communicate()
        with self._lock:
            job = self._jobs[job_id]
            job.exit_code = process.returncode
            job.status = "succeeded" if process.returncode == 0 else "failed"
            job.output = output[-4000:]

    def get(self, job_id: str) -> LoadJob:
        with self._lock:
            job = self._jobs.get(job_id)
            if job is None:
                raise ApiError(404, "not_found", f"no load job {job_id!r}")
            return job.model_copy()


# -- dependencies ------------------------------------------------------------------


# Async so that resolving them costs no trip through the worker threads.
async def _holder(request: Request) -> StoreHolder:
    return request.app.state.holder


async def _settings(request: Request) -> ApiSettings:
    return request.app.state.settings


HolderDep = Annotated[StoreHolder, Depends(_holder)]
SettingsDep = Annotated[ApiSettings, Depends(_settings)]
Limit = Annotated[int, Query(ge=1, le=MAX_PAGE_SIZE, description="page size")]
Offset = Annotated[int, Query(ge=0, le=10**9, description="rows to skip")]
_api_key_header = APIKeyHeader(name="X-API-Key", auto_error=False, description="admin API key")


def _require_admin(settings: SettingsDep, key: Annotated[str | None, Security(_api_key_header)]) -> None:
    if not settings.admin_api_key:
        raise ApiError(
            403, "admin_disabled", "admin actions are off; set UPTAKE_ADMIN_API_KEY to enable them"
        )
    if not key or not hmac.compare_digest(key.encode(), settings.admin_api_key.encode()):
        raise ApiError(401, "unauthorized", "a valid X-API-Key header is required")


AdminDep = Annotated[None, Depends(_require_admin)]


# -- running queries -----------------------------------------------------------------


@contextlib.contextmanager
def _store_errors(seconds: float, *, ad_hoc: bool = False) -> Iterator[None]:
    """The store's errors as API errors: a refused write, a timeout, a failing query."""
    try:
        yield
    except ReadOnlyError as exc:
        raise ApiError(403, "read_only", str(exc)) from None
    except QueryTimeout:
        raise ApiError(408, "query_timeout", f"the database cancelled the query after {seconds} s") from None
    except StoreError as exc:
        if ad_hoc:
            raise ApiError(400, "cypher_error", str(exc)) from None
        raise ApiError(500, "query_failed", str(exc)) from None


def _read(
    holder: StoreHolder,
    settings: ApiSettings,
    cypher: str,
    params: dict,
    *,
    timeout: float | None = None,
) -> tuple[list[dict[str, Any]], bool]:
    """Ad-hoc Cypher: rows up to the row cap, and whether there were more."""
    seconds = min(timeout or settings.query_timeout, settings.query_timeout)
    with _store_errors(seconds, ad_hoc=True):
        try:
            rows = holder.store().read(cypher, params, timeout=seconds, limit=settings.max_rows + 1)
        except StoreError:
            raise
        except (ValueError, TypeError, OverflowError, RuntimeError) as exc:
            # Drivers raise these for values they cannot bind: the request's fault, not the server's.
            raise StoreError(f"cannot run the query with these parameters: {exc}") from exc
    return rows[: settings.max_rows], len(rows) > settings.max_rows


def stored_result(
    holder: StoreHolder, settings: ApiSettings, name: str, values: dict[str, Any]
) -> QueryResult:
    """A stored query's rows up to the row cap; a bad name or parameter and store errors as API errors."""
    query = _query(name)
    seconds = settings.query_timeout
    try:
        with _store_errors(seconds):
            return run_query(holder.store(), query, values, timeout=seconds, limit=settings.max_rows)
    except QueryError as exc:
        raise ApiError(422, "invalid_parameter", str(exc)) from None


def run_stored(
    holder: StoreHolder,
    settings: ApiSettings,
    name: str,
    values: dict[str, Any],
    limit: int = MAX_PAGE_SIZE,
    offset: int = 0,
) -> Rows:
    """One page of a stored query's rows, with the graph they describe."""
    result = stored_result(holder, settings, name, values)
    page = result.rows[offset : offset + limit]
    return Rows(
        columns=list(_query(name).returns),
        data=page,
        count=len(result.rows),
        limit=limit,
        offset=offset,
        truncated=result.truncated,
        graph=graph_from_rows(page),
    )


def _query(name: str) -> StoredQuery:
    try:
        return stored_query(name)
    except UnknownQueryError:
        raise ApiError(404, "not_found", f"no stored query {name!r}") from None


def _summary(query: StoredQuery) -> dict[str, Any]:
    return {
        "name": query.name,
        "description": query.description,
        "parameters": [
            QueryParamInfo(
                name=p.name, type=p.type, required=p.required, default=p.default, description=p.doc
            )
            for p in query.params
        ],
        "returns": list(query.returns),
    }


def _operation_id(name: str) -> str:
    return "run_" + name.replace("-", "_")


def _params_model(query: StoredQuery) -> type[BaseModel]:
    """The stored query's parameters as a typed query-string model, so OpenAPI documents them."""
    fields: dict[str, Any] = {}
    for p in query.params:
        if p.name in ("limit", "offset"):
            raise QueryError(f"{query.name}: parameter names limit and offset are reserved for paging")
        extra = {"ge": INT64_RANGE[0], "le": INT64_RANGE[1]} if p.type == "INT64" else {}
        if p.type == "DOUBLE":
            extra = {"allow_inf_nan": False}
        type_ = PY_TYPES[p.type]
        if p.required:
            fields[p.name] = (type_, Field(..., description=p.doc, **extra))
        else:
            fields[p.name] = (type_, Field(p.default, description=p.doc, **extra))
    fields["limit"] = (int, Field(MAX_PAGE_SIZE, ge=1, le=MAX_PAGE_SIZE, description="page size"))
    fields["offset"] = (int, Field(0, ge=0, le=10**9, description="rows to skip"))
    title = "".join(part.title() for part in query.name.split("-")) + "Params"
    return create_model(title, __config__=ConfigDict(extra="forbid"), **fields)


def _typed_route(app: FastAPI, query: StoredQuery) -> None:
    model = _params_model(query)

    def endpoint(holder: StoreHolder, settings: ApiSettings, params: BaseModel) -> Rows:
        values = params.model_dump(exclude={"limit", "offset"})
        return run_stored(holder, settings, query.name, values, params.limit, params.offset)

    # A real signature (not string annotations) so FastAPI sees the generated model.
    endpoint.__signature__ = inspect.Signature(
        [
            inspect.Parameter("holder", inspect.Parameter.KEYWORD_ONLY, annotation=HolderDep),
            inspect.Parameter("settings", inspect.Parameter.KEYWORD_ONLY, annotation=SettingsDep),
            inspect.Parameter("params", inspect.Parameter.KEYWORD_ONLY, annotation=Annotated[model, Query()]),
        ]
    )
    app.add_api_route(
        f"/queries/{query.name}/rows",
        endpoint,
        methods=["GET"],
        response_model=Rows,
        operation_id=_operation_id(query.name),
        summary=query.description,
        tags=["stored queries"],
        responses=ERRORS,
    )


def _resource(
    holder: StoreHolder,
    settings: ApiSettings,
    kind: str,
    what: str,
    params: dict[str, Any],
    graph_query: str | None,
) -> Resource:
    rows = run_stored(holder, settings, f"resource-{kind}", params).data
    if not rows:
        raise ApiError(404, "not_found", f"no {kind} {what}")
    node = {k: v for k, v in rows[0]["node"].items() if k != "_label"}
    graph = run_stored(holder, settings, graph_query, params).graph if graph_query else None
    return Resource(node=node, graph=graph or graph_from_rows(rows))


# -- the app --------------------------------------------------------------------


def create_app(store_target: str | None = None, settings: ApiSettings | None = None) -> FastAPI:
    """The API over one store: a Ladybug path or a Neo4j URI (default like every command)."""
    settings = settings or ApiSettings()
    target = store_target or settings.store or os.environ.get("UPTAKE_STORE") or DEFAULT_STORE

    holder = StoreHolder(target, settings)

    @asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        yield
        holder.close()

    app = FastAPI(
        lifespan=lifespan,
        title="Uptake",
        version="1",
        description="How RL post-training methods travel from arXiv papers into open-source frameworks.",
        responses={422: {"model": ErrorResponse}},
    )
    app.state.settings = settings
    app.state.holder = holder
    app.state.jobs = LoadJobs(target)
    _install_error_handlers(app)
    _add_routes(app)
    from . import browser_guide, explorer  # web explorer at /, Browser guide at /browser

    app.include_router(explorer.router)
    app.include_router(browser_guide.router)
    for query in load_queries().values():
        _typed_route(app, query)
    return app


def _install_error_handlers(app: FastAPI) -> None:
    @app.exception_handler(ApiError)
    async def api_error(_: Request, exc: ApiError) -> JSONResponse:
        return _error(exc.status, exc.code, exc.message, exc.detail)

    @app.exception_handler(RequestValidationError)
    async def validation_error(_: Request, exc: RequestValidationError) -> JSONResponse:
        problems = [
            {"parameter": ".".join(str(p) for p in e["loc"][1:]) or e["loc"][0], "message": e["msg"]}
            for e in exc.errors()
        ]
        first = problems[0] if problems else {"parameter": "?", "message": "invalid request"}
        return _error(
            422, "invalid_parameter", f"parameter {first['parameter']!r}: {first['message']}", problems
        )

    @app.exception_handler(StarletteHTTPException)
    async def http_error(_: Request, exc: StarletteHTTPException) -> JSONResponse:
        code = {404: "not_found", 405: "method_not_allowed"}.get(exc.status_code, "http_error")
        return _error(exc.status_code, code, str(exc.detail))

    @app.exception_handler(Exception)
    async def unexpected(_: Request, exc: Exception) -> JSONResponse:
        logging.getLogger("uptake.api").exception("unexpected error")
        return _error(500, "internal", f"{type(exc).__name__}: {exc}")


def _add_routes(app: FastAPI) -> None:
    get = _route(app, "GET")
    post = _route(app, "POST")

    @get("/health", Health, "health", "service")
    async def health(holder: HolderDep) -> Health:
        """Whether the API is up and its store is there; it runs no query, so it answers while queries run."""
        # On the event loop once the store is open: no worker thread, no connection, no lock.
        store = holder._store or await run_in_threadpool(holder.store)
        if not store.is_available():
            raise ApiError(503, "store_unavailable", f"no store at {store.location}")
        return Health(status="ok", backend=store.backend, store=store.location)

    @get("/queries", Page[QuerySummary], "list_queries", "stored queries")
    def list_queries(limit: Limit = 50, offset: Offset = 0) -> Page[QuerySummary]:
        queries = list(load_queries().values())
        data = [QuerySummary(**_summary(q)) for q in queries[offset : offset + limit]]
        return Page[QuerySummary](data=data, count=len(queries), limit=limit, offset=offset)

    @get("/queries/{name}", QueryDetail, "describe_query", "stored queries")
    def describe_query(name: str) -> QueryDetail:
        query = _query(name)
        return QueryDetail(**_summary(query), cypher=query.cypher, run_path=f"/queries/{query.name}/rows")

    @post("/queries/{name}/rows", Rows, "run_query", "stored queries")
    def run_query(
        name: str,
        holder: HolderDep,
        settings: SettingsDep,
        body: Annotated[RunQueryRequest, Body()],
        limit: Limit = MAX_PAGE_SIZE,
        offset: Offset = 0,
    ) -> Rows:
        return run_stored(holder, settings, name, body.params, limit, offset)

    @post("/cypher", Rows, "run_cypher", "ad-hoc Cypher")
    def run_cypher(
        request: CypherRequest,
        holder: HolderDep,
        settings: SettingsDep,
        limit: Limit = MAX_PAGE_SIZE,
        offset: Offset = 0,
    ) -> Rows:
        """Read-only Cypher, refused by the database if it writes; capped rows, server-side timeout."""
        rows, truncated = _read(holder, settings, request.statement, request.params, timeout=request.timeout)
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

    def paged(rows: Rows) -> Page[dict[str, Any]]:
        return Page[dict[str, Any]](data=rows.data, count=rows.count, limit=rows.limit, offset=rows.offset)

    @get("/papers", Page[dict[str, Any]], "list_papers", "resources")
    def list_papers(
        holder: HolderDep,
        settings: SettingsDep,
        since: dt.date = dt.date(1990, 1, 1),
        until: dt.date = dt.date(2100, 12, 31),
        general_only: bool = False,
        limit: Limit = 50,
        offset: Offset = 0,
    ) -> Page[dict[str, Any]]:
        values = {"since": since, "until": until, "general_only": general_only}
        return paged(run_stored(holder, settings, "resource-papers", values, limit, offset))

    @get("/papers/{arxiv_id}", Resource, "get_paper", "resources")
    def get_paper(arxiv_id: str, holder: HolderDep, settings: SettingsDep) -> Resource:
        return _resource(holder, settings, "paper", arxiv_id, {"arxiv_id": arxiv_id}, "resource-paper-graph")

    @get("/papers/{arxiv_id}/implementations", Rows, "get_paper_implementations", "resources")
    def get_paper_implementations(
        arxiv_id: str, holder: HolderDep, settings: SettingsDep, limit: Limit = 50, offset: Offset = 0
    ) -> Rows:
        return run_stored(
            holder, settings, "paper-proposal-implementation", {"arxiv_id": arxiv_id}, limit, offset
        )

    @get("/methods", Page[dict[str, Any]], "list_methods", "resources")
    def list_methods(
        holder: HolderDep, settings: SettingsDep, limit: Limit = 50, offset: Offset = 0
    ) -> Page[dict[str, Any]]:
        return paged(run_stored(holder, settings, "resource-methods", {}, limit, offset))

    @get("/methods/{slug}", Resource, "get_method", "resources")
    def get_method(slug: str, holder: HolderDep, settings: SettingsDep) -> Resource:
        return _resource(holder, settings, "method", slug, {"slug": slug}, "resource-method-graph")

    @get("/methods/{slug}/lineage", Rows, "get_method_lineage", "resources")
    def get_method_lineage(
        slug: str, holder: HolderDep, settings: SettingsDep, limit: Limit = 50, offset: Offset = 0
    ) -> Rows:
        rows = run_stored(holder, settings, "method-lineage", {"slug": slug}, limit, offset)
        rows.graph = lineage_graph(slug, rows.data)
        return rows

    @get("/methods/{slug}/adoption", Rows, "get_method_adoption", "resources")
    def get_method_adoption(
        slug: str, holder: HolderDep, settings: SettingsDep, limit: Limit = 50, offset: Offset = 0
    ) -> Rows:
        return run_stored(holder, settings, "adoption-timeline", {"slug": slug}, limit, offset)

    @get("/frameworks", Page[dict[str, Any]], "list_frameworks", "resources")
    def list_frameworks(
        holder: HolderDep, settings: SettingsDep, limit: Limit = 50, offset: Offset = 0
    ) -> Page[dict[str, Any]]:
        return paged(run_stored(holder, settings, "resource-frameworks", {}, limit, offset))

    @get("/frameworks/{slug}", Resource, "get_framework", "resources")
    def get_framework(slug: str, holder: HolderDep, settings: SettingsDep) -> Resource:
        return _resource(holder, settings, "framework", slug, {"slug": slug}, "resource-framework-graph")

    @get("/failures/{failure_id:path}/fixes", Rows, "get_failure_fixes", "resources")
    def get_failure_fixes(
        failure_id: str, holder: HolderDep, settings: SettingsDep, limit: Limit = 50, offset: Offset = 0
    ) -> Rows:
        """The issue a failure was reported in and what fixes it; ids contain '#' (send it as %23)."""
        rows = run_stored(holder, settings, "resource-failure-fixes", {"id": failure_id}, limit, offset)
        if rows.count == 0:
            raise ApiError(404, "not_found", f"no failure report {failure_id!r} or nothing recorded about it")
        return rows

    @post("/admin/loads", LoadJob, "start_load", "admin", status_code=202)
    def start_load(request: LoadRequest, _: AdminDep) -> LoadJob:
        """Run `uptake load <loader> <args>` into the API's store in a separate process."""
        return app.state.jobs.start(request)

    @get("/admin/loads/{job_id}", LoadJob, "get_load", "admin")
    def get_load(job_id: str, _: AdminDep) -> LoadJob:
        return app.state.jobs.get(job_id)


def _route(app: FastAPI, method: str) -> Callable:
    def decorator_for(path: str, model: Any, operation_id: str, tag: str, status_code: int = 200) -> Callable:
        return app.api_route(
            path,
            methods=[method],
            response_model=model,
            operation_id=operation_id,
            tags=[tag],
            responses=ERRORS,
            status_code=status_code,
        )

    return decorator_for
