"""The study's per-paper features, read from a title, an abstract and a comment.

* the largest trained policy, in billions of parameters ("32B", "Qwen2.5-72B",
  "671B MoE", "1T"), ignoring token counts, active-parameter counts
  ("235B-A22B" is 235) and sizes of reward models, judges or teachers;
* whether the paper changes a coefficient, clip, mask or weight in an existing
  loss, and which;
* a code repository link;
* the authors' organisations, matched against the catalog's organisations.

Pure functions; each returns the words it relied on so a reader can check.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

# A size: a number then B/T (billion/trillion), or "N billion parameters".
_SIZE = re.compile(
    r"(?<![\w.])(?P<num>\d+(?:\.\d+)?)\s?(?P<unit>[BbTt])(?![\w])|"
    r"(?<![\w.])(?P<num2>\d+(?:\.\d+)?)\s(?P<unit2>billion|trillion)\s(?:parameters?|params)",
)
# A size written into a model name: Qwen2.5-72B, Llama-3.1-8B-Instruct, DeepSeek-V3-671B.
_NAMED_SIZE = re.compile(r"(?<=[A-Za-z0-9.]-)(?P<num>\d+(?:\.\d+)?)(?P<unit>[BbTt])(?![\w])")
# Sizes that are not the trained policy.
_NOT_POLICY_AFTER = re.compile(
    r"^\s*(?:tokens?|samples|examples|words|of (?:tokens|data|text))|"
    r"^[\s-]*(?:parameters?\s+|params\s+|dense\s+|MoE\s+)?(?:generative\s+)?(?:reward models?|judges?|"
    r"verifiers?|teachers?|graders?|PRMs?|ORMs?)\b",
    re.IGNORECASE,
)
_NOT_POLICY_BEFORE = re.compile(
    r"(?:reward model|judge|verifier|teacher|grader|critic model|PRM|ORM)\W+(?:\w+\W+){0,2}$|-A$",
    re.IGNORECASE,
)

LOSS_CHANGES: dict[str, re.Pattern] = {
    "coefficient": re.compile(
        r"\b(?:coefficients?|KL (?:penalty|coefficient|weight)|β|beta|temperature of the loss|entropy bonus|"
        r"scaling factor|length normali[sz]ation|normali[sz]ing constant|normali[sz]er)\b",
        re.IGNORECASE,
    ),
    "clip": re.compile(r"\b(?:clip(?:ping|ped|s)?|clip range|trust region|ratio bounds?)\b", re.IGNORECASE),
    "mask": re.compile(
        r"\b(?:mask(?:s|ing|ed)?|filter(?:s|ing)? (?:out )?tokens|discard(?:s|ing)? tokens)\b", re.IGNORECASE
    ),
    "weight": re.compile(
        r"\b(?:re-?weight(?:s|ing|ed)?|weighting|weighted|importance weights?|token weights?|"
        r"down-?weight(?:s|ing|ed)?|up-?weight(?:s|ing|ed)?|scal(?:e|es|ing) (?:each|the) token)",
        re.IGNORECASE,
    ),
}
# An existing loss the change is made to; without one, the words are about something new.
_EXISTING_LOSS = re.compile(
    r"\b(?:PPO|GRPO|DPO|RLOO|REINFORCE|DAPO|GSPO|surrogate|existing (?:loss|objective)|standard "
    r"(?:loss|objective)|clipped objective|the (?:policy[- ]gradient |RL |training )?(?:loss|objective)|"
    r"one[- ]line|drop-in|modif(?:y|ies|ication)|replac(?:e|es|ing))\b",
    re.IGNORECASE,
)
_CODE_URL = re.compile(
    r"https?://(?:www\.)?(?:github\.com|gitlab\.com|huggingface\.co|codeberg\.org)/[\w.\-]+(?:/[\w.\-]+)?",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class PaperFeatures:
    max_policy_params_b: float | None
    size_words: tuple[str, ...]
    loss_changes: tuple[str, ...]
    loss_change_words: tuple[str, ...]
    changes_existing_loss: bool
    code_url: str | None


def _billions(num: str, unit: str) -> float:
    value = float(num)
    return value * 1000 if unit.lower() in ("t", "trillion") else value


def policy_sizes(text: str) -> list[tuple[float, str]]:
    """(billions, words) of every size that could be the trained policy."""
    sizes = []
    for pattern in (_SIZE, _NAMED_SIZE):
        for m in pattern.finditer(text):
            num = m.group("num") or m.groupdict().get("num2")
            unit = m.group("unit") or m.groupdict().get("unit2")
            if num is None or unit is None:
                continue
            if unit in ("t", "b") and pattern is _SIZE and not m.group("num2"):
                # Lower-case b/t after a bare number is rarely a size ("3 b", "5t"): require a model name.
                continue
            if _NOT_POLICY_AFTER.search(text[m.end() : m.end() + 40]):
                continue
            if _NOT_POLICY_BEFORE.search(text[max(0, m.start() - 40) : m.start()]):
                continue
            sizes.append((_billions(num, unit), m.group(0)))
    return sizes


def extract_features(title: str, abstract: str, comment: str | None = None) -> PaperFeatures:
    text = f"{title}\n{abstract}"
    sizes = policy_sizes(text)
    largest = max((s for s, _ in sizes), default=None)
    changes, change_words = [], []
    for kind, pattern in LOSS_CHANGES.items():
        words = [m.group(0) for m in pattern.finditer(text)]
        if words:
            changes.append(kind)
            change_words.extend(dict.fromkeys(w.lower() for w in words))
    code = _CODE_URL.search(f"{abstract}\n{comment or ''}")
    return PaperFeatures(
        max_policy_params_b=largest,
        size_words=tuple(dict.fromkeys(w for _, w in sizes)),
        loss_changes=tuple(changes),
        loss_change_words=tuple(change_words),
        changes_existing_loss=bool(changes) and bool(_EXISTING_LOSS.search(text)),
        code_url=code.group(0).rstrip(".") if code else None,
    )


@dataclass(frozen=True)
class OrganizationMatch:
    slug: str
    affiliation: str  # the affiliation string it was found in
    words: str  # the name as found


def _org_pattern(names: Iterable[str]) -> re.Pattern:
    alternatives = sorted({re.escape(n) for n in names if len(n) >= 2}, key=len, reverse=True)
    return re.compile(r"(?<![\w-])(?:" + "|".join(alternatives) + r")(?![\w-])", re.IGNORECASE)


class OrganizationMatcher:
    """Finds catalog organisations (by name, slug or any `aliases`) in affiliation strings."""

    def __init__(self, organizations: Iterable):
        self._by_name: dict[str, str] = {}
        for org in organizations:
            for name in (org.name, org.slug.replace("-", " "), *getattr(org, "aliases", ())):
                self._by_name[name.lower()] = org.slug
        self._pattern = _org_pattern(self._by_name) if self._by_name else None

    def find(self, affiliations: Iterable[str]) -> list[OrganizationMatch]:
        found: dict[str, OrganizationMatch] = {}
        if self._pattern is None:
            return []
        for affiliation in affiliations:
            for m in self._pattern.finditer(affiliation):
                slug = self._by_name[m.group(0).lower()]
                found.setdefault(slug, OrganizationMatch(slug, affiliation, m.group(0)))
        return list(found.values())
