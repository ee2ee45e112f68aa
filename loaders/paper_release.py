"""The papers of the data release: curated lists' papers and every paper the frameworks cite.

    data/papers/papers.jsonl.gz   one paper per line: arxiv_id, title (where a list gives one),
                                  year_month (from the id), sources (the lists and framework
                                  repositories that name it), source_tags (the headings above it)

Titles are facts about the papers; nothing else of the lists is kept. Gzipped: it is the
largest file of the release and compresses fivefold. `uptake release build --mirrors DIR`
writes it from the lists in `data/paper_lists.jsonl` found among the mirrors.
"""

from __future__ import annotations

import datetime as dt
import gzip
import json
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any

from ..graph.records import Node, Record
from .arxiv import PaperAnalysis, PaperRecord
from .input_error import InputError
from .input_files import check_known_fields
from .link.arxiv_ids import ArxivIdError, normalize_arxiv_id, year_month
from .paper_lists import MergedPaper, merge_papers

PAPERS_FILE = Path(__file__).resolve().parent.parent / "data" / "papers" / "papers.jsonl.gz"
_FIELDS = {"arxiv_id": None, "title": None, "year_month": None, "sources": None, "source_tags": None}


class PaperReleaseError(InputError):
    """The papers file is malformed; the message names the line and field."""


def paper_rows(listed: Iterable[MergedPaper], cited: Iterable[str]) -> list[dict[str, Any]]:
    """One row per paper, sorted by id: the lists' papers, then cited ids no list names."""
    rows: dict[str, dict[str, Any]] = {}
    for p in listed:
        rows[p.arxiv_id] = {
            "arxiv_id": p.arxiv_id,
            "title": p.title,
            "year_month": year_month(p.arxiv_id),
            "sources": p.sources,
            "source_tags": p.tags or None,
        }
    for arxiv_id in cited:
        rows.setdefault(arxiv_id, {"arxiv_id": arxiv_id, "year_month": year_month(arxiv_id)})
    return [{k: v for k, v in rows[i].items() if v is not None} for i in sorted(rows)]


def release_paper_rows(
    mirrors: Path, git_folder: Path | None, methods: Iterable, warn: Callable[[str], None] = print
) -> list[dict[str, Any]]:
    """The catalog's paper lists found among the mirrors, and every paper the git release cites
    (commit links, pull request titles) or a catalog method names."""
    from .paper_lists import ListRepository, read_list, read_list_catalog
    from .release import DATA_FOLDER, find_repository

    lists = read_list_catalog()
    listed = []
    for entry in lists.values():
        try:
            listed += read_list(ListRepository(find_repository(mirrors, entry.repo)), entry)
        except FileNotFoundError:
            warn(f"paper list {entry.repo}: no copy under {mirrors}; skipped")
    folder = Path(git_folder) if git_folder else DATA_FOLDER
    cited = {r["key"] for r in _json_lines(folder / "links.jsonl") if r["label"] == "Paper"}
    for row in _json_lines(folder / "pulls.jsonl"):
        cited |= {link[1] for link in row.get("links") or () if link[0] == "CITES"}
    cited |= {m.arxiv_id for m in methods if m.arxiv_id}
    return paper_rows(merge_papers(listed, [e.repo for e in lists.values()]), cited)


def _json_lines(path: Path) -> Iterator[dict[str, Any]]:
    with path.open(encoding="utf-8") as lines:
        yield from map(json.loads, lines)


def write_papers(rows: list[dict[str, Any]], path: Path | None = None) -> int:
    """Write (replace) the gzipped file; byte-for-byte deterministic (no time in the gzip header)."""
    path = Path(path) if path else PAPERS_FILE
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    with tmp.open("wb") as raw, gzip.GzipFile(fileobj=raw, mode="wb", mtime=0, filename="") as out:
        for row in rows:
            out.write((json.dumps(row, ensure_ascii=False, sort_keys=True) + "\n").encode("utf-8"))
    tmp.replace(path)
    return len(rows)


def read_papers(path: Path | None = None) -> Iterator[tuple[int, dict[str, Any]]]:
    """Checked rows: a valid arXiv id, text fields as text, lists of text."""
    path = Path(path) if path else PAPERS_FILE
    if not path.exists():
        raise FileNotFoundError(f"{path}: no papers in the release; build it with `uptake release build`")
    with gzip.open(path, "rt", encoding="utf-8") as lines:
        for number, line in enumerate(lines, 1):
            try:
                row = json.loads(line)
            except ValueError:
                raise PaperReleaseError(path, "not a JSON object", line=number) from None
            if not isinstance(row, dict):
                raise PaperReleaseError(path, "not a JSON object", line=number)
            check_known_fields(row, _FIELDS, path, line=number)
            _check_row(path, number, row)
            yield number, row


def _check_row(path: Path, number: int, row: dict[str, Any]) -> None:
    try:
        if normalize_arxiv_id(str(row.get("arxiv_id"))) != row.get("arxiv_id"):
            raise ArxivIdError(row.get("arxiv_id"))
    except ArxivIdError:
        raise PaperReleaseError(path, "not a normalised arXiv id", line=number, field="arxiv_id") from None
    for name in ("title", "year_month"):
        if name in row and not (isinstance(row[name], str) and row[name]):
            raise PaperReleaseError(path, "must be a non-empty string", line=number, field=name)
    for name in ("sources", "source_tags"):
        value = row.get(name)
        if value is not None and not (isinstance(value, list) and all(isinstance(v, str) for v in value)):
            raise PaperReleaseError(path, "must be a list of strings", line=number, field=name)


# What only an abstract tells (policy size, loss changes, a code link): unknown from a title.
ABSTRACT_ONLY_FEATURES = {
    "max_policy_params_b": None,
    "loss_changes": None,
    "changes_existing_loss": None,
    "code_url": None,
}


def month_start(year_month_text: str | None) -> dt.date | None:
    """`2025-03` -> 2025-03-01: the day month-precision latencies count from."""
    if not year_month_text:
        return None
    try:
        return dt.date.fromisoformat(year_month_text + "-01")
    except ValueError:
        return None


def paper_records(
    rows: Iterable[tuple[int, dict[str, Any]]],
    analyze: Callable[[PaperRecord], PaperAnalysis] | None,
    *,
    keep_screening: set[str] = frozenset(),
    origin: str = "papers.jsonl.gz",
) -> Iterator[Record]:
    """Paper nodes with title, month and sources; a titled paper is screened on its title and the
    headings it is filed under (`screened_on: title+headings`, or `title` without headings), except
    those in `keep_screening` (screened on an abstract already)."""
    for number, row in rows:
        props: dict[str, Any] = {
            "year_month": row.get("year_month"),
            "month_date": month_start(row.get("year_month")),
            "sources": row.get("sources"),
            "source_tags": row.get("source_tags"),
        }
        where = f"{origin}:{number}"
        title = row.get("title")
        if title and analyze is not None and row["arxiv_id"] not in keep_screening:
            headings = tuple(row.get("source_tags") or ())
            analysis = analyze(PaperRecord(row["arxiv_id"], title, origin=where, headings=headings))
            props |= analysis.props | {"title": title} | ABSTRACT_ONLY_FEATURES
            yield Node("Paper", row["arxiv_id"], props, where)
            yield from analysis.records
        else:
            if title and row["arxiv_id"] not in keep_screening:
                props["title"] = title
            yield Node("Paper", row["arxiv_id"], props, where)
