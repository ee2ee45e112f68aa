"""The Neo4j Browser guide and style sheet: generated from the stored queries, played in a real Browser."""

from __future__ import annotations

import os
from urllib.parse import urlparse

import pytest
from conftest import NEO4J_PASSWORD, NEO4J_URI, NEO4J_USER, neo4j_store
from fastapi.testclient import TestClient
from headless_chromium import _missing, chromium_page, screenshot, serve_app
from study_fixture import EXTENDS, study_records
from uptake.api.http.app import create_app
from uptake.api.http.browser_guide import guide_queries, params_command
from uptake.api.http.settings import ApiSettings
from uptake.api.views.graph_style import STYLES
from uptake.graph.records import Node
from uptake.graph.schema import NODE_TYPES
from uptake.queries import load_queries

# Neo4j Browser is served by the test Neo4j's HTTP port; scripts/neo4j-local prints it.
UNTITLED = "2601.00001"  # a paper known only by its id
BROWSER_URL = os.environ.get("UPTAKE_TEST_NEO4J_BROWSER", "http://127.0.0.1:7474/browser/")


@pytest.fixture
def client(tmp_path):
    return TestClient(create_app(str(tmp_path / "none.lbug"), ApiSettings(connect_attempts=1)))


def test_guide_has_one_page_per_stored_query_with_its_cypher_and_parameters(client):
    response = client.get("/browser/guide")
    assert response.headers["access-control-allow-origin"] == "*"
    body = response.text
    queries = load_queries()
    assert body.count("<slide") == len(queries) + 1
    for query in queries.values():
        assert f'data-query="{query.name}"' in body
    lineage = queries["method-lineage"]
    assert ":params {slug: &quot;grpo&quot;}" in body and "EXTENDS*1..10" in body
    assert params_command(queries["report-general-papers"]).startswith(':params {since: date("1990-01-01")')
    assert "since_day: 7305" in params_command(queries["report-general-papers"])  # what the Cypher compares
    assert lineage.description.replace("'", "&#x27;") in body
    assert guide_queries()[0].name == "method-family"  # the guide opens on a query Browser draws
    adoc = client.get("/browser/guide.adoc").text
    assert adoc.count("\n== ") == len(queries) + 1 and "[source,cypher,role=runnable]" in adoc


def test_guide_answers_cors_preflight_and_serves_a_style_per_label(client):
    preflight = client.options(
        "/browser/guide", headers={"Origin": "http://127.0.0.1:7474", "Access-Control-Request-Method": "GET"}
    )
    assert preflight.status_code == 204 and preflight.headers["access-control-allow-origin"] == "*"
    grass = client.get("/browser/style.grass").text
    for label in NODE_TYPES:
        assert f"node.{label} {{" in grass
        assert f"color: {STYLES[label].color};" in grass
    assert "caption: '{sha}';" in grass and "caption: '{change}';" in grass
    assert "caption: '{arxiv_id} {title}';" in grass  # an untitled paper is never a blank circle


def _browser_reachable() -> None:
    import urllib.request

    try:
        urllib.request.urlopen(BROWSER_URL, timeout=3).read(100)
    except OSError as exc:
        _missing(f"no Neo4j Browser at {BROWSER_URL} ({exc}); set UPTAKE_TEST_NEO4J_BROWSER")


def test_neo4j_browser_plays_the_guide_and_draws_the_first_query_styled(monkeypatch):
    store = neo4j_store()
    store.reset()
    store.init()
    store.write_all([*study_records(), Node("Paper", UNTITLED, {})])
    store.close()
    _browser_reachable()
    monkeypatch.setenv("NEO4J_USER", NEO4J_USER)
    monkeypatch.setenv("NEO4J_PASSWORD", NEO4J_PASSWORD)
    bolt = urlparse(NEO4J_URI)
    with serve_app(create_app(NEO4J_URI, ApiSettings(connect_attempts=1))) as base, chromium_page() as page:
        page.goto(f"{BROWSER_URL}?dbms=bolt://{bolt.hostname}:{bolt.port}")
        page.fill('[data-testid="username"]', NEO4J_USER)
        page.fill('[data-testid="password"]', NEO4J_PASSWORD)
        page.click('[data-testid="connect"]')
        page.wait_for_selector("text=neo4j$")

        def run(command: str) -> None:
            page.click("#monaco-main-editor")
            page.keyboard.type(command)
            page.keyboard.press("Enter")

        run(f":style {base}/browser/style.grass")
        page.wait_for_selector("text=node.Method")
        run(f":play {base}/browser/guide")  # as `uptake serve` prints it
        page.wait_for_selector("text=as stored queries you can run here")
        run(f":guide {base}/browser/guide")
        page.wait_for_selector("text=Uptake stored queries")
        page.get_by_text("Next", exact=True).click()
        page.wait_for_selector('pre.runnable.cypher[data-query="method-family"]')
        page.click("pre.runnable.params")  # populates the editor with the parameters
        page.click('[data-testid="editor-Run"]')
        page.wait_for_selector("text=slug")
        page.click('pre.runnable.cypher[data-query="method-family"]')
        page.click('[data-testid="editor-Run"]')
        page.wait_for_selector("svg g.node", timeout=20000)
        page.wait_for_timeout(1500)  # the force layout settles
        captions = set(
            page.eval_on_selector_all("svg g.node text", "els => els.map(e => e.textContent.trim())")
        )
        names = {m.upper() for m in {c for c, _, _ in EXTENDS} | {p for _, p, _ in EXTENDS}}
        assert names <= captions, captions
        fills = set(
            page.eval_on_selector_all(
                "svg g.node circle.b-outline", "els => els.map(e => e.getAttribute('fill'))"
            )
        )
        assert STYLES["Method"].color.lower() in {f.lower() for f in fills if f}, fills
        rel_captions = set(
            page.eval_on_selector_all("svg g.relationship text", "els => els.map(e => e.textContent)")
        )
        assert {change for _, _, change in EXTENDS} <= rel_captions, rel_captions
        screenshot(page, "neo4j-browser-guide-method-family.png")

        run(f"MATCH (p:Paper {{arxiv_id: '{UNTITLED}'}}) RETURN p")
        page.wait_for_selector(f"svg g.node text:has-text('{UNTITLED}')", timeout=20000)
