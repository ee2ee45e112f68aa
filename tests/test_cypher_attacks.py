"""Every ad-hoc Cypher probe from the security review, over HTTP and through the CLI, on both stores.

Each must be refused with a 4xx (or exit 1) naming the rule, touch no file, and leave the store
readable and the server answering.
"""

from __future__ import annotations

import gzip
import os
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import NEO4J_PASSWORD, NEO4J_USER
from fastapi.testclient import TestClient
from study_fixture import study_records
from uptake.api.http.app import create_app
from uptake.api.http.settings import ApiSettings

UPTAKE = str(Path(sys.executable).with_name("uptake"))


def probes(tmp: Path) -> dict[str, str]:
    """Attack statement -> words the refusal must contain; file paths point into tmp."""
    existing = tmp / "existing.csv.gz"
    secret = tmp / "secret.txt"
    return {
        f"COPY (RETURN 'x' AS x) TO '{tmp / 'new.csv'}'": "COPY reaches files",
        f"COPY (RETURN 'x' AS x) TO '{tmp / 'new.parquet'}'": "COPY reaches files",
        f"cOpY (RETURN 'x' AS x) TO '{existing}'": "COPY reaches files",
        f"LOAD FROM '{secret}' (file_format='csv', header=false, delim=':') RETURN *": "LOAD reaches",
        "LOAD FROM '/etc/passwd' (file_format='csv', header=false, delim=':') RETURN *": "LOAD reaches",
        f"LOAD CSV FROM 'file://{secret}' AS row RETURN row": "LOAD reaches",
        "LOAD CSV FROM 'http://127.0.0.1:9/internal' AS row RETURN row": "LOAD reaches",
        "CHECKPOINT": "CHECKPOINT writes storage",
        "SHOW USERS": "SHOW",
        "SHOW SETTINGS YIELD name RETURN name": "SHOW",
        "SHOW TRANSACTIONS YIELD transactionId TERMINATE TRANSACTIONS transactionId": "SHOW",
        "TERMINATE TRANSACTIONS 'neo4j-transaction-1'": "TERMINATE",
        "RETURN " + "(" * 2103 + "1" + ")" * 2103: "nested deeper",
        "MATCH (n) RETURN count(n); MATCH (m) RETURN m": "one statement per request",
        f"MATCH (n) RETURN n /* */ ; COPY (RETURN 'x' AS x) TO '{tmp / 'comment.csv'}'": "COPY reaches files",
        "CALL dbms.listConfig()": "not an allowed procedure",
        "CALL threads=1": "not an allowed procedure",
        f"RETURN 1\u00a0COPY (RETURN 'x' AS x) TO '{tmp / 'nbsp.csv'}'": "U+00A0",
        "CREATE (:Framework {slug: 'evil'})": "CREATE writes the graph",
    }


def plant_files(tmp: Path) -> dict[Path, bytes]:
    existing = tmp / "existing.csv.gz"
    existing.write_bytes(gzip.compress(b"keep,me\n1,2\n"))
    secret = tmp / "secret.txt"
    secret.write_bytes(b"root:x:0:0:PLANTED-SECRET-LINE\n")
    return {existing: existing.read_bytes(), secret: secret.read_bytes()}


def assert_files_untouched(tmp: Path, planted: dict[Path, bytes]) -> None:
    for path, content in planted.items():
        assert path.read_bytes() == content, path
    assert sorted(p.name for p in tmp.iterdir()) == sorted(p.name for p in planted), "a file was created"


@pytest.fixture
def victim_dir(tmp_path) -> Path:
    folder = tmp_path / "victim"
    folder.mkdir()
    return folder


def test_http_probes_are_refused_naming_the_rule_and_touch_nothing(store, monkeypatch, victim_dir):
    monkeypatch.setenv("NEO4J_USER", NEO4J_USER)
    monkeypatch.setenv("NEO4J_PASSWORD", NEO4J_PASSWORD)
    store.write(study_records())
    planted = plant_files(victim_dir)
    config = ApiSettings(refresh_interval=0, connect_attempts=1)
    with TestClient(create_app(store.location, config)) as client:
        for statement, rule in probes(victim_dir).items():
            response = client.post("/cypher", json={"statement": statement})
            assert response.status_code == 403, (statement[:60], response.text)
            error = response.json()["error"]
            assert error["code"] == "statement_refused" and rule in error["message"], error
            assert "PLANTED-SECRET-LINE" not in response.text
        assert_files_untouched(victim_dir, planted)
        assert client.get("/health").status_code == 200
        counted = client.post("/cypher", json={"statement": "MATCH (f:Framework) RETURN count(f) AS n"})
        assert counted.status_code == 200 and counted.json()["data"] == [{"n": 3}]


def test_http_limits_are_4xx_naming_the_limit(store, monkeypatch):
    monkeypatch.setenv("NEO4J_USER", NEO4J_USER)
    monkeypatch.setenv("NEO4J_PASSWORD", NEO4J_PASSWORD)
    store.write(study_records())
    with TestClient(
        create_app(store.location, ApiSettings(refresh_interval=0, connect_attempts=1))
    ) as client:
        tiny = client.post("/cypher", json={"statement": "RETURN 1 AS x", "timeout": 0.0001})
        assert tiny.status_code == 422 and "timeout" in tiny.text
        long = client.post("/cypher", json={"statement": "RETURN " + "1 + " * 2000 + "1"})
        assert long.status_code == 422 and "statement" in long.text
        assert client.get("/health").status_code == 200


def test_cli_probes_are_refused_in_a_real_process_and_touch_nothing(store, victim_dir):
    store.write(study_records())
    store.close()  # a Ladybug writer would hold the lock the CLI's reader needs
    planted = plant_files(victim_dir)
    env = {**os.environ, "NEO4J_USER": NEO4J_USER, "NEO4J_PASSWORD": NEO4J_PASSWORD}
    for statement, rule in probes(victim_dir).items():
        done = subprocess.run(
            [UPTAKE, "cypher", statement, "--store", store.location],
            capture_output=True,
            text=True,
            env=env,
            timeout=120,
        )
        assert done.returncode == 1, (statement[:60], done.stderr)
        assert "refused:" in done.stderr and rule in done.stderr and "Traceback" not in done.stderr
        assert len(done.stderr.strip().splitlines()) == 1
    assert_files_untouched(victim_dir, planted)
    ok = subprocess.run(
        [UPTAKE, "cypher", "MATCH (f:Framework) RETURN count(f) AS n", "--store", store.location],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    assert ok.returncode == 0 and "3" in ok.stdout


def test_cli_refuses_a_timeout_that_would_mean_none(tmp_path):
    done = subprocess.run(
        [UPTAKE, "cypher", "RETURN 1", "--store", str(tmp_path / "g.lbug"), "--timeout", "0.0001"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 1 and "timeout must be between 0.1" in done.stderr


def test_a_runaway_range_is_stopped_in_the_worker_and_the_api_survives(store, monkeypatch):
    monkeypatch.setenv("NEO4J_USER", NEO4J_USER)
    monkeypatch.setenv("NEO4J_PASSWORD", NEO4J_PASSWORD)
    store.write(study_records())
    config = ApiSettings(refresh_interval=0, connect_attempts=1, query_timeout=5)
    with TestClient(create_app(store.location, config)) as client:
        huge = "UNWIND range(1, 100000000000) AS x RETURN count(x) AS n"
        response = client.post("/cypher", json={"statement": huge})
        assert 400 <= response.status_code < 500, response.text
        assert any(word in response.text for word in ("memory", "exceeded", "cancelled")), response.text
        assert client.get("/health").status_code == 200
        assert client.post("/cypher", json={"statement": "RETURN 1 AS one"}).json()["data"] == [{"one": 1}]


def test_a_statement_that_crashes_the_engine_costs_only_the_worker(tmp_path):
    """Bypasses the statement check on purpose: the worker is the wall behind it."""
    from uptake.graph.adhoc import AdhocLimits, WorkerFailed, run_in_worker
    from uptake.graph.store import QueryTimeout, open_store

    target = str(tmp_path / "g.lbug")
    with open_store(target) as s:
        s.init()
    deep = "RETURN " + "(" * 2103 + "1" + ")" * 2103
    with pytest.raises((WorkerFailed, QueryTimeout), match="crashed the worker|without an answer|exceeded"):
        run_in_worker(target, deep, {}, limits=AdhocLimits(timeout=5))
    assert run_in_worker(target, "RETURN 1 AS one", {}, limits=AdhocLimits(timeout=5)).rows == [{"one": 1}]


def test_large_results_are_cut_to_the_byte_cap_and_reported(tmp_path):
    from uptake.graph.adhoc import AdhocLimits, run_in_worker
    from uptake.graph.store import open_store

    target = str(tmp_path / "g.lbug")
    with open_store(target) as s:
        s.init()
    statement = "UNWIND range(1, 50) AS i RETURN i, range(1, 1000) AS big"
    cut = run_in_worker(target, statement, {}, limits=AdhocLimits(timeout=30, max_bytes=20_000))
    assert cut.truncated and 0 < len(cut.rows) < 50 and cut.rows[0]["i"] == 1 and "byte cap" in cut.cut_by
    whole = run_in_worker(target, statement, {}, limits=AdhocLimits(timeout=30))
    assert not whole.truncated and len(whole.rows) == 50
