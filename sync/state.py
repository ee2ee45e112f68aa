"""Reading what loaders need from a store, through stored queries kept in `queries/state/`.

These queries are internal (the API does not list them); they are files like every other
stored query so that the Cypher lives in one place and runs on both engines.
"""

from __future__ import annotations

import functools
from typing import Any

from ..graph.store import Store
from ..queries import QUERY_DIR, StoredQuery, load_queries
from ..queries.run import run_query

STATE_QUERIES = QUERY_DIR / "state"


@functools.cache
def _state_queries() -> dict[str, StoredQuery]:
    return load_queries(STATE_QUERIES)


def read_state(store: Store, name: str, params: dict[str, Any]) -> list[dict[str, Any]]:
    """Rows of the internal stored query `name`, with its parameters checked."""
    return run_query(store, _state_queries()[name], params, on_writer=True).rows


def change_state(store: Store, name: str, params: dict[str, Any]) -> list[dict[str, Any]]:
    """Run the internal stored query `name` that changes what a loader left behind (links it is
    about to find again); it runs on the writing connection like every state query."""
    return read_state(store, name, params)
