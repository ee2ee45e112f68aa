"""The graph `uptake build` makes from what Uptake ships: every stored query's defaults answer
on it, and the offline sources (pull requests, fixes, failures, rules, papers) are all there."""

from __future__ import annotations

import pytest
from conftest import fresh_store
from uptake.api.views.report import EMPTY_NOTES, StudyWindow, build_report, render_markdown
from uptake.queries import load_queries
from uptake.queries.run import run_query
from uptake.sync.build import run_build


@pytest.fixture(scope="module", params=["ladybug", "neo4j"])
def shipped(request, tmp_path_factory):
    store = fresh_store(request.param, tmp_path_factory.mktemp("shipped"))
    for _ in run_build(store):
        pass
    yield store
    store.close()


# What no offline source can fill: open threads without a maintainer reply are known only from GitHub.
NEEDS_GITHUB = {"unanswered-proposals"}


@pytest.mark.parametrize("name", sorted(load_queries()))
def test_every_stored_query_answers_with_its_defaults(shipped, name):
    rows = run_query(shipped, name, {}).rows
    if name in NEEDS_GITHUB:
        assert rows == [], f"{name}: rows offline; take it off NEEDS_GITHUB"
    else:
        assert rows, f"{name}: no rows with its default parameters"


def count(store, cypher: str) -> int:
    return store.read(cypher)[0]["n"]


def test_offline_sources_are_all_in_the_shipped_graph(shipped):
    for label in ("PullRequest", "Issue", "FailureReport", "ContributionRule"):
        assert count(shipped, f"MATCH (n:{label}) RETURN count(n) AS n") > 0, label
    titled = count(shipped, "MATCH (p:Paper) WHERE p.title IS NOT NULL RETURN count(p) AS n")
    papers = count(shipped, "MATCH (p:Paper) RETURN count(p) AS n")
    assert titled > papers // 2
    undated = "MATCH (p:Paper) WHERE p.year_month IS NULL OR p.month_day IS NULL RETURN count(p) AS n"
    assert count(shipped, undated) == 0
    for read in ("title", "title+headings"):
        screened = f"MATCH (p:Paper) WHERE p.screened_on = '{read}' RETURN count(p) AS n"
        assert count(shipped, screened) > 0, read


def test_failure_to_fixing_commit_to_release_for_at_least_five_frameworks(shipped):
    rows = run_query(shipped, "failure-fixes", {}).rows
    with_release = {r["framework"] for r in rows if r["release"]}
    assert len(with_release) >= 5


def test_grpo_adoptions_have_a_latency_with_its_precision(shipped):
    rows = run_query(shipped, "adoption-timeline", {"slug": "grpo"}).rows
    assert rows and all(r["days_after_paper"] is not None for r in rows)
    assert {r["date_precision"] for r in rows} <= {"day", "month"}


def test_the_report_on_the_shipped_graph_has_cohorts_and_says_what_it_covers(shipped):
    result = build_report(shipped, StudyWindow())
    assert result["cohorts"] and result["general_methods"]["included"] > 0
    assert result["latency_days"]["included_with_date"] > 0
    text = render_markdown(result)
    assert "## Population" in text and "on the title alone" in text
    assert "uptake load github" in text  # no thread text is loaded offline: the report says how to load it


def test_an_empty_graph_reports_what_would_fill_each_section(tmp_path):
    store = fresh_store("ladybug", tmp_path)
    text = render_markdown(build_report(store, StudyWindow()))
    store.close()
    assert "The graph holds no papers: run `uptake build`." in text
    assert EMPTY_NOTES["papers"] in text and EMPTY_NOTES["threads"] in text
