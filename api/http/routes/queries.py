"""`/queries`: list, describe and run the stored queries; each also gets a typed GET route."""

from __future__ import annotations

import inspect
from typing import Annotated, Any

from fastapi import APIRouter, Body, Query
from pydantic import BaseModel, ConfigDict, Field, create_model

from ....queries import QueryError, StoredQuery, load_queries
from ....queries.run import INT64_RANGE
from ..dependencies import HolderDep, Limit, Offset, SettingsDep
from ..errors import ERRORS
from ..models import IsoDate, Page, QueryDetail, QueryParamInfo, QuerySummary, Rows, RunQueryRequest
from ..running import query_or_404, run_stored
from ..settings import MAX_PAGE_SIZE
from . import route

PY_TYPES: dict[str, Any] = {
    "STRING": str,
    "INT64": int,
    "DOUBLE": float,
    "BOOL": bool,
    "DATE": IsoDate,
    "STRING[]": list[str],
}

router = APIRouter()
get = route(router, "GET")
post = route(router, "POST")


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


@get("/queries", Page[QuerySummary], "list_queries", "stored queries")
def list_queries(limit: Limit = 50, offset: Offset = 0) -> Page[QuerySummary]:
    queries = list(load_queries().values())
    data = [QuerySummary(**_summary(q)) for q in queries[offset : offset + limit]]
    return Page[QuerySummary](data=data, count=len(queries), limit=limit, offset=offset)


@get("/queries/{name}", QueryDetail, "describe_query", "stored queries")
def describe_query(name: str) -> QueryDetail:
    query = query_or_404(name)
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


def typed_router() -> APIRouter:
    """A GET route per stored query, its parameters a typed query string that OpenAPI documents."""
    typed = APIRouter()
    for query in load_queries().values():
        _typed_route(typed, query)
    return typed


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


def _typed_route(router: APIRouter, query: StoredQuery) -> None:
    model = _params_model(query)

    def endpoint(holder: HolderDep, settings: SettingsDep, params: BaseModel) -> Rows:
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
    router.add_api_route(
        f"/queries/{query.name}/rows",
        endpoint,
        methods=["GET"],
        response_model=Rows,
        operation_id=_operation_id(query.name),
        summary=query.description,
        tags=["stored queries"],
        responses=ERRORS,
    )
