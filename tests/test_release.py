"""The data release: written from a mined history, loaded into real stores, queried from alone."""

from __future__ import annotations

import gzip
import json
import re

import pytest
from git_history import METHODS, crafted_history
from uptake.graph.records import Node
from uptake.loaders.git import mine_repository
from uptake.loaders.release import FILES, ReleaseError, write_release
from uptake.queries.run import run_query
from uptake.sync.release import sync_data_release


@pytest.fixture
def release(tmp_path):
    repo, shas = crafted_history(tmp_path / "fw")
    facts = mine_repository("fw", repo.path, METHODS, workers=1)
    folder = tmp_path / "release"
    counts = write_release([facts], folder)
    return folder, shas, counts


def test_release_is_small_sorted_and_deterministic(release, tmp_path):
    folder, shas, counts = release
    assert set(counts) == set(FILES)
    commits = [json.loads(line) for line in (folder / "commits.jsonl").open()]
    assert [c["commit_date"] for c in commits] == sorted(c["commit_date"] for c in commits)
    assert shas["empty"] not in {c["sha"] for c in commits}  # only commits with links are kept
    assert all("subject" not in c and "message" not in c for c in commits)  # no copied text
    dr = next(c for c in commits if c["sha"] == shas["dr"])
    assert dr["excluded"].startswith("reverted by") and dr["first_release"] == "side-0.1"
    grpo = next(c for c in commits if c["sha"] == shas["grpo"])
    assert grpo["pr_number"] == 5 and grpo["first_release"] == "v0.1"
    before = {name: (folder / name).read_bytes() for name in FILES}
    repo_facts = mine_repository("fw", tmp_path / "fw", METHODS, workers=2)
    write_release([repo_facts], folder)
    assert {name: (folder / name).read_bytes() for name in FILES} == before


def test_loaded_release_answers_the_stored_query(release, store):
    folder, shas, _ = release
    store.write(
        [
            Node("Method", "grpo", {"arxiv_id": "2402.03300"}),
            Node("Method", "dapo", {"arxiv_id": "2503.14476"}),
        ]
    )
    sync_data_release(store, folder)
    sync_data_release(store, folder)  # idempotent
    rows = run_query(store, "paper-implementations", {"arxiv_id": "2402.03300"}).rows
    assert [(r["framework"], r["commit"], r["pr_number"], r["release"]) for r in rows] == [
        ("fw", shas["grpo"], 5, "v0.1")
    ]
    methods = {
        r["method"]: r["commit"] for r in run_query(store, "framework-methods", {"framework": "fw"}).rows
    }
    assert methods["dapo"] == shas["dapo"] and "dr-grpo" not in methods
    n = store.read("MATCH (c:Commit)-[:PART_OF]->(:Framework {slug: 'fw'}) RETURN count(c) AS n")[0]["n"]
    assert n == sum(1 for _ in (folder / "commits.jsonl").open())


def test_a_malformed_release_writes_nothing(release, store):
    folder, _, _ = release
    lines = (folder / "links.jsonl").read_text().splitlines()
    lines[1] = '{"sha": "0000", "rel": "IMPLEMENTS", "label": "Method"}'
    (folder / "links.jsonl").write_text("\n".join(lines) + "\n")
    with pytest.raises(ReleaseError, match=r"links.jsonl:2: field 'key': is missing"):
        sync_data_release(store, folder)
    assert store.read("MATCH (c:Commit) RETURN count(c) AS n") == [{"n": 0}]
    (folder / "releases.jsonl").unlink()
    with pytest.raises(ReleaseError, match="releases.jsonl"):
        sync_data_release(store, folder)


def test_a_gzipped_release_loads_like_the_plain_one(release, tmp_path, store):
    folder, shas, counts = release
    facts = mine_repository("fw", tmp_path / "fw", METHODS, workers=1)
    packed = tmp_path / "packed"
    write_release([facts], packed, compress=True)
    assert sorted(p.name for p in packed.iterdir()) == sorted(name + ".gz" for name in FILES)
    for name in FILES:
        assert gzip.decompress((packed / (name + ".gz")).read_bytes()) == (folder / name).read_bytes()
    before = {p.name: p.read_bytes() for p in packed.iterdir()}
    write_release([facts], packed, compress=True)
    assert {p.name: p.read_bytes() for p in packed.iterdir()} == before  # deterministic bytes
    store.write([Node("Method", "grpo", {"arxiv_id": "2402.03300"})])
    sync_data_release(store, packed)
    rows = run_query(store, "paper-implementations", {"arxiv_id": "2402.03300"}).rows
    assert [(r["framework"], r["commit"]) for r in rows] == [("fw", shas["grpo"])]
    (packed / "links.jsonl").write_bytes((folder / "links.jsonl").read_bytes())
    with pytest.raises(ReleaseError, match=r"holds both links.jsonl and links.jsonl.gz"):
        sync_data_release(store, packed)
    write_release([facts], packed)  # plain again: no stale .gz left behind
    assert sorted(p.name for p in packed.iterdir()) == sorted(FILES)


def test_release_build_skips_a_framework_without_a_mirror(tmp_path, monkeypatch):
    from typer.testing import CliRunner
    from uptake.api.cli import app
    from uptake.loaders.catalog import read_catalog

    catalog = read_catalog()
    mirrors = tmp_path / "mirrors"
    repo, _ = crafted_history(mirrors / catalog.frameworks["trl"].repo.replace("/", "+") / "repo")
    out = tmp_path / "out"
    args = ["release", "build", "--mirrors", str(mirrors), "--out", str(out), "--workers", "1"]
    result = CliRunner().invoke(app, args + ["--framework", "trl", "--framework", "verl"])
    assert result.exit_code == 1 and "verl: no copy of volcengine/verl under" in result.output
    assert not out.exists()  # named on the command line and missing: an error, nothing written
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    assert re.search(r"^trl: \d+ commits mined$", result.output, re.M), result.output
    assert "verl: skipped, not in this release: no copy of volcengine/verl" in result.output
    heads = [json.loads(line)["framework"] for line in (out / "heads.jsonl").read_text().splitlines()]
    assert heads == ["trl"]
