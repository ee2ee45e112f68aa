"""arXiv papers: from the API (through the `arxiv` package), a metadata snapshot, or saved Atom.

Three ways in, one record shape (`PaperRecord`), one way out (`paper_records`):

* the API, by ids or by query, through `ArxivFetcher`, which owns politeness
  (the package's page size, delay and retries, plus a request timeout) and a
  disk cache of every raw response, so that a re-run can be offline;
* the public metadata snapshot (JSON Lines, one paper a line), streamed;
* saved Atom responses of the API, including the fetcher's own cache.

Parsing never touches the network and screening is done by pure functions in
`loaders/link/`. Bad input raises `ArxivLoadError` naming the file and line;
`load_papers` writes what came before the bad line first.
"""

from __future__ import annotations

import datetime as dt
import email.utils
import hashlib
import json
import os
import re
import urllib.parse
import xml.etree.ElementTree as ET
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..graph.records import Edge, Evidence, Node, Record
from .cache import arxiv_cache_dir
from .input_error import InputError
from .input_files import json_line, json_type, read_bytes, read_lines
from .link.arxiv_ids import ArxivIdError, normalize_arxiv_id, year_month
from .link.paper_features import OrganizationMatcher, extract_features
from .link.proposals import ProposalFinder, creates_method
from .link.screening import screen_paper

DEFAULT_API_URL = "https://export.arxiv.org/api/query?{}"
DEFAULT_CATEGORIES = ("cs.LG", "cs.CL", "cs.AI")
DEFAULT_KEYWORDS = ("reinforcement learning", "policy optimization", "RLHF", "RLVR", "GRPO", "PPO")
WRITE_BATCH = 2_000
MAX_ATOM_BYTES = 64 << 20  # one saved API response; a full page of 2,000 entries is about 5 MB

_NS = {
    "atom": "http://www.w3.org/2005/Atom",
    "arxiv": "http://arxiv.org/schemas/atom",
    "opensearch": "http://a9.com/-/spec/opensearch/1.1/",
}


class ArxivLoadError(InputError):
    """Input that cannot be read; the message names the file and line (or the request) and field."""


@dataclass(frozen=True)
class PaperRecord:
    """One paper as any source gives it, ids normalised, dates as dates."""

    arxiv_id: str
    title: str
    abstract: str = ""
    authors: tuple[str, ...] = ()
    affiliations: tuple[str, ...] = ()  # raw affiliation strings, where the source has them
    categories: tuple[str, ...] = ()
    primary_category: str | None = None
    published_date: dt.date | None = None  # first version: the paper's date for cohorts
    updated_date: dt.date | None = None
    comment: str | None = None
    origin: str = ""
    headings: tuple[str, ...] = ()  # sections of curated lists the paper is filed under


# -- text helpers ------------------------------------------------------------


def _squash(text: str | None) -> str:
    return re.sub(r"\s+", " ", text or "").strip()


@contextmanager
def _arxiv_errors() -> Iterator[None]:
    """A file-level input error as this loader's error, so `load_papers` writes what came before."""
    try:
        yield
    except ArxivLoadError:
        raise
    except InputError as exc:
        raise ArxivLoadError(exc.source, exc.message, line=exc.line, item=exc.item, field=exc.field) from None


def _id_or_fail(value: Any, origin: str) -> str:
    if value is None:
        raise ArxivLoadError(origin, "is missing", field="id")
    if not isinstance(value, str):
        raise ArxivLoadError(origin, f"must be a string, got {json_type(value)}", field="id")
    try:
        return normalize_arxiv_id(value)
    except ArxivIdError as exc:
        raise ArxivLoadError(origin, str(exc), field="id") from None


# -- the metadata snapshot (JSON Lines) ---------------------------------------


def _optional_text(obj: dict, name: str, origin: str) -> str | None:
    value = obj.get(name)
    if value is not None and not isinstance(value, str):
        raise ArxivLoadError(origin, f"must be a string or null, got {json_type(value)}", field=name)
    return value


def _version_date(created: Any, origin: str) -> dt.date:
    if not isinstance(created, str):
        raise ArxivLoadError(
            origin, f"'created' must be a date string, got {json_type(created)}", field="versions"
        )
    try:
        return email.utils.parsedate_to_datetime(created).date()
    except (TypeError, ValueError, IndexError, OverflowError):
        raise ArxivLoadError(origin, f"unreadable date {created!r}", field="versions") from None


def _first_version_date(versions: Any, origin: str) -> dt.date | None:
    if versions is None:
        return None
    if not isinstance(versions, list) or not all(isinstance(v, dict) for v in versions):
        raise ArxivLoadError(origin, "must be a list of {version, created} objects", field="versions")
    dates = [_version_date(v.get("created"), origin) for v in versions if v.get("created") is not None]
    return min(dates) if dates else None


def _snapshot_authors(obj: dict, origin: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """Author names from `authors_parsed` ([last, first, suffix]) and affiliations in parentheses."""
    parsed = obj.get("authors_parsed")
    names: list[str] = []
    if parsed is not None:
        well_formed = isinstance(parsed, list) and all(
            isinstance(a, list) and all(isinstance(p, str) for p in a) for a in parsed
        )
        if not well_formed:
            raise ArxivLoadError(
                origin, "must be a list of [last, first, suffix] strings", field="authors_parsed"
            )
        for parts in parsed:
            last, first, suffix = (list(parts) + ["", "", ""])[:3]
            names.append(_squash(" ".join(p for p in (first, last, suffix) if p)))
    raw = _optional_text(obj, "authors", origin) or ""
    affiliations = tuple(dict.fromkeys(_squash(a) for a in re.findall(r"\(([^()]{3,200})\)", raw)))
    return tuple(n for n in names if n), affiliations


def _update_date(value: Any, origin: str) -> dt.date | None:
    if value is None:
        return None
    if not isinstance(value, str):
        raise ArxivLoadError(origin, f"must be YYYY-MM-DD, got {json_type(value)}", field="update_date")
    try:
        return dt.date.fromisoformat(value)
    except ValueError:
        raise ArxivLoadError(origin, f"must be YYYY-MM-DD, got {value!r}", field="update_date") from None


def parse_snapshot_line(line: str, origin: str) -> PaperRecord:
    """One line of the arXiv metadata snapshot; `origin` is `file:line` for errors.

    Fields the snapshot adds later are ignored (it is arXiv's format, not ours);
    every field that is read must have the documented type.
    """
    with _arxiv_errors():
        obj = json_line(line, origin, None)
    if not isinstance(obj, dict):
        raise ArxivLoadError(origin, f"expected a JSON object, got {json_type(obj)}")
    arxiv_id = _id_or_fail(obj.get("id"), origin)
    title = obj.get("title")
    if title is not None and not isinstance(title, str):
        raise ArxivLoadError(origin, f"must be a string, got {json_type(title)}", field="title")
    if not title or not title.strip():
        raise ArxivLoadError(origin, "is missing or empty", field="title")
    categories = obj.get("categories") or ""
    if not isinstance(categories, str):
        raise ArxivLoadError(origin, "must be a space-separated string", field="categories")
    cats = tuple(categories.split())
    updated = _update_date(obj.get("update_date"), origin)
    authors, affiliations = _snapshot_authors(obj, origin)
    abstract = _optional_text(obj, "abstract", origin)
    comment = _optional_text(obj, "comments", origin)
    return PaperRecord(
        arxiv_id=arxiv_id,
        title=_squash(title),
        abstract=_squash(abstract),
        authors=authors,
        affiliations=affiliations,
        categories=cats,
        primary_category=cats[0] if cats else None,
        published_date=_first_version_date(obj.get("versions"), origin),
        updated_date=updated,
        comment=_squash(comment) if comment is not None else None,
        origin=origin,
    )


def read_snapshot(path: str | Path) -> Iterator[PaperRecord]:
    """Stream a snapshot file (optionally .gz) one line at a time: memory stays flat.

    A line is read in bounded chunks and refused past `MAX_LINE_BYTES`.
    """
    path = Path(path)
    papers = 0
    with _arxiv_errors():
        for number, line in read_lines(path):
            if line.strip():
                papers += 1
                yield parse_snapshot_line(line, f"{path}:{number}")
    if not papers:
        raise ArxivLoadError(path, "no papers in it (an empty snapshot)")


# -- Atom responses of the API -----------------------------------------------


def _atom_text(elem: ET.Element, path: str) -> str:
    found = elem.find(path, _NS)
    return found.text or "" if found is not None else ""


def _atom_date(text: str, origin: str, name: str) -> dt.date | None:
    if not text:
        return None
    try:
        return dt.datetime.fromisoformat(text.strip().replace("Z", "+00:00")).date()
    except ValueError:
        raise ArxivLoadError(origin, f"<{name}> is not a timestamp: {text!r}", field=name) from None


def _atom_entry(entry: ET.Element, origin: str) -> PaperRecord:
    entry_id = _atom_text(entry, "atom:id")
    if "api/errors" in entry_id:
        raise ArxivLoadError(
            origin, f"the API answered with an error: {_squash(_atom_text(entry, 'atom:summary'))}"
        )
    arxiv_id = _id_or_fail(entry_id, origin)
    authors, affiliations = [], []
    for author in entry.iterfind("atom:author", _NS):
        authors.append(_squash(_atom_text(author, "atom:name")))
        affiliations += [_squash(a.text) for a in author.iterfind("arxiv:affiliation", _NS) if a.text]
    if not _squash(_atom_text(entry, "atom:title")):
        raise ArxivLoadError(origin, "<title> is missing or empty", field="title")
    primary = entry.find("arxiv:primary_category", _NS)
    comment = _atom_text(entry, "arxiv:comment")
    return PaperRecord(
        arxiv_id=arxiv_id,
        title=_squash(_atom_text(entry, "atom:title")),
        abstract=_squash(_atom_text(entry, "atom:summary")),
        authors=tuple(a for a in authors if a),
        affiliations=tuple(dict.fromkeys(affiliations)),
        categories=tuple(c.get("term", "") for c in entry.iterfind("atom:category", _NS) if c.get("term")),
        primary_category=primary.get("term") if primary is not None else None,
        published_date=_atom_date(_atom_text(entry, "atom:published"), origin, "published"),
        updated_date=_atom_date(_atom_text(entry, "atom:updated"), origin, "updated"),
        comment=_squash(comment) or None,
        origin=origin,
    )


def parse_atom(content: bytes, source: str) -> list[PaperRecord]:
    """Every entry of one Atom response; a syntax error names `source` and the line."""
    try:
        root = ET.fromstring(content)
    except ET.ParseError as exc:
        line, column = exc.position
        raise ArxivLoadError(source, f"malformed Atom (column {column}): {exc.msg}", line=line) from None
    if root.tag != f"{{{_NS['atom']}}}feed":
        raise ArxivLoadError(source, f"not an Atom feed (root element {root.tag!r})", line=1)
    return [
        _atom_entry(entry, f"{source}: entry {n}")
        for n, entry in enumerate(root.iterfind("atom:entry", _NS), start=1)
    ]


def atom_files(directory: str | Path) -> list[Path]:
    """Saved responses in name order (the fetcher names them by time, so newer wins)."""
    directory = Path(directory)
    if directory.is_file():
        raise ArxivLoadError(directory, "is a file, expected a directory of saved Atom responses")
    if not directory.is_dir():
        raise ArxivLoadError(directory, "no such directory of saved Atom responses")
    return sorted(p for p in directory.rglob("*") if p.suffix in (".xml", ".atom") and p.is_file())


def read_atom_dir(directory: str | Path) -> Iterator[PaperRecord]:
    files = atom_files(directory)
    if not files:
        raise ArxivLoadError(directory, "no saved Atom responses (*.atom or *.xml files) in it")
    for path in files:
        with _arxiv_errors():
            content = read_bytes(path, max_bytes=MAX_ATOM_BYTES)
        yield from parse_atom(content, str(path))


# -- the API, through the arxiv package ---------------------------------------


@dataclass(frozen=True)
class ArxivQuery:
    """What to ask the API for: categories OR-ed, keywords OR-ed, a submission-date window."""

    categories: tuple[str, ...] = DEFAULT_CATEGORIES
    keywords: tuple[str, ...] = DEFAULT_KEYWORDS
    submitted_from: dt.date | None = None
    submitted_to: dt.date | None = None
    max_results: int | None = None

    def search_query(self) -> str:
        parts = []
        if self.categories:
            parts.append("(" + " OR ".join(f"cat:{c}" for c in self.categories) + ")")
        if self.keywords:
            terms = [f'abs:"{k}"' if " " in k else f"abs:{k}" for k in self.keywords]
            parts.append("(" + " OR ".join(terms) + ")")
        if self.submitted_from or self.submitted_to:
            start = (self.submitted_from or dt.date(1991, 1, 1)).strftime("%Y%m%d") + "0000"
            end = (self.submitted_to or dt.date(2099, 12, 31)).strftime("%Y%m%d") + "2359"
            parts.append(f"submittedDate:[{start} TO {end}]")
        if not parts:
            raise ArxivLoadError("arXiv query", "needs categories, keywords or a date window")
        return " AND ".join(parts)


def _record_from_result(result: Any, origin: str) -> PaperRecord:
    """An `arxiv.Result` as a PaperRecord (the package parsed it; we only normalise)."""
    affiliations = [a for author in result.authors for a in getattr(author, "affiliation", [])]
    return PaperRecord(
        arxiv_id=normalize_arxiv_id(result.entry_id),
        title=_squash(result.title),
        abstract=_squash(result.summary),
        authors=tuple(_squash(a.name) for a in result.authors if a.name),
        affiliations=tuple(dict.fromkeys(_squash(a) for a in affiliations)),
        categories=tuple(result.categories),
        primary_category=result.primary_category or None,
        published_date=result.published.date() if result.published else None,
        updated_date=result.updated.date() if result.updated else None,
        comment=_squash(result.comment) or None,
        origin=origin,
    )


class ArxivFetcher:
    """The one way Uptake reaches the arXiv API.

    Politeness is the `arxiv` package's (`page_size`, `delay_seconds`,
    `num_retries`); this class adds a request timeout (a timeout becomes a
    retryable failure), stores every raw response under `cache_dir/responses`
    (readable later as an Atom directory, offline), and keeps what it has seen
    in `cache_dir/state.json`, so that a re-run asks only for what is new:
    ids already cached are not requested again, and a query stops paging once
    it reaches papers not updated since the last complete run.
    """

    def __init__(
        self,
        cache_dir: str | Path | None = None,
        *,
        api_url: str = DEFAULT_API_URL,
        page_size: int = 100,
        delay_seconds: float = 3.0,
        num_retries: int = 3,
        timeout: float = 30.0,
    ):
        import arxiv  # imported here so offline loading works without the package's import cost

        self.cache_dir = Path(cache_dir) if cache_dir else arxiv_cache_dir()
        self.responses = self.cache_dir / "responses"
        self.responses.mkdir(parents=True, exist_ok=True)
        self._state_path = self.cache_dir / "state.json"
        self.requests_made = 0
        self._arxiv = arxiv
        self.client = arxiv.Client(page_size=page_size, delay_seconds=delay_seconds, num_retries=num_retries)
        self.client.query_url_format = api_url
        # The package exposes no hook for the raw bytes or a timeout; its session is the seam.
        self.client._session = _RecordingSession(self, timeout)

    # -- state -------------------------------------------------------------

    def _state(self) -> dict:
        if not self._state_path.exists():
            return {"ids": {}, "queries": {}}
        try:
            return json.loads(self._state_path.read_text(encoding="utf-8"))
        except json.JSONDecodeError as exc:
            raise ArxivLoadError(
                self._state_path, f"unreadable cache state ({exc.msg})", line=exc.lineno
            ) from None

    def _save_state(self, state: dict) -> None:
        tmp = self._state_path.with_suffix(".tmp")
        tmp.write_text(json.dumps(state, indent=0, sort_keys=True), encoding="utf-8")
        os.replace(tmp, self._state_path)  # atomic: an interrupted run never leaves half a file

    def _save_response(self, url: str, content: bytes) -> Path:
        stamp = dt.datetime.now(dt.UTC).strftime("%Y%m%dT%H%M%S%f")
        path = self.responses / f"{stamp}-{hashlib.sha1(url.encode()).hexdigest()[:12]}.atom"
        path.write_bytes(content)
        self.requests_made += 1
        return path

    # -- fetching ----------------------------------------------------------

    def fetch_ids(self, ids: Iterable[str], *, refresh: bool = False) -> Iterator[PaperRecord]:
        """Papers by id; ids already in the cache are skipped unless `refresh`."""
        wanted = list(dict.fromkeys(normalize_arxiv_id(i) for i in ids))
        state = self._state()
        todo = wanted if refresh else [i for i in wanted if i not in state["ids"]]
        for start in range(0, len(todo), self.client.page_size):
            chunk = todo[start : start + self.client.page_size]
            search = self._arxiv.Search(id_list=chunk, max_results=len(chunk))
            for result in self._results(search):
                record = _record_from_result(result, f"arXiv API id_list ({result.entry_id})")
                state["ids"][record.arxiv_id] = record.updated_date.isoformat() if record.updated_date else ""
                yield record
            for arxiv_id in chunk:  # asked and not answered: not asked again unless `refresh`
                state["ids"].setdefault(arxiv_id, "")
            self._save_state(state)

    def fetch_query(self, query: ArxivQuery, *, refresh: bool = False) -> Iterator[PaperRecord]:
        """Papers matching `query`, newest update first, stopping at the last complete run's mark."""
        text = query.search_query()
        state = self._state()
        mark = None if refresh else state["queries"].get(text)
        search = self._arxiv.Search(
            query=text,
            max_results=query.max_results,
            sort_by=self._arxiv.SortCriterion.LastUpdatedDate,
            sort_order=self._arxiv.SortOrder.Descending,
        )
        newest = mark
        for result in self._results(search):
            updated = result.updated.isoformat()
            if mark is not None and updated <= mark:
                break  # everything further down was seen by the last complete run
            newest = max(newest or updated, updated)
            record = _record_from_result(result, f"arXiv API query {text!r}")
            state["ids"][record.arxiv_id] = record.updated_date.isoformat() if record.updated_date else ""
            yield record
        if newest is not None:
            state["queries"][text] = newest
        self._save_state(state)

    def _results(self, search: Any) -> Iterator[Any]:
        try:
            yield from self.client.results(search)
        except self._arxiv.ArxivError as exc:
            raise ArxivLoadError("arXiv API", f"{exc} after {self.client.num_retries} retries") from None


class _RecordingSession:
    """A requests session that times out, turns timeouts into retryable 504s, and saves every 200."""

    def __init__(self, fetcher: ArxivFetcher, timeout: float):
        import requests

        self._requests = requests
        self._session = requests.Session()
        self._fetcher = fetcher
        self._timeout = timeout

    def get(self, url: str, **kwargs: Any):
        kwargs.setdefault("timeout", self._timeout)
        try:
            response = self._session.get(url, **kwargs)
        except self._requests.exceptions.ConnectionError as exc:
            # Retrying a host that cannot be reached only waits longer to say the same thing.
            host = urllib.parse.urlsplit(url).netloc
            reason = type(exc).__name__
            raise ArxivLoadError("arXiv API", f"cannot reach {host} ({reason}): no network?") from None
        except self._requests.exceptions.Timeout:
            response = self._requests.Response()
            response.status_code = 504  # the package retries non-200 answers
            response.url = url
            return response
        if response.status_code == 200:
            self._fetcher._save_response(url, response.content)
        return response


# -- records ---------------------------------------------------------------


@dataclass
class PaperAnalysis:
    """What the link layer concluded about a paper: props for the node, edges with evidence."""

    props: dict[str, Any] = field(default_factory=dict)
    records: list[Record] = field(default_factory=list)


Analyzer = Callable[[PaperRecord], PaperAnalysis]


def _year(paper: PaperRecord) -> int | None:
    if paper.published_date:
        return paper.published_date.year
    month = year_month(paper.arxiv_id)
    return int(month[:4]) if month else None


class PaperAnalyzer:
    """Screening, the study's features, proposed methods and organisations of one paper.

    Built once from the catalog's methods and organisations. A proposed method
    the catalog does not know becomes a new Method node only when it names a
    training method and the paper was screened as proposing a general method
    (`proposals.creates_method`): otherwise the name is more likely a system,
    benchmark or model.
    """

    def __init__(self, methods: Iterable = (), organizations: Iterable = ()):
        self._proposals = ProposalFinder(methods)
        self._organizations = OrganizationMatcher(organizations)

    def __call__(self, paper: PaperRecord) -> PaperAnalysis:
        screening = screen_paper(paper.title, paper.abstract, paper.headings, _year(paper))
        features = extract_features(paper.title, paper.abstract, paper.comment)
        orgs = self._organizations.find(paper.affiliations)
        analysis = PaperAnalysis(
            props={
                "is_rl_llm": screening.is_rl_llm,
                "is_general_method": screening.is_general_method,
                "screening_confidence": screening.confidence,
                "screening_reasons": screening.reasons(),
                "screened_on": screening.input,
                "max_policy_params_b": features.max_policy_params_b,
                "loss_changes": list(features.loss_changes),
                "changes_existing_loss": features.changes_existing_loss,
                "code_url": features.code_url,
                "organizations": [o.slug for o in orgs] or None,
            }
        )
        key = ("Paper", paper.arxiv_id)
        for org in orgs:
            evidence = Evidence(
                "affiliation", f"arXiv:{paper.arxiv_id} authors", org.words, "affiliation-name", 0.9
            )
            analysis.records.append(
                Edge("AFFILIATED_WITH", key, ("Organization", org.slug), evidence.props(), paper.origin)
            )
        for proposal in self._proposals.find(paper.arxiv_id, paper.title, paper.abstract):
            if not proposal.known and not creates_method(proposal, screening):
                continue
            if not proposal.known:
                aliases = [a for a in (proposal.name, proposal.long_name) if a]
                props = {
                    "name": proposal.name,
                    "aliases": aliases,
                    "arxiv_id": paper.arxiv_id,
                    "origin": "extracted",
                }
                analysis.records.append(Node("Method", proposal.slug, props, paper.origin))
            location = f"arXiv:{paper.arxiv_id} {proposal.field}"
            evidence = Evidence(
                proposal.field, location, proposal.text, proposal.rule, round(proposal.confidence, 3)
            )
            analysis.records.append(
                Edge("PROPOSES", key, ("Method", proposal.slug), evidence.props(), paper.origin)
            )
        return analysis


def catalog_analyzer() -> PaperAnalyzer:
    """An analyzer over the shipped catalog; without a readable catalog, screening and features only."""
    try:
        from .catalog import read_catalog

        catalog = read_catalog()
    except (ImportError, ValueError, OSError):
        return PaperAnalyzer()
    return PaperAnalyzer(catalog.methods.values(), catalog.organizations.values())


def paper_node(paper: PaperRecord, extra: dict[str, Any] | None = None) -> Node:
    props: dict[str, Any] = {
        "title": paper.title,
        "abstract": paper.abstract or None,
        "authors": list(paper.authors) or None,
        "categories": list(paper.categories) or None,
        "primary_category": paper.primary_category,
        "published_date": paper.published_date,
        "updated_date": paper.updated_date,
        "year_month": (
            paper.published_date.strftime("%Y-%m") if paper.published_date else year_month(paper.arxiv_id)
        ),
    }
    props["month_date"] = dt.date.fromisoformat(props["year_month"] + "-01") if props["year_month"] else None
    props.update(extra or {})
    return Node("Paper", paper.arxiv_id, props, paper.origin)


def check_inputs(readers: Iterable[Callable[[], Iterator[PaperRecord]]]) -> None:
    """Read every offline input once, to the end, before any is written: bad input writes nothing.

    Parsing is a few percent of a load (screening and writing are the rest), so the second read is cheap.
    """
    for read in readers:
        for _ in read():
            pass
