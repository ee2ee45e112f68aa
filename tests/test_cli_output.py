"""What scripts and people read from `uptake`: pure JSON on stdout, one line when Neo4j cannot be
opened, tables that round numbers and fit the width."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from conftest import NEO4J_URI, neo4j_store
from headless_chromium import free_port
from uptake.graph.records import Node
from uptake.graph.store import open_store

UPTAKE = [str(Path(sys.executable).parent / "uptake")]
LONG_PATH = "verl/trainer/ppo/" + "deeply/nested/" * 6 + "core_algos.py:compute_policy_loss"


def uptake(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [*UPTAKE, *args], capture_output=True, text=True, env={**os.environ, **(env or {})}, timeout=120
    )


def test_db_info_as_json_is_one_json_document_on_both_stores(store_target):
    with open_store(store_target) as s:
        s.init()
        s.write([Node("Method", "grpo", {"name": "GRPO"})])
    result = uptake("db", "info", "--format", "json", "--store", store_target)
    assert result.returncode == 0, result.stderr
    info = json.loads(result.stdout)  # as `| python -m json.tool` reads it: nothing else on stdout
    assert info["counts"]["Method"] == 1 and info["schema_version"] >= 1
    assert info["backend"] == ("ladybug" if "://" not in store_target else "neo4j")
    query = uptake(
        "query", "method-lineage", "--param", "slug=grpo", "--format", "json", "--store", store_target
    )
    assert query.returncode == 0 and json.loads(query.stdout) == []
    assert query.stderr == ""  # no driver notices without --verbose


def test_neo4j_that_cannot_be_opened_is_one_line_saying_what_to_set():
    nobody = f"bolt://127.0.0.1:{free_port()}"
    result = uptake("db", "info", "--store", nobody, env={"NEO4J_PASSWORD": "x"})
    assert result.returncode == 1
    assert result.stderr.count("\n") == 1 and "no Neo4j answers at" in result.stderr
    assert "--store" in result.stderr and "UPTAKE_STORE" in result.stderr
    neo4j_store().close()  # the rest needs a real server asking for credentials
    env = {k: v for k, v in os.environ.items() if k != "NEO4J_PASSWORD"}
    result = subprocess.run(
        [*UPTAKE, "db", "info", "--store", NEO4J_URI], capture_output=True, text=True, env=env, timeout=120
    )
    assert result.returncode == 1
    assert result.stderr.count("\n") == 1 and "set NEO4J_PASSWORD" in result.stderr, result.stderr
    wrong = uptake("db", "info", "--store", NEO4J_URI, env={"NEO4J_PASSWORD": "not-the-password"})
    assert wrong.stderr.count("\n") == 1 and "check NEO4J_USER and NEO4J_PASSWORD" in wrong.stderr


def test_tables_round_numbers_and_shorten_long_values_that_json_keeps_whole(tmp_path):
    statement = f"RETURN 0.94000000000000006 AS confidence, '{LONG_PATH}' AS evidence, 3 AS n"
    target = str(tmp_path / "t.lbug")
    with open_store(target) as s:
        s.init()
    table = uptake("cypher", statement, "--store", target, env={"COLUMNS": "80"})
    assert table.returncode == 0, table.stderr
    lines = table.stdout.splitlines()
    assert any("0.94 " in line for line in lines) and "0.9400000" not in table.stdout
    assert LONG_PATH not in table.stdout and "…" in table.stdout
    assert max(len(line) for line in lines) <= 200  # the width used where stdout is no terminal
    rows = json.loads(uptake("cypher", statement, "--store", target, "--format", "json").stdout)
    assert rows == [{"confidence": 0.9400000000000001, "evidence": LONG_PATH, "n": 3}]  # full values
