"""Store fixtures: every store test runs on a real Ladybug directory and a real Neo4j.

Neo4j is found at $UPTAKE_TEST_NEO4J (default bolt://127.0.0.1:7687) with
$NEO4J_USER / $NEO4J_PASSWORD. Locally an unreachable server skips the Neo4j
variant with the reason; in CI (CI=true) it is a failure, because CI starts one.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from uptake.graph.store import Store, StoreError, open_store

REPO = Path(__file__).resolve().parent.parent
SHARED_DATA = REPO.parent / "shared" / "data"
NEO4J_URI = os.environ.get("UPTAKE_TEST_NEO4J", "bolt://127.0.0.1:7687")
NEO4J_USER = os.environ.get("NEO4J_USER", "neo4j")
NEO4J_PASSWORD = os.environ.get("NEO4J_PASSWORD", "uptake-dev-password")
BACKENDS = ["ladybug", "neo4j"]

_neo4j_error: str | None = None


def neo4j_store() -> Store:
    """A connection to the test Neo4j, or a skip (a failure in CI) saying why not."""
    global _neo4j_error
    if _neo4j_error is None:
        try:
            return open_store(NEO4J_URI, user=NEO4J_USER, password=NEO4J_PASSWORD)
        except StoreError as exc:
            _neo4j_error = str(exc)
    reason = f"no Neo4j reachable at {NEO4J_URI} ({_neo4j_error}); start one with scripts/neo4j-local start"
    if os.environ.get("CI") == "true":
        pytest.fail(f"CI must run the Neo4j tests: {reason}")
    pytest.skip(reason)


def fresh_store(backend: str, tmp_path: Path) -> Store:
    if backend == "ladybug":
        store = open_store(str(tmp_path / "graph.lbug"))
    else:
        store = neo4j_store()
        store.reset()
    store.init()
    return store


@pytest.fixture(params=BACKENDS)
def store(request, tmp_path):
    """A fresh, empty, initialised store on each backend."""
    s = fresh_store(request.param, tmp_path)
    yield s
    s.close()


@pytest.fixture
def shared_data() -> Path:
    if not SHARED_DATA.is_dir():
        pytest.skip(f"the shared data folder is not beside the repository ({SHARED_DATA})")
    return SHARED_DATA


@pytest.fixture(params=BACKENDS)
def store_target(request, tmp_path, monkeypatch) -> str:
    """Where a command should point: a fresh Ladybug path, or the emptied test Neo4j.

    For Neo4j the credentials are put in the environment, as a user would.
    """
    if request.param == "ladybug":
        return str(tmp_path / "target.lbug")
    neo4j = neo4j_store()
    neo4j.reset()
    neo4j.close()
    monkeypatch.setenv("NEO4J_USER", NEO4J_USER)
    monkeypatch.setenv("NEO4J_PASSWORD", NEO4J_PASSWORD)
    return NEO4J_URI
