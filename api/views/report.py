"""The study's measures, from the graph: how many general-method papers reach a framework, how fast, and
what sets the ones that do apart.

Rows come from the stored `report-*` queries; every figure is computed from
them by `compute_measures`, a pure function, and written as Markdown, JSON
and charts by `write_report`.

Definitions (they are printed in the report too):

* general-method paper: a Paper screened `is_general_method = true`, first
  version inside the window;
* included: a method the paper proposes is implemented (IMPLEMENTS) by a
  commit PART_OF one of the chosen frameworks;
* latency: first implementing commit's day minus the paper's first-version
  day; "within 180 days" means latency <= 180;
* comparison: included papers against the not-included ones from the same
  quarters (quarters with at least one included paper); shares are over the
  papers whose trait is known (code: a recorded code_url counts as releasing
  code, none as not);
* maintainer organizations: organizations the chosen frameworks are
  MAINTAINED_BY; a paper is theirs when its affiliations or screened
  organizations name one;
* proposal: an issue or pull request in a chosen framework citing a window
  paper or naming its method; unanswered when no maintainer replied;
* widely included: a method implemented in at least N chosen frameworks.
"""

from __future__ import annotations

import datetime as dt
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ...graph.records import EPOCH
from ...graph.store import Store, StoreError
from ...queries.run import run_query

WITHIN_DAYS = 180
LARGE_POLICY_B = 30.0


class ReportError(RuntimeError):
    """The report cannot be made as asked; the message says which option or query."""


@dataclass(frozen=True)
class StudyWindow:
    since: dt.date = dt.date(1990, 1, 1)
    until: dt.date = dt.date(2100, 12, 31)
    frameworks: tuple[str, ...] = ()
    widely: int = 2

    def __post_init__(self) -> None:
        if self.since > self.until:
            raise ValueError(f"--from {self.since} is after --to {self.until}")
        if self.widely < 1:
            raise ValueError(f"--widely must be at least 1, got {self.widely}")


@dataclass
class StudyRows:
    frameworks: list[str]
    papers: list[dict[str, Any]]
    maintainer_orgs: list[dict[str, Any]]
    proposals: list[dict[str, Any]]
    widely: list[dict[str, Any]]
    population: dict[str, Any] = field(default_factory=dict)
    extra: dict[str, Any] = field(default_factory=dict)


# -- reading ----------------------------------------------------------------------


def _run(store: Store, name: str, values: dict[str, Any]) -> list[dict[str, Any]]:
    try:
        return run_query(store, name, values).rows
    except StoreError as exc:
        raise ReportError(f"stored query {name} failed: {exc}") from exc


def fetch_rows(store: Store, window: StudyWindow) -> StudyRows:
    known = [row["slug"] for row in _run(store, "resource-frameworks", {})]
    unknown = [f for f in window.frameworks if f not in known]
    if unknown:
        raise ReportError(
            f"--frameworks: no framework {', '.join(unknown)} in the store; "
            f"known: {', '.join(known) or 'none'}"
        )
    chosen = list(window.frameworks) or known
    scope = {"frameworks": chosen}
    dated = {"since": window.since, "until": window.until, **scope}
    return StudyRows(
        frameworks=chosen,
        papers=_run(store, "report-general-papers", dated),
        maintainer_orgs=_run(store, "report-maintainer-organizations", scope),
        proposals=_run(store, "report-proposals", dated),
        widely=_run(store, "report-widely-included-methods", {**scope, "min_frameworks": window.widely}),
        population=(_run(store, "report-population", {}) or [{}])[0],
    )


def build_report(store: Store, window: StudyWindow) -> dict[str, Any]:
    return compute_measures(fetch_rows(store, window), window)


# -- the measures (pure) --------------------------------------------------------------


def quarter_of(day: int) -> str:
    date = EPOCH + dt.timedelta(days=day)
    return f"{date.year}Q{(date.month - 1) // 3 + 1}"


def _share(count: int, known: int) -> float | None:
    return round(count / known, 4) if known else None


def _trait(papers: list[dict], has, known) -> dict[str, Any]:
    known_papers = [p for p in papers if known(p)]
    count = sum(1 for p in known_papers if has(p))
    return {"count": count, "known": len(known_papers), "share": _share(count, len(known_papers))}


def _group(papers: list[dict]) -> dict[str, Any]:
    return {
        "papers": len(papers),
        "policies_30b_plus": _trait(
            papers,
            lambda p: p["max_policy_params_b"] >= LARGE_POLICY_B,
            lambda p: p["max_policy_params_b"] is not None,
        ),
        "changes_existing_loss": _trait(
            papers,
            lambda p: p["changes_existing_loss"] is True,
            lambda p: p["changes_existing_loss"] is not None,
        ),
        # No code link is "no code" only when an abstract was read; a title alone says nothing.
        "releases_code": _trait(
            papers,
            lambda p: bool(p["code_url"]),
            lambda p: bool(p["code_url"]) or not _screened_without_abstract(p),
        ),
    }


def _screened_without_abstract(paper: dict) -> bool:
    """Screened on its title (and list headings) alone: `screened_on` lists what was read."""
    read = paper.get("screened_on")
    return bool(read) and "abstract" not in read.split("+")


def _included(paper: dict) -> bool:
    return paper["frameworks_reached"] > 0


def _latency(paper: dict) -> int | None:
    first = paper["first_implementation_day"]
    return None if first is None else first - paper["published_day"]


def _comparison(papers: list[dict]) -> dict[str, Any]:
    quarters = sorted({quarter_of(p["published_day"]) for p in papers if _included(p)})
    included = [p for p in papers if _included(p)]
    rest = [p for p in papers if not _included(p) and quarter_of(p["published_day"]) in quarters]
    return {"quarters": quarters, "included": _group(included), "rest": _group(rest)}


def compute_measures(rows: StudyRows, window: StudyWindow) -> dict[str, Any]:
    papers = rows.papers
    included = [p for p in papers if _included(p)]
    latencies = sorted(lat for p in included if (lat := _latency(p)) is not None)

    cohorts: dict[str, dict[str, Any]] = {}
    for p in papers:
        cohort = cohorts.setdefault(
            quarter_of(p["published_day"]), {"papers": 0, "included": 0, "included_within_180_days": 0}
        )
        cohort["papers"] += 1
        if _included(p):
            cohort["included"] += 1
            lat = _latency(p)
            cohort["included_within_180_days"] += lat is not None and lat <= WITHIN_DAYS

    maintainer_orgs = sorted({r["organization"] for r in rows.maintainer_orgs})
    orgs = set(maintainer_orgs)
    from_maintainers = [
        p for p in papers if (set(p["organizations"] or []) | set(p["affiliations"] or [])) & orgs
    ]
    others = [p for p in papers if p not in from_maintainers]

    not_included = [p for p in papers if not _included(p)]
    silent = [p for p in not_included if p["threads"] == 0]
    # A pull request known only from its merge commit has no known replies: it is left out of the share.
    known = [t for t in rows.proposals if t.get("reply_known", True)]
    unanswered = [t for t in known if not t["answered"]]
    stated = [m for m in rows.widely if m["stating_reports"] > 0]

    result = {
        "population": _population(rows.population, papers),
        "window": {
            "from": window.since.isoformat(),
            "to": window.until.isoformat(),
            "frameworks": rows.frameworks,
            "widely_included_min_frameworks": window.widely,
        },
        "general_methods": {
            "papers": len(papers),
            "included": len(included),
            "share_included": _share(len(included), len(papers)),
        },
        "cohorts": [{"quarter": q, **c} for q, c in sorted(cohorts.items())],
        "comparison": _comparison(papers),
        "comparison_without_maintainer_organizations": {
            "maintainer_organizations": maintainer_orgs,
            "papers_set_aside": sorted(p["arxiv_id"] for p in from_maintainers),
            **_comparison(others),
        },
        "no_thread": {
            "not_included": len(not_included),
            "without_thread": len(silent),
            "share": _share(len(silent), len(not_included)),
        },
        "proposals": {
            "threads": len(rows.proposals),
            "with_known_replies": len(known),
            "without_maintainer_reply": len(unanswered),
            "share": _share(len(unanswered), len(known)),
        },
        "widely_included_methods": {
            "methods": len(rows.widely),
            "stated_by_model_reports": len(stated),
            "share": _share(len(stated), len(rows.widely)),
            "list": sorted(rows.widely, key=lambda m: m["method"]),
        },
        "latency_days": {
            "included_with_date": len(latencies),
            "median": _median(latencies),
            "within_180_days": sum(1 for lat in latencies if lat <= WITHIN_DAYS),
            "values": latencies,
        },
    }
    result["beside_study"] = beside_study(result)
    return result


# The 2026 study's figures (seven frameworks, 6,939 screened arXiv papers, January 2025 to June
# 2026), printed beside ours where our measure follows its definition.
STUDY_WINDOW = (dt.date(2025, 1, 1), dt.date(2026, 6, 30))
STUDY = {
    "general_method_papers": "1,598 (of 6,939 screened)",
    "included": "37 (2.3%)",
    "cohort_sizes": "72 to 386",
    "included_within_180_days_per_cohort": "5 to 7",
    "policies_30b_plus": "41% vs 10%",
    "changes_existing_loss": "29% vs 9%",
    "not_included_without_thread": "more than 90%",
}


def beside_study(result: dict[str, Any]) -> dict[str, Any]:
    """Our figure and the study's for each measure both define alike, and whether the windows
    match (the study's frameworks were seven; ours are those in `window.frameworks`)."""
    g, cohorts, cmp = result["general_methods"], result["cohorts"], result["comparison"]
    within = [c["included_within_180_days"] for c in cohorts]

    def versus(key: str) -> str:
        return f"{_pct(cmp['included'][key]['share'])} vs {_pct(cmp['rest'][key]['share'])}"

    ours = {
        "general_method_papers": str(g["papers"]),
        "included": f"{g['included']} ({_pct(g['share_included'])})",
        "cohort_sizes": f"{cohorts[0]['papers']} to {cohorts[-1]['papers']}" if cohorts else "n/a",
        "included_within_180_days_per_cohort": f"{min(within)} to {max(within)}" if within else "n/a",
        "policies_30b_plus": versus("policies_30b_plus"),
        "changes_existing_loss": versus("changes_existing_loss"),
        "not_included_without_thread": _pct(result["no_thread"]["share"]),
    }
    window = (result["window"]["from"], result["window"]["to"])
    same = window == tuple(d.isoformat() for d in STUDY_WINDOW)
    return {
        "same_window": same,
        "frameworks": len(result["window"]["frameworks"]),
        "measures": [{"measure": k, "ours": ours[k], "study": STUDY[k]} for k in STUDY],
    }


def _population(counts: dict[str, Any], papers: list[dict]) -> dict[str, Any]:
    """Who the measures speak of: the graph's papers, what they were screened on, how dated."""
    return {
        **{name: int(value or 0) for name, value in counts.items()},  # sums may come back as decimals
        "window_general_methods_dated_by_month": sum(1 for p in papers if p.get("date_precision") == "month"),
        "window_general_methods_screened_on_title": sum(1 for p in papers if _screened_without_abstract(p)),
    }


# What fills a section that came out empty, and the command that loads it.
EMPTY_NOTES = {
    "papers": (
        "No paper in the window is screened as a general method. Papers are screened as they load: "
        "`uptake build` screens the release's papers (curated lists, framework citations) on their "
        "titles alone; `uptake load lists --repo PATH` adds a fetched list, and `uptake load arxiv "
        "--ids ... | --snapshot FILE` screens on abstracts."
    ),
    "included": (
        "No general-method paper of the window proposes a method a chosen framework implements: "
        "inclusions need PROPOSES links (catalog methods, or methods found in abstracts by `uptake "
        "load arxiv`) and implementing commits (`uptake build`, then `uptake update` for new ones)."
    ),
    "threads": (
        "No issue or pull request is loaded from GitHub: the data release knows pull requests by their "
        "merge commits (titles, no replies or comments) and issues by number, so the reply measures "
        "are unknown. Load threads with `uptake load github --framework NAME` (set GITHUB_TOKEN for "
        "the rate limit)."
    ),
    "widely": (
        "No method is implemented in that many chosen frameworks; lower `--widely` or load more "
        "histories (`uptake update`)."
    ),
}


def empty_sections(result: dict[str, Any]) -> dict[str, str]:
    """A note for each section without data: what would fill it and which command loads it."""
    notes = {}
    if result["general_methods"]["papers"] == 0:
        notes["papers"] = EMPTY_NOTES["papers"]
    elif result["general_methods"]["included"] == 0:
        notes["included"] = EMPTY_NOTES["included"]
    if not result.get("population", {}).get("threads_from_github"):
        notes["threads"] = EMPTY_NOTES["threads"]
    if result["widely_included_methods"]["methods"] == 0:
        notes["widely"] = EMPTY_NOTES["widely"]
    return notes


def _median(values: list[int]) -> float | None:
    if not values:
        return None
    middle = len(values) // 2
    return float(values[middle]) if len(values) % 2 else (values[middle - 1] + values[middle]) / 2


# -- writing ----------------------------------------------------------------------


def _pct(share: float | None) -> str:
    return "n/a" if share is None else f"{share * 100:.1f}%"


def _trait_cell(trait: dict[str, Any]) -> str:
    return f"{trait['count']}/{trait['known']} ({_pct(trait['share'])})"


def _comparison_table(comparison: dict[str, Any]) -> list[str]:
    inc, rest = comparison["included"], comparison["rest"]
    lines = [
        f"Quarters compared: {', '.join(comparison['quarters']) or 'none'}",
        "",
        "| | included | the rest, same quarters |",
        "| --- | --- | --- |",
        f"| papers | {inc['papers']} | {rest['papers']} |",
    ]
    for key, label in (
        ("policies_30b_plus", "trains policies of 30B+ parameters"),
        ("changes_existing_loss", "changes a coefficient/clip/mask/weight of the existing loss"),
        ("releases_code", "releases code"),
    ):
        lines.append(f"| {label} | {_trait_cell(inc[key])} | {_trait_cell(rest[key])} |")
    return lines


MEASURE_WORDS = {
    "general_method_papers": "general-method papers",
    "included": "reached at least one framework",
    "cohort_sizes": "quarterly cohort sizes, first to last",
    "included_within_180_days_per_cohort": "included within 180 days, per cohort",
    "policies_30b_plus": "trains 30B+ policies, included vs rest",
    "changes_existing_loss": "changes the existing loss, included vs rest",
    "not_included_without_thread": "not included, with no issue or pull request naming them",
}


def _beside_study_lines(beside: dict[str, Any]) -> list[str]:
    window = (
        "the same window as the study"
        if beside["same_window"]
        else "a different window from the study's (run `uptake report --from 2025-01-01 --to 2026-06-30`)"
    )
    return [
        "## Beside the study",
        "",
        f"The 2026 study traced 7 frameworks over 6,939 screened arXiv papers (January 2025 to June "
        f"2026); this report covers {beside['frameworks']} frameworks over {window}, and papers "
        "screened as the population above says, so the figures differ in what they count.",
        "",
        "| measure | this graph | the study |",
        "| --- | --- | --- |",
        *(f"| {MEASURE_WORDS[m['measure']]} | {m['ours']} | {m['study']} |" for m in beside["measures"]),
    ]


def _population_lines(pop: dict[str, Any]) -> list[str]:
    if not pop.get("papers"):
        return ["The graph holds no papers: run `uptake build`.", ""]
    return [
        f"The graph holds {pop['papers']} papers, {pop.get('titled', 0)} with a title "
        f"({pop.get('from_lists', 0)} named by curated lists or the frameworks' documentation). "
        f"{pop.get('screened', 0)} are screened: {pop.get('screened_on_abstract', 0)} on title and "
        f"abstract, {pop.get('screened_on_title', 0)} on the title alone (less sure); "
        f"{pop.get('general_methods', 0)} propose a general method. {pop.get('dated_by_day', 0)} are dated "
        f"to the day (arXiv metadata), {pop.get('dated_by_month', 0)} only to the month of their arXiv id: "
        "their latencies count from the 1st of that month.",
        f"Threads: {pop.get('threads_from_github', 0)} issues and pull requests read from GitHub; "
        f"{pop.get('pulls_from_git', 0)} pull requests and {pop.get('issues_from_git', 0)} issues known only "
        "from commit messages (numbers, titles of merged pull requests; no comments).",
        "",
    ]


def render_markdown(result: dict[str, Any]) -> str:
    w, g = result["window"], result["general_methods"]
    pop = result.get("population", {})
    notes = empty_sections(result)

    def note(key: str) -> list[str]:
        return [f"> {notes[key]}", ""] if key in notes else []

    lines = [
        "# Uptake study report",
        "",
        f"Papers first published {w['from']} to {w['to']}; "
        f"frameworks: {', '.join(w['frameworks']) or 'none'}.",
        "",
        "## Population",
        "",
        *_population_lines(pop),
        "## General-method papers",
        "",
        f"{g['papers']} general-method papers; {g['included']} reached at least one framework "
        f"({_pct(g['share_included'])}). Of them, {pop.get('window_general_methods_screened_on_title', 0)} "
        f"were screened on their title alone and {pop.get('window_general_methods_dated_by_month', 0)} "
        "are dated by month.",
        "",
        *note("papers"),
        *note("included"),
        "## Quarterly cohorts",
        "",
        "| quarter | papers | included | included within 180 days |",
        "| --- | --- | --- | --- |",
    ]
    lines += [
        f"| {c['quarter']} | {c['papers']} | {c['included']} | {c['included_within_180_days']} |"
        for c in result["cohorts"]
    ]
    lat = result["latency_days"]
    lines += [
        "",
        f"Latency from first version to first implementing commit: median "
        f"{'n/a' if lat['median'] is None else lat['median']} days over "
        f"{lat['included_with_date']} included papers; {lat['within_180_days']} within 180 days.",
        "",
        "![cohorts](cohorts.svg) ![latency](latency.svg)",
        "",
        "## Included against the rest",
        "",
        *(
            [
                "> The traits below are read from abstracts: papers screened on their title alone count as "
                "unknown. Load abstracts with `uptake load arxiv --ids ...` (or `--snapshot FILE`).",
                "",
            ]
            if pop.get("window_general_methods_screened_on_title")
            else []
        ),
        *_comparison_table(result["comparison"]),
        "",
        "### Without papers from the frameworks' maintainers",
        "",
    ]
    without = result["comparison_without_maintainer_organizations"]
    lines += [
        f"Maintainer organizations: {', '.join(without['maintainer_organizations']) or 'none'}; "
        f"papers set aside: {len(without['papers_set_aside'])}.",
        "",
        *_comparison_table(without),
        "",
        "## Threads and proposals",
        "",
        *note("threads"),
    ]
    nt, pr, wi = result["no_thread"], result["proposals"], result["widely_included_methods"]
    lines += [
        f"* Not-included general methods with no citing or naming issue/PR: {nt['without_thread']} of "
        f"{nt['not_included']} ({_pct(nt['share'])}).",
        f"* Proposals (issues/PRs citing a window paper or naming its method) without a maintainer reply: "
        f"{pr['without_maintainer_reply']} of {pr['with_known_replies']} whose replies are loaded "
        f"({_pct(pr['share'])}); {pr['threads'] - pr['with_known_replies']} more are pull requests known "
        "only from their merge commits.",
        "",
        f"## Widely-included methods (in at least {w['widely_included_min_frameworks']} frameworks)",
        "",
        f"Model technical reports state {wi['stated_by_model_reports']} of {wi['methods']} "
        f"({_pct(wi['share'])}).",
        "",
        *note("widely"),
        "| method | frameworks | reports stating it |",
        "| --- | --- | --- |",
    ]
    lines += [f"| {m['method']} | {m['frameworks']} | {m['stating_reports']} |" for m in wi["list"]]
    lines += ["", *_beside_study_lines(result["beside_study"])]
    lines += [
        "",
        "## Definitions",
        "",
        __doc__.split("Definitions (they are printed in the report too):")[1].strip(),
    ]
    return "\n".join(lines) + "\n"


def write_charts(result: dict[str, Any], out: Path) -> list[Path]:
    import matplotlib

    matplotlib.use("Agg")  # files only, no display
    import matplotlib.pyplot as plt
    from matplotlib.ticker import MaxNLocator

    paths = []
    cohorts = result["cohorts"]
    fig, ax = plt.subplots(figsize=(8, 4))
    xs = range(len(cohorts))
    ax.bar([x - 0.27 for x in xs], [c["papers"] for c in cohorts], 0.27, label="general-method papers")
    ax.bar(list(xs), [c["included"] for c in cohorts], 0.27, label="included")
    ax.bar(
        [x + 0.27 for x in xs],
        [c["included_within_180_days"] for c in cohorts],
        0.27,
        label="within 180 days",
    )
    ax.set_xticks(list(xs), [c["quarter"] for c in cohorts], rotation=45)
    ax.set_ylabel("papers")
    ax.set_ylim(bottom=0)  # counts: an empty chart must not show negative ticks
    ax.yaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_title("Quarterly cohorts against inclusions")
    ax.legend()
    fig.tight_layout()
    paths += _save(fig, out / "cohorts")
    plt.close(fig)

    fig, ax = plt.subplots(figsize=(8, 4))
    values = result["latency_days"]["values"]
    ax.hist(values, bins=max(1, min(30, len(values))), color="tab:green")
    ax.axvline(WITHIN_DAYS, color="black", linestyle="--", label="180 days")
    ax.set_xlabel("days from the paper's first version to the first implementing commit")
    ax.set_ylabel("included papers")
    ax.set_ylim(bottom=0)
    ax.yaxis.set_major_locator(MaxNLocator(integer=True))
    if not values:
        ax.set_xlim(0, 2 * WITHIN_DAYS)
    ax.set_title("Latency distribution")
    ax.legend()
    fig.tight_layout()
    paths += _save(fig, out / "latency")
    plt.close(fig)
    return paths


def _save(fig, stem: Path) -> list[Path]:
    png, svg = stem.with_suffix(".png"), stem.with_suffix(".svg")
    fig.savefig(png, dpi=120, metadata={"Software": None})
    fig.savefig(svg, metadata={"Date": None, "Creator": None})  # reproducible files
    return [png, svg]


def write_report(result: dict[str, Any], out: Path) -> list[Path]:
    out.mkdir(parents=True, exist_ok=True)
    md, js = out / "report.md", out / "report.json"
    md.write_text(render_markdown(result))
    js.write_text(json.dumps(result, indent=2, sort_keys=True) + "\n")
    return [md, js, *write_charts(result, out)]
