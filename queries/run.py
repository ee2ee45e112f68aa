"""The one way a stored query runs: bind its declared parameters, pick the dialect, read.

Every caller (CLI, HTTP API, explorer, exports, study report, tests and
benchmarks) goes through `run_query`, so parameter checks such as the 64-bit
integer range hold everywhere alike.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..graph.records import day_number
from ..graph.store import Store, StoreError
from . import QueryError, StoredQuery, load_queries

INT64_RANGE = (-(2**63), 2**63 - 1)


class UnknownQueryError(QueryError):
    """No stored query has that name."""


@dataclass(frozen=True)
class QueryResult:
    rows: list[dict[str, Any]]
    truncated: bool  # more rows than the row cap existed and were left unread
    params: dict[str, Any]  # the parameters as bound, defaults and day numbers included


def stored_query(name: str) -> StoredQuery:
    queries = load_queries()
    if name not in queries:
        raise UnknownQueryError(f"no stored query {name!r}; known: {', '.join(sorted(queries))}")
    return queries[name]


def bind_params(query: StoredQuery, values: dict[str, Any]) -> dict[str, Any]:
    """Validated parameters with defaults filled in; unknown, missing or out-of-range ones are errors."""
    known = {p.name: p for p in query.params}
    for name in values:
        if name not in known:
            raise QueryError(f"{query.name}: unknown parameter {name!r}; takes {', '.join(known) or 'none'}")
    bound = {}
    for param in query.params:
        value = values.get(param.name)
        if value is not None and value != "":
            bound[param.name] = param.coerce(value)
        elif param.required:
            raise QueryError(f"{query.name}: parameter {param.name!r} ({param.type}) is required")
        else:
            bound[param.name] = param.default
        if param.type == "INT64" and bound[param.name] is not None:
            if not INT64_RANGE[0] <= bound[param.name] <= INT64_RANGE[1]:
                raise QueryError(
                    f"{query.name}: parameter {param.name!r} is outside the 64-bit integer range"
                )
    # Day numbers let date filters run identically on both engines.
    for param in query.params:
        if param.type == "DATE":
            value = bound[param.name]
            bound[f"{param.name}_day"] = day_number(value) if value else None
    return bound


def run_query(
    store: Store,
    query: str | StoredQuery,
    values: dict[str, Any] | None = None,
    *,
    timeout: float | None = None,
    limit: int | None = None,
    on_writer: bool = False,
) -> QueryResult:
    """Run a stored query (by name or parsed) read-only on `store`.

    `values` are raw parameter values (CLI strings or JSON); `limit` caps the rows read, and
    `truncated` says whether more existed. `on_writer` reads through the store's writing
    connection: for a caller that goes on to write (a sync step reading its state), so an embedded
    store needs no checkpoint and no second, read-only handle. Raises `QueryError` for a bad name or
    parameter,
    `StoreError` (or its `QueryTimeout`) when the database fails.
    """
    query = stored_query(query) if isinstance(query, str) else query
    bound = bind_params(query, values or {})
    cap = None if limit is None else limit + 1
    try:
        cypher = query.cypher_for(store.backend, cap)
        if on_writer:
            rows = store.execute(cypher, bound)
        else:
            rows = store.read(cypher, bound, timeout=timeout, limit=cap)
    except StoreError:
        raise
    except (ValueError, TypeError, OverflowError, RuntimeError) as exc:
        # Drivers raise these for values they cannot bind (a string compared with an integer).
        raise StoreError(f"{query.name}: cannot run the query with these parameters: {exc}") from exc
    if limit is not None and len(rows) > limit:
        return QueryResult(rows[:limit], True, bound)
    return QueryResult(rows, False, bound)
