"""Accuracy of failure reports stated by fix commits, against hand labels on real histories.

    python -m benchmarks.eval_commit_failures --mirrors DIR [--show-dev-errors]
    python -m benchmarks.eval_commit_failures --mirrors DIR --sample K   # candidates to label

DIR holds fetched framework repositories (found as `loaders.release.find_repository` finds them).
The labels (`benchmarks/data/commit_failures.jsonl`) hold facts only: framework, sha, whether the
commit fixes a failure a user's run hit, its symptom kind and a short reason. Commit messages are
read from the repositories at run time, and each labelled commit goes through the product's rule
(`loaders.link.history.stated_failure`) with the catalog's method matcher, as the data release
does.

Scores, per framework and overall, development and held-out frameworks apart:
* precision and recall of "this commit states a failure" (the rule returns a verdict);
* symptom accuracy: of the true positives with a labelled symptom, how many get that main symptom;
* the same precision and recall weighted back to the history (`wP`, `wR`): each labelled commit
  stands for its stratum's commits (stratum size / labelled in it, per framework). The sample
  holds as many flagged commits as fix-word ones, but the history holds ten to thirty times more
  of the latter, so the unweighted recall says how the rule does on the sample, the weighted one
  how it does on the history. Commits with neither a fix word nor a flag by the rule as it was
  are outside the sample and outside both measures.

Held-out frameworks (`HELD_OUT`) were chosen before any score was seen; no rule is designed on
them, and `--show-dev-errors` never prints their errors.

`--sample K` prints, per framework, up to K commits the rule flags and K commits whose subject
has a fix word that the rule does not flag, not yet labelled, in the order of sha256(sha): the
deterministic sample the labels were drawn from (printed, never stored).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

from uptake.loaders.catalog import read_catalog
from uptake.loaders.link.history import HistoryCommit, stated_failure
from uptake.loaders.link.methods import MethodMatcher
from uptake.loaders.release import find_repository

REPO = Path(__file__).resolve().parent.parent
LABELS = REPO / "benchmarks" / "data" / "commit_failures.jsonl"
# How many commits each sampled stratum held at the labelled heads (flagged by the rule as it was
# when the sample was drawn; or a fix word in the subject and not flagged).
STRATA = REPO / "benchmarks" / "data" / "commit_failures_strata.json"
FRAMEWORKS = {
    "trl": "huggingface/trl",
    "verl": "volcengine/verl",
    "openrlhf": "OpenRLHF/OpenRLHF",
    "nemo-rl": "NVIDIA-NeMo/RL",
    "axolotl": "axolotl-ai-cloud/axolotl",
    "art": "OpenPipe/ART",
    "ms-swift": "modelscope/ms-swift",
    "rllm": "rllm-org/rllm",
}
HELD_OUT = frozenset({"ms-swift", "rllm"})
FIX_WORD = re.compile(
    r"\b(?:fix(?:es|ed|ing)?|bug-?fix\w*|hot-?fix\w*|resolve[sd]?|patch(?:es|ed)?)\b|修复", re.IGNORECASE
)


def history(git_dir: Path) -> Iterator[HistoryCommit]:
    """Every commit reachable from HEAD with its whole message."""
    out = subprocess.run(
        ["git", "--git-dir", str(git_dir), "log", "HEAD", "--format=%H%x1f%cI%x1f%B%x1e"],
        capture_output=True, text=True, check=True,
    ).stdout  # fmt: skip
    for entry in out.split("\x1e"):
        sha, sep, rest = entry.strip("\n").partition("\x1f")
        commit_date, sep2, message = rest.partition("\x1f")
        if sep and sep2:
            yield HistoryCommit(sha, commit_date, message)


def read_labels(path: Path = LABELS) -> list[dict]:
    rows = []
    for number, line in enumerate(path.read_text().splitlines(), 1):
        if not line.strip():
            continue
        row = json.loads(line)
        for field in ("framework", "sha", "stratum", "failure", "symptom", "reason"):
            if field not in row:
                sys.exit(f"{path}:{number}: missing field {field!r}")
        rows.append(row)
    return rows


def _order(sha: str) -> str:
    return hashlib.sha256(sha.encode()).hexdigest()


def sample(mirrors: Path, per_side: int, matcher: MethodMatcher) -> None:
    labelled = {r["sha"] for r in read_labels()} if LABELS.exists() else set()
    for framework, repo in FRAMEWORKS.items():
        commits = sorted(history(find_repository(mirrors, repo)), key=lambda c: _order(c.sha))
        flagged, unflagged = [], []
        for c in commits:
            if c.sha in labelled:
                continue
            verdict = stated_failure(c, matcher)
            if verdict is not None:
                flagged.append((c, verdict.symptom))
            elif FIX_WORD.search(c.subject):
                unflagged.append((c, None))
        for group, chosen in (("a", flagged[:per_side]), ("b", unflagged[:per_side])):
            for c, symptom in chosen:
                print(f"{framework}\t{group}\t{c.sha}\t{symptom}\t{c.subject}")


def _ratio(n: int, d: int) -> str:
    return f"{n / d:.3f}" if d else "  -  "


def stratum_weights(rows: list[dict]) -> dict[tuple[str, str], float]:
    """(framework, stratum) -> how many history commits one labelled commit stands for."""
    sizes = json.loads(STRATA.read_text())
    labelled: dict[tuple[str, str], int] = {}
    for r in rows:
        labelled[r["framework"], r["stratum"]] = labelled.get((r["framework"], r["stratum"]), 0) + 1
    return {key: sizes[key[0]][key[1]] / n for key, n in labelled.items()}


def _score(rows: list[dict], predicted: dict[str, str | None], weights: dict) -> dict[str, float]:
    s = dict.fromkeys(("tp", "fp", "fn", "tn", "sym", "sym_of", "wtp", "wfp", "wfn"), 0.0)
    for r in rows:
        found = predicted[r["sha"]] is not None
        outcome = ("tp" if r["failure"] else "fp") if found else ("fn" if r["failure"] else "tn")
        s[outcome] += 1
        if outcome != "tn":
            s["w" + outcome] += weights[r["framework"], r["stratum"]]
        if outcome == "tp" and r["symptom"]:
            s["sym_of"] += 1
            s["sym"] += predicted[r["sha"]] == r["symptom"]
    return s


def _line(name: str, s: dict[str, float]) -> str:
    precision = _ratio(s["tp"], s["tp"] + s["fp"])
    recall = _ratio(s["tp"], s["tp"] + s["fn"])
    weighted = f"wP {_ratio(s['wtp'], s['wtp'] + s['wfp'])}  wR {_ratio(s['wtp'], s['wtp'] + s['wfn'])}"
    counts = " ".join(f"{k} {int(s[k])}" for k in ("tp", "fp", "fn", "tn"))
    symptom = f"symptom {_ratio(s['sym'], s['sym_of'])} ({int(s['sym'])}/{int(s['sym_of'])})"
    return f"{name:<14} P {precision}  R {recall}  {weighted}  {symptom}  {counts}"


def evaluate(mirrors: Path, matcher: MethodMatcher, show_dev_errors: bool) -> None:
    rows = read_labels()
    predicted: dict[str, str | None] = {}
    subjects: dict[str, str] = {}
    for framework in sorted({r["framework"] for r in rows}):
        wanted = {r["sha"] for r in rows if r["framework"] == framework}
        for c in history(find_repository(mirrors, FRAMEWORKS[framework])):
            if c.sha in wanted:
                verdict = stated_failure(c, matcher)
                predicted[c.sha] = verdict.symptom if verdict else None
                subjects[c.sha] = c.subject
        missing = wanted - predicted.keys()
        if missing:
            sys.exit(
                f"{framework}: {len(missing)} labelled commits not in the repository, e.g. {min(missing)}"
            )
    weights = stratum_weights(rows)
    for part, frameworks in (("development", set(FRAMEWORKS) - HELD_OUT), ("held out", HELD_OUT)):
        part_rows = [r for r in rows if r["framework"] in frameworks]
        print(_line(part, _score(part_rows, predicted, weights)))
        for framework in sorted(frameworks):
            framework_rows = [r for r in part_rows if r["framework"] == framework]
            print("  " + _line(framework, _score(framework_rows, predicted, weights)))
    print(_line("all", _score(rows, predicted, weights)))
    if show_dev_errors:
        for r in rows:
            if r["framework"] in HELD_OUT:
                continue
            found = predicted[r["sha"]]
            if (found is not None) != r["failure"]:
                what = "missed" if r["failure"] else "false alarm"
            elif found is not None and r["failure"] and r["symptom"] and found != r["symptom"]:
                what = f"symptom {found}"
            else:
                continue
            print(f"  {what:<24} [{r['symptom']}] {r['framework']} {r['sha'][:9]} {subjects[r['sha']]}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--mirrors", type=Path, required=True, help="folder of fetched repositories")
    parser.add_argument("--sample", type=int, metavar="K", help="print K candidates per side per framework")
    parser.add_argument("--show-dev-errors", action="store_true", help="print development-part errors")
    args = parser.parse_args()
    matcher = MethodMatcher(read_catalog().methods.values())
    if args.sample:
        sample(args.mirrors, args.sample, matcher)
    else:
        evaluate(args.mirrors, matcher, args.show_dev_errors)


if __name__ == "__main__":
    main()
