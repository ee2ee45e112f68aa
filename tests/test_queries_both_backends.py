"""Every stored query runs unchanged (or through its override) on Ladybug and Neo4j and gives the same rows.

One fixture graph is written to both stores; each query runs with its
defaults and with the extra parameter sets in query_samples.json. Every run
must return rows, except a sample marked `"empty": true`, so that two
backends agreeing on nothing cannot pass. Rows are compared as sets of
normalised rows (ORDER BY ties and the order of collected lists are
engine-specific).
"""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

import pytest
from conftest import neo4j_store
from study_fixture import study_records
from uptake.graph.store import open_store
from uptake.queries import load_queries
from uptake.queries.run import bind_params, run_query

SAMPLES = json.loads((Path(__file__).parent / "query_samples.json").read_text())
# These default to ids of the shipped graph, which the fixture does not hold.
SHIPPED_DEFAULTS = set(SAMPLES["_shipped_defaults"])
CASES = [
    pytest.param(name, case["params"], not case.get("empty", False), id=f"{name}[{i}]")
    for name in load_queries()
    for i, case in enumerate([{"params": {}, "empty": name in SHIPPED_DEFAULTS}, *SAMPLES.get(name, [])])
]


@pytest.fixture(scope="module")
def stores(tmp_path_factory):
    ladybug = open_store(str(tmp_path_factory.mktemp("both") / "graph.lbug"))
    ladybug.init()
    ladybug.write(study_records())
    try:
        neo4j = neo4j_store()
    except pytest.skip.Exception as skipped:
        neo4j, reason = None, str(skipped)
    else:
        neo4j.reset()
        neo4j.init()
        neo4j.write(study_records())
        reason = ""
    yield ladybug, neo4j, reason
    ladybug.close()
    if neo4j is not None:
        neo4j.close()


def normalise(value):
    if isinstance(value, dt.date):
        return value.isoformat()
    if isinstance(value, float):
        return round(value, 6)
    if isinstance(value, dict):
        return {k: normalise(v) for k, v in value.items()}
    if isinstance(value, list):
        return sorted((normalise(v) for v in value), key=lambda v: json.dumps(v, sort_keys=True))
    return value


def row_key(row: dict) -> str:
    return json.dumps(normalise(row), sort_keys=True)


def rows_of(store, name: str, values: dict) -> list[str]:
    return sorted(map(row_key, run_query(store, name, values).rows))


def test_samples_name_real_queries_and_parameters():
    queries = load_queries()
    for name, cases in SAMPLES.items():
        if name == "_shipped_defaults":
            assert set(cases) <= set(queries), "query_samples.json: _shipped_defaults names an unknown query"
        if name.startswith("_"):
            continue
        assert name in queries, f"query_samples.json: no stored query {name!r}"
        for case in cases:
            assert set(case) <= {"params", "empty"}, f"query_samples.json: {name}: unknown key in {case}"
            bind_params(queries[name], case["params"])  # raises naming the parameter


@pytest.mark.parametrize(("name", "values", "has_rows"), CASES)
def test_query_gives_the_same_rows_on_both_backends(stores, name, values, has_rows):
    ladybug, neo4j, reason = stores
    query = load_queries()[name]
    expected = rows_of(ladybug, name, values)
    assert bool(expected) == has_rows, f"{name} {values}: {len(expected)} rows on Ladybug"
    for row in expected[:1]:
        assert set(json.loads(row)) == set(query.returns), (
            f"{name}: header 'returns' does not match the columns"
        )
    if neo4j is None:
        pytest.skip(f"ran on Ladybug only: {reason}")
    assert rows_of(neo4j, name, values) == expected


def test_a_row_cap_reaches_the_engine_only_where_it_caps_the_whole_result():
    queries = load_queries()
    ordered = queries["paper-proposal-implementation"]
    assert ordered.cypher_for("ladybug", 101).endswith("\nLIMIT 101")
    assert ordered.cypher_for("ladybug") == ordered.cypher
    # After a UNION a LIMIT would cap the last part alone.
    assert queries["method-lineage"].cypher_for("ladybug", 101) == queries["method-lineage"].cypher


@pytest.mark.parametrize(("name", "values", "has_rows"), [c for c in CASES if c.values[2]])
def test_a_capped_run_gives_rows_of_the_whole_result_and_says_it_was_cut(stores, name, values, has_rows):
    for store in filter(None, stores[:2]):
        whole = rows_of(store, name, values)
        if len(whole) < 2:
            continue
        capped = run_query(store, name, values, limit=len(whole) - 1)
        assert capped.truncated and len(capped.rows) == len(whole) - 1
        rest = list(whole)
        for row in capped.rows:
            rest.remove(row_key(row))  # raises if not in the whole result
        assert not run_query(store, name, values, limit=len(whole)).truncated


def test_a_capped_ordered_query_gives_the_top_rows(stores):
    # Ordered by method, commit date and sha: a total order, so the capped rows are a prefix.
    for store in filter(None, stores[:2]):
        whole = run_query(store, "paper-proposal-implementation", {}).rows
        assert len(whole) >= 3, "the fixture's default paper should have several implementing commits"
        assert run_query(store, "paper-proposal-implementation", {}, limit=2).rows == whole[:2]
