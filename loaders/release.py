"""The data release: what the git miner found, as small, sorted JSON Lines files in `data/git/`.

Only derived facts are kept (no copied text): for each framework the mined head, its releases,
the commits that implement or mention a catalog method or cite a paper (sha, dates, PR number,
first release, line counts) and the links themselves (evidence path:line, matched identifier,
rule, confidence). Loading it gives a new user the tracker offline; `uptake update` refreshes
the same facts from live repositories.

    commits.jsonl   one linked commit per line, and every commit mined without some files'
                    contents (`missing_files`, the first `missing_paths`): such a commit is
                    incomplete, and `uptake load git` mines it again when its files can be read
    links.jsonl     one IMPLEMENTS / MENTIONS / SPELLS link per line (SPELLS: an identifier the
                    framework uses for a method, learned from a change); a link to a method may
                    say its `implementation` (code or recipe) and whether it is `vendored`
    releases.jsonl  one tag per line
    heads.jsonl     one mined framework per line

Each file may instead be stored gzipped (`commits.jsonl.gz`; `uptake release build --gzip`),
which loading reads alike; a folder holding both spellings of one file is refused.
"""

from __future__ import annotations

import gzip
import json
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any

from ..graph.records import Edge, Evidence, Node, Record
from .git import MAX_PATHS, RepositoryFacts, iso_seconds
from .input_error import InputError
from .input_files import INT64_MAX, check_known_fields, json_objects

DATA_FOLDER = Path(__file__).resolve().parent.parent / "data" / "git"
FILES = ("heads.jsonl", "releases.jsonl", "commits.jsonl", "links.jsonl")


class ReleaseError(InputError):
    """A data release file is missing or malformed; the message names the file, line and field."""


# --- writing -------------------------------------------------------------------------------------


def release_rows(facts: RepositoryFacts) -> dict[str, list[dict[str, Any]]]:
    """The rows one mined repository contributes to each file (pure)."""
    fw = facts.framework
    linked = [c for c in facts.commits if c.links or c.incomplete]
    rows: dict[str, list[dict[str, Any]]] = {name: [] for name in FILES}
    rows["heads.jsonl"].append({"framework": fw, "head": facts.head, "commits": len(facts.commits)})
    for tag in facts.tags:
        rows["releases.jsonl"].append(
            {"framework": fw, "tag": tag.name, "date": tag.date, "commit": tag.commit}
        )
    for c in linked:
        rows["commits.jsonl"].append(
            {
                "framework": fw,
                "sha": c.sha,
                "author_date": c.author_date,
                "commit_date": c.commit_date,
                "pr_number": c.pr_number,
                "files_changed": c.files_changed,
                "insertions": c.insertions,
                "deletions": c.deletions,
                "is_merge": len(c.parents) > 1,
                "first_release": facts.first_release.get(c.sha),
                "excluded": facts.excluded.get(c.sha),
            }
            # Only on incomplete commits, so a release from whole copies keeps its format.
            | ({"missing_files": len(c.missing_paths), "missing_paths": c.missing_paths[:MAX_PATHS]}
               if c.incomplete else {})
        )  # fmt: skip
        for link in c.links:
            rows["links.jsonl"].append(
                {"sha": c.sha, "rel": link.rel, "label": link.label, "key": link.key}
                | link.evidence().props()
            )
    return rows


_SORT_KEYS = {
    "heads.jsonl": ("framework",),
    "releases.jsonl": ("framework", "date", "tag"),
    "commits.jsonl": ("framework", "commit_date", "sha"),
    "links.jsonl": ("sha", "label", "key", "rel"),
}


def write_release(
    all_facts: Iterable[RepositoryFacts], folder: Path | None = None, *, compress: bool = False
) -> dict[str, int]:
    """Write (replace) the release files; sorted and byte-for-byte deterministic, gzipped with
    `compress` (no name or time in the gzip header, so the bytes stay deterministic too)."""
    folder = Path(folder) if folder else DATA_FOLDER
    folder.mkdir(parents=True, exist_ok=True)
    merged: dict[str, list[dict[str, Any]]] = {name: [] for name in FILES}
    for facts in all_facts:
        for name, rows in release_rows(facts).items():
            merged[name].extend(rows)
    counts = {}
    for name, rows in merged.items():
        keys = _SORT_KEYS[name]
        rows.sort(key=lambda r: tuple(str(r.get(k)) for k in keys))
        text = "".join(json.dumps(row, ensure_ascii=False, sort_keys=True) + "\n" for row in rows)
        data = text.encode("utf-8")
        final, other = (name + ".gz", name) if compress else (name, name + ".gz")
        if compress:
            data = gzip.compress(data, compresslevel=9, mtime=0)
        tmp = folder / (final + ".tmp")
        tmp.write_bytes(data)
        tmp.replace(folder / final)  # a half-written file never replaces a good one
        (folder / other).unlink(missing_ok=True)  # one spelling of each file, never a stale one
        counts[name] = len(rows)
    return counts


# --- reading -------------------------------------------------------------------------------------


# What each field of a release row must hold: a check and the words for the error.
_TEXT = (lambda v: isinstance(v, str) and v != "", "a non-empty string")
_DATE = (lambda v: isinstance(v, str) and iso_seconds(v) is not None, "an ISO timestamp")
_COUNT = (lambda v: not isinstance(v, bool) and isinstance(v, int) and 0 <= v <= INT64_MAX, "a count")
_FLAG = (lambda v: isinstance(v, bool), "true or false")
_SHARE = (lambda v: not isinstance(v, bool) and isinstance(v, int | float) and 0 <= v <= 1, "a number 0-1")
_SOME = (lambda v: _COUNT[0](v) and v > 0, "a count above 0")
_PATHS = (
    lambda v: isinstance(v, list) and 0 < len(v) <= MAX_PATHS and all(isinstance(p, str) and p for p in v),
    f"a list of 1 to {MAX_PATHS} paths",
)


def _one_of(*allowed: str) -> tuple[Callable[[Any], bool], str]:
    return (lambda v: v in allowed), "one of " + ", ".join(allowed)


_COLUMNS: dict[str, dict[str, tuple[Callable[[Any], bool], str]]] = {
    "releases.jsonl": {"framework": _TEXT, "tag": _TEXT, "date": _DATE, "commit": _TEXT},
    "commits.jsonl": {
        "framework": _TEXT,
        "sha": _TEXT,
        "author_date": _DATE,
        "commit_date": _DATE,
        "pr_number": _COUNT,
        "files_changed": _COUNT,
        "insertions": _COUNT,
        "deletions": _COUNT,
        "is_merge": _FLAG,
        "first_release": _TEXT,
        "excluded": _TEXT,
        "missing_files": _SOME,
        "missing_paths": _PATHS,
    },
    "links.jsonl": {
        "sha": _TEXT,
        "rel": _one_of("IMPLEMENTS", "MENTIONS", "SPELLS"),
        "label": _one_of("Method", "Paper"),
        "key": _TEXT,
        "source_kind": _TEXT,
        "location": _TEXT,
        "identifier": _TEXT,
        "rule": _TEXT,
        "confidence": _SHARE,
        "implementation": _one_of("code", "recipe"),
        "vendored": _FLAG,
    },
}


def _rows(folder: Path, name: str, required: tuple[str, ...]) -> Iterator[tuple[int, dict[str, Any]]]:
    """Checked rows of one release file: no unknown field, every field of its type or null."""
    path = release_file(folder, name)
    columns = _COLUMNS[name]
    try:
        for number, row in json_objects(path):
            check_known_fields(row, columns, path, line=number)
            for field, (valid, expected) in columns.items():
                value = row.get(field)
                if value is None:
                    if field in required:
                        raise ReleaseError(path, "is missing", line=number, field=field)
                elif not valid(value):
                    raise ReleaseError(path, f"must be {expected}, got {value!r}", line=number, field=field)
            yield number, row
    except ReleaseError:
        raise
    except InputError as exc:
        raise ReleaseError(exc.source, exc.message, line=exc.line, field=exc.field) from None


def release_file(folder: Path, name: str) -> Path:
    """The file `name` of a release folder, as written plain or gzipped."""
    plain, packed = folder / name, folder / (name + ".gz")
    if plain.exists() and packed.exists():
        raise ReleaseError(folder, f"holds both {name} and {name}.gz; keep one")
    if packed.exists():
        return packed
    if not plain.exists():
        raise ReleaseError(plain, "data release file not found; build it with `uptake release build`")
    return plain


def data_release_records(folder: Path | None = None) -> list[Record]:
    """Every record of the data release, fully read and checked before any is written."""
    folder = Path(folder) if folder else DATA_FOLDER
    records: list[Record] = []
    framework_of: dict[str, str] = {}
    release_ids: dict[tuple[str, str], str] = {}
    for n, r in _rows(folder, "releases.jsonl", ("framework", "tag", "date", "commit")):
        rid = f"{r['framework']}/{r['tag']}"
        release_ids[(r["framework"], r["tag"])] = rid
        origin = f"releases.jsonl:{n}"
        records.append(
            Node(
                "Release",
                rid,
                {
                    "framework": r["framework"],
                    "tag": r["tag"],
                    "release_date": r["date"][:10],
                    "commit_sha": r["commit"],
                },
                origin,
            )  # fmt: skip
        )
        records.append(Edge("PART_OF", ("Release", rid), ("Framework", r["framework"]), {}, origin))
    for n, r in _rows(folder, "commits.jsonl", ("framework", "sha", "commit_date")):
        origin = f"commits.jsonl:{n}"
        framework_of[r["sha"]] = r["framework"]
        props = {
            "framework": r["framework"],
            "author_date": (r.get("author_date") or "")[:10] or None,
            "commit_date": r["commit_date"][:10],
            "committed_at": r["commit_date"],
            "commit_ts": iso_seconds(r["commit_date"]),
            "pr_number": r.get("pr_number"),
            "files_changed": r.get("files_changed"),
            "insertions": r.get("insertions"),
            "deletions": r.get("deletions"),
            "is_merge": r.get("is_merge"),
            "excluded": r.get("excluded"),
        } | _incomplete_props(folder, n, r)
        records.append(Node("Commit", r["sha"], props, origin))
        records.append(Edge("PART_OF", ("Commit", r["sha"]), ("Framework", r["framework"]), {}, origin))
        if r.get("first_release"):
            rid = release_ids.get((r["framework"], r["first_release"]))
            if rid is None:
                raise ReleaseError(
                    release_file(folder, "commits.jsonl"),
                    f"release {r['first_release']!r} is not in releases.jsonl",
                    line=n,
                    field="first_release",
                )
            records.append(Edge("RELEASED_IN", ("Commit", r["sha"]), ("Release", rid), {}, origin))
    for n, r in _rows(folder, "links.jsonl", ("sha", "rel", "label", "key")):
        if r["sha"] not in framework_of:
            raise ReleaseError(
                release_file(folder, "links.jsonl"),
                f"commit {r['sha']} is not in commits.jsonl",
                line=n,
                field="sha",
            )
        evidence = Evidence(
            r.get("source_kind"), r.get("location"), r.get("identifier"), r.get("rule"), r.get("confidence"),
            r.get("implementation"), r.get("vendored"),
        )  # fmt: skip
        records.append(
            Edge(r["rel"], ("Commit", r["sha"]), (r["label"], r["key"]), evidence.props(), f"links.jsonl:{n}")
        )
    return records


def _incomplete_props(folder: Path, line: int, row: dict[str, Any]) -> dict[str, Any]:
    """A commit mined without some files' contents is stored as incomplete; on a whole one the
    flag stays unknown, so loading the release never clears a flag a git mining run set."""
    if row.get("missing_files") is None and row.get("missing_paths") is None:
        return {}
    paths, count = row.get("missing_paths"), row.get("missing_files")
    if paths is None or count is None or count < len(paths):
        raise ReleaseError(
            release_file(folder, "commits.jsonl"),
            "an incomplete commit needs both missing_files and missing_paths (at most missing_files)",
            line=line,
            field="missing_files" if count is None or paths is not None else "missing_paths",
        )
    return {"incomplete": True, "missing_files": count, "missing_paths": paths}


def find_repository(mirrors: Path, repo: str) -> Path:
    """A fetched copy of `owner/name` in a folder of mirrors, in any of the usual layouts."""
    owner, name = repo.split("/")
    mirrors = Path(mirrors)
    for candidate in (
        mirrors / f"{owner}+{name}" / "repo",
        mirrors / f"{owner}+{name}.git",
        mirrors / f"{owner}+{name}",
        mirrors / owner / name,
        mirrors / name,
    ):
        if candidate.exists():
            return candidate
    raise FileNotFoundError(f"no copy of {repo} under {mirrors}")
