"""Small logistic models over a paper's screening cues, learnt from our own labels of real papers.

The rules in screening.py read what a title and an abstract say. Two models weigh the same
evidence with the words around it (`python -m benchmarks.train_screening_model` fits them on the
development parts of our labels and writes the files below):

* the **title model** (`title_model.json`), for a title alone: RL-for-LM and general method. Not
  shipped: it did not beat the rules on titles (BENCHMARKS.md);
* the **abstract model** (`abstract_model.json`), for a title with an abstract: general method only
  (the rules' RL-for-LM decision holds up on real abstracts). Trained on real abstracts and on our
  composed ones together, so that it reads a two-sentence abstract as well as a full one.

Features, each 0 or 1, so that every weight reads as "this cue moves the log-odds by w":

* `rule:<name>`: a screening rule fired (screening.py's rule table), on any field;
  `rule:decided-rl-llm`, `rule:decided-general`: what the rules decided;
* `name:<kind>`: what the name before the title's colon is (title_cues.title_name_kind);
* `word:<w>`: a lower-case title word; `abstract:<w>`: a lower-case abstract word; each kept only
  when at least `MIN_WORD_COUNT` training papers have it;
* `shape:<s>`: word shapes: a `-PO` or `-RL` name, an `X-R1`/`-Zero`-style model name, a colon.

Each decision keeps its probability, threshold and the features that moved it most.
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from .title_cues import title_name_kind

DATA = Path(__file__).resolve().parent.parent / "data"
MODEL_FILES = {"title": DATA / "title_model.json", "abstract": DATA / "abstract_model.json"}
MIN_WORD_COUNT = {"title": 3, "abstract": 5}
_TITLE_WORD = re.compile(r"[a-z][a-z0-9]+")
_ABSTRACT_WORD = re.compile(r"[a-z][a-z0-9-]+")
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
    features |= {f"word:{w}" for w in _TITLE_WORD.findall(title.lower())}
    features |= {f"shape:{shape}" for shape, pattern in _SHAPES.items() if pattern.search(title)}
    return features


def abstract_features(title: str, abstract: str, rule_names: set[str]) -> set[str]:
    """A title's features and the abstract's words."""
    words = {f"abstract:{w}" for w in _ABSTRACT_WORD.findall(abstract.lower())}
    return title_features(title, rule_names) | words


def is_word_feature(feature: str) -> bool:
    return feature.startswith(("word:", "abstract:"))


@dataclass(frozen=True)
class ScreeningModel:
    """Logistic models (one per target: `rl_llm`, `general`) over the same features, with thresholds."""

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


@lru_cache(maxsize=2)
def load_model(kind: str) -> ScreeningModel | None:
    """The shipped model for `kind` ("title" or "abstract"), or None when its file is absent (the
    rules alone then decide)."""
    try:
        data = json.loads(MODEL_FILES[kind].read_text(encoding="utf-8"))
    except FileNotFoundError:
        return None
    return ScreeningModel(data["weights"], data["thresholds"])
