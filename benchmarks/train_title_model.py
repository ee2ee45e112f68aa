"""Train the title model (loaders/link/title_model.py) on the development part of our paper labels.

    python -m benchmarks.train_title_model [--dry-run]

Titles are read from ../shared/data/papers.jsonl and joined with tests/data/papers_labelled.jsonl;
the held-out fifth is never read here. Regularisation strength and each decision threshold are
chosen by 5-fold cross-validation inside the development part (folds by a hash of the id that is
independent of the held-out split):

* RL-for-LM: the lowest threshold whose out-of-fold precision is at least RL_PRECISION_FLOOR
  (recall is what title-only screening lacks; precision is the constraint);
* general method: the threshold with the best out-of-fold F1 among those with precision at least
  GENERAL_PRECISION_FLOOR.

Then both models are fitted on the whole development part and written, with their thresholds and
the cross-validated scores, to loaders/data/title_model.json. Plain numpy gradient descent on the
L2-regularised log-loss: the data are a few hundred titles.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from collections import Counter

import numpy as np
from uptake.benchmarks import real_text as rt
from uptake.loaders.link import title_model
from uptake.loaders.link.screening import rule_features, screen_by_rules

RL_PRECISION_FLOOR = 0.96
GENERAL_PRECISION_FLOOR = 0.88
L2_GRID = (3.0, 10.0, 30.0, 100.0)
FOLDS = 5
TARGETS = {"rl_llm": "is_rl_llm", "general": "is_general_method"}


def _fold(arxiv_id: str) -> int:
    return int(hashlib.sha256(f"cv:{arxiv_id}".encode()).hexdigest(), 16) % FOLDS


def _features(rows: list[dict]) -> list[set[str]]:
    return [
        title_model.title_features(
            r["title"], rule_features(screen_by_rules(r["title"], year=rt.paper_year(r["arxiv_id"])))
        )
        for r in rows
    ]


def _vocabulary(feature_sets: list[set[str]]) -> list[str]:
    counts = Counter(f for fs in feature_sets for f in fs)
    return sorted(
        f for f, n in counts.items() if not f.startswith("word:") or n >= title_model.MIN_WORD_COUNT
    )


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


def _scores(p: np.ndarray, y: np.ndarray, threshold: float) -> tuple[float, float]:
    precision, recall, *_ = rt.precision_recall(
        zip((p >= threshold).tolist(), y.astype(bool).tolist(), strict=True)
    )
    return precision, recall


def _threshold(p: np.ndarray, y: np.ndarray, target: str) -> tuple[float, float, float]:
    """(threshold, precision, recall) on out-of-fold probabilities, by the rule of this target."""
    best = None
    for threshold in np.arange(0.20, 0.91, 0.01):
        precision, recall = _scores(p, y, threshold)
        if target == "rl_llm" and precision >= RL_PRECISION_FLOOR:
            key = recall
        elif target == "general" and precision >= GENERAL_PRECISION_FLOOR:
            key = 2 * precision * recall / ((precision + recall) or 1)
        else:
            continue
        if best is None or key > best[0]:
            best = (key, float(round(threshold, 2)), precision, recall)
    if best is None:
        return 0.9, *_scores(p, y, 0.9)
    return best[1:]


def _cross_validated(x: np.ndarray, y: np.ndarray, folds: np.ndarray, l2: float) -> np.ndarray:
    p = np.zeros(len(y))
    for k in range(FOLDS):
        w, b = _fit(x[folds != k], y[folds != k], l2)
        p[folds == k] = 1.0 / (1.0 + np.exp(-(x[folds == k] @ w + b)))
    return p


def train(rows: list[dict]) -> dict:
    feature_sets = _features(rows)
    vocabulary = _vocabulary(feature_sets)
    x = _matrix(feature_sets, vocabulary)
    folds = np.array([_fold(r["arxiv_id"]) for r in rows])
    model: dict = {"weights": {}, "thresholds": {}, "cross_validation": {}, "trained_on": len(rows)}
    for target, label in TARGETS.items():
        y = np.array([float(r[label]) for r in rows])
        trials = []
        for l2 in L2_GRID:
            p = _cross_validated(x, y, folds, l2)
            threshold, precision, recall = _threshold(p, y, target)
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
    parser.add_argument("--dry-run", action="store_true", help="train and print, write nothing")
    args = parser.parse_args()
    if not rt.available():
        sys.exit(f"real data not found in {rt.SHARED}")
    rows = [r for r in rt.labelled_papers() if rt.part(r["arxiv_id"]) == "dev"]
    model = train(rows)
    print(json.dumps(model["thresholds"]), json.dumps(model["cross_validation"]))
    if not args.dry_run:
        title_model.MODEL_FILE.write_text(
            json.dumps(model, indent=0, sort_keys=True) + "\n", encoding="utf-8"
        )
        print(f"wrote {title_model.MODEL_FILE.relative_to(rt.REPO)}")


if __name__ == "__main__":
    main()
