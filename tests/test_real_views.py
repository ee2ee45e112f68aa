"""The views on the real graph the build makes from the shipped catalog and data release: the matrix
agrees with framework-methods and /frameworks on both stores, and the explorer's biggest views
(GRPO's lineage, DAPO's paper, verl) and the matrix stay readable at 1400×1000."""

from __future__ import annotations

import pytest
from conftest import NEO4J_PASSWORD, NEO4J_USER, fresh_store
from fastapi.testclient import TestClient
from headless_chromium import chromium_page, screenshot, serve_app
from test_explorer_scale import check_readable
from uptake.api.http.app import create_app
from uptake.api.http.settings import ApiSettings
from uptake.graph.store import open_store
from uptake.queries.run import run_query
from uptake.sync.build import run_build

SETTINGS = {"refresh_interval": 0, "connect_attempts": 1}


@pytest.fixture(params=["ladybug", "neo4j"])
def built(request, tmp_path, monkeypatch):
    store = fresh_store(request.param, tmp_path)
    list(run_build(store))
    monkeypatch.setenv("NEO4J_USER", NEO4J_USER)
    monkeypatch.setenv("NEO4J_PASSWORD", NEO4J_PASSWORD)
    yield store
    store.close()


def test_matrix_and_framework_counts_equal_framework_methods(built):
    with TestClient(create_app(built.location, ApiSettings(**SETTINGS))) as client:
        matrix = client.get("/matrix").json()
        listed = {f["slug"]: f for f in client.get("/frameworks").json()["data"]}
    assert len(listed) >= 9 and matrix["implemented"] > 100
    for framework, counts in listed.items():
        evidence = {r["method"] for r in run_query(built, "framework-methods", {"framework": framework}).rows}
        in_matrix = {c["method"] for c in matrix["cells"] if c["framework"] == framework and c["implemented"]}
        assert in_matrix == evidence, framework
        assert counts["methods"] == len(evidence), framework
        claims = {c["method"] for c in matrix["cells"] if c["framework"] == framework and c["claimed"]}
        assert counts["claimed"] == len(claims) and counts["agreed"] == len(claims & evidence), framework


@pytest.fixture(scope="module")
def served_real(tmp_path_factory):
    path = str(tmp_path_factory.mktemp("real") / "real.lbug")
    store = open_store(path)
    store.init()
    list(run_build(store))
    store.close()
    with serve_app(create_app(path, ApiSettings(**SETTINGS))) as base:
        yield base


@pytest.mark.parametrize(
    ("hash_", "focus", "shot"),
    [
        ("lineage/grpo", "Method:grpo", "real-lineage-grpo.png"),
        ("neighbours/Paper/2503.14476", "Paper:2503.14476", "real-paper-dapo.png"),
        ("neighbours/Framework/verl", "Framework:verl", "real-framework-verl.png"),
    ],
)
def test_real_views_stay_readable(served_real, hash_, focus, shot):
    with chromium_page(1400, 1000) as page:
        requested: list[str] = []
        page.on("request", lambda r: requested.append(r.url))
        page.goto(f"{served_real}/#{hash_}")
        page.wait_for_selector(f'svg .node[data-id="{focus}"]')
        page.locator(f'svg .node[data-id="{focus}"]').scroll_into_view_if_needed()
        check_readable(page, served_real, focus)
        screenshot(page, shot)
        assert all(url.startswith(served_real) for url in requested), requested


def test_real_matrix_page_fits_the_window(served_real):
    with chromium_page(1400, 1000) as page:
        requested: list[str] = []
        page.on("request", lambda r: requested.append(r.url))
        page.goto(served_real + "/view/matrix")
        page.wait_for_selector('#matrix tbody tr[data-method="dapo"]')
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
        cells = page.eval_on_selector_all("#matrix td[data-agreement]", "els => els.length")
        assert cells > 100
        screenshot(page, "real-matrix.png")
        assert all(url.startswith(served_real) for url in requested), requested
