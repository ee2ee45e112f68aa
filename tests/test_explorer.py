"""The web explorer: its JSON on both stores, and the page itself in headless Chromium over a real server."""

from __future__ import annotations

import pytest
from conftest import NEO4J_PASSWORD, NEO4J_USER
from fastapi.testclient import TestClient
from headless_chromium import chromium_page, screenshot, serve_app
from study_fixture import EXTENDS, study_records
from uptake.api.http.app import create_app
from uptake.api.http.settings import ApiSettings
from uptake.graph.store import open_store

SETTINGS = {"refresh_interval": 0, "connect_attempts": 1}
FAMILY = {"grpo", "ppo", "dapo", "dr-grpo", "gspo"}


@pytest.fixture
def client(store, monkeypatch):
    store.write_all(study_records())  # write_all makes the batch visible to other handles
    monkeypatch.setenv("NEO4J_USER", NEO4J_USER)
    monkeypatch.setenv("NEO4J_PASSWORD", NEO4J_PASSWORD)
    with TestClient(create_app(store.location, ApiSettings(**SETTINGS))) as c:
        yield c


def test_search_finds_methods_papers_and_frameworks(client):
    found = client.get("/explore/search", params={"q": "GRPO"}).json()["results"]
    assert found[0]["id"] == "Method:grpo"  # the exact match first
    assert {"Method:grpo", "Method:dr-grpo"} <= {r["id"] for r in found}
    assert [r["id"] for r in client.get("/explore/search", params={"q": "2503.14476"}).json()["results"]] == [
        "Paper:2503.14476"
    ]
    by_title = client.get("/explore/search", params={"q": "paper 2402.0"}).json()["results"]
    assert {r["id"] for r in by_title} == {"Paper:2402.03300"}
    assert client.get("/explore/search", params={"q": "TRL"}).json()["results"][0]["id"] == "Framework:trl"
    assert client.get("/explore/search", params={"q": "  "}).json()["results"] == []


def test_lineage_carries_where_and_when_each_method_was_implemented(client):
    body = client.get("/explore/lineage/grpo").json()
    assert {n["id"] for n in body["nodes"]} == {f"Method:{m}" for m in FAMILY}
    edges = {(r["source"], r["target"], r["properties"]["change"]) for r in body["relationships"]}
    assert edges == {(f"Method:{c}", f"Method:{p}", ch) for c, p, ch in EXTENDS}
    grpo = next(n for n in body["nodes"] if n["id"] == "Method:grpo")
    firsts = {
        i["framework"]: (i["first_commit"], i["first_commit_date"])
        for i in grpo["properties"]["implementations"]
    }
    assert firsts == {"trl": ("c-trl-grpo", "2024-03-20"), "verl": ("c-verl-grpo", "2024-12-01")}
    assert grpo["url"] == "https://arxiv.org/abs/2402.03300"
    dapo_edge = next(r for r in body["relationships"] if r["source"] == "Method:dapo")
    assert dapo_edge["url"] == "https://arxiv.org/abs/2503.14476"  # what changed is told by DAPO's paper
    assert client.get("/explore/lineage/no-such").status_code == 404


def test_neighbours_of_a_commit_and_a_failure_link_to_their_evidence(client):
    body = client.get("/explore/neighbours", params={"label": "Commit", "key": "c-trl-fix"}).json()
    rels = {(r["source"], r["type"], r["target"]): r["url"] for r in body["relationships"]}
    assert (
        rels[("Commit:c-trl-fix", "FIXES", "Issue:trl#12")]
        == "https://github.com/example/trl/commit/c-trl-fix"
    )
    assert (
        rels[("PullRequest:trl#13", "MERGED_AS", "Commit:c-trl-fix")]
        == "https://github.com/example/trl/pull/13"
    )
    failure = client.get(
        "/explore/neighbours", params={"label": "FailureReport", "key": "trl#12/nan-loss"}
    ).json()
    urls = {n["id"]: n["url"] for n in failure["nodes"]}
    assert urls["Issue:trl#12"] == "https://github.com/example/trl/issues/12"
    assert ("Commit:c-trl-fix", "FIXES", "Issue:trl#12") in {
        (r["source"], r["type"], r["target"]) for r in failure["relationships"]
    }


@pytest.fixture
def served(tmp_path):
    """The API over a Ladybug copy of the fixture graph, as a real HTTP server on loopback."""
    path = str(tmp_path / "explorer.lbug")
    store = open_store(path)
    store.init()
    store.write_all(study_records())  # write_all makes the batch visible to other handles
    store.close()
    with serve_app(create_app(path, ApiSettings(**SETTINGS))) as base:
        yield base


def node_ids(page) -> set[str]:
    return set(page.eval_on_selector_all("svg .node", "els => els.map(e => e.dataset.id)"))


def test_explorer_page_searches_opens_a_lineage_and_expands_a_node(served):
    with chromium_page() as page:
        requested: list[str] = []
        page.on("request", lambda r: requested.append(r.url))
        page.goto(served + "/")
        assert page.get_by_label("Method, paper (arXiv id or title words) or framework").is_visible()

        page.fill("#search-input", "GRPO")
        page.keyboard.press("Enter")
        page.wait_for_selector('#results button[data-id="Method:grpo"]')
        results = page.eval_on_selector_all("#results button", "els => els.map(e => e.dataset.id)")
        assert results[0] == "Method:grpo" and "Method:dr-grpo" in results
        # Keyboard: the first result has the focus, so Enter opens it.
        assert page.evaluate("document.activeElement.dataset.id") == "Method:grpo"
        screenshot(page, "explorer-search-grpo.png")

        page.keyboard.press("Enter")
        page.wait_for_selector('svg .node[data-id="Method:ppo"]')
        assert node_ids(page) == {f"Method:{m}" for m in FAMILY}
        assert page.inner_text("#view-heading") == "Lineage of GRPO"
        grpo_text = page.text_content('svg .node[data-id="Method:grpo"]')
        assert "GRPO" in grpo_text and "trl · 2024-03-20" in grpo_text and "verl · 2024-12-01" in grpo_text
        edge_labels = set(page.eval_on_selector_all("svg .edge text", "els => els.map(e => e.textContent)"))
        assert edge_labels == {"clip", "coefficient", "weight", "advantage"}
        dapo_link = page.get_attribute('svg .edge[data-id="Method:dapo-EXTENDS->Method:grpo"] a', "href")
        assert dapo_link == "https://arxiv.org/abs/2503.14476"
        details = page.locator("#details")
        assert details.locator("a.evidence").get_attribute("href") == "https://arxiv.org/abs/2402.03300"
        impl_links = details.locator(".implementations a").evaluate_all("els => els.map(e => e.href)")
        assert "https://github.com/example/trl/commit/c-trl-grpo" in impl_links
        assert "DAPO extends (changes clip) GRPO" in page.inner_text("#graph-list")
        screenshot(page, "explorer-lineage-grpo.png")

        page.click('svg .node[data-id="Method:grpo"]')
        page.wait_for_selector('svg .node[data-id="Paper:2402.03300"]')
        after = node_ids(page)
        assert {"Paper:2402.03300", "Framework:trl", "Framework:verl", "ModelReport:2505.09388"} <= after
        assert "FailureReport:trl#12/nan-loss" in after
        assert page.get_attribute('svg .node[data-id="Method:grpo"]', "class").endswith("selected")
        screenshot(page, "explorer-grpo-expanded.png")

        # Keyboard: a node takes the focus and Enter expands it.
        page.focus('svg .node[data-id="Method:ppo"]')
        page.keyboard.press("Enter")
        page.wait_for_selector('svg .node[data-id="ModelReport:2407.21783"]')
        label = page.get_attribute('svg .node[data-id="Method:ppo"]', "aria-label")
        assert label.startswith("Method PPO") and "trl · 2023-01-10" in label

        page.click("#failures-button")
        page.wait_for_selector('svg .node[data-id="Commit:c-trl-fix"]')
        assert {"FailureReport:trl#12/nan-loss", "Issue:trl#12", "PullRequest:trl#13"} <= node_ids(page)
        fix = page.get_attribute('svg .edge[data-id="Commit:c-trl-fix-FIXES->Issue:trl#12"] a', "href")
        assert fix == "https://github.com/example/trl/commit/c-trl-fix"
        screenshot(page, "explorer-failure-fixes.png")

        # Nothing is fetched from anywhere but the API: the page works offline.
        assert requested and all(url.startswith(served) for url in requested), requested
