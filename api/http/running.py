"""Queries run for a request: stored ones through `run_query`, ad-hoc Cypher, store errors as API errors."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

from ...graph.adhoc import AdhocLimits, WorkerFailed, WorkersBusy, run_adhoc
from ...graph.cypher_guard import StatementRefused
from ...graph.store import QueryTimeout, ReadOnlyError, StoreError
from ...queries import QueryError, StoredQuery
from ...queries.run import QueryResult, UnknownQueryError, run_query, stored_query
from ..views.subgraph import query_graph
from .dependencies import StoreHolder
from .errors import ApiError
from .models import Resource, Rows
from .settings import MAX_PAGE_SIZE, ApiSettings


@contextlib.contextmanager
def store_errors(seconds: float, *, ad_hoc: bool = False) -> Iterator[None]:
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


def read_ad_hoc(
    holder: StoreHolder,
    settings: ApiSettings,
    cypher: str,
    params: dict,
    *,
    timeout: float | None = None,
) -> tuple[list[dict[str, Any]], bool]:
    """Ad-hoc Cypher, checked then run in a worker process: rows up to the caps, and whether cut."""
    seconds = min(timeout or settings.query_timeout, settings.query_timeout)
    with store_errors(seconds, ad_hoc=True):
        try:
            limits = AdhocLimits.from_env(timeout=seconds, max_rows=settings.max_rows)
            result = run_adhoc(holder.target, cypher, params, limits=limits, keep_spare=True)
        except StatementRefused as exc:
            raise ApiError(403, "statement_refused", str(exc)) from None
        except WorkersBusy as exc:
            raise ApiError(503, "workers_busy", str(exc), headers={"Retry-After": "1"}) from None
        except WorkerFailed as exc:
            raise ApiError(422, "query_stopped", str(exc)) from None
    return result.rows, result.truncated


def stored_result(
    holder: StoreHolder, settings: ApiSettings, name: str, values: dict[str, Any]
) -> QueryResult:
    """A stored query's rows up to the row cap; a bad name or parameter and store errors as API errors."""
    query = query_or_404(name)
    seconds = settings.query_timeout
    try:
        with store_errors(seconds):
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
    """One page of a stored query's rows, with the graph they describe (as the query's header says)."""
    query = query_or_404(name)
    result = stored_result(holder, settings, name, values)
    page = result.rows[offset : offset + limit]
    return Rows(
        columns=list(query.returns),
        data=page,
        count=len(result.rows),
        limit=limit,
        offset=offset,
        truncated=result.truncated,
        graph=query_graph(query, result.params, page),
    )


def query_or_404(name: str) -> StoredQuery:
    try:
        return stored_query(name)
    except UnknownQueryError:
        raise ApiError(404, "not_found", f"no stored query {name!r}") from None


def resource(
    holder: StoreHolder,
    settings: ApiSettings,
    kind: str,
    what: str,
    params: dict[str, Any],
    graph_query: str | None,
) -> Resource:
    """One node by its key, with its neighbourhood drawn by `graph_query`."""
    rows = run_stored(holder, settings, f"resource-{kind}", params)
    if not rows.data:
        raise ApiError(404, "not_found", f"no {kind} {what}")
    node = {k: v for k, v in rows.data[0]["node"].items() if k != "_label"}
    graph = run_stored(holder, settings, graph_query, params).graph if graph_query else rows.graph
    return Resource(node=node, graph=graph)
