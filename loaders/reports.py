"""Technical reports of large open-weight models, and the RL methods they state they used.

The facts (family, organisations, largest parameter count, open weights, the
methods a report names) live in `data/model_reports.jsonl`, one report a line.
Each report becomes a `ModelReport` node, `PUBLISHED_BY` its organisations,
and `STATES_USE_OF` each method, with evidence: the facts file line, and, when
the report's abstract is in the graph or a user supplies the full text, the
sentence in which the report says it used the method.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..graph.records import Edge, Evidence, Node, Record
from .input_error import InputError
from .input_files import check_known_fields, json_objects, json_type
from .link.arxiv_ids import ArxivIdError, normalize_arxiv_id
from .link.methods import MethodMatcher
from .link.proposals import normalize_name, slugify

REPORTS_FILE = Path(__file__).resolve().parent / "data" / "model_reports.jsonl"
_FIELDS = (
    "arxiv_id",
    "model_family",
    "organizations",
    "largest_params_b",
    "open_weights",
    "rl_methods_stated",
)
# A sentence that says the model was trained with a method, not merely that the method exists.
_USE_VERB = re.compile(
    r"\b(?:use[sd]?|using|adopt(?:s|ed)?|employ(?:s|ed)?|appl(?:y|ies|ied)|train(?:s|ed)? with|"
    r"optimi[sz]ed with|based on|built on|leverag(?:e|es|ed|ing)|via|with|propos(?:e|es|ed)|"
    r"introduc(?:e|es|ed))\b",
    re.IGNORECASE,
)
MAX_PARAMS_B = 1e5  # a hundred trillion parameters: anything larger is a typo
_SENTENCE = re.compile(r"[^.!?]+[.!?]?")


class ReportError(InputError):
    """A facts line that cannot be used; names the file, line and field."""


@dataclass(frozen=True)
class ReportFacts:
    arxiv_id: str
    model_family: str
    organizations: tuple[str, ...]
    largest_params_b: float | None
    open_weights: bool
    rl_methods_stated: tuple[str, ...]
    origin: str


def _facts(obj: dict[str, Any], path: Path, line: int) -> ReportFacts:
    def fail(field: str, problem: str) -> ReportError:
        return ReportError(path, problem, line=line, field=field)

    check_known_fields(obj, _FIELDS, path, line=line)
    missing = [f for f in _FIELDS if f not in obj]
    if missing:
        raise fail(missing[0], "missing")
    if not isinstance(obj["arxiv_id"], str):
        raise fail("arxiv_id", f"must be a string, got {json_type(obj['arxiv_id'])}")
    try:
        arxiv_id = normalize_arxiv_id(obj["arxiv_id"])
    except ArxivIdError as exc:
        raise fail("arxiv_id", str(exc)) from None
    size = obj["largest_params_b"]
    if size is not None and (isinstance(size, bool) or not isinstance(size, int | float) or size <= 0):
        raise fail("largest_params_b", f"must be a positive number or null, got {size!r}")
    if size is not None and size > MAX_PARAMS_B:
        raise fail("largest_params_b", f"{size!r} billion is beyond any model ({MAX_PARAMS_B:g} at most)")
    if not isinstance(obj["open_weights"], bool):
        raise fail("open_weights", "must be true or false")
    for name in ("organizations", "rl_methods_stated"):
        value = obj[name]
        if not isinstance(value, list) or not all(isinstance(v, str) and v.strip() for v in value):
            raise fail(name, "must be a list of names")
    if not isinstance(obj["model_family"], str) or not obj["model_family"].strip():
        raise fail("model_family", "must be a non-empty string")
    return ReportFacts(
        arxiv_id=arxiv_id,
        model_family=obj["model_family"].strip(),
        organizations=tuple(obj["organizations"]),
        largest_params_b=float(size) if size is not None else None,
        open_weights=obj["open_weights"],
        rl_methods_stated=tuple(obj["rl_methods_stated"]),
        origin=f"{path.name}:{line}",
    )


def read_report_facts(path: str | Path = REPORTS_FILE) -> list[ReportFacts]:
    """Every report in the facts file; the whole file is checked before anything is used."""
    path = Path(path)
    try:
        facts = [_facts(obj, path, number) for number, obj in json_objects(path)]
    except ReportError:
        raise
    except InputError as exc:
        raise ReportError(exc.source, exc.message, line=exc.line, field=exc.field) from None
    if not facts:
        raise ReportError(path, "no reports in it (an empty facts file)")
    return facts


def organization_slug(name: str, organizations: Iterable = ()) -> str:
    """A catalog organisation whose name or slug appears in `name`, else a slug of the name."""
    plain = re.sub(r"\s*\(.*?\)", "", name).strip()
    for org in organizations:
        for known in (org.name, org.slug.replace("-", " ")):
            if re.search(rf"(?<![\w-]){re.escape(known)}(?![\w-])", name, re.IGNORECASE):
                return org.slug
    return slugify(plain)


@dataclass(frozen=True)
class UseStatement:
    slug: str
    words: str  # the method name as written
    sentence: str
    confidence: float


def stated_uses(text: str, matcher: MethodMatcher) -> list[UseStatement]:
    """Methods a report says it used: a catalog alias in a sentence with a use verb."""
    found: dict[str, UseStatement] = {}
    for sentence in _SENTENCE.finditer(text):
        words = sentence.group(0).strip()
        if not _USE_VERB.search(words):
            continue
        for match in matcher.find(words):
            found.setdefault(match.slug, UseStatement(match.slug, match.text, words[:300], match.confidence))
    return list(found.values())


class _MethodNames:
    """Method names as reports write them -> catalog slugs; unknown names get a slug of their own."""

    def __init__(self, methods: Iterable):
        self._by_name: dict[str, str] = {}
        for method in methods:
            for alias in (method.name, *method.aliases, method.slug):
                if not any(c in alias for c in "_=/"):
                    self._by_name.setdefault(normalize_name(alias), method.slug)

    def resolve(self, name: str) -> tuple[str, bool]:
        slug = self._by_name.get(normalize_name(name))
        return (slug, True) if slug else (slugify(name), False)


def report_records(
    facts: Iterable[ReportFacts],
    methods: Iterable = (),
    organizations: Iterable = (),
    texts: dict[str, tuple[str, str]] | None = None,
) -> Iterator[Record]:
    """ModelReport nodes, their organisations and the methods they state, with evidence.

    `texts` maps an arXiv id to (kind, text), kind being "abstract" or "full text".
    """
    methods = list(methods)
    organizations = list(organizations)
    names = _MethodNames(methods)
    matcher = MethodMatcher(methods)
    for report in facts:
        key = ("ModelReport", report.arxiv_id)
        yield Node(
            "ModelReport",
            report.arxiv_id,
            {
                "model_family": report.model_family,
                "organization": ", ".join(report.organizations) or None,
                "largest_params_b": report.largest_params_b,
                "open_weights": report.open_weights,
            },
            report.origin,
        )
        for org in report.organizations:
            slug = organization_slug(org, organizations)
            yield Node("Organization", slug, {"name": re.sub(r"\s*\(.*?\)", "", org).strip()}, report.origin)
            yield Edge("PUBLISHED_BY", key, ("Organization", slug), {}, report.origin)
        for name in report.rl_methods_stated:
            slug, known = names.resolve(name)
            if not known:
                yield Node(
                    "Method", slug, {"name": name, "aliases": [name], "origin": "report"}, report.origin
                )
            evidence = Evidence("report-facts", report.origin, name, "stated-in-report-facts", 0.9)
            yield Edge("STATES_USE_OF", key, ("Method", slug), evidence.props(), report.origin)
        kind, text = (texts or {}).get(report.arxiv_id, ("", ""))
        for use in stated_uses(text, matcher) if text else ():
            if use.slug in {names.resolve(n)[0] for n in report.rl_methods_stated}:
                continue  # the facts file already states it; keep its evidence
            location = f"arXiv:{report.arxiv_id} {kind}"
            confidence = round(min(use.confidence, 0.8), 3)
            evidence = Evidence(kind, location, use.words, "use-statement-in-text", confidence)
            yield Edge("STATES_USE_OF", key, ("Method", use.slug), evidence.props(), location)


def catalog_entries() -> tuple[list, list]:
    """The catalog's methods and organisations, or none when the catalog cannot be read."""
    try:
        from .catalog import read_catalog

        catalog = read_catalog()
    except (ImportError, ValueError, OSError):
        return [], []
    return list(catalog.methods.values()), list(catalog.organizations.values())
