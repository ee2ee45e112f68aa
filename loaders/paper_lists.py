"""Papers from curated lists kept on GitHub: arXiv ids, titles and the headings they sit under.

A list is a repository of Markdown (tables or bullet lists of links), BibTeX or JSON. Which
lists are read, and which of their files, is data (`data/paper_lists.jsonl`); this module reads
a fetched copy (a work tree or a bare repository) and extracts, per file kind:

* **Markdown**: each line's first arXiv link (`arxiv.org/abs|pdf|html`, `huggingface.co/papers`,
  `alphaxiv.org`); a plain `arXiv:NNNN.NNNNN` only on a line with no such link. Fenced code is
  skipped. The title is the table's Title column when it has one, else the text of the first
  link on the line that reads like a title (not "paper", "pdf" or a badge), else bold text.
  Headings above the line are its tags, without numbering, emoji, years and generic headings.
* **BibTeX**: entries with an arXiv id in `eprint`, `journal`, `url` or `note`; their `title`;
  a `# heading` or `% heading` comment line before them is their tag.
* **JSON**: any object holding an arXiv id (in a URL or an id field) and a `title`.

Only ids, titles and headings are kept: titles are facts about the papers.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from fnmatch import fnmatch
from pathlib import Path
from typing import Any

from .input_error import InputError
from .link.arxiv_ids import find_arxiv_ids
from .repository import run_git

LISTS_FILE = Path(__file__).resolve().parent / "data" / "paper_lists.jsonl"


class PaperListError(InputError):
    """A list or the list catalog cannot be read; the message names the file, line and field."""


@dataclass(frozen=True)
class PaperList:
    """One catalog entry: a repository and the files of it that list papers."""

    repo: str  # owner/name
    paths: tuple[str, ...]  # glob patterns
    kind: str = "curated"  # curated (a list of papers) or framework (a framework's own docs)
    tag_paths: tuple[str, ...] | None = None  # headings become tags only here; None: every path
    skip_paths: tuple[str, ...] = ()


@dataclass(frozen=True)
class ListedPaper:
    arxiv_id: str
    title: str | None
    tags: tuple[str, ...]
    source: str  # the list's repository
    location: str  # path:line


@dataclass
class MergedPaper:
    """One paper as every list that names it says: the first title, all sources and tags."""

    arxiv_id: str
    title: str | None = None
    sources: list[str] = field(default_factory=list)
    tags: list[str] = field(default_factory=list)


# -- the catalog of lists -----------------------------------------------------


def read_list_catalog(path: Path | None = None) -> dict[str, PaperList]:
    path = Path(path) if path else LISTS_FILE
    lists: dict[str, PaperList] = {}
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
            entry = PaperList(
                repo=row["repo"],
                paths=tuple(row["paths"]),
                kind=row.get("kind", "curated"),
                tag_paths=tuple(row["tag_paths"]) if "tag_paths" in row else None,
                skip_paths=tuple(row.get("skip_paths", ())),
            )
        except (ValueError, KeyError, TypeError) as exc:
            raise PaperListError(path, f"not a list entry ({exc})", line=number) from None
        lists[entry.repo.lower()] = entry
    return lists


# Files read from a list the catalog does not know.
DEFAULT_PATHS = ("README.md", "*.bib", "*.json")


def list_entries(names: list[str] | None = None, catalog: Path | None = None) -> list[PaperList]:
    """The catalog's lists, or the named ones (`owner/name`; one the catalog does not know gets
    the default paths)."""
    lists = read_list_catalog(catalog)
    if not names:
        return list(lists.values())
    return [lists.get(name.lower()) or PaperList(name, DEFAULT_PATHS) for name in names]


def list_entry_for(path: Path, name: str | None = None, catalog: Path | None = None) -> PaperList:
    """The catalog entry of a fetched list, by `owner/name` or by the folder's name
    (`owner+name`, `owner+name/repo`, `name`); an unknown list gets the default paths."""
    lists = read_list_catalog(catalog)
    if name:
        return lists.get(name.lower()) or PaperList(name, DEFAULT_PATHS)
    folder = Path(path).resolve()
    folder = folder.parent if folder.name in ("repo", ".git") else folder
    stem = folder.name.removesuffix(".git")
    for entry in lists.values():
        owner, repo = entry.repo.lower().split("/")
        if stem.lower() in (f"{owner}+{repo}", repo):
            return entry
    return PaperList(stem, DEFAULT_PATHS)


# -- reading a fetched repository ----------------------------------------------


class ListRepository:
    """The files of a fetched list: a work tree, or a bare repository read at HEAD."""

    def __init__(self, path: Path):
        self.path = Path(path)
        if not self.path.exists():
            raise FileNotFoundError(f"{path}: no such repository")
        self.bare = not (self.path / ".git").exists() and (self.path / "HEAD").exists()

    def files(self) -> list[str]:
        if self.bare:
            names = run_git(self.path, "ls-tree", "-r", "--name-only", "HEAD", error=PaperListError)
            return names.splitlines()
        return sorted(
            str(p.relative_to(self.path))
            for p in self.path.rglob("*")
            if p.is_file() and ".git" not in p.relative_to(self.path).parts
        )

    def text(self, name: str) -> str:
        if self.bare:
            return run_git(self.path, "show", f"HEAD:{name}", error=PaperListError)
        return (self.path / name).read_text(encoding="utf-8", errors="replace")


def _matches(name: str, patterns: Iterable[str]) -> bool:
    return any(fnmatch(name, p) or fnmatch(name, p.removeprefix("**/")) for p in patterns)


# Translated copies repeat the same papers under headings in another language.
_TRANSLATION = re.compile(r"(?:^|/)(?:zh|zh-hans|zh_cn|i18n|ja|cn)/|_(?:zh|ja|cn|tu)\.\w+$", re.I)


def read_list(repo: ListRepository, entry: PaperList) -> Iterator[ListedPaper]:
    """Every paper the list's files name, in file order."""
    for name in repo.files():
        if not _matches(name, entry.paths) or _matches(name, entry.skip_paths) or _TRANSLATION.search(name):
            continue
        tags = entry.tag_paths is None or _matches(name, entry.tag_paths)
        text = repo.text(name)
        lower = name.lower()
        if lower.endswith((".md", ".mdx", ".rst", ".markdown")):
            found = markdown_papers(text, name, entry.repo)
        elif lower.endswith(".bib"):
            found = bibtex_papers(text, name, entry.repo)
        elif lower.endswith(".json"):
            found = json_papers(text, name, entry.repo)
        else:
            continue
        for p in found:
            yield p if tags else ListedPaper(p.arxiv_id, p.title, (), p.source, p.location)


def merge_papers(papers: Iterable[ListedPaper], sources_order: list[str] | None = None) -> list[MergedPaper]:
    """One record per id; lists earlier in `sources_order` give the title."""
    order = {s.lower(): i for i, s in enumerate(sources_order or [])}
    ranked = sorted(papers, key=lambda p: order.get(p.source.lower(), len(order)))
    merged: dict[str, MergedPaper] = {}
    for p in ranked:
        m = merged.setdefault(p.arxiv_id, MergedPaper(p.arxiv_id))
        m.title = m.title or p.title
        if p.source not in m.sources:
            m.sources.append(p.source)
        m.tags += [t for t in p.tags if t not in m.tags]
    return sorted(merged.values(), key=lambda m: m.arxiv_id)


# -- Markdown -------------------------------------------------------------------

_HEADING = re.compile(r"^(#{1,6})\s+(.+?)\s*#*\s*$")
_FENCE = re.compile(r"^\s*(```|~~~)")
_LINK = re.compile(r"!?\[((?:[^\[\]]|\[[^\]]*\])*)\]\(([^)\s]+)[^)]*\)")
_IMAGE = re.compile(r"!\[[^\]]*\]\([^)]*\)")
_BOLD = re.compile(r"\*\*([^*]{8,}?)\*\*|__([^_]{8,}?)__")
_NUMBERING = re.compile(
    r"^(?:part\s+\d+\s*[:.]?|sec(?:tion)?\s*\d+(?:\.\d+)*\s*[:.]?|\d+(?:\.\d+)*\.?)\s*", re.I
)
_NOT_WORD = re.compile(r"[^\w\s&+/()'.,:-]", re.UNICODE)
_GENERIC_HEADINGS = {
    "papers",
    "paper list",
    "paper",
    "contents",
    "table of contents",
    "news",
    "citation",
    "overview",
    "introduction",
    "contributing",
    "license",
    "acknowledgement",
    "acknowledgements",
    "references",
    "related works",
    "star history",
    "updates",
    "todo",
    "contributors",
}
_YEAR = re.compile(
    r"^(?:19|20)\d{2}(?:\s*[-/.]\s*\d{1,2})?$|^(?:before|after|pre)?\s*(?:19|20)\d{2}s?$", re.I
)
_PLACEHOLDER = re.compile(r"^(?:x+|tbd|todo|misc|others?)$", re.I)
_NOT_A_TITLE = re.compile(
    r"^(?:paper|pdf|arxiv|abs|link|code|github|project|page|website|blog|hf|huggingface|here|\d{4}\.\d{4,5})"
    r"(?:\s*(?:page|link|paper|pdf))?$"
    r"|^arxiv\s*:?\s*\d{4}\.\d{4,5}(?:v\d+)?$"  # the id itself
    r"|^(?:\S+\s+){0,3}(?:papers?|pdf)$",  # "SAPO paper", "Daily Papers": names a link, not a paper
    re.I,
)


def _plain(markdown: str) -> str:
    """Markdown inline text as plain text: images dropped, links to their text, emphasis removed."""
    text = _IMAGE.sub("", markdown)
    text = _LINK.sub(lambda m: m.group(1), text)
    text = re.sub(r"<[^>]+>", "", text)
    text = re.sub(r"[*_`]{1,3}", "", text)
    return re.sub(r"\s+", " ", text).strip(" -|:")


def clean_heading(heading: str) -> str | None:
    """A heading as a tag, or None for generic, year-only and empty headings."""
    text = _plain(heading)
    text = _NOT_WORD.sub("", text).strip()
    text = _NUMBERING.sub("", text).strip(" :.-")
    if not text or _YEAR.match(text) or text.lower() in _GENERIC_HEADINGS or _PLACEHOLDER.match(text):
        return None
    return text


def _title_candidate(text: str) -> str | None:
    title = _plain(text)
    if len(title) < 8 or _NOT_A_TITLE.match(title) or not re.search(r"[A-Za-z]{3}", title):
        return None
    return title


def _table_cells(line: str) -> list[str] | None:
    stripped = line.strip()
    if not stripped.startswith("|"):
        return None
    # A `|` inside a link text or code would split a cell; they are rare enough in titles.
    return [c.strip() for c in stripped.strip("|").split("|")]


def _line_title(line: str, cells: list[str] | None, title_column: int | None, id_start: int) -> str | None:
    if cells is not None and title_column is not None and title_column < len(cells):
        candidate = _title_candidate(cells[title_column])
        if candidate:
            return candidate
    for m in _LINK.finditer(line):
        if m.group(0).startswith("!"):
            continue
        candidate = _title_candidate(m.group(1))
        if candidate and m.start() <= id_start + 200:
            return candidate
    bold = _BOLD.search(line)
    return _title_candidate(bold.group(1) or bold.group(2)) if bold else None


def markdown_papers(text: str, path: str, source: str) -> Iterator[ListedPaper]:
    headings: list[tuple[int, str | None]] = []
    title_column: int | None = None
    in_fence = False
    for number, line in enumerate(text.splitlines(), 1):
        if _FENCE.match(line):
            in_fence = not in_fence
            continue
        if in_fence:
            continue
        heading = _HEADING.match(line)
        if heading:
            level = len(heading.group(1))
            headings = [h for h in headings if h[0] < level] + [(level, clean_heading(heading.group(2)))]
            title_column = None
            continue
        cells = _table_cells(line)
        if cells is not None and not find_arxiv_ids(line, bare=False):
            lowered = [_plain(c).lower() for c in cells]
            if "title" in lowered or "paper" in lowered:
                title_column = lowered.index("title") if "title" in lowered else lowered.index("paper")
            continue
        if cells is None and not line.strip():
            continue
        ids = find_arxiv_ids(line, bare=False)
        urls = [m for m in ids if m.rule == "arxiv-url"]
        found = urls[:1] or [m for m in ids if m.rule == "arxiv-label"][:1]
        if not found:
            continue
        # Level-1 headings name the list itself.
        tags = tuple(dict.fromkeys(h for lvl, h in headings if h and lvl > 1))
        title = _line_title(line, cells, title_column, found[0].start)
        yield ListedPaper(found[0].arxiv_id, title, tags, source, f"{path}:{number}")


# -- BibTeX ---------------------------------------------------------------------

_ENTRY = re.compile(r"@\w+\s*\{", re.I)
_FIELD = re.compile(r"(\w+)\s*=\s*", re.I)
_BIB_COMMENT_HEADING = re.compile(r"^\s*[#%]+\s*(.+?)\s*$")


def _bib_value(text: str, start: int) -> tuple[str, int]:
    """The value at `start` (braced, quoted or bare) and where it ends."""
    if start < len(text) and text[start] == "{":
        depth, i = 0, start
        while i < len(text):
            depth += {"{": 1, "}": -1}.get(text[i], 0)
            if depth == 0:
                return text[start + 1 : i], i + 1
            i += 1
        return text[start + 1 :], len(text)
    if start < len(text) and text[start] == '"':
        end = text.find('"', start + 1)
        end = len(text) if end == -1 else end
        return text[start + 1 : end], end + 1
    m = re.match(r"[^,}\n]*", text[start:])
    return m.group(0).strip(), start + m.end()


def _bib_fields(body: str) -> dict[str, str]:
    fields: dict[str, str] = {}
    pos = 0
    while m := _FIELD.search(body, pos):
        value, pos = _bib_value(body, m.end())
        fields.setdefault(m.group(1).lower(), value)
    return fields


def bibtex_papers(text: str, path: str, source: str) -> Iterator[ListedPaper]:
    tag: str | None = None
    lines = text.splitlines(keepends=True)
    offsets = [0]
    for line in lines:
        offsets.append(offsets[-1] + len(line))
    pos = 0
    for number, line in enumerate(lines, 1):
        if offsets[number - 1] < pos:
            continue  # inside an entry already read
        comment = _BIB_COMMENT_HEADING.match(line)
        if comment and not line.lstrip().startswith("@"):
            tag = clean_heading(comment.group(1))
            continue
        start = _ENTRY.search(line)
        if not start:
            continue
        begin = offsets[number - 1] + start.end()
        body, pos = _bib_value(text, begin - 1)
        fields = _bib_fields(body)
        where = " ".join(fields.get(k, "") for k in ("eprint", "journal", "url", "note", "archiveprefix"))
        ids = find_arxiv_ids(where, bare="arxiv" in where.lower())
        if not ids:
            continue
        title = re.sub(r"\\([&%$#_])", r"\1", fields.get("title", ""))  # LaTeX escapes
        title = re.sub(r"[{}]", "", re.sub(r"\s+", " ", title)).strip() or None
        yield ListedPaper(ids[0].arxiv_id, title, (tag,) if tag else (), source, f"{path}:{number}")


# -- JSON -----------------------------------------------------------------------

_ID_FIELDS = ("arxiv_id", "arxiv", "arxivid", "eprint", "url", "link", "paper_url", "pdf", "paper")


def _json_objects(value: Any) -> Iterator[dict[str, Any]]:
    if isinstance(value, dict):
        yield value
        for v in value.values():
            yield from _json_objects(v)
    elif isinstance(value, list):
        for v in value:
            yield from _json_objects(v)


def json_papers(text: str, path: str, source: str) -> Iterator[ListedPaper]:
    try:
        data = json.loads(text)
    except ValueError as exc:
        raise PaperListError(Path(path), f"not JSON ({exc})") from None
    for index, obj in enumerate(_json_objects(data)):
        title = obj.get("title")
        if not isinstance(title, str) or not title.strip():
            continue
        for name in _ID_FIELDS:
            value = obj.get(name)
            if isinstance(value, str) and (ids := find_arxiv_ids(value, bare=name.startswith("arxiv"))):
                tags = tuple(t for t in map(clean_heading, _json_tags(obj)) if t)
                yield ListedPaper(ids[0].arxiv_id, " ".join(title.split()), tags, source, f"{path}#{index}")
                break


def _json_tags(obj: dict[str, Any]) -> list[str]:
    for name in ("category", "categories", "tags", "section", "topic"):
        value = obj.get(name)
        if isinstance(value, str):
            return [value]
        if isinstance(value, list):
            return [v for v in value if isinstance(v, str)]
    return []
