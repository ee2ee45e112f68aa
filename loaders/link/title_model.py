"""A small logistic model over a title's screening cues, for decisions from a title alone.

The rules in screening.py read what a title says; on titles alone they still miss many papers
(a model report or a reasoning-model paper rarely names its RL). This model weighs the same
evidence and a few hundred title words, learnt from our own labels of real titles (the
development part only; `python -m benchmarks.train_title_model` writes `loaders/data/title_model.json`).

Features, each 0 or 1, so that every weight reads as "this cue moves the log-odds by w":

* `rule:<name>`: a screening rule fired on the title (screening.py's rule table);
* `name:<kind>`: what the name before the title's colon is (title_cues.title_name_kind);
* `word:<w>`: a lower-case title word seen in at least `MIN_WORD_COUNT` training titles;
* `shape:<s>`: word shapes: a `-PO` or `-RL` name, an `X-R1`/`-Zero`-style model name, a colon.

It is used only for title-only input: its weights carry the priors of a corpus of RL-for-LM
papers, which a general arXiv feed (where abstracts are present and the rules decide) does not
share. Each decision keeps the features that moved it most.
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from .title_cues import title_name_kind

MODEL_FILE = Path(__file__).resolve().parent.parent / "data" / "title_model.json"
MIN_WORD_COUNT = 3
_WORD = re.compile(r"[a-z][a-z0-9]+")
_SHAPES = {
    "po-name": re.compile(r"[A-Z][\w$^{}-]*PO\b"),
    "rl-name": re.compile(r"[A-Za-z0-9][\w-]*RL\b|\bRL[A-Z]\w*"),
    "model-name": re.compile(r"-(?:R1|Zero|o1|[A-Z]\d+(?:\.\d+)?|[Vv]\d[\w.]*)\b|\b\d+(?:\.\d+)?[BM]\b"),
    "colon": re.compile(r":"),
    "question": re.compile(r"\?|^(?:Does|Do|Is|Are|Can|Why|How|What|When)\b"),
}


def title_features(title: str, rule_names: set[str]) -> set[str]:
    """The binary features of a title, given the names of the screening rules that fired on it."""
    features = {f"rule:{name}" for name in rule_names}
    if named := title_name_kind(title):
        features.add(f"name:{named[0]}")
    features |= {f"word:{w}" for w in _WORD.findall(title.lower())}
    features |= {f"shape:{shape}" for shape, pattern in _SHAPES.items() if pattern.search(title)}
    return features


@dataclass(frozen=True)
class TitleModel:
    """Two logistic models (RL-for-LM, general method) over the same features, with thresholds."""

    weights: dict[str, dict[str, float]]  # target -> feature -> weight ("bias" included)
    thresholds: dict[str, float]  # target -> probability at or above which the answer is yes

    def probability(self, target: str, features: set[str]) -> float:
        w = self.weights[target]
        z = w.get("bias", 0.0) + sum(w.get(f, 0.0) for f in features)
        return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))

    def strongest(self, target: str, features: set[str], count: int = 4) -> list[tuple[str, float]]:
        """The features that moved this decision most, with their weights."""
        w = self.weights[target]
        moved = sorted(((f, w[f]) for f in features if f in w), key=lambda fw: -abs(fw[1]))
        return [(f, round(v, 2)) for f, v in moved[:count]]


@lru_cache(maxsize=1)
def load_title_model(path: Path = MODEL_FILE) -> TitleModel | None:
    """The shipped model, or None when the file is absent (the rules alone then decide)."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return None
    return TitleModel(data["weights"], data["thresholds"])
