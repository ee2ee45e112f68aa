"""What a client of the HTTP API meets at its edges: strict bodies, one 404 for an unknown key on
every route under it, keys in any letter case, /papers to its last page, /docs with no network."""

from __future__ import annotations

import pytest
from conftest import NEO4J_PASSWORD, NEO4J_USER
from fastapi.testclient import TestClient
from headless_chromium import chromium_page, serve_app
from study_fixture import PAPERS, study_records
from uptake.api.http.app import create_app
from uptake.api.http.settings import ApiSettings
from uptake.graph.records import Node
from uptake.graph.store import open_store

SETTINGS = {"refresh_interval": 0, "connect_attempts": 1}
UNDATED = ["2601.00001", "2601.00002", "2601.00003"]


@pytest.fixture
def client(store, monkeypatch):
    # Papers the catalog names but no paper source has dated: they still belong in /papers.
    store.write_all([*study_records(), *(Node("Paper", a, {}) for a in UNDATED)])
    monkeypatch.setenv("NEO4J_USER", NEO4J_USER)
    monkeypatch.setenv("NEO4J_PASSWORD", NEO4J_PASSWORD)
    with TestClient(create_app(store.location, ApiSettings(**SETTINGS))) as c:
        yield c


def error_of(response, status: int) -> dict:
    assert response.status_code == status, response.text
    return response.json()["error"]


def test_a_parameter_outside_params_is_refused_and_told_where_it_goes(client):
    error = error_of(client.post("/queries/method-lineage/rows", json={"slug": "dapo"}), 422)
    assert error["code"] == "invalid_parameter"
    assert "'slug'" in error["message"] and '"params"' in error["message"]
    error = error_of(client.post("/queries/method-lineage/rows", json={"params": {"slugg": "dapo"}}), 422)
    assert "slugg" in error["message"]
    error = error_of(client.post("/cypher", json={"statement": "RETURN 1 AS x", "limit": 3}), 422)
    assert "'limit'" in error["message"] and '"params"' in error["message"]
    ran = client.post("/queries/method-lineage/rows", json={"params": {"slug": "dapo"}})
    assert ran.status_code == 200 and {r["method"] for r in ran.json()["data"]} >= {"grpo", "ppo"}


@pytest.mark.parametrize(
    "path",
    [
        "/methods/nosuch",
        "/methods/nosuch/lineage",
        "/methods/nosuch/adoption",
        "/frameworks/nosuch",
        "/papers/0000.00000",
        "/papers/0000.00000/implementations",
    ],
)
def test_an_unknown_key_is_a_404_on_every_route_under_it(client, path):
    error = error_of(client.get(path), 404)
    assert error["code"] == "not_found"
    assert path.split("/")[2] in error["message"]


def test_a_key_in_another_letter_case_redirects_to_the_stored_one(client):
    moved = client.get("/methods/DAPO/lineage", params={"limit": 1}, follow_redirects=False)
    assert moved.status_code == 308
    assert moved.headers["location"] == "/methods/dapo/lineage?limit=1"
    followed = client.get("/methods/DAPO/lineage", params={"limit": 1})
    assert followed.status_code == 200 and len(followed.json()["data"]) == 1
    assert client.get("/frameworks/Verl", follow_redirects=False).headers["location"] == "/frameworks/verl"
    assert client.get("/frameworks/Verl").json()["node"]["slug"] == "verl"


def test_papers_pages_through_every_paper_dated_ones_first(client):
    dated = [a for _, a in sorted((p[1], p[0]) for p in PAPERS)]
    everything = dated + UNDATED
    seen, offset = [], 0
    while True:
        page = client.get("/papers", params={"limit": 4, "offset": offset}).json()
        assert page["count"] == len(everything)
        if not page["data"]:
            break
        seen += [p["arxiv_id"] for p in page["data"]]
        offset += 4
    assert seen == everything
    far = client.get("/papers", params={"offset": 10**9}).json()  # far past the end: empty, not a crash
    assert far["data"] == [] and far["count"] == len(everything)
    window = client.get("/papers", params={"since": "2025-01-01"}).json()
    in_window = [a for d, a in sorted((p[1], p[0]) for p in PAPERS) if d >= "2025-01-01"]
    assert [p["arxiv_id"] for p in window["data"]] == in_window
    assert window["count"] == len(window["data"])


def test_docs_render_with_the_network_off(tmp_path):
    path = str(tmp_path / "docs.lbug")
    store = open_store(path)
    store.init()
    store.close()
    with serve_app(create_app(path, ApiSettings(**SETTINGS))) as base, chromium_page(1400, 1000) as page:
        left: list[str] = []

        def only_local(route):
            if route.request.url.startswith(base):
                route.continue_()
            else:
                left.append(route.request.url)
                route.abort()

        page.route("**/*", only_local)
        page.goto(base + "/docs")
        page.wait_for_selector(".swagger-ui .opblock-summary-path")
        paths = page.eval_on_selector_all(".opblock-summary-path", "els => els.map(e => e.textContent)")
        assert any("/queries/{name}/rows" in p for p in paths)
        page.goto(base + "/redoc")
        page.wait_for_selector("h1:has-text('Uptake')")
        assert left == []
