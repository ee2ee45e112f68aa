"""Accuracy on real text: failure reports, thread method naming, screening and method extraction.

    python -m benchmarks.eval_real_text [--show-dev-errors] [--before] [--mirrors DIR]

Reads titles from ../shared/data beside the repository (threads_dev.jsonl as labelled there;
papers.jsonl joined with our labels in tests/data/papers_labelled.jsonl) and reports precision
and recall separately on the development part and the held-out fifth (see benchmarks/real_text.py
for the split). Screening is scored on titles alone and, for the papers we composed abstracts for
(tests/data/composed_abstracts.jsonl), on title + abstract; method extraction on the labelled method
names (from the text alone, without the arXiv id) and on the new Method nodes the loader would
make. `--before` also scores the classifiers as they were at BASELINE_COMMIT (read with `git show`)
and times both on 20,000 titles in the same run. Errors are listed for the development part only:
held-out errors are not for designing rules.

With `--threads DUMP` (a GitHub dump, one folder per framework slug), failure reports are also
judged from whole threads: the shared set's threads and a blind set labelled from their whole text
(benchmarks/data/threads_whole.jsonl), against the title alone.

With `--abstracts ABSTRACTS` (the papers' own abstracts, gathered apart from the repository: see
benchmarks/data/README.md), screening and method extraction are also scored from title + abstract
on the fresh, blind, fourth and fifth paper sets, as the arXiv loader reads a paper. The fourth
and fifth sets were labelled from those abstracts; without them they are scored from titles only.

With `--mirrors DIR` (fetched framework repositories), methods named in pull-request titles are
scored too: squash-merge subjects labelled by hand (no title text: the subjects are read from
the repositories). The first set (benchmarks/data/pr_title_methods.jsonl, eight frameworks) is
development; the blind set (pr_title_methods_blind.jsonl, fifteen frameworks) is scored per
framework; the third set (pr_title_methods_third.jsonl, twenty frameworks) holds six out. Errors
are listed only for frameworks that were read when rules were designed, and the frameworks never
read are also pooled over all three sets.
"""

from __future__ import annotations

import argparse
import importlib.util
import inspect
import re
import subprocess
import sys
import time
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

from uptake.benchmarks import real_text as rt
from uptake.loaders.catalog import read_catalog
from uptake.loaders.link import failures, screening
from uptake.loaders.link.methods import MethodMatcher
from uptake.loaders.link.proposals import ProposalFinder
from uptake.loaders.link.threads import Thread, named_methods

BASELINE_COMMIT = "07cce97a8b8101254f9587a3688767b86af7a8df"
THROUGHPUT_TITLES = 20_000
# Label slugs the catalog spells differently: it files on-policy distillation ("opd") under GKD.
SLUG_SYNONYMS = {"opd": "gkd"}


def baseline_module(name: str, rev: str = BASELINE_COMMIT) -> ModuleType:
    """loaders/link/<name>.py as it was at `rev`, importable beside today's modules."""
    source = subprocess.run(
        ["git", "show", f"{rev}:loaders/link/{name}.py"],
        cwd=rt.REPO,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    spec = importlib.util.spec_from_loader(f"uptake.loaders.link._baseline_{name}_{rev[:7]}", loader=None)
    module = importlib.util.module_from_spec(spec)
    module.__package__ = "uptake.loaders.link"
    sys.modules[spec.name] = module
    exec(compile(source, f"{name}@{rev[:7]}", "exec"), module.__dict__)
    return module


def _line(label: str, pairs: list[tuple[bool, bool]]) -> str:
    precision, recall, tp, fp, fn = rt.precision_recall(pairs)
    return f"  {label:<48} P={precision:.3f} R={recall:.3f}  (tp {tp}, fp {fp}, fn {fn}, n {len(pairs)})"


def _method_pairs(found: set[str], truth: set[str]) -> list[tuple[bool, bool]]:
    """(predicted, true) pairs of one text's named methods: each found one, then each one missed."""
    return [(True, slug in truth) for slug in found] + [(False, True) for _ in truth - found]


def _by_part(rows: list[dict], key: Callable[[dict], str]) -> dict[str, list[dict]]:
    parts: dict[str, list[dict]] = {"dev": [], "heldout": []}
    for row in rows:
        parts[rt.part(key(row))].append(row)
    return parts


def failure_report(module: ModuleType, matcher: MethodMatcher, show_errors: bool) -> None:
    rows = rt.threads()
    predicted = {rt.thread_id(r): module.classify_failure(r["title"], "", matcher) is not None for r in rows}
    for part, part_rows in _by_part(rows, rt.thread_id).items():
        print(
            _line(f"failure reports, {part}", [(predicted[rt.thread_id(r)], r["failure"]) for r in part_rows])
        )
    per_framework = defaultdict(list)
    for r in _by_part(rows, rt.thread_id)["dev"]:
        per_framework[r["repo"]].append((predicted[rt.thread_id(r)], r["failure"]))
    # No rule names a framework, so each framework's rows are, in effect, left out of the design of
    # rules for the others; the development part only, so held-out errors stay unseen.
    print("  per framework, development part:")
    for repo, pairs in sorted(per_framework.items()):
        print("  " + _line(repo, pairs))
    if show_errors:
        for r in _by_part(rows, rt.thread_id)["dev"]:
            if predicted[rt.thread_id(r)] != r["failure"]:
                miss = "missed" if r["failure"] else "false alarm"
                print(f"    {miss:<11} {rt.thread_id(r)} [{r['symptom']}] {r['title']}")


def thread_methods_report(matcher: MethodMatcher, show_errors: bool) -> None:
    rows = rt.threads()
    for part, part_rows in _by_part(rows, rt.thread_id).items():
        pairs = []
        for r in part_rows:
            thread = Thread(r["repo"], r["number"], r["kind_on_github"] == "pull", r["title"], "", "open")
            found = set(named_methods(thread, matcher))
            truth = {SLUG_SYNONYMS.get(slug, slug) for slug in r["methods"]}
            pairs += _method_pairs(found, truth)
            if show_errors and part == "dev" and found != truth:
                print(
                    f"    methods {rt.thread_id(r)} found {sorted(found)} labelled {sorted(truth)}:",
                    r["title"],
                )
        print(_line(f"methods named in threads, {part}", pairs))


# Three label sets of squash-merge subjects (benchmarks/data/README.md), each with the frameworks
# whose errors were read when rules were designed (None: all of them). The first set was held out
# until the matcher's fifth round read its errors; the second was labelled blind after it and three
# of its frameworks read; the third has twenty frameworks new to the measure, of which six were held
# out before any label was made (the lowest sha256 of the repository name) and never read.
PR_TITLE_LABELS = {
    "first set": (rt.REPO / "benchmarks" / "data" / "pr_title_methods.jsonl", None),
    "blind set": (
        rt.REPO / "benchmarks" / "data" / "pr_title_methods_blind.jsonl",
        {"rllm-org/rllm", "modelscope/ms-swift", "allenai/open-instruct"},
    ),
    "third set": (
        rt.REPO / "benchmarks" / "data" / "pr_title_methods_third.jsonl",
        {
            "CarperAI/trlx",
            "OpenRLHF/OpenRLHF-M",
            "databricks/compose-rl",
            "huggingface/open-r1",
            "microsoft/agent-lightning",
            "unslothai/unsloth",
            "PKU-Alignment/align-anything",
            "linkedin/Liger-Kernel",
            "willccbb/verifiers",
            "NVIDIA/NeMo-Aligner",
            "alibaba/ChatLearn",
            "meta-pytorch/torchforge",
            "pytorch/rl",
            "thinking-machines-lab/tinker-cookbook",
        },
    ),
}
_PR_SUFFIX = re.compile(r"\s*\(#\d+\)\s*$")


def pr_title_methods_report(matcher: MethodMatcher, mirrors: Path, show_errors: bool = False) -> None:
    """Methods named in pull-request titles read from the repositories' squash-merge subjects;
    scored per sampling stratum (subjects with a catalog spelling in them, and the rest), and
    pooled over every framework whose errors no rule was designed on."""
    never_read: list = []
    for name, (path, read) in PR_TITLE_LABELS.items():
        if path.exists():
            never_read += _pr_title_set_report(name, path, read, matcher, mirrors, show_errors)
    print(_line("methods in PR titles, frameworks never read", never_read))


def _pr_title_set_report(
    name: str, path: Path, read: set[str] | None, matcher: MethodMatcher, mirrors: Path, show_errors: bool
) -> list:
    """Prints one set's scores, lists errors of the frameworks read, and returns the pairs of the rest."""
    from .eval_implementations import find_mirror, git

    rows = rt.read_jsonl(path)
    by_stratum: dict[str, list] = defaultdict(list)
    for r in rows:
        subject = git(find_mirror(mirrors, r["repo"]), "log", "-1", "--format=%s", r["sha"]).strip()
        thread = Thread(r["repo"], r["pr"], True, _PR_SUFFIX.sub("", subject), "", "merged")
        found, truth = set(named_methods(thread, matcher)), set(r["methods"])
        pairs = _method_pairs(found, truth)
        was_read = read is None or r["repo"] in read
        for part in (r["stratum"], "all", r["repo"], "read" if was_read else "never read"):
            by_stratum[part] += pairs
        if show_errors and found != truth and was_read:
            print(f"    {name}: found {sorted(found)} labelled {sorted(truth)}: {subject}")
    print(_line(f"methods in PR titles, {name}", by_stratum["all"]))
    print(_line("  sampled with a catalog spelling", by_stratum["named"]))
    # Subjects with no catalog spelling at sampling time: what is found there is mostly false alarms.
    other = by_stratum["other"]
    print(
        f"  sampled without one: {sum(p for p, _ in other)} found, {sum(p and not t for p, t in other)} false"
    )
    if read is not None:
        print(_line("  frameworks read when rules were designed", by_stratum["read"]))
        print(_line("  frameworks never read", by_stratum["never read"]))
    for repo in sorted({r["repo"] for r in rows}):
        print(_line(f"  {repo}", by_stratum[repo]))
    return by_stratum["never read"]


# Whole threads (title, opening post, comments), read from a GitHub dump with one folder per framework:
# the shared set's threads (labelled there from title and excerpt) and our two blind sets, labelled
# from the whole text (benchmarks/data/README.md); the second was sampled by queries about failures.
WHOLE_THREAD_BLIND_SETS = {
    "blind": rt.REPO / "benchmarks" / "data" / "threads_whole.jsonl",
    "blind 2": rt.REPO / "benchmarks" / "data" / "threads_whole2.jsonl",
}
# The method each failure of the shared set's threads affects, labelled by us from the whole text.
FAILURE_METHOD_LABELS = rt.REPO / "benchmarks" / "data" / "thread_failure_methods.jsonl"


def _dumped_threads(dump: Path, repos: set[str]) -> dict[str, Thread]:
    """The labelled repositories' threads in `dump/<framework slug>/`, by `repo#number`."""
    from uptake.loaders.github import build_threads, read_dump

    frameworks = {f.repo: slug for slug, f in read_catalog().frameworks.items()}
    found = {}
    for repo in sorted(repos):
        folder = dump / frameworks[repo]
        if not folder.is_dir():
            sys.exit(f"{folder}: no dump for {repo} (a folder of GitHub REST JSON per framework slug)")
        for thread in build_threads(frameworks[repo], read_dump(folder)):
            found[f"{repo}#{thread.number}"] = thread
    return found


def whole_thread_report(matcher: MethodMatcher, dump: Path, show_errors: bool = False) -> None:
    """Failure reports judged from the whole thread against the title alone, methods named in the
    title, and the method a failure report's AFFECTS edge names; by set and part and, for the
    development parts, by framework. Errors are listed for the development parts only."""
    affected = {rt.thread_id(r): r["failure_method"] for r in rt.read_jsonl(FAILURE_METHOD_LABELS)}
    shared = [
        r | {"failure_method": affected[rt.thread_id(r)]} if rt.thread_id(r) in affected else r
        for r in rt.threads()
    ]
    sets = {"shared": shared} | {name: rt.read_jsonl(path) for name, path in WHOLE_THREAD_BLIND_SETS.items()}
    threads = _dumped_threads(dump, {r["repo"] for rows in sets.values() for r in rows})
    for name, rows in sets.items():
        missing = [rt.thread_id(r) for r in rows if rt.thread_id(r) not in threads]
        print(f"  {name} set: {len(rows) - len(missing)} of {len(rows)} threads in the dump")
        scores = _whole_thread_scores(
            [(r, threads[rt.thread_id(r)]) for r in rows if rt.thread_id(r) in threads], matcher
        )
        for label in sorted(scores, key=lambda k: (k.startswith("  "), k)):
            print(_line(f"{name}, {label}", scores[label]))
        for r in rows if show_errors else ():
            thread = threads.get(rt.thread_id(r))
            verdict = thread and failures.classify_thread(thread, matcher)
            if thread and rt.part(rt.thread_id(r)) == "dev" and bool(verdict) != r["failure"]:
                why = verdict.rule + " " + repr(verdict.identifier) if verdict else f"missed [{r['symptom']}]"
                print(f"    {name} {rt.thread_id(r)}: {why}: {thread.title}")


def _whole_thread_scores(labelled: list[tuple[dict, Thread]], matcher: MethodMatcher) -> dict[str, list]:
    scores: dict[str, list] = defaultdict(list)
    for r, thread in labelled:
        part = rt.part(rt.thread_id(r))
        verdict = failures.classify_thread(thread, matcher)
        title_only = failures.classify_failure(thread.title, "", matcher) is not None
        scores[f"failure, whole thread, {part}"].append((verdict is not None, r["failure"]))
        scores[f"failure, title only, {part}"].append((title_only, r["failure"]))
        if not r["borderline"]:
            scores[f"failure, whole thread, sure, {part}"].append((verdict is not None, r["failure"]))
        if part == "dev":
            scores[f"  {r['repo']}"].append((verdict is not None, r["failure"]))
        title = Thread(thread.framework, thread.number, thread.is_pr, thread.title, "", "open")
        found = set(named_methods(title, matcher))
        truth = {SLUG_SYNONYMS.get(slug, slug) for slug in r["methods"]}
        scores[f"methods named in the title, {part}"] += _method_pairs(found, truth)
        truth_method = SLUG_SYNONYMS.get(r.get("failure_method"), r.get("failure_method"))
        if "failure_method" in r and r["failure"] and verdict is not None:
            named = verdict.method
            pairs = [(True, named == truth_method)] if named else []
            if truth_method and named != truth_method:
                pairs.append((False, True))
            scores[f"method a failure affects, {part}"] += pairs
    return scores


def whole_thread_speed(matcher: MethodMatcher, dump: Path, rev: str) -> None:
    """classify_thread on every dumped labelled thread, today's rules against those at `rev`;
    best of 5 rounds, the two alternating within a round."""
    rows = rt.threads() + [r for path in WHOLE_THREAD_BLIND_SETS.values() for r in rt.read_jsonl(path)]
    threads = list(_dumped_threads(dump, {r["repo"] for r in rows}).values())
    modules = {rev[:7]: baseline_module("failures", rev), "today": failures}
    best: dict[str, float] = {}
    for _ in range(5):
        for label, module in modules.items():
            start = time.process_time()
            for thread in threads:
                module.classify_thread(thread, matcher)
            best[label] = min(best.get(label, float("inf")), time.process_time() - start)
    print(f"  whole-thread classification of {len(threads)} threads (best of 5, CPU ms a thread):")
    for label, seconds in best.items():
        print(f"    {label:<8} {seconds / len(threads) * 1000:.3f}  ({seconds / best[rev[:7]]:.2f}x)")


def _screening_parts() -> dict[str, list[dict]]:
    parts = _by_part(rt.labelled_papers(), lambda r: r["arxiv_id"])
    if rt.FRESH_PAPER_LABELS.exists():
        fresh = rt.fresh_papers()
        # "sure": the labeller knew the paper, rather than judging its title.
        # Its first four fifths may inform rules (from the linker's fourth round on); the last never.
        parts |= {
            "fresh": fresh,
            "fresh, sure": [r for r in fresh if r["sure"]],
            "fresh, dev": [r for r in fresh if rt.part(r["arxiv_id"]) == "dev"],
            "fresh, held out": [r for r in fresh if rt.part(r["arxiv_id"]) == "heldout"],
        }
    if rt.BLIND_PAPER_LABELS.exists():
        blind = rt.blind_papers()
        parts |= {"blind": blind, "blind, sure": [r for r in blind if r["sure"]]}
    if rt.FOURTH_PAPER_LABELS.exists():
        fourth = rt.fourth_papers()
        parts |= {
            "fourth, dev": [r for r in fourth if rt.part(r["arxiv_id"]) == "dev"],
            "fourth, held out": [r for r in fourth if rt.part(r["arxiv_id"]) == "heldout"],
        }
    if rt.FIFTH_PAPER_LABELS.exists():
        parts["fifth"] = rt.fifth_papers()
    return parts


def _screening_lines(label: str, decisions: list[tuple], general: str = "general") -> None:
    """RL-for-LM and general-method scores of (decision, labelled row) pairs; `label` has a `{what}`."""
    print(_line(label.format(what="RL-for-LM"), [(s.is_rl_llm, r["is_rl_llm"]) for s, r in decisions]))
    verdicts = [(s.is_general_method, r["is_general_method"]) for s, r in decisions]
    print(_line(label.format(what=general), verdicts))


def _screening_errors(
    decisions: list[tuple], prefix: str = "", scored: bool = True, headings: bool = False
) -> None:
    """The (decision, labelled row) pairs whose RL-for-LM or general-method verdict is not the label's."""
    for s, r in decisions:
        if (s.is_rl_llm, s.is_general_method) != (r["is_rl_llm"], r["is_general_method"]):
            score = f" {s.kind} {s.method_score:.1f}" if scored else ""
            filed = f" | {'; '.join(r['headings'])}" if headings else ""
            print(
                f"    {prefix}rl {int(s.is_rl_llm)}/{int(r['is_rl_llm'])} general "
                f"{int(s.is_general_method)}/{int(r['is_general_method'])}{score} {r['arxiv_id']} "
                f"{r['title']}{filed}"
            )


def screening_report(module: ModuleType, show_errors: bool) -> None:
    """Title-only screening, and title + list headings where the module reads headings."""
    parameters = inspect.signature(module.screen_paper).parameters
    # Older rules read neither headings nor the paper's year.
    dated = (lambda r: {"year": rt.paper_year(r["arxiv_id"])}) if "year" in parameters else (lambda r: {})
    inputs = {"title only": lambda r: module.screen_paper(r["title"], **dated(r))}
    if "headings" in parameters:
        inputs["title+headings"] = lambda r: module.screen_paper(
            r["title"], headings=r["headings"], **dated(r)
        )
    parts = _screening_parts()
    for name, screen in inputs.items():
        for part, part_rows in parts.items():
            decisions = [(screen(r), r) for r in part_rows]
            _screening_lines(f"{name}, {{what}}, {part}", decisions, general="general method")
            if show_errors and part == "dev":
                _screening_errors(decisions, scored=False, headings=True)


def extraction_report(finder: ProposalFinder, show_errors: bool) -> None:
    """Method extraction: (a) of the papers labelled with a proposed method, how many yield it from
    their text alone (no arXiv id, so not from the catalog's id table), from the title and, where we
    composed one, from title + abstract; (b) of the new Method nodes the loader would create (id
    table in use, `proposals.creates_method` applied), how many are the paper's labelled training
    method (or, for a general-method paper labelled without a name, any name)."""
    abstracts = rt.composed_abstracts()
    for part, part_rows in _screening_parts().items():
        errors: list = []
        c = rt.extraction_counts(part_rows, finder, abstracts, errors)
        if show_errors and part == "dev":
            for what, r, names in errors:
                print(f"    {what} {r['method_name']!r} found {names}: {r['title']}")
        for label, right, total in (
            ("right method from the title", c["from_text"], c["labelled"]),
            ("with our abstracts", c["with_abstract_right"], c["with_abstract"]),
            ("new Method nodes that are training methods", c["right"], c["nodes"]),
        ):
            print(f"  extraction, {part:<11} {label:<44} {right}/{total} = {right / (total or 1):.3f}")


def abstract_screening_report(module: ModuleType, show_errors: bool) -> None:
    """Screening with title + abstract, on the labelled papers we composed abstracts for."""
    abstracts = rt.composed_abstracts()
    rows = [r for r in rt.labelled_papers() if r["arxiv_id"] in abstracts]
    for part, part_rows in _by_part(rows, lambda r: r["arxiv_id"]).items():
        decisions = [(module.screen_paper(r["title"], abstracts[r["arxiv_id"]]), r) for r in part_rows]
        _screening_lines(f"title+abstract {{what}}, {part}", decisions)
        if show_errors and part == "dev":
            _screening_errors(decisions, prefix="with abstract: ")


def real_abstract_report(
    module: ModuleType, finder: ProposalFinder, abstracts: dict, show_errors: bool
) -> None:
    """Screening and method extraction from title + the paper's own abstract, as the arXiv loader
    reads a paper (no list headings), on the labelled papers whose abstract was found. Errors are
    listed for the development parts of the fresh and fourth sets only."""
    for part, part_rows in _screening_parts().items():
        rows = [r for r in part_rows if r["arxiv_id"] in abstracts]
        if not rows:
            continue
        decisions = [
            (module.screen_paper(r["title"], abstracts[r["arxiv_id"]], year=rt.paper_year(r["arxiv_id"])), r)
            for r in rows
        ]
        print(f"  {part}: {len(rows)} of {len(part_rows)} papers have their abstract")
        _screening_lines(f"title+abstract {{what}}, {part}", decisions)
        if hasattr(module, "screen_by_rules"):  # the rules before the abstract model's second reading
            verdicts = [
                (
                    module.screen_by_rules(r["title"], abstracts[r["arxiv_id"]]).is_general_method,
                    r["is_general_method"],
                )
                for r in rows
            ]
            print(_line(f"  rules alone, general, {part}", verdicts))
        errors: list = []
        c = rt.extraction_counts(rows, finder, abstracts, errors, nodes_read_abstracts=True)
        for label, right, total in (
            ("right method from title + abstract", c["with_abstract_right"], c["with_abstract"]),
            ("  of general-method papers", c["general_with_abstract_right"], c["general_with_abstract"]),
            ("new Method nodes that are training methods", c["right"], c["nodes"]),
        ):
            print(f"    extraction: {label:<44} {right}/{total} = {right / (total or 1):.3f}")
        if show_errors and part in ("fresh, dev", "fourth, dev"):
            _screening_errors(decisions)
            for what, r, names in errors:
                if what != "missed":  # from the title alone: the title-only report lists those
                    print(f"    {what} {r['method_name']!r} found {names}: {r['title']}")


def _titles(count: int) -> list[str]:
    pool = [r["title"] for r in rt.threads()] + [
        p["title"] for p in rt.read_jsonl(rt.SHARED / "papers.jsonl")
    ]
    return [pool[i % len(pool)] for i in range(count)]


def _seconds(run: Callable[[str], object], titles: list[str]) -> float:
    start = time.process_time()  # CPU time of this process: less swayed by other jobs on the machine
    for title in titles:
        run(title)
    return time.process_time() - start


def throughput(modules: dict[str, tuple[ModuleType, ModuleType]], matcher: MethodMatcher) -> None:
    """Best of 7 rounds; versions alternate within a round so machine load hits both alike."""
    titles = _titles(THROUGHPUT_TITLES)
    best: dict[tuple[str, str], float] = {}
    for _ in range(7):
        for label, (fail_module, screen_module) in modules.items():
            timed = {
                "failure": _seconds(lambda t, m=fail_module: m.classify_failure(t, "", matcher), titles),
                "screening": _seconds(screen_module.screen_paper, titles),
            }
            for task, seconds in timed.items():
                best[label, task] = min(best.get((label, task), seconds), seconds)
    print(f"throughput on {len(titles)} titles (best of 7 interleaved rounds, CPU seconds):")
    for label in modules:
        print(f"  {label:<7} failure {best[label, 'failure']:.2f}  screening {best[label, 'screening']:.2f}")


def headings_cost() -> None:
    """Screening of the shipped papers on their titles alone and with their list headings."""
    papers = rt.read_jsonl(rt.SHARED / "papers.jsonl") * 5
    runs = {
        "title only": lambda p: screening.screen_by_rules(p["title"]),
        "title+headings": lambda p: screening.screen_by_rules(p["title"], "", p.get("source_tags") or ()),
    }
    best = dict.fromkeys(runs, float("inf"))
    for _ in range(5):
        for label, run in runs.items():
            best[label] = min(best[label], _seconds(run, papers))
    print(f"screening {len(papers)} paper titles (best of 5 interleaved rounds, CPU seconds):")
    for label, seconds in best.items():
        print(f"  {label:<15} {seconds:.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--show-dev-errors", action="store_true")
    parser.add_argument("--mirrors", type=Path, help="fetched repositories: also score pull-request titles")
    parser.add_argument(
        "--threads", type=Path, help="a GitHub dump, one folder per framework: also score whole threads"
    )
    parser.add_argument(
        "--threads-baseline", metavar="REV", help="with --threads: time against the rules at REV"
    )
    parser.add_argument(
        "--abstracts",
        type=Path,
        help="the labelled papers' own abstracts (JSON lines or a folder of them): score title + abstract",
    )
    parser.add_argument(
        "--before", action="store_true", help=f"also score {BASELINE_COMMIT[:7]} and time both"
    )
    args = parser.parse_args()
    if not rt.available():
        sys.exit(f"real data not found in {rt.SHARED}")
    matcher = MethodMatcher(read_catalog().methods.values())
    versions = {"after": (failures, screening)}
    if args.before:
        versions = {"before": (baseline_module("failures"), baseline_module("screening")), **versions}
    for label, (fail_module, screen_module) in versions.items():
        print(f"== {label}")
        failure_report(fail_module, matcher, args.show_dev_errors and label == "after")
        screening_report(screen_module, args.show_dev_errors and label == "after")
        abstract_screening_report(screen_module, args.show_dev_errors and label == "after")
    print("== method extraction (title only; and title + composed abstract where we wrote one)")
    finder = ProposalFinder(read_catalog().methods.values())
    extraction_report(finder, args.show_dev_errors)
    if args.abstracts:
        print("== screening and method extraction from title + the paper's own abstract")
        real_abstract_report(screening, finder, rt.real_abstracts(args.abstracts), args.show_dev_errors)
    print("== methods named in thread titles (catalog matcher)")
    thread_methods_report(matcher, args.show_dev_errors)
    if args.threads:
        print("== whole threads (title, opening post, comments) from a GitHub dump")
        whole_thread_report(matcher, args.threads, args.show_dev_errors)
        if args.threads_baseline:
            whole_thread_speed(matcher, args.threads, args.threads_baseline)
    if args.mirrors:
        print("== methods named in pull-request titles (squash-merge subjects)")
        pr_title_methods_report(matcher, args.mirrors, args.show_dev_errors)
    if args.before:
        throughput(versions, matcher)
        headings_cost()


if __name__ == "__main__":
    main()
