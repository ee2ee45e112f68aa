"""Public response and request models: what clients see, separate from stored records."""

from __future__ import annotations

import datetime as dt
import re
from typing import Annotated, Any, Generic, TypeVar

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field

from ...graph.cypher_guard import MAX_STATEMENT_CHARS, MAX_TIMEOUT, MIN_TIMEOUT
from ..views.graph import Graph

T = TypeVar("T")
_ISO_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")


def _iso_date(value: Any) -> Any:
    # Pydantic would read "0" or 1700000000 as seconds since 1970; a date parameter takes a date only.
    if isinstance(value, dt.date) and not isinstance(value, dt.datetime):
        return value
    if isinstance(value, str) and _ISO_DATE.match(value):
        return value
    raise ValueError(f"must be a date YYYY-MM-DD, got {value!r}")


IsoDate = Annotated[dt.date, BeforeValidator(_iso_date)]
"""A date parameter given as YYYY-MM-DD, nothing else."""


class ErrorBody(BaseModel):
    code: str = Field(description="stable machine-readable code, e.g. invalid_parameter, not_found")
    message: str = Field(description="what went wrong, naming the parameter or resource")
    detail: Any = None


class ErrorResponse(BaseModel):
    """Every 4xx and 5xx answer has this shape."""

    error: ErrorBody


class Page(BaseModel, Generic[T]):
    """A list envelope: `count` is the total, `data` the page asked for with limit/offset."""

    data: list[T]
    count: int
    limit: int
    offset: int


class QueryParamInfo(BaseModel):
    name: str
    type: str = Field(description="STRING, INT64, DOUBLE, BOOL, DATE or STRING[]")
    required: bool
    default: Any = None
    description: str = ""


class QuerySummary(BaseModel):
    name: str
    description: str
    parameters: list[QueryParamInfo]
    returns: list[str]


class QueryDetail(QuerySummary):
    cypher: str
    run_path: str = Field(description="GET this path with the parameters as query string")


class Rows(BaseModel):
    """Rows of a query with the graph they describe, paged with limit/offset."""

    columns: list[str]
    data: list[dict[str, Any]]
    count: int = Field(description="rows the query returned (at most the row cap)")
    limit: int
    offset: int
    truncated: bool = Field(description="rows were cut at the row cap or, for ad-hoc Cypher, the byte cap")
    graph: Graph


class Resource(BaseModel):
    """One node with its properties and its neighbourhood as a drawable graph."""

    node: dict[str, Any]
    graph: Graph


class RunQueryRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")  # a parameter beside `params` would silently not count

    params: dict[str, Any] = Field(default_factory=dict, description="parameter name -> value")


class CypherRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")
    # Ladybug's parser time grows faster than linearly with odd inputs and runs outside the query
    # timeout, so the statement length is bounded too.
    statement: str = Field(
        min_length=1, max_length=MAX_STATEMENT_CHARS, description="one read-only Cypher statement"
    )
    params: dict[str, Any] = Field(default_factory=dict, description="passed to the database as parameters")
    timeout: float | None = Field(
        default=None,
        ge=MIN_TIMEOUT,
        le=MAX_TIMEOUT,
        description="seconds, at least 0.1; capped by the server's own limit",
    )


class LoadRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")
    loader: str = Field(pattern=r"^[a-z][a-z0-9-]{0,40}$", description="a subcommand of `uptake load`")
    args: list[str] = Field(default_factory=list, max_length=20, description="its arguments")


class LoadJob(BaseModel):
    id: str
    loader: str
    status: str = Field(description="running, succeeded or failed")
    exit_code: int | None = None
    output: str = ""


class Health(BaseModel):
    status: str
    backend: str | None = None
    store: str | None = None
