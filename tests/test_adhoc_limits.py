"""Ad-hoc results are bounded in rows and bytes, and a runaway statement never grows the caller."""

from __future__ import annotations

import os
import resource
import subprocess
import sys
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from uptake.api.http.app import create_app
from uptake.api.http.settings import ApiSettings
from uptake.graph.adhoc import AdhocLimits
from uptake.graph.store import open_store

UPTAKE = str(Path(sys.executable).with_name("uptake"))
BIG_ROWS = "UNWIND range(1, 50) AS i RETURN i, range(1, 1000) AS big"


@pytest.fixture
def target(tmp_path) -> str:
    path = str(tmp_path / "g.lbug")
    with open_store(path) as s:
        s.init()
    return path


def test_http_rows_past_the_byte_cap_are_cut_and_flagged(target, monkeypatch):
    monkeypatch.setenv("UPTAKE_ADHOC_MAX_BYTES", "20000")
    with TestClient(create_app(target, ApiSettings(refresh_interval=0, connect_attempts=1))) as client:
        body = client.post("/cypher", json={"statement": BIG_ROWS}).json()
        assert body["truncated"] is True and 0 < body["count"] < 50 and body["data"][0]["i"] == 1
        small = client.post("/cypher", json={"statement": "UNWIND range(1, 3) AS i RETURN i"}).json()
        assert small["truncated"] is False and small["count"] == 3


def test_http_rows_past_the_row_cap_are_cut_and_flagged(target):
    config = ApiSettings(refresh_interval=0, connect_attempts=1, max_rows=10)
    with TestClient(create_app(target, config)) as client:
        body = client.post("/cypher", json={"statement": "UNWIND range(1, 100) AS i RETURN i"}).json()
        assert body["truncated"] is True and body["count"] == 10


def test_cli_says_which_cap_cut_the_rows(target):
    done = subprocess.run(
        [UPTAKE, "cypher", BIG_ROWS, "--store", target, "--format", "json"],
        capture_output=True,
        text=True,
        env={**os.environ, "UPTAKE_ADHOC_MAX_BYTES": "20000"},
        timeout=120,
    )
    assert done.returncode == 0 and "byte cap" in done.stderr and '"i": 1' in done.stdout


def test_a_runaway_range_does_not_grow_the_api_process(target, monkeypatch):
    monkeypatch.setenv("UPTAKE_ADHOC_MEMORY_MB", "512")
    config = ApiSettings(refresh_interval=0, connect_attempts=1, query_timeout=5)
    with TestClient(create_app(target, config)) as client:
        before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss  # KiB, the peak so far
        statement = "UNWIND range(1, 100000000000) AS x RETURN x"
        response = client.post("/cypher", json={"statement": statement})
        assert 400 <= response.status_code < 500, response.text
        peak_growth_mib = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before) / 1024
        assert peak_growth_mib < 200, peak_growth_mib
        assert client.get("/health").status_code == 200


@pytest.mark.parametrize(
    "values, words",
    [
        ({"timeout": 0.0001}, "between 0.1 and 3600"),
        ({"timeout": 0.0}, "between 0.1 and 3600"),
        ({"timeout": 10_000}, "between 0.1 and 3600"),
        ({"memory_bytes": 1 << 20}, "at least 256 MiB"),
        ({"max_rows": 0}, "row and byte caps"),
    ],
)
def test_limits_out_of_range_are_refused_naming_the_limit(values, words):
    with pytest.raises(ValueError, match=words):
        AdhocLimits(**values)


def test_neo4j_ad_hoc_reads_use_the_read_user_when_set(monkeypatch):
    """Community has no roles, but a second user shows which credentials the worker uses."""
    import neo4j
    from conftest import NEO4J_PASSWORD, NEO4J_URI, NEO4J_USER, neo4j_store
    from uptake.graph.adhoc import run_adhoc
    from uptake.graph.store import StoreError

    neo4j_store().close()  # skips (fails in CI) without a server
    admin = neo4j.GraphDatabase.driver(NEO4J_URI, auth=(NEO4J_USER, NEO4J_PASSWORD))
    create = "CREATE OR REPLACE USER uptake_test_reader SET PASSWORD 'reader-pass-4821' CHANGE NOT REQUIRED"
    admin.execute_query(create, database_="system")
    try:
        monkeypatch.setenv("NEO4J_PASSWORD", "not-the-password")  # the main user cannot log in
        monkeypatch.setenv("NEO4J_READ_USER", "uptake_test_reader")
        monkeypatch.setenv("NEO4J_READ_PASSWORD", "reader-pass-4821")
        result = run_adhoc(NEO4J_URI, "RETURN 1 AS one", {}, limits=AdhocLimits())
        assert result.rows == [{"one": 1}]
        monkeypatch.setenv("NEO4J_READ_PASSWORD", "wrong-reader-pass")
        with pytest.raises(StoreError) as failed:
            run_adhoc(NEO4J_URI, "RETURN 1 AS one", {}, limits=AdhocLimits())
        assert "wrong-reader-pass" not in str(failed.value)
    finally:
        admin.execute_query("DROP USER uptake_test_reader IF EXISTS", database_="system")
        admin.close()


def test_a_query_waits_for_a_free_worker_and_gives_up_naming_why(target, monkeypatch):
    import threading

    from uptake.graph import adhoc

    slots = threading.BoundedSemaphore(1)
    monkeypatch.setattr(adhoc, "_WORKER_SLOTS", slots)
    slots.acquire()  # the only worker is busy
    with pytest.raises(adhoc.WorkersBusy, match="stayed busy for 0.2 s"):
        adhoc.run_adhoc(target, "RETURN 1 AS one", {}, limits=AdhocLimits(timeout=0.2))
    slots.release()
    assert adhoc.run_adhoc(target, "RETURN 1 AS one", {}, limits=AdhocLimits(timeout=5)).rows == [{"one": 1}]


def test_a_spare_worker_serves_the_next_statement_and_is_replaced(target):
    from uptake.graph import adhoc

    memory = AdhocLimits().memory_bytes
    adhoc.prestart_worker(memory)
    spare = adhoc._SPARES._idle[memory]
    try:
        rows = adhoc.run_adhoc(target, "RETURN 2 AS two", {}, limits=AdhocLimits(), keep_spare=True).rows
        assert rows == [{"two": 2}]
        assert spare.poll() is not None  # it served that statement and exited
        replacement = adhoc._SPARES._idle[memory]
        assert replacement is not spare and replacement.poll() is None
    finally:
        adhoc.stop_spare_workers()
    assert replacement.returncode == 0 and not adhoc._SPARES._idle  # an unused spare exits cleanly


def test_http_answers_503_with_retry_after_while_every_worker_is_busy(target, monkeypatch):
    import threading

    from fastapi.testclient import TestClient
    from uptake.api.http.app import create_app
    from uptake.api.http.settings import ApiSettings
    from uptake.graph import adhoc

    slots = threading.BoundedSemaphore(1)
    monkeypatch.setattr(adhoc, "_WORKER_SLOTS", slots)
    with TestClient(create_app(target, ApiSettings(refresh_interval=0, connect_attempts=1))) as client:
        slots.acquire()
        busy = client.post("/cypher", json={"statement": "RETURN 1 AS one", "timeout": 0.2})
        slots.release()
        assert busy.status_code == 503 and busy.headers["retry-after"] == "1"
        assert busy.json()["error"]["code"] == "workers_busy"
        free = client.post("/cypher", json={"statement": "RETURN 1 AS one"})
        assert free.status_code == 200 and free.json()["data"] == [{"one": 1}]
