"""Recognising and normalising arXiv identifiers in any text.

One function serves commit messages, diffs, issue bodies and abstracts, so an
id is spelled the same way wherever the graph meets it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

# New-style ids: YYMM.NNNN (0704-1412) or YYMM.NNNNN (1501 on); old style: archive/YYMMNNN.
_NEW = r"(?P<new>(?P<yy>\d{2})(?P<mm>\d{2})\.(?P<num>\d{4,5}))(?:v\d+)?"
# The subject class in `math.GT/0309136` is not part of the identifier (`math/0309136`).
_OLD = r"(?P<old>(?P<archive>[a-z][a-z\-]+)(?:\.[A-Z]{2})?/(?P<oldnum>\d{7}))(?:v\d+)?"
_URL = re.compile(
    r"(?:arxiv\.org/(?:abs|pdf|html)/|huggingface\.co/papers/|alphaxiv\.org/(?:abs|overview)/)"
    rf"(?:{_NEW}|{_OLD})(?:\.pdf)?",
    re.IGNORECASE,
)
_LABELLED = re.compile(rf"\barxiv[:\s]\s*(?:{_NEW}|{_OLD})", re.IGNORECASE)
_BARE = re.compile(rf"(?<![\w./-]){_NEW}(?![\w/]|\.\d)")


class ArxivIdError(ValueError):
    pass


@dataclass(frozen=True)
class ArxivMatch:
    arxiv_id: str
    start: int
    text: str
    rule: str  # arxiv-url, arxiv-label, bare-id


def _valid_new(yy: str, mm: str, num: str) -> bool:
    yymm = int(yy + mm)
    if not 1 <= int(mm) <= 12 or yymm < 704:
        return False
    return len(num) == (4 if yymm < 1501 else 5)


def _from_match(m: re.Match) -> str | None:
    if m.group("new"):
        return m.group("new") if _valid_new(m.group("yy"), m.group("mm"), m.group("num")) else None
    if not m.group("old"):
        return None
    month = int(m.group("oldnum")[2:4])
    return f"{m.group('archive').lower()}/{m.group('oldnum')}" if 1 <= month <= 12 else None


def normalize_arxiv_id(value: str) -> str:
    """`https://arxiv.org/pdf/2503.14476v2.pdf` -> `2503.14476`; raises on anything else."""
    text = value.strip()
    for pattern in (_URL, _LABELLED):
        m = pattern.search(text)
        if m and (found := _from_match(m)):
            return found
    m = re.fullmatch(rf"{_NEW}(?:\.pdf)?|{_OLD}(?:\.pdf)?", text, re.IGNORECASE)
    if m and (found := _from_match(m)):
        return found
    raise ArxivIdError(f"not an arXiv id: {value!r}")


def find_arxiv_ids(text: str, *, bare: bool = True) -> list[ArxivMatch]:
    """Every arXiv id in `text`, first occurrence of each, in order.

    URLs and `arXiv:` labels are certain; a bare `2503.14476` is accepted only
    when `bare` is set, since version numbers and decimals look alike.
    """
    found: dict[str, ArxivMatch] = {}
    rules = [(_URL, "arxiv-url"), (_LABELLED, "arxiv-label")] + ([(_BARE, "bare-id")] if bare else [])
    for pattern, rule in rules:
        for m in pattern.finditer(text):
            arxiv_id = _from_match(m)
            if arxiv_id and arxiv_id not in found:
                found[arxiv_id] = ArxivMatch(arxiv_id, m.start(), m.group(0), rule)
    return sorted(found.values(), key=lambda match: match.start)


def year_month(arxiv_id: str) -> str | None:
    """`2503.14476` -> `2025-03`, `hep-th/9901001` -> `1999-01` (a submission month, from the id)."""
    m = re.fullmatch(r"(\d{2})(\d{2})\.\d{4,5}", arxiv_id) or re.fullmatch(
        r"[a-z][a-z\-]+/(\d{2})(\d{2})\d{3}", arxiv_id
    )
    if not m:
        return None
    yy = int(m.group(1))
    return f"{1900 + yy if yy >= 90 else 2000 + yy}-{m.group(2)}"
