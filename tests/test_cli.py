"""The `uptake` command end to end, on real stores."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner
from uptake.api.cli import app
from uptake.graph.records import Edge, Node
from uptake.graph.schema import SCHEMA_VERSION
from uptake.graph.store import open_store

runner = CliRunner()


def uptake(*args: str, store: str | None = None):
    result = runner.invoke(app, [*args, *(["--store", store] if store else [])])
    return result


@pytest.fixture
def target(store_target):
    return store_target


def seed(target: str) -> None:
    with open_store(target) as s:
        s.init()
        s.write(
            [
                Node("Method", "ppo", {"name": "PPO"}),
                Node("Method", "grpo", {"name": "GRPO"}),
                Node("Method", "dapo", {"name": "DAPO"}),
                Edge("EXTENDS", ("Method", "grpo"), ("Method", "ppo"), {"change": "advantage"}),
                Edge("EXTENDS", ("Method", "dapo"), ("Method", "grpo"), {"change": "clip"}),
            ]
        )


def test_db_init_then_info_counts(target):
    assert uptake("db", "init", store=target).exit_code == 0
    seed(target)
    result = uptake("db", "info", "--format", "json", store=target)
    assert result.exit_code == 0, result.output
    info = json.loads(result.stdout)
    counts = info["counts"]
    assert counts["Method"] == 3 and counts["EXTENDS"] == 2 and counts["Paper"] == 0
    assert info["schema_version"] == SCHEMA_VERSION
    assert f"schema version {SCHEMA_VERSION}" in uptake("db", "info", store=target).output


def test_stored_query_with_validated_parameters(target):
    seed(target)
    result = uptake("query", "method-lineage", "--param", "slug=grpo", "--format", "json", store=target)
    assert result.exit_code == 0, result.output
    rows = sorted((r["direction"], r["method"], r["change"]) for r in json.loads(result.output))
    assert rows == [("ancestor", "ppo", "advantage"), ("descendant", "dapo", "clip")]


def test_bad_parameters_are_named(target):
    seed(target)
    result = uptake("query", "method-lineage", "--param", "slugg=grpo", store=target)
    assert result.exit_code == 1 and "unknown parameter 'slugg'" in result.output
    result = uptake("query", "method-lineage", "--param", "slug", store=target)
    assert result.exit_code == 1 and "name=value" in result.output
    result = uptake("query", "no-such-query", store=target)
    assert result.exit_code == 1 and "no stored query 'no-such-query'" in result.output


def test_integer_parameters_are_checked_against_the_64_bit_range(target):
    seed(target)
    too_large = uptake(
        "query", "methods-no-report-states", "--param", f"min_frameworks={2**63}", store=target
    )
    assert too_large.exit_code == 1 and isinstance(too_large.exception, SystemExit)
    assert "'min_frameworks' is outside the 64-bit integer range" in too_large.output
    largest = f"min_frameworks={2**63 - 1}"
    result = uptake("query", "methods-no-report-states", "--param", largest, "--format", "json", store=target)
    assert result.exit_code == 0, result.output
    assert json.loads(result.output) == []


def test_ad_hoc_cypher_reads_and_refuses_writes(target):
    seed(target)
    ok = uptake("cypher", "MATCH (m:Method) RETURN count(m) AS n", "--format", "json", store=target)
    assert ok.exit_code == 0 and json.loads(ok.output) == [{"n": 3}]
    refused = uptake("cypher", "CREATE (:X)", store=target)
    assert refused.exit_code == 1 and "refused: CREATE writes the graph" in refused.output
    with open_store(target) as s:
        assert s.read("MATCH (m:Method) RETURN count(m) AS n") == [{"n": 3}]


def test_reset_needs_confirmation(target):
    seed(target)
    assert uptake("db", "reset", store=target).exit_code != 0  # no input: aborted
    with open_store(target) as s:
        assert s.read("MATCH (m:Method) RETURN count(m) AS n") == [{"n": 3}]
    assert uptake("db", "reset", "--yes", store=target).exit_code == 0
    with open_store(target) as s:
        assert s.read("MATCH (m:Method) RETURN count(m) AS n") == [{"n": 0}]


def test_store_from_environment(tmp_path, monkeypatch):
    path = str(tmp_path / "env.lbug")
    monkeypatch.setenv("UPTAKE_STORE", path)
    assert uptake("db", "init").exit_code == 0
    assert (tmp_path / "env.lbug").exists()


def test_reading_a_missing_store_says_how_to_make_one(tmp_path):
    result = uptake("db", "info", store=str(tmp_path / "nothing.lbug"))
    assert result.exit_code == 1 and "uptake build" in result.output


def test_unsupported_uri_is_refused(tmp_path):
    result = uptake("db", "info", store="http://localhost:7474")
    assert result.exit_code == 1 and "unsupported store URI" in result.output


def test_build_gives_the_same_counts_on_both_backends(tmp_path, monkeypatch):
    """`uptake db info` after the same build must agree between Ladybug and Neo4j."""
    from conftest import NEO4J_PASSWORD, NEO4J_URI, NEO4J_USER, neo4j_store

    neo4j = neo4j_store()
    neo4j.reset()
    neo4j.close()
    monkeypatch.setenv("NEO4J_USER", NEO4J_USER)
    monkeypatch.setenv("NEO4J_PASSWORD", NEO4J_PASSWORD)
    counts = {}
    for target in (str(tmp_path / "built.lbug"), NEO4J_URI):
        built = uptake("build", store=target)
        assert built.exit_code == 0, built.output
        info = uptake("db", "info", "--format", "json", store=target)
        counts[target] = json.loads(info.stdout)["counts"]
    ladybug, neo4j_counts = counts.values()
    assert ladybug == neo4j_counts
    assert ladybug["Method"] > 40 and ladybug["Framework"] >= 9 and ladybug["EXTENDS"] > 30
