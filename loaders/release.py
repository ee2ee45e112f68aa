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
    pulls.jsonl     one pull request per line, known from its merge or squash commit's subject
                    (number, title, merge commit and date), for every commit in commits.jsonl
    fixes.jsonl     one "this commit fixes issue N" per line, from the commit's message
    failures.jsonl  one failure a fix commit's subject states per line (symptom, rule, matched text)
    rules.jsonl     one contribution rule per line, read from the tree at the mined head

Commits that fix an issue or state a failure are in commits.jsonl even when they link nothing,
so the path failure -> fixing commit -> release is whole offline. What the history cannot know
(an issue's title, a thread's comments) comes from the GitHub loader onto the same nodes.

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
from .git import MAX_PATHS, RepositoryFacts, iso_seconds, tags_digest
from .input_error import InputError
from .input_files import INT64_MAX, check_known_fields, json_objects
from .link.commits import stored_rel
from .link.failures import FailureVerdict
from .link.history import (
    CommitFailure,
    HistoryCommit,
    HistoryFacts,
    IssueFix,
    failure_key,
    history_facts,
)
from .link.methods import MethodMatcher
from .repository import run_git

DATA_FOLDER = Path(__file__).resolve().parent.parent / "data" / "git"
FILES = (
    "heads.jsonl",
    "releases.jsonl",
    "commits.jsonl",
    "links.jsonl",
    "pulls.jsonl",
    "fixes.jsonl",
    "failures.jsonl",
    "rules.jsonl",
)
# Read after the git facts by `data_release_records`; a release written before they existed
# loads without them.
HISTORY_FILES = FILES[4:]


class ReleaseError(InputError):
    """A data release file is missing or malformed; the message names the file, line and field."""


# --- writing -------------------------------------------------------------------------------------


def framework_history(
    facts: RepositoryFacts, repo: str, matcher: MethodMatcher | None, git_dir: Path | None = None
) -> HistoryFacts:
    """Pull requests, fixes and stated failures in one mined history. The miner keeps only
    subjects; with `git_dir` the whole messages are read (closing keywords sit in bodies, and a
    merge commit's title is its second line)."""
    messages = {c.sha: c.message for c in _whole_messages(git_dir, facts.head)} if git_dir else {}
    commits = (HistoryCommit(c.sha, c.commit_date, messages.get(c.sha, c.message)) for c in facts.commits)
    return history_facts(commits, repo, matcher)


def new_history(
    git_dir: Path, repo: str, matcher: MethodMatcher | None, head: str, since: str | None
) -> HistoryFacts:
    """Pull requests, fixes and stated failures in the commits after `since` up to `head` (all of
    them when `since` is None): what a live mining run adds to the graph beside its commits."""
    return history_facts(_whole_messages(git_dir, head, since), repo, matcher)


def _whole_messages(git_dir: Path, head: str, since: str | None = None) -> Iterator[HistoryCommit]:
    out = run_git(git_dir, "log", head, *([f"^{since}"] if since else []), "--format=%H%x1f%cI%x1f%B%x1e")
    for entry in out.split("\x1e"):
        sha, sep, rest = entry.strip("\n").partition("\x1f")
        commit_date, sep2, message = rest.partition("\x1f")
        if sep and sep2:
            yield HistoryCommit(sha, commit_date, message)


def history_fact_records(framework: str, history: HistoryFacts, origin: str) -> list[Record]:
    """The graph records of one history's pull requests, fixes and failures, the same as loading
    them from release files gives."""
    records: list[Record] = []
    for p in history.pulls:
        records += _pull_records(_pull_row(framework, p), p.sha, origin)
    for f in history.fixes:
        records += _fix_records(_fix_row(framework, f), f.sha, origin)
    for f in history.failures:
        records += _failure_records(_failure_row(framework, f), f.sha, origin)
    return records


def release_rows(
    facts: RepositoryFacts, history: HistoryFacts | None = None, rules: Iterable[Record] = ()
) -> dict[str, list[dict[str, Any]]]:
    """The rows one mined repository contributes to each file (pure)."""
    fw = facts.framework
    history = history or HistoryFacts([], [], [])
    fixing = {f.sha for f in history.fixes} | {f.sha for f in history.failures}
    linked = [c for c in facts.commits if c.links or c.incomplete or c.sha in fixing]
    rows: dict[str, list[dict[str, Any]]] = {name: [] for name in FILES}
    rows["heads.jsonl"].append(
        {"framework": fw, "head": facts.head, "commits": len(facts.commits), "tags": tags_digest(facts.tags)}
    )
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
    shipped = {c.sha for c in linked}
    rows["pulls.jsonl"] = [_pull_row(fw, p) for p in history.pulls if p.sha in shipped]
    rows["fixes.jsonl"] = [_fix_row(fw, f) for f in history.fixes]
    rows["failures.jsonl"] = [_failure_row(fw, f) for f in history.failures]
    rows["rules.jsonl"] = [{"id": n.key} | n.props for n in rules if isinstance(n, Node)]
    return rows


def _pull_row(framework: str, pull) -> dict[str, Any]:
    row = {
        "framework": framework,
        "number": pull.number,
        "title": pull.title or None,
        "sha": pull.sha,
        "merged_at": pull.merged_at,
        "rule": pull.rule,
        "links": [list(link) for link in pull.links] or None,
    }
    return {k: v for k, v in row.items() if v is not None}


def _fix_row(framework: str, fix: IssueFix) -> dict[str, Any]:
    return {"framework": framework, "sha": fix.sha, "issue": fix.issue, "pull": fix.pull} | {
        "identifier": fix.identifier, "rule": fix.rule, "confidence": round(fix.confidence, 3)
    }  # fmt: skip


def _failure_row(framework: str, failure: CommitFailure) -> dict[str, Any]:
    v: FailureVerdict = failure.verdict
    row = {
        "framework": framework,
        "sha": failure.sha,
        "issue": failure.issue,
        "date": failure.commit_date,
        "symptoms": list(v.symptoms),
        "rule": v.rule,
        "identifier": v.identifier,
        "confidence": v.confidence,
        "component": v.component,
        "method": v.method,
        "method_identifier": v.method_identifier,
        "method_rule": v.method_rule,
        "method_confidence": v.method_confidence,
    }
    return {k: value for k, value in row.items() if value is not None}


_SORT_KEYS = {
    "heads.jsonl": ("framework",),
    "releases.jsonl": ("framework", "date", "tag"),
    "commits.jsonl": ("framework", "commit_date", "sha"),
    "links.jsonl": ("sha", "label", "key", "rel"),
    "pulls.jsonl": ("framework", "number"),
    "fixes.jsonl": ("framework", "sha", "issue"),
    "failures.jsonl": ("framework", "date", "sha"),
    "rules.jsonl": ("id",),
}
_NUMERIC_SORT = {"number", "issue"}


def write_release(
    all_facts: Iterable[RepositoryFacts],
    folder: Path | None = None,
    extras: dict[str, tuple[HistoryFacts, list[Record]]] | None = None,
    *,
    compress: bool = False,
) -> dict[str, int]:
    """Write (replace) the release files; sorted and byte-for-byte deterministic, gzipped with
    `compress` (no name or time in the gzip header, so the bytes stay deterministic too).
    `extras` holds each framework's history facts and contribution rules."""
    folder = Path(folder) if folder else DATA_FOLDER
    folder.mkdir(parents=True, exist_ok=True)
    merged: dict[str, list[dict[str, Any]]] = {name: [] for name in FILES}
    for facts in all_facts:
        history, rules = (extras or {}).get(facts.framework, (None, []))
        for name, rows in release_rows(facts, history, rules).items():
            merged[name].extend(rows)
    counts = {}
    for name, rows in merged.items():
        keys = _SORT_KEYS[name]
        rows.sort(key=lambda r: tuple(_sort_value(r.get(k), k) for k in keys))
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


def _sort_value(value: Any, key: str) -> Any:
    if key in _NUMERIC_SORT:
        return (0, value) if isinstance(value, int) else (1, 0)
    return str(value)


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


_WORDS = (lambda v: isinstance(v, list) and v and all(isinstance(w, str) and w for w in v), "a list of words")


_TITLE_LINKS = (
    lambda v: (
        isinstance(v, list)
        and all(
            isinstance(x, list)
            and len(x) == 5
            and x[0] in ("CITES", "NAMES")
            and all(isinstance(y, str) for y in x[1:4])
            for x in v
        )
    ),
    "a list of [CITES|NAMES, key, identifier, rule, confidence]",
)


def _one_of(*allowed: str) -> tuple[Callable[[Any], bool], str]:
    return (lambda v: v in allowed), "one of " + ", ".join(allowed)


_COLUMNS: dict[str, dict[str, tuple[Callable[[Any], bool], str]]] = {
    "heads.jsonl": {"framework": _TEXT, "head": _TEXT, "commits": _COUNT, "tags": _TEXT},
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
    "pulls.jsonl": {
        "framework": _TEXT,
        "number": _SOME,
        "title": _TEXT,
        "sha": _TEXT,
        "merged_at": _DATE,
        "rule": _TEXT,
        "links": _TITLE_LINKS,
    },
    "fixes.jsonl": {
        "framework": _TEXT,
        "sha": _TEXT,
        "issue": _SOME,
        "pull": _SOME,
        "identifier": _TEXT,
        "rule": _TEXT,
        "confidence": _SHARE,
    },
    "failures.jsonl": {
        "framework": _TEXT,
        "sha": _TEXT,
        "issue": _SOME,
        "date": _DATE,
        "symptoms": _WORDS,
        "rule": _TEXT,
        "identifier": _TEXT,
        "confidence": _SHARE,
        "component": _TEXT,
        "method": _TEXT,
        "method_identifier": _TEXT,
        "method_rule": _TEXT,
        "method_confidence": _SHARE,
    },
    "rules.jsonl": {
        "id": _TEXT,
        "framework": _TEXT,
        "kind": _TEXT,
        "value": _TEXT,
        "source_path": _TEXT,
        "commit_sha": _TEXT,
        "rule_date": (lambda v: isinstance(v, str) and len(v) == 10 and iso_seconds(v) is not None, "a date"),
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


def release_heads(folder: Path | None = None) -> dict[str, tuple[str, str | None]]:
    """Each framework's mined head and tags digest as the release was built: a store loaded from
    the release has mined the history up to there, so `uptake update` reads only what came after."""
    folder = Path(folder) if folder else DATA_FOLDER
    return {
        r["framework"]: (r["head"], r.get("tags"))
        for _, r in _rows(folder, "heads.jsonl", ("framework", "head"))
    }


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
            Edge(
                stored_rel(r["rel"], bool(evidence.vendored)),
                ("Commit", r["sha"]),
                (r["label"], r["key"]),
                evidence.props(),
                f"links.jsonl:{n}",
            )
        )
    records += history_records(folder, framework_of)
    return records


# --- the history's threads, failures and rules ----------------------------------------------------


def history_records(folder: Path, framework_of: dict[str, str]) -> list[Record]:
    """Records of pulls, fixes, failures and rules; each file is optional (older releases)."""
    records: list[Record] = []
    present = {name for name in HISTORY_FILES if any((folder / n).exists() for n in (name, name + ".gz"))}

    def commit_of(name: str, line: int, sha: str) -> str:
        if sha not in framework_of:
            raise ReleaseError(
                release_file(folder, name), f"commit {sha} is not in commits.jsonl", line=line, field="sha"
            )
        return sha

    if "pulls.jsonl" in present:
        for n, r in _rows(folder, "pulls.jsonl", ("framework", "number", "sha", "merged_at", "rule")):
            records += _pull_records(r, commit_of("pulls.jsonl", n, r["sha"]), f"pulls.jsonl:{n}")
    if "fixes.jsonl" in present:
        for n, r in _rows(folder, "fixes.jsonl", ("framework", "sha", "issue", "rule")):
            records += _fix_records(r, commit_of("fixes.jsonl", n, r["sha"]), f"fixes.jsonl:{n}")
    if "failures.jsonl" in present:
        for n, r in _rows(folder, "failures.jsonl", ("framework", "sha", "date", "symptoms", "rule")):
            records += _failure_records(r, commit_of("failures.jsonl", n, r["sha"]), f"failures.jsonl:{n}")
    if "rules.jsonl" in present:
        for n, r in _rows(folder, "rules.jsonl", ("id", "framework", "kind")):
            origin = f"rules.jsonl:{n}"
            props = {k: v for k, v in r.items() if k != "id"}
            records.append(Node("ContributionRule", r["id"], props, origin))
            records.append(
                Edge("HAS_RULE", ("Framework", r["framework"]), ("ContributionRule", r["id"]), {}, origin)
            )
    return records


def _thread_props(framework: str, number: int) -> dict[str, Any]:
    return {"framework": framework, "number": number, "source_kind": "git"}


def _pull_records(r: dict[str, Any], sha: str, origin: str) -> list[Record]:
    key = f"{r['framework']}#{r['number']}"
    props = _thread_props(r["framework"], r["number"]) | {
        "title": r.get("title"),
        "state": "closed",
        "merged_date": r["merged_at"][:10],
        "closed_date": r["merged_at"][:10],
        "merge_commit_sha": sha,
    }
    evidence = Evidence("git", f"commit {sha[:12]} subject", f"#{r['number']}", r["rule"], 1.0)
    records: list[Record] = [
        Node("PullRequest", key, props, origin),
        Edge("PART_OF", ("PullRequest", key), ("Framework", r["framework"]), {}, origin),
        Edge("MERGED_AS", ("PullRequest", key), ("Commit", sha), evidence.props(), origin),
    ]
    for rel, target, identifier, rule, confidence in r.get("links") or ():
        label = "Paper" if rel == "CITES" else "Method"
        found = Evidence("git", f"{key} title", identifier, rule, confidence)
        records.append(Edge(rel, ("PullRequest", key), (label, target), found.props(), origin))
    return records


def _fix_records(r: dict[str, Any], sha: str, origin: str) -> list[Record]:
    fw, issue = r["framework"], f"{r['framework']}#{r['issue']}"
    evidence = Evidence(
        "git", f"commit {sha[:12]} message", r.get("identifier"), r["rule"], r.get("confidence")
    )
    records: list[Record] = [
        Node("Issue", issue, _thread_props(fw, r["issue"]), origin),
        Edge("PART_OF", ("Issue", issue), ("Framework", fw), {}, origin),
        Edge("FIXES", ("Commit", sha), ("Issue", issue), evidence.props(), origin),
    ]
    if r.get("pull"):
        pull = f"{fw}#{r['pull']}"
        records.append(Edge("FIXES", ("PullRequest", pull), ("Issue", issue), evidence.props(), origin))
    return records


def _failure_records(r: dict[str, Any], sha: str, origin: str) -> list[Record]:
    fw = r["framework"]
    key = failure_key(fw, sha, r.get("issue"))
    location = f"commit {sha[:12]} subject"
    props = {
        "symptom": r["symptoms"][0],
        "symptoms": r["symptoms"],
        "component": r.get("component"),
        "framework": fw,
        "reported_date": r["date"][:10],
        "rule": r["rule"],
        "confidence": r.get("confidence"),
        "location": location,
        "identifier": r.get("identifier"),
        "source_kind": "git",
    }
    where = ("Issue", f"{fw}#{r['issue']}") if r.get("issue") else ("Commit", sha)
    records: list[Record] = [
        Node("FailureReport", key, props, origin),
        Edge("REPORTED_IN", ("FailureReport", key), where, {}, origin),
        Edge(
            "AFFECTS",
            ("FailureReport", key),
            ("Framework", fw),
            Evidence("git", location, fw, "fixed-in-framework-history", 1.0).props(),
            origin,
        ),
    ]
    if r.get("method"):
        evidence = Evidence(
            "git", location, r.get("method_identifier"), r.get("method_rule"), r.get("method_confidence")
        )
        records.append(
            Edge("AFFECTS", ("FailureReport", key), ("Method", r["method"]), evidence.props(), origin)
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
