"""Train the screening models (loaders/link/screening_model.py) on the development parts of our labels.

    python -m benchmarks.train_screening_model --input abstract --abstracts ABSTRACTS [--dry-run]
    python -m benchmarks.train_screening_model --input title [--dry-run]

Titles are read from ../shared/data/papers.jsonl and joined with our paper labels; the held-out
fifth of every set, and the blind set whole, are never read here.

* `title`: the first set's development part, titles alone; both targets (RL-for-LM, general).
* `abstract`: general method from title + abstract, on the fresh and fourth sets' development
  parts with the papers' own abstracts (ABSTRACTS: the JSON-lines files `eval_real_text
  --abstracts` reads; they stay outside the repository) and the first set's development part with
  our composed abstracts (tests/data/composed_abstracts.jsonl).

Regularisation strength and each decision threshold are chosen by 5-fold cross-validation inside
the training rows (folds by a hash of the id that is independent of the held-out split):

* RL-for-LM: the lowest threshold whose out-of-fold precision is at least RL_PRECISION_FLOOR
  (recall is what title-only screening lacks; precision is the constraint);
* general method: the threshold with the best out-of-fold F1 among those with precision at least
  GENERAL_PRECISION_FLOOR of the model. The abstract model only overrules the rules' yes, so its
  threshold is the one with the best out-of-fold F1 of that joint decision, over all rows.

Then each model is fitted on all training rows and written, with its thresholds and the
cross-validated scores, to loaders/data/. Plain numpy gradient descent on the L2-regularised
log-loss: the data are a few hundred papers.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from collections import Counter
from pathlib import Path

import numpy as np
from uptake.benchmarks import real_text as rt
from uptake.loaders.link import screening_model
from uptake.loaders.link.screening import rule_features, screen_by_rules

RL_PRECISION_FLOOR = 0.96
GENERAL_PRECISION_FLOOR = {"title": 0.88, "abstract": 0.0}  # the abstract model: best F1
L2_GRID = (3.0, 10.0, 30.0, 100.0)
FOLDS = 5
TARGETS = {
    "title": {"rl_llm": "is_rl_llm", "general": "is_general_method"},
    "abstract": {"general": "is_general_method"},
}


def _fold(arxiv_id: str) -> int:
    return int(hashlib.sha256(f"cv:{arxiv_id}".encode()).hexdigest(), 16) % FOLDS


def _features(rows: list[dict], kind: str) -> tuple[list[set[str]], np.ndarray]:
    """Each row's features, and whether the model's yes counts there: everywhere for the title
    model; for the abstract model only where the rules said "general method" (it can only overrule
    a yes; screening._with_abstract_model)."""
    features, allowed = [], []
    for r in rows:
        abstract = r.get("abstract", "")
        decision = screen_by_rules(r["title"], abstract, year=rt.paper_year(r["arxiv_id"]))
        rules = rule_features(decision)
        if kind == "title":
            features.append(screening_model.title_features(r["title"], rules))
        else:
            features.append(screening_model.abstract_features(r["title"], abstract, rules))
        allowed.append(kind == "title" or decision.is_general_method)
    return features, np.array(allowed)


def _vocabulary(feature_sets: list[set[str]], kind: str) -> list[str]:
    counts = Counter(f for fs in feature_sets for f in fs)
    least = screening_model.MIN_WORD_COUNT[kind]
    return sorted(f for f, n in counts.items() if not screening_model.is_word_feature(f) or n >= least)


def _matrix(feature_sets: list[set[str]], vocabulary: list[str]) -> np.ndarray:
    index = {f: i for i, f in enumerate(vocabulary)}
    x = np.zeros((len(feature_sets), len(vocabulary)))
    for row, fs in enumerate(feature_sets):
        for f in fs:
            if f in index:
                x[row, index[f]] = 1.0
    return x


def _fit(
    x: np.ndarray, y: np.ndarray, l2: float, steps: int = 1500, rate: float = 0.5
) -> tuple[np.ndarray, float]:
    w, b = np.zeros(x.shape[1]), 0.0
    for _ in range(steps):
        p = 1.0 / (1.0 + np.exp(-(x @ w + b)))
        grad = p - y
        w -= rate * (x.T @ grad / len(y) + l2 * w / len(y))
        b -= rate * grad.mean()
    return w, b


def _scores(p: np.ndarray, y: np.ndarray, threshold: float, allowed: np.ndarray) -> tuple[float, float]:
    precision, recall, *_ = rt.precision_recall(
        zip(((p >= threshold) & allowed).tolist(), y.astype(bool).tolist(), strict=True)
    )
    return precision, recall


def _threshold(
    p: np.ndarray, y: np.ndarray, target: str, kind: str, allowed: np.ndarray
) -> tuple[float, float, float]:
    """(threshold, precision, recall) of the decision on out-of-fold probabilities, by the rule of
    this target."""
    best = None
    for threshold in np.arange(0.20, 0.91, 0.01):
        precision, recall = _scores(p, y, threshold, allowed)
        if target == "rl_llm" and precision >= RL_PRECISION_FLOOR:
            key = recall
        elif target == "general" and precision >= GENERAL_PRECISION_FLOOR[kind]:
            key = 2 * precision * recall / ((precision + recall) or 1)
        else:
            continue
        if best is None or key > best[0]:
            best = (key, float(round(threshold, 2)), precision, recall)
    if best is None:
        return 0.9, *_scores(p, y, 0.9, allowed)
    return best[1:]


def _cross_validated(x: np.ndarray, y: np.ndarray, folds: np.ndarray, l2: float) -> np.ndarray:
    p = np.zeros(len(y))
    for k in range(FOLDS):
        w, b = _fit(x[folds != k], y[folds != k], l2)
        p[folds == k] = 1.0 / (1.0 + np.exp(-(x[folds == k] @ w + b)))
    return p


def training_rows(kind: str, abstracts: dict[str, str]) -> list[dict]:
    """The development rows a model learns from (see the module's docstring)."""
    if kind == "title":
        return _development(rt.labelled_papers(), {})
    composed = rt.composed_abstracts()
    return (
        _development(rt.fresh_papers(), abstracts)
        + _development(rt.fourth_papers(), abstracts)
        + _development(rt.labelled_papers(), composed)
    )


def _development(rows: list[dict], abstracts: dict[str, str]) -> list[dict]:
    """Development rows; given abstracts, only those that have one, with it."""
    rows = [r for r in rows if rt.part(r["arxiv_id"]) == "dev"]
    if not abstracts:
        return rows
    return [{**r, "abstract": abstracts[r["arxiv_id"]]} for r in rows if r["arxiv_id"] in abstracts]


def train(rows: list[dict], kind: str) -> dict:
    feature_sets, allowed = _features(rows, kind)
    vocabulary = _vocabulary(feature_sets, kind)
    x = _matrix(feature_sets, vocabulary)
    folds = np.array([_fold(r["arxiv_id"]) for r in rows])
    model: dict = {"weights": {}, "thresholds": {}, "cross_validation": {}, "trained_on": len(rows)}
    for target, label in TARGETS[kind].items():
        y = np.array([float(r[label]) for r in rows])
        trials = []
        for l2 in L2_GRID:
            p = _cross_validated(x, y, folds, l2)
            threshold, precision, recall = _threshold(p, y, target, kind, allowed)
            trials.append(
                (recall if target == "rl_llm" else precision + recall, l2, threshold, precision, recall)
            )
            print(f"  {target:<7} l2 {l2:<5} threshold {threshold:.2f}  CV P={precision:.3f} R={recall:.3f}")
        _, l2, threshold, precision, recall = max(trials)
        w, b = _fit(x, y, l2)
        weights = {f: round(float(v), 4) for f, v in zip(vocabulary, w, strict=True) if abs(v) >= 0.01}
        model["weights"][target] = {"bias": round(float(b), 4), **weights}
        model["thresholds"][target] = threshold
        model["cross_validation"][target] = {
            "l2": l2,
            "precision": round(precision, 3),
            "recall": round(recall, 3),
        }
    return model


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--input", choices=("title", "abstract"), default="abstract", help="which model")
    parser.add_argument("--abstracts", type=Path, help="the papers' own abstracts (for --input abstract)")
    parser.add_argument("--dry-run", action="store_true", help="train and print, write nothing")
    args = parser.parse_args()
    if not rt.available():
        sys.exit(f"real data not found in {rt.SHARED}")
    if args.input == "abstract" and not (args.abstracts and args.abstracts.exists()):
        sys.exit("--abstracts: give the file or folder of the papers' own abstracts (JSON lines)")
    abstracts = rt.real_abstracts(args.abstracts) if args.input == "abstract" else {}
    rows = training_rows(args.input, abstracts)
    model = train(rows, args.input)
    print(json.dumps(model["thresholds"]), json.dumps(model["cross_validation"]))
    if not args.dry_run:
        path = screening_model.MODEL_FILES[args.input]
        path.write_text(json.dumps(model, indent=0, sort_keys=True) + "\n", encoding="utf-8")
        print(f"wrote {path.relative_to(rt.REPO)} ({len(rows)} papers)")


if __name__ == "__main__":
    main()
