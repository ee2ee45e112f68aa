"""The explorer on a graph too big to draw node by node: a method with 17 children, a paper that
150 commits mention, a framework with many methods. In headless Chromium at 1400×1000 each view
shows its focus, at most about 40 boxes, nothing sideways, and fetches nothing from elsewhere."""

from __future__ import annotations

import datetime as dt

import pytest
from headless_chromium import chromium_page, screenshot, serve_app
from study_fixture import study_records
from uptake.api.http.app import create_app
from uptake.api.http.settings import ApiSettings
from uptake.graph.records import Edge, Node
from uptake.graph.store import open_store

SETTINGS = {"refresh_interval": 0, "connect_attempts": 1}
CHILDREN = [f"grpo-variant-{i:02d}" for i in range(17)]
MENTIONS = 150
FRAMEWORKS = ("trl", "verl", "openrlhf")
MOST_BOXES = 40


def big_records() -> list:
    records = [*study_records()]
    for slug in CHILDREN:
        records += [
            Node("Method", slug, {"name": slug.upper()}),
            Edge("EXTENDS", ("Method", slug), ("Method", "grpo"), {"change": "clip"}),
            Edge("SUPPORTS", ("Framework", "verl"), ("Method", slug), {"source_kind": "fixture"}),
        ]
    start = dt.datetime(2025, 4, 1, 12, tzinfo=dt.UTC)
    for i in range(MENTIONS):
        sha, framework, when = f"m{i:03d}", FRAMEWORKS[i % 3], start + dt.timedelta(days=i)
        props = {
            "framework": framework,
            "commit_date": when.date().isoformat(),
            "commit_ts": int(when.timestamp()),
        }
        records += [
            Node("Commit", sha, props),
            Edge("PART_OF", ("Commit", sha), ("Framework", framework)),
            Edge("MENTIONS", ("Commit", sha), ("Paper", "2503.14476"), {"source_kind": "fixture"}),
        ]
    return records


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    path = str(tmp_path_factory.mktemp("scale") / "big.lbug")
    store = open_store(path)
    store.init()
    store.write_all(big_records())
    store.close()
    with serve_app(create_app(path, ApiSettings(**SETTINGS))) as base:
        yield base


def check_readable(page, base: str, focus: str) -> None:
    focus_box = page.locator(f'svg .node[data-id="{focus}"]').bounding_box()
    assert focus_box, f"{focus} is not drawn"
    inside = page.evaluate(
        """(b) => b.x >= 0 && b.y >= 0 && b.x + b.width <= window.innerWidth
                  && b.y + b.height <= window.innerHeight""",
        focus_box,
    )
    assert inside, f"{focus} is outside the window: {focus_box}"
    boxes = page.eval_on_selector_all("svg .node", "els => els.length")
    assert 0 < boxes <= MOST_BOXES, boxes
    sideways = page.evaluate(
        """() => [document.documentElement.scrollWidth - window.innerWidth,
                  ...[...document.querySelectorAll('.canvas')].map(c => c.scrollWidth - c.clientWidth)]"""
    )
    assert max(sideways) <= 0, sideways


@pytest.mark.parametrize(
    ("hash_", "focus", "shot"),
    [
        ("lineage/grpo", "Method:grpo", "explorer-scale-lineage-grpo.png"),
        ("neighbours/Paper/2503.14476", "Paper:2503.14476", "explorer-scale-paper-dapo.png"),
        ("neighbours/Framework/verl", "Framework:verl", "explorer-scale-framework-verl.png"),
    ],
)
def test_big_views_stay_readable(served, hash_, focus, shot):
    with chromium_page(1400, 1000) as page:
        requested: list[str] = []
        page.on("request", lambda r: requested.append(r.url))
        page.goto(f"{served}/#{hash_}")
        page.wait_for_selector(f'svg .node[data-id="{focus}"]')
        # The focus is scrolled into view inside the canvas; bring the canvas into the window too.
        page.locator(f'svg .node[data-id="{focus}"]').scroll_into_view_if_needed()
        check_readable(page, served, focus)
        screenshot(page, shot)
        assert all(url.startswith(served) for url in requested), requested


def test_a_frameworks_commits_are_one_box_with_its_first_commit_and_how_many_more(served):
    with chromium_page(1400, 1000) as page:
        page.goto(f"{served}/#neighbours/Paper/2503.14476")
        page.wait_for_selector('svg .node[data-id="Commit:m000"]')
        commits = page.eval_on_selector_all("svg .node.Commit", "els => els.map(e => e.dataset.id)")
        assert sorted(commits) == ["Commit:m000", "Commit:m001", "Commit:m002"]  # the first of each
        text = page.text_content('svg .node[data-id="Commit:m000"]')
        assert "2025-04-01" in text and f"+{MENTIONS // 3 - 1} more commits" in text


def test_landing_page_offers_starting_points_and_a_late_answer_never_replaces_a_newer_view(served):
    with chromium_page(1400, 1000) as page:
        page.goto(served + "/")
        page.wait_for_selector("#start-adopted li a")
        adopted = page.eval_on_selector_all("#start-adopted a", "els => els.map(e => e.textContent)")
        assert adopted[0] == "PPO (3 frameworks)"  # the fixture's most widely implemented method
        newest = page.eval_on_selector_all("#start-newest a", "els => els.map(e => e.textContent)")
        assert newest[0] == "GSPO in verl, 2025-08-05"
        # A feed reader finds what is new from the page itself.
        assert (
            page.get_attribute('link[rel="alternate"][type="application/atom+xml"]', "href") == "/feed.atom"
        )
        feed = page.request.get(served + "/feed.atom?since=2025-01-01")
        assert feed.ok and "GSPO first implemented in verl" in feed.text()
        # The paper's neighbours answer late; the lineage asked for after it is what stays drawn.
        page.evaluate(
            """() => {
              const real = window.fetch;
              const late = (url, opts) => new Promise((ok) => setTimeout(async () => {
                const response = await real(url, opts);
                const body = await response.clone().json();
                ok(new Response(JSON.stringify(body), { status: response.status }));
                setTimeout(() => { window.lateAnswered = true; }, 0);  // after the view's own handling
              }, 1500));
              window.fetch = (url, opts) =>
                String(url).includes("label=Paper") ? late(url, opts) : real(url, opts);
            }"""
        )
        page.evaluate("location.hash = 'neighbours/Paper/2503.14476'")
        page.wait_for_timeout(100)
        page.evaluate("location.hash = 'lineage/grpo'")
        page.wait_for_selector('svg .node[data-id="Method:ppo"]')
        assert page.is_hidden("#start")
        page.wait_for_function("window.lateAnswered === true")
        assert page.inner_text("#view-heading") == "Lineage of GRPO"
        assert page.locator('svg .node[data-id="Paper:2503.14476"]').count() == 0


def test_a_search_sent_before_the_page_has_loaded_keeps_its_answer(served):
    """A search typed while the page still loads its styles, answered after the start panel was
    asked for, must neither be dropped nor covered by the start panel."""
    with chromium_page(1400, 1000) as page:
        page.add_init_script(
            """(() => {
              const real = window.fetch;
              const later = (ms, url, opts) => new Promise((ok) => setTimeout(() => ok(real(url, opts)), ms));
              window.fetch = (url, opts) => {
                const u = String(url);
                if (u.includes("/explore/styles")) return later(300, url, opts);
                if (u.includes("/explore/search")) { window.searched = true; return later(1500, url, opts); }
                if (u.includes("/explore/start")) window.startAsked = true;
                return real(url, opts);
              };
            })()"""
        )
        page.goto(served + "/", wait_until="domcontentloaded")
        page.fill("#search-input", "GRPO")
        page.keyboard.press("Enter")
        page.wait_for_function("window.searched === true && window.startAsked === true")
        page.wait_for_selector('#results button[data-id="Method:grpo"]', timeout=10_000)
        assert page.is_hidden("#start")
