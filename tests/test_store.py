"""The store contract, run on a real Ladybug directory and a real Neo4j."""

from __future__ import annotations

import datetime as dt

import pytest
from uptake.graph.records import Edge, Node
from uptake.graph.schema import NODE_TYPES, REL_TYPES, SCHEMA_VERSION
from uptake.graph.store import ReadOnlyError, SchemaVersionError, WriteError, open_store

GRAPH = [
    Node("Method", "ppo", {"name": "PPO", "aliases": ["ppo", "PPOTrainer"]}),
    Node("Method", "grpo", {"name": "GRPO", "arxiv_id": "2402.03300"}),
    Node("Paper", "2402.03300", {"title": "DeepSeekMath", "published_date": "2024-02-05"}),
    Edge("EXTENDS", ("Method", "grpo"), ("Method", "ppo"), {"change": "advantage"}),
    Edge("PROPOSES", ("Paper", "2402.03300"), ("Method", "grpo"), {"rule": "catalog", "confidence": 1.0}),
    Node("Commit", "a" * 40, {"framework": "trl", "commit_date": dt.date(2024, 3, 1), "pr_number": 12}),
    Edge("IMPLEMENTS", ("Commit", "a" * 40), ("Method", "grpo"), {"location": "trl/grpo.py:10"}),
    Edge("PART_OF", ("Commit", "a" * 40), ("Framework", "trl")),
]


def nonzero(counts: dict[str, int]) -> dict[str, int]:
    return {k: v for k, v in counts.items() if v}


def test_write_is_idempotent(store):
    first = store.write(GRAPH)
    counts = nonzero(store.counts())
    second = store.write(GRAPH)
    assert first.nodes_created == 5 and first.edges_created == 4
    assert second.nodes_created == 0 and second.edges_created == 0
    assert (
        nonzero(store.counts())
        == counts
        == {
            "Paper": 1,
            "Method": 2,
            "Framework": 1,
            "Commit": 1,
            "PROPOSES": 1,
            "EXTENDS": 1,
            "PART_OF": 1,
            "IMPLEMENTS": 1,
        }
    )


def test_changed_properties_are_updated_and_missing_ones_kept(store):
    store.write(GRAPH)
    store.write(
        [
            Node("Method", "grpo", {"name": "GRPO (DeepSeekMath)", "arxiv_id": None}),
            Edge("EXTENDS", ("Method", "grpo"), ("Method", "ppo"), {"detail": "group baseline"}),
        ]
    )
    rows = store.read(
        "MATCH (m:Method {slug: 'grpo'})-[e:EXTENDS]->(p:Method) "
        "RETURN m.name AS name, m.arxiv_id AS arxiv_id, e.change AS change, e.detail AS detail"
    )
    assert rows == [
        {
            "name": "GRPO (DeepSeekMath)",
            "arxiv_id": "2402.03300",
            "change": "advantage",
            "detail": "group baseline",
        }
    ]


def test_edges_to_unknown_nodes_create_key_only_stubs(store):
    store.write([Edge("MENTIONS", ("Commit", "b" * 40), ("Paper", "2503.14476"), {"rule": "arxiv-url"})])
    rows = store.read(
        "MATCH (c:Commit)-[r:MENTIONS]->(p:Paper) RETURN c.sha AS sha, p.arxiv_id AS id, p.title AS t"
    )
    assert rows == [{"sha": "b" * 40, "id": "2503.14476", "t": None}]


def test_dates_carry_day_numbers_for_arithmetic(store):
    store.write(GRAPH)
    rows = store.read(
        "MATCH (p:Paper)-[:PROPOSES]->(:Method)<-[:IMPLEMENTS]-(c:Commit) "
        "RETURN c.commit_day - p.published_day AS days, p.published_date AS published"
    )
    assert rows == [
        {"days": (dt.date(2024, 3, 1) - dt.date(2024, 2, 5)).days, "published": dt.date(2024, 2, 5)}
    ]


def test_bad_record_refuses_the_whole_batch_and_keeps_earlier_ones(store):
    store.write(GRAPH[:2])
    with pytest.raises(WriteError) as err:
        store.write([Node("Method", "dapo", {"name": "DAPO"}), Node("Method", "gspo", {"name": 3})])
    assert "Method 'gspo'" in str(err.value) and "'name'" in str(err.value)
    assert store.read("MATCH (m:Method) RETURN m.slug AS s ORDER BY s") == [{"s": "grpo"}, {"s": "ppo"}]


def test_unknown_fields_and_wrong_endpoints_are_named(store):
    with pytest.raises(WriteError, match="unknown field 'titel'"):
        store.write([Node("Paper", "2402.03300", {"titel": "x"}, origin="papers.jsonl:7")])
    with pytest.raises(WriteError, match="papers.jsonl:7"):
        store.write([Node("Paper", "2402.03300", {"titel": "x"}, origin="papers.jsonl:7")])
    with pytest.raises(WriteError, match="IMPLEMENTS connects only Commit->Method"):
        store.write([Edge("IMPLEMENTS", ("Paper", "x"), ("Method", "grpo"))])


def test_read_only_is_enforced_by_the_database(store):
    with pytest.raises(ReadOnlyError):
        store.read("CREATE (:Method {slug: 'x'})")
    assert store.read("MATCH (m:Method) RETURN count(m) AS n") == [{"n": 0}]


def test_execute_runs_a_maintenance_write_that_read_refuses(store):
    store.write(GRAPH[:2])
    rename = "MATCH (m:Method {slug: 'grpo'}) SET m.name = $name RETURN m.name AS name"
    with pytest.raises(ReadOnlyError):
        store.read(rename, {"name": "renamed"})
    assert store.execute(rename, {"name": "renamed"}) == [{"name": "renamed"}]
    assert store.read("MATCH (m:Method {slug: 'grpo'}) RETURN m.name AS name") == [{"name": "renamed"}]


def test_write_visible_to_later_read_only_reads(store):
    assert store.read("MATCH (m:Method) RETURN count(m) AS n") == [{"n": 0}]
    store.write(GRAPH[:2])
    assert store.read("MATCH (m:Method) RETURN count(m) AS n") == [{"n": 2}]


def test_nodes_and_relationships_come_back_as_plain_dicts(store):
    store.write(GRAPH)
    rows = store.read("MATCH (m:Method {slug: 'grpo'})-[e:EXTENDS]->(p) RETURN m, e")
    assert rows[0]["m"] == {"_label": "Method", "slug": "grpo", "name": "GRPO", "arxiv_id": "2402.03300"}
    assert rows[0]["e"] == {"_type": "EXTENDS", "change": "advantage"}


def test_schema_version_is_stored_and_checked(store):
    assert store.schema_version() == SCHEMA_VERSION
    meta = "MATCH (m:UptakeMeta {key: 'schema'}) SET m.schema_version = $v"
    store.execute(meta, {"v": SCHEMA_VERSION + 1})
    with pytest.raises(SchemaVersionError, match=f"schema version {SCHEMA_VERSION + 1}"):
        store.init()


def test_reset_empties_the_store(store):
    store.write(GRAPH)
    store.reset()
    assert not nonzero(store.counts())
    assert store.schema_version() == SCHEMA_VERSION


def test_counts_list_every_declared_label_and_type(store):
    assert set(store.counts()) == set(NODE_TYPES) | set(REL_TYPES)


def test_ladybug_read_only_store_refuses_writes(tmp_path):
    path = str(tmp_path / "g.lbug")
    with open_store(path) as writable:
        writable.init()
        writable.write(GRAPH)
    with open_store(path, read_only=True) as ro:
        assert ro.read("MATCH (m:Method) RETURN count(m) AS n") == [{"n": 2}]
        with pytest.raises(ReadOnlyError):
            ro.write(GRAPH)
        with pytest.raises(ReadOnlyError):
            ro.execute("MATCH (m:Method) SET m.name = 'x'")


def test_read_only_ladybug_store_reopens_when_another_handle_wrote(tmp_path):
    path = str(tmp_path / "g.lbug")
    count = "MATCH (m:Method) RETURN count(m) AS n"
    with open_store(path) as writable:
        writable.init()
        writable.write(GRAPH[:1])
        refreshing = open_store(path, read_only=True, refresh_interval=0)
        fixed = open_store(path, read_only=True)
        with refreshing, fixed:
            assert refreshing.read(count) == fixed.read(count) == [{"n": 1}]
            writable.write(GRAPH[1:2])
            assert refreshing.read(count) == [{"n": 2}]
            assert fixed.read(count) == [{"n": 1}]  # as of its opening: what the refresh is for


def test_missing_ladybug_store_opened_read_only_is_a_clear_error(tmp_path):
    from uptake.graph.store import StoreError

    with pytest.raises(StoreError, match="uptake build"):
        open_store(str(tmp_path / "absent.lbug"), read_only=True).read("RETURN 1 AS x")


def test_edges_between_existing_nodes_land_in_an_empty_relationship_table(store):
    store.write([Node("Method", "a"), Node("Method", "b")])
    stats = store.write(
        [
            Edge("EXTENDS", ("Method", "a"), ("Method", "b"), {"change": "clip"}),
            Edge("SUPPORTS", ("Framework", "f"), ("Method", "a")),
        ]
    )
    assert stats.edges_created == 2
    assert store.read("MATCH ()-[r]->() RETURN count(r) AS n") == [{"n": 2}]


def test_a_stream_in_many_batches_writes_every_record_once(store):
    """Nodes and edges split across batches in every order: counts match the distinct records."""
    methods = [Node("Method", f"m{i}", {"name": f"M{i}"}) for i in range(30)]
    edges = [
        Edge("EXTENDS", ("Method", f"m{i}"), ("Method", f"m{(i * 7) % 30}"), {"change": "clip"})
        for i in range(30)
    ]
    edges += [Edge("PART_OF", ("Commit", f"c{i}"), ("Framework", f"f{i % 3}")) for i in range(40)]
    edges += edges[:10]  # repeats in later batches
    first = store.write_all(methods + edges, batch_size=7)
    again = store.write_all(methods + edges, batch_size=11)
    counts = {k: v for k, v in store.counts().items() if v}
    assert counts == {"Method": 30, "Framework": 3, "Commit": 40, "EXTENDS": 30, "PART_OF": 40}
    assert first.edges_created == 70 and again.edges_created == 0 and again.nodes_created == 0


def test_ladybug_store_initialised_in_one_process_is_readable_read_only_in_the_next(tmp_path):
    path = str(tmp_path / "fresh.lbug")
    with open_store(path) as writable:
        writable.init()
    with open_store(path, read_only=True) as ro:
        assert ro.schema_version() == SCHEMA_VERSION
        assert ro.read("MATCH (m:Method) RETURN count(m) AS n") == [{"n": 0}]


def _stream_with_repeats() -> list:
    """Nodes, edges that reach back to nodes of earlier batches, and a node written again later
    in the same stream with a changed property."""
    records: list = [Node("Method", f"m{i}", {"name": f"M{i}"}) for i in range(20)]
    records += [Edge("PART_OF", ("Commit", f"c{i}"), ("Framework", f"f{i % 3}")) for i in range(30)]
    records += [Edge("IMPLEMENTS", ("Commit", f"c{i}"), ("Method", f"m{i % 20}"), {}) for i in range(30)]
    records += [Node("Method", "m3", {"name": "renamed"}), *records[20:25]]
    return records


def _graph(store) -> dict:
    return {
        "counts": {k: v for k, v in store.counts().items() if v},
        "m3": store.read("MATCH (m:Method {slug: 'm3'}) RETURN m.name AS name"),
    }


def test_one_load_in_many_batches_equals_the_same_load_in_one(store, tmp_path):
    store.write_all(_stream_with_repeats(), batch_size=6)
    assert _graph(store) == {
        "counts": {"Method": 20, "Commit": 30, "Framework": 3, "PART_OF": 30, "IMPLEMENTS": 30},
        "m3": [{"name": "renamed"}],
    }


def test_a_fresh_ladybug_load_stays_exact_when_every_identity_hash_collides(tmp_path, monkeypatch):
    """The Ladybug writer remembers hashes of what a load created instead of asking the
    database; with every hash equal, it must still write exactly the same graph."""
    import numpy as np
    from uptake.graph import batch

    monkeypatch.setattr(batch, "_hashes", lambda identities: np.zeros(len(identities), np.int64))
    with open_store(str(tmp_path / "collide.lbug")) as colliding:
        colliding.init()
        stats = colliding.write_all(_stream_with_repeats(), batch_size=6)
        assert _graph(colliding)["counts"] == {
            "Method": 20, "Commit": 30, "Framework": 3, "PART_OF": 30, "IMPLEMENTS": 30
        }  # fmt: skip
        assert _graph(colliding)["m3"] == [{"name": "renamed"}]
        assert stats.edges_created == 60


def test_write_all_restores_the_thread_switch_interval(store):
    """`write_all` shortens Python's thread slices while it prepares ahead: a process-wide
    setting, so it must be put back, after a failed load too."""
    import sys

    before = sys.getswitchinterval()
    store.write_all([Node("Method", "grpo", {"name": "GRPO"})])
    assert sys.getswitchinterval() == before
    with pytest.raises(WriteError):
        store.write_all([Node("Method", "ppo", {"no_such_field": 1})])
    assert sys.getswitchinterval() == before
