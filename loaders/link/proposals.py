"""Which method a paper proposes, from its title and abstract.

A paper proposes a method when it *names* it as its own: "DAPO: ...",
"Group Sequence Policy Optimization (GSPO)", "we propose GFPO", "ProRL, a
...". A method merely mentioned ("improves over GRPO", "an ORPO-like loss") is
not proposed. Names are matched to the catalog by their normalised spelling
(case, dots, hyphens and spaces ignored), so a common word ("prime", "sapo")
or a name inside a longer word ("MAPPO", "PPOTrainer") never becomes a link:
only a token shaped like a method name, in a proposing position, is a
candidate at all. Unknown names become new methods with a slug.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

# A token shaped like a method name: at least two capitals, or a capital after
# lower case (ProRL, GiGPO), or capitals and digits (C3PO, M2PO); may end in ++.
_NAME = r"[A-Za-z][A-Za-z0-9]*(?:[-.][A-Za-z0-9]+)*(?:\+\+)?"
_SUFFIX_NOT_A_NAME = re.compile(r"-(?:like|style|based|type|inspired|free|only|aware|level|specific)$", re.I)
# Acronyms that name things other than a proposed training method.
_NOT_METHODS = {
    "llm",
    "llms",
    "lm",
    "lms",
    "rl",
    "rlhf",
    "rlvr",
    "rlaif",
    "sft",
    "cot",
    "ai",
    "gpu",
    "gpus",
    "kl",
    "moe",
    "nlp",
    "vlm",
    "vlms",
    "mllm",
    "mllms",
    "lrm",
    "lrms",
    "api",
    "qa",
    "sota",
    "aime",
    "math",
    "gsm8k",
    "ppo",
    "dpo",
    "grpo",
    "pass@k",
    "rm",
    "prm",
    "orm",
    "ii",
    "iii",
    "iv",
    "us",
    "we",
    "usa",
    "r1",
    "o1",
    "gpt",
}

_TITLE_COLON = re.compile(r"^\s*(?P<name>[^:]{2,30}?)\s*:")
_LONG_WITH_ACRONYM = re.compile(
    rf"(?P<long>(?:[A-Z][\w-]*\s+){{1,6}}(?:Optimi[sz]ation|Learning|Training|Gradient|Estimat\w+|Alignment|"
    rf"Reinforcement|Sampling|Clipping|Masking|Weighting|Regulari[sz]ation|Policy|Objective))\s*"
    rf"\((?P<name>{_NAME})\)"
)
_PROPOSE = re.compile(
    r"\b(?:we|this (?:paper|work))\s+(?:(?:also|further|then|first|additionally)\s+)?"
    r"(?:propose|introduce|present|develop|call|name|term)s?\b",
    re.IGNORECASE,
)
# After the verb, the name comes before any of these: "a clipping rule for GSPO" proposes no GSPO.
_CLAUSE_END = re.compile(
    r"[.;:!?](?:\s|$)|\b(?:for|to|in|into|on|of|over|than|with|from|based|by|that|which)\b"
)
_NAMING = re.compile(r"\b(?:called|named|dubbed|termed)\s+$", re.IGNORECASE)
_APPOSITION = re.compile(
    rf"(?:^|[.!?]\s+)(?P<name>{_NAME}),\s+(?:a|an)\s+(?:(?:new|novel|simple|general|principled|scalable|"
    rf"unified|efficient|stable|effective|lightweight|critic-free|value-based)\s+)*"
    rf"(?:[\w-]+\s+){{0,4}}(?:algorithm|method|objective|approach|framework|technique|estimator|loss|variant|"
    rf"recipe|strategy|rule|scheme|mechanism|regulari[sz]er|penalty|baseline)"
)


def normalize_name(name: str) -> str:
    """`Dr. GRPO`, `dr_grpo` and `DrGRPO` are one name; `C3PO++` keeps its pluses."""
    return re.sub(r"[^a-z0-9+]", "", name.lower())


def slugify(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", name.lower().replace("++", "-pp")).strip("-")


def looks_like_method_name(token: str) -> bool:
    if normalize_name(token) in _NOT_METHODS or _SUFFIX_NOT_A_NAME.search(token):
        return False
    capitals = sum(c.isupper() for c in token)
    camel = re.search(r"[a-z][A-Z]", token) is not None
    return capitals >= 2 or camel or (capitals >= 1 and any(c.isdigit() for c in token))


@dataclass(frozen=True)
class Proposal:
    slug: str
    name: str  # as the paper writes it
    long_name: str | None
    known: bool  # a catalog method
    rule: str  # catalog-arxiv-id, title-name, title-acronym, abstract-acronym, we-propose, apposition
    field: str  # title, abstract, catalog
    text: str  # the words matched
    confidence: float


_RULE_CONFIDENCE = {
    "catalog-arxiv-id": 1.0,
    "title-name": 0.85,
    "title-acronym": 0.85,
    "abstract-acronym": 0.8,
    "we-propose": 0.8,
    "apposition": 0.7,
}


def _named_after(text: str, start: int) -> str | None:
    """The first method-shaped name after a proposing verb, within its clause."""
    tail = text[start : start + 160]
    for token in re.finditer(_NAME, tail):
        before = tail[: token.start()]
        end = _CLAUSE_END.search(before)
        if end and not _NAMING.search(before):
            return None
        if tail[token.end() : token.end() + 1] not in ("", " ", ",", ".", ";", ":", ")"):
            continue  # "DAPO's", "GRPO-like" (hyphens are inside the token already)
        if looks_like_method_name(token.group(0)):
            return token.group(0)
    return None


class ProposalFinder:
    """Finds proposed methods; built once from the catalog's methods."""

    def __init__(self, methods: Iterable):
        self._methods = list(methods)
        self._by_name: dict[str, str] = {}
        self._by_paper: dict[str, list[str]] = {}
        for method in self._methods:
            for alias in (method.name, *method.aliases, method.slug):
                # Code identifiers (snake_case, key=value) are not how papers name methods.
                if "_" in alias or "=" in alias or "/" in alias:
                    continue
                self._by_name.setdefault(normalize_name(alias), method.slug)
            if getattr(method, "arxiv_id", None):
                self._by_paper.setdefault(method.arxiv_id, []).append(method.slug)

    def _candidates(self, title: str, abstract: str) -> Iterable[tuple[str, str | None, str, str, str]]:
        """(name, long name, rule, field, matched text), in order of certainty."""
        if m := _TITLE_COLON.match(title):
            prefix = m.group("name")
            # "Dr. GRPO:" is a catalog name with a space; otherwise the prefix must be one name-shaped token.
            if normalize_name(prefix) in self._by_name or re.fullmatch(_NAME, prefix):
                yield prefix, None, "title-name", "title", m.group(0)
        for field, text, rule in (
            ("title", title, "title-acronym"),
            ("abstract", abstract, "abstract-acronym"),
        ):
            for m in _LONG_WITH_ACRONYM.finditer(text):
                yield m.group("name"), m.group("long").strip(), rule, field, m.group(0)
        for m in _PROPOSE.finditer(abstract):
            if named := _named_after(abstract, m.end()):
                yield named, None, "we-propose", "abstract", abstract[m.start() : m.end()] + " ... " + named
        for m in _APPOSITION.finditer(abstract):
            yield m.group("name"), None, "apposition", "abstract", m.group(0).strip(" .!?")

    def find(self, arxiv_id: str | None, title: str, abstract: str = "") -> list[Proposal]:
        found: dict[str, Proposal] = {}
        for slug in self._by_paper.get(arxiv_id or "", []):
            found[slug] = Proposal(slug, slug, None, True, "catalog-arxiv-id", "catalog", arxiv_id, 1.0)
        for name, long_name, rule, field, text in self._candidates(title, abstract):
            if (
                rule == "abstract-acronym"
                and not _PROPOSE.search(abstract)
                and not _APPOSITION.search(abstract)
            ):
                continue  # "... Policy Optimization (GRPO)" in an abstract is usually a citation
            if not looks_like_method_name(name):
                continue
            known = self._by_name.get(normalize_name(name))
            if known is None and long_name:
                known = self._by_name.get(normalize_name(long_name))
            slug = known or slugify(name)
            if slug in found:
                continue
            confidence = _RULE_CONFIDENCE[rule] + (0.05 if known else 0.0)
            found[slug] = Proposal(slug, name, long_name, known is not None, rule, field, text, confidence)
        return list(found.values())
