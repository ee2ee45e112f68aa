"""`uptake report` on the study fixture reproduces figures computed here from the fixture tables."""

from __future__ import annotations

import datetime as dt
import json

import pytest
import typer
from study_fixture import COMMITS, FRAMEWORKS, MODEL_REPORTS, PAPERS, THREADS, study_records
from typer.testing import CliRunner
from uptake.api.cli import errors, options, serve
from uptake.api.views.report import ReportError, StudyWindow, build_report, render_markdown

D = dt.date.fromisoformat


def expected_figures(since: dt.date, until: dt.date, frameworks: set[str], widely: int) -> dict:
    """The study's figures by direct counting over the fixture tables (no graph, no report code)."""
    first_commit: dict[str, dt.date] = {}
    method_frameworks: dict[str, set[str]] = {}
    for _sha, framework, date, method, _subject in COMMITS:
        if method and framework in frameworks:
            first_commit[method] = min(first_commit.get(method, D(date)), D(date))
            method_frameworks.setdefault(method, set()).add(framework)
    papers = []
    for arxiv_id, date, general, params, changes, _lc, code, orgs, method in PAPERS:
        if general and since <= D(date) <= until:
            included = method in first_commit
            latency = (first_commit[method] - D(date)).days if included else None
            quarter = f"{D(date).year}Q{(D(date).month - 1) // 3 + 1}"
            papers.append(
                dict(
                    id=arxiv_id,
                    quarter=quarter,
                    included=included,
                    latency=latency,
                    params=params,
                    changes=changes,
                    code=code,
                    orgs=set(orgs),
                    method=method,
                )
            )

    def group(rows):
        def trait(has, known):
            k = [r for r in rows if known(r)]
            return [sum(1 for r in k if has(r)), len(k)]

        return [
            len(rows),
            trait(lambda r: r["params"] >= 30, lambda r: r["params"] is not None),
            trait(lambda r: r["changes"] is True, lambda r: r["changes"] is not None),
            trait(lambda r: r["code"] is not None, lambda r: True),
        ]

    def comparison(rows):
        quarters = sorted({r["quarter"] for r in rows if r["included"]})
        return [
            quarters,
            group([r for r in rows if r["included"]]),
            group([r for r in rows if not r["included"] and r["quarter"] in quarters]),
        ]

    maintainers = {FRAMEWORKS[f] for f in frameworks}
    window_ids = {p["id"] for p in papers}
    window_methods = {p["method"] for p in papers}
    proposals = {
        t[0]: t[4] is not None
        for t in THREADS
        if t[2] in frameworks and (t[5] in window_ids or t[6] in window_methods)
    }
    thread_targets = {t[5] for t in THREADS if t[2] in frameworks} | {
        t[6] for t in THREADS if t[2] in frameworks
    }
    silent = [
        p
        for p in papers
        if not p["included"] and p["id"] not in thread_targets and p["method"] not in thread_targets
    ]
    widely_methods = {m for m, fws in method_frameworks.items() if len(fws) >= widely}
    stated = {m for (_t, _f, _o, methods) in MODEL_REPORTS.values() for m in methods}
    cohorts = {}
    for p in papers:
        c = cohorts.setdefault(p["quarter"], [0, 0, 0])
        c[0] += 1
        c[1] += p["included"]
        c[2] += p["included"] and p["latency"] <= 180
    return {
        "general": [len(papers), sum(p["included"] for p in papers)],
        "cohorts": sorted([q, *c] for q, c in cohorts.items()),
        "comparison": comparison(papers),
        "without_maintainers": comparison([p for p in papers if not p["orgs"] & maintainers]),
        "set_aside": sorted(p["id"] for p in papers if p["orgs"] & maintainers),
        "no_thread": [sum(not p["included"] for p in papers), len(silent)],
        "proposals": [len(proposals), sum(not answered for answered in proposals.values())],
        "widely": [len(widely_methods), len(widely_methods & stated)],
        "latencies": sorted(p["latency"] for p in papers if p["included"]),
    }


def figures_of(result: dict) -> dict:
    """The same figures read back from the report's JSON."""

    def group(g):
        return [g["papers"]] + [
            [g[k]["count"], g[k]["known"]]
            for k in ("policies_30b_plus", "changes_existing_loss", "releases_code")
        ]

    def comparison(c):
        return [c["quarters"], group(c["included"]), group(c["rest"])]

    g = result["general_methods"]
    return {
        "general": [g["papers"], g["included"]],
        "cohorts": [
            [c["quarter"], c["papers"], c["included"], c["included_within_180_days"]]
            for c in result["cohorts"]
        ],
        "comparison": comparison(result["comparison"]),
        "without_maintainers": comparison(result["comparison_without_maintainer_organizations"]),
        "set_aside": result["comparison_without_maintainer_organizations"]["papers_set_aside"],
        "no_thread": [result["no_thread"]["not_included"], result["no_thread"]["without_thread"]],
        "proposals": [result["proposals"]["threads"], result["proposals"]["without_maintainer_reply"]],
        "widely": [
            result["widely_included_methods"]["methods"],
            result["widely_included_methods"]["stated_by_model_reports"],
        ],
        "latencies": result["latency_days"]["values"],
    }


CASES = [
    (dt.date(1990, 1, 1), dt.date(2100, 12, 31), (), 2),
    (dt.date(2024, 1, 1), dt.date(2024, 12, 31), ("trl",), 1),
    (dt.date(2024, 6, 1), dt.date(2025, 6, 30), ("verl", "openrlhf"), 2),
]


@pytest.mark.parametrize(("since", "until", "frameworks", "widely"), CASES)
def test_report_reproduces_independently_computed_figures(store, since, until, frameworks, widely):
    store.write(study_records())
    result = build_report(store, StudyWindow(since, until, frameworks, widely))
    expected = expected_figures(since, until, set(frameworks or FRAMEWORKS), widely)
    assert figures_of(result) == expected
    # The fixture is built so these cases are not trivial.
    assert expected["general"][1] > 0 and expected["general"][0] > expected["general"][1]


def test_report_command_writes_markdown_json_and_charts(tmp_path):
    from uptake.graph.store import open_store

    path = tmp_path / "graph.lbug"
    with open_store(str(path)) as s:
        s.init()
        s.write(study_records())
    app = typer.Typer()
    app.command("noop")(lambda: None)
    serve.register(app, None, options.connect, errors.fail)
    out = tmp_path / "out"
    run = CliRunner().invoke(
        app,
        [
            "report",
            "--store",
            str(path),
            "--out",
            str(out),
            "--from",
            "2024-01-01",
            "--to",
            "2024-12-31",
            "--frameworks",
            "trl",
        ],
    )
    assert run.exit_code == 0, run.output
    result = json.loads((out / "report.json").read_text())
    expected = expected_figures(dt.date(2024, 1, 1), dt.date(2024, 12, 31), {"trl"}, 2)
    assert figures_of(result) == expected
    markdown = (out / "report.md").read_text()
    included, total = expected["general"][1], expected["general"][0]
    assert f"{total} general-method papers; {included} reached at least one framework" in markdown
    for name in ("cohorts.png", "latency.png"):
        assert (out / name).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert "<svg" in (out / "cohorts.svg").read_text()

    bad = CliRunner().invoke(app, ["report", "--store", str(path), "--frameworks", "nope", "--out", str(out)])
    assert bad.exit_code == 1 and "nope" in bad.output
    bad = CliRunner().invoke(app, ["report", "--store", str(path), "--from", "2025-13-01", "--out", str(out)])
    assert bad.exit_code == 1 and "--from" in bad.output


def test_study_figures_sit_beside_ours_and_say_whether_the_window_is_the_studys(store):
    store.write(study_records())
    other = build_report(store, StudyWindow(dt.date(2024, 1, 1), dt.date(2024, 12, 31), ("trl",), 1))
    beside = other["beside_study"]
    assert beside["same_window"] is False and beside["frameworks"] == 1
    rows = {m["measure"]: m for m in beside["measures"]}
    g = other["general_methods"]
    assert rows["general_method_papers"]["ours"] == str(g["papers"])
    assert rows["included"]["study"] == "37 (2.3%)"
    cohorts = other["cohorts"]
    assert rows["cohort_sizes"]["ours"] == f"{cohorts[0]['papers']} to {cohorts[-1]['papers']}"
    markdown = render_markdown(other)
    assert "## Beside the study" in markdown and "a different window from the study's" in markdown
    assert "| trains 30B+ policies, included vs rest |" in markdown and "| 41% vs 10% |" in markdown
    study = build_report(store, StudyWindow(dt.date(2025, 1, 1), dt.date(2026, 6, 30)))
    assert study["beside_study"]["same_window"] is True
    assert "the same window as the study" in render_markdown(study)


def test_unknown_framework_is_named(store):
    store.write(study_records())
    with pytest.raises(ReportError, match="no framework nemo"):
        build_report(store, StudyWindow(frameworks=("trl", "nemo")))
