"""The method × framework matrix and the two facts it reconciles: a framework's SUPPORTS is the
catalog's claim, a commit's IMPLEMENTS the mined evidence. Counts agree everywhere; where the two
facts disagree, every view says which one is missing."""

from __future__ import annotations

import datetime as dt

import pytest
from conftest import NEO4J_PASSWORD, NEO4J_USER
from fastapi.testclient import TestClient
from headless_chromium import chromium_page, screenshot, serve_app
from study_fixture import COMMITS, FRAMEWORKS, study_records
from uptake.api.http.app import create_app
from uptake.api.http.settings import ApiSettings
from uptake.graph.records import Edge, Node
from uptake.graph.store import open_store
from uptake.queries.run import run_query

SETTINGS = {"refresh_interval": 0, "connect_attempts": 1}
EV = {"source_kind": "fixture", "location": "pkg/loss.py:7", "identifier": "loss_type=dr_grpo", "rule": "r"}
POLICY_GRADIENT = {"grpo", "dapo", "dr-grpo", "gspo", "ppo", "rloo"}


def disagreeing_records() -> list:
    """The fixture, plus a claim with no commit (openrlhf, dapo) and a commit with no claim
    (openrlhf, dr-grpo), and the families the filter reads."""
    noon = int(dt.datetime(2025, 6, 1, 12, tzinfo=dt.UTC).timestamp())
    commit = {"framework": "openrlhf", "commit_date": "2025-06-01", "commit_ts": noon, "subject": "dr grpo"}
    return [
        *study_records(),
        *(Node("Method", slug, {"family": "policy-gradient"}) for slug in POLICY_GRADIENT),
        Edge("SUPPORTS", ("Framework", "openrlhf"), ("Method", "dapo"), EV),
        Node("Commit", "c-orl-drgrpo", commit),
        Edge("PART_OF", ("Commit", "c-orl-drgrpo"), ("Framework", "openrlhf")),
        Edge("IMPLEMENTS", ("Commit", "c-orl-drgrpo"), ("Method", "dr-grpo"), EV),
    ]


@pytest.fixture
def client(store, monkeypatch):
    store.write_all(disagreeing_records())
    monkeypatch.setenv("NEO4J_USER", NEO4J_USER)
    monkeypatch.setenv("NEO4J_PASSWORD", NEO4J_PASSWORD)
    with TestClient(create_app(store.location, ApiSettings(**SETTINGS))) as c:
        yield c, store


def implemented_by(store, framework: str) -> set[str]:
    return {r["method"] for r in run_query(store, "framework-methods", {"framework": framework}).rows}


def test_matrix_lists_every_pair_and_its_counts_equal_framework_methods(client):
    client, store = client
    matrix = client.get("/matrix").json()
    assert "cells" in matrix, matrix
    cells = {(c["method"], c["framework"]): c for c in matrix["cells"]}
    for framework in FRAMEWORKS:
        evidence = {m for (m, f), c in cells.items() if f == framework and c["implemented"]}
        assert evidence == implemented_by(store, framework)
    expected = {(m, f) for _, f, _, m, _ in COMMITS if m} | {("dr-grpo", "openrlhf")}
    assert {pair for pair, c in cells.items() if c["implemented"]} == expected
    assert matrix["implemented"] == len(expected) and matrix["count"] == len(expected) + 1

    grpo_trl = cells[("grpo", "trl")]
    assert grpo_trl["first_commit"] == "c-trl-grpo" and grpo_trl["commit_date"] == "2024-03-20"
    assert grpo_trl["release"] == "v0.14.0" and grpo_trl["commits"] == 2 and grpo_trl["agreement"] == "agree"
    assert grpo_trl["url"] == "https://github.com/example/trl/commit/c-trl-grpo"
    only_evidence = cells[("dr-grpo", "openrlhf")]
    assert only_evidence["agreement"] == "evidence only"
    assert only_evidence["identifier"] == "loss_type=dr_grpo"
    only_claim = cells[("dapo", "openrlhf")]
    assert only_claim["agreement"] == "claim only" and only_claim["first_commit"] is None

    family = client.get("/matrix", params={"family": "policy-gradient"}).json()
    assert {m["slug"] for m in family["methods"]} == POLICY_GRADIENT
    assert client.get("/matrix", params={"family": "no-such-family"}).json()["count"] == 0


def test_frameworks_count_methods_with_evidence_and_claims_apart(client):
    client, store = client
    listed = {f["slug"]: f for f in client.get("/frameworks").json()["data"]}
    for framework in FRAMEWORKS:
        assert listed[framework]["methods"] == len(implemented_by(store, framework))
    openrlhf = listed["openrlhf"]
    # Evidence: rloo, method-f, ppo, dr-grpo. Claims: rloo, method-f, ppo, dapo.
    assert (openrlhf["methods"], openrlhf["claimed"], openrlhf["agreed"]) == (4, 4, 3)
    assert (openrlhf["evidence_only"], openrlhf["claim_only"]) == (1, 1)


def test_views_show_both_facts_and_mark_which_is_missing(client):
    client, _ = client
    edges = client.get("/frameworks/openrlhf").json()["graph"]["relationships"]
    said = {(r["type"], r["target"]) for r in edges if r["type"] in ("SUPPORTS", "IMPLEMENTS")}
    assert ("SUPPORTS", "Method:dapo") in said and ("IMPLEMENTS", "Method:dapo") not in said
    assert ("IMPLEMENTS", "Method:dr-grpo") in said and ("SUPPORTS", "Method:dr-grpo") not in said
    drawn = client.get("/explore/neighbours", params={"label": "Method", "key": "dapo"}).json()
    marks = {
        (r["type"], r["source"]): r["properties"].get("agreement")
        for r in drawn["relationships"]
        if r["type"] in ("SUPPORTS", "IMPLEMENTS")
    }
    assert marks[("SUPPORTS", "Framework:openrlhf")] == "claim only"
    assert marks[("SUPPORTS", "Framework:verl")] == "agree" == marks[("IMPLEMENTS", "Framework:verl")]


def test_matrix_page_fits_the_window_and_fetches_nothing_from_outside(tmp_path):
    path = str(tmp_path / "matrix.lbug")
    store = open_store(path)
    store.init()
    store.write_all(disagreeing_records())
    store.close()
    with serve_app(create_app(path, ApiSettings(**SETTINGS))) as base, chromium_page(1400, 1000) as page:
        requested: list[str] = []
        page.on("request", lambda r: requested.append(r.url))
        page.goto(base + "/view/matrix")
        page.wait_for_selector('#matrix tbody tr[data-method="grpo"]')
        marks = page.eval_on_selector_all(
            "#matrix td[data-agreement]", "els => els.map(e => e.dataset.agreement)"
        )
        assert marks.count("claim only") == 1 and marks.count("evidence only") == 1
        assert "v0.14.0" in page.inner_text('#matrix tr[data-method="grpo"]')
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
        screenshot(page, "matrix.png")
        page.select_option("#family", "policy-gradient")
        page.wait_for_function("document.querySelectorAll('#matrix tbody tr').length === 6")
        assert all(url.startswith(base) for url in requested), requested
