"""Bad input to every loader ends in one line naming file, line and field, and leaves the graph as it was.

Each case damages one input in one way (wrong type, missing or unknown field,
out-of-range number, bad date, invalid UTF-8, truncated or fake gzip, empty
file, binary junk, an overlong line, a missing path, a folder for a file...)
and runs the real CLI on a store that already holds the catalog, the model
reports and two papers. Most cases run in-process; a few run the installed
`uptake` command as a subprocess, as a user would.
"""

from __future__ import annotations

import gzip
import json
import os
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from typer.testing import CliRunner
from uptake.api.cli import app
from uptake.graph.store import open_store
from uptake.loaders.arxiv import read_snapshot
from uptake.loaders.catalog import DATA_FOLDER as CATALOG_FOLDER
from uptake.loaders.input_files import MAX_LINE_BYTES
from uptake.loaders.reports import REPORTS_FILE
from uptake.sync.arxiv import sync_papers
from uptake.sync.catalog import sync_catalog
from uptake.sync.reports import sync_reports

UPTAKE = Path(sys.executable).parent / "uptake"
INVALID_UTF8 = b"\xff\xfe broken \xc3\x28"
JUNK = bytes(range(256)) * 4

# -- well-formed inputs, damaged one field at a time ------------------------------------------------


def paper(**changes) -> dict:
    row = {
        "id": "2503.14476",
        "title": "DAPO: An Open-Source LLM Reinforcement Learning System at Scale",
        "authors": "Qiying Yu (ByteDance Seed)",
        "abstract": "We propose the Decoupled Clip and Dynamic sAmpling Policy Optimization algorithm.",
        "comments": "Project page",
        "categories": "cs.LG cs.CL",
        "versions": [{"version": "v1", "created": "Tue, 18 Mar 2025 17:49:06 GMT"}],
        "update_date": "2025-05-20",
        "authors_parsed": [["Yu", "Qiying", ""]],
    }
    row.update(changes)
    return {k: v for k, v in row.items() if v is not DROP}


DROP = object()


def issue(**changes) -> dict:
    row = {
        "id": 1001,
        "number": 12,
        "title": "GRPO loss is NaN after 100 steps",
        "body": "Training with GRPO diverges.",
        "state": "open",
        "user": {"login": "alice", "type": "User"},
        "author_association": "NONE",
        "created_at": "2025-03-01T10:00:00Z",
        "updated_at": "2025-03-02T10:00:00Z",
        "closed_at": None,
        "comments": 0,
        "labels": [{"name": "bug"}],
        "html_url": "https://github.com/huggingface/trl/issues/12",
    }
    row.update(changes)
    return {k: v for k, v in row.items() if v is not DROP}


def pull(**changes) -> dict:
    row = issue(number=13, title="Add DAPO loss", merged_at=None, merge_commit_sha=None, head={"ref": "x"})
    row.update(changes)
    return row


def comment(**changes) -> dict:
    row = {
        "id": 5001,
        "issue_url": "https://api.github.com/repos/huggingface/trl/issues/12",
        "body": "Same here.",
        "user": {"login": "bob", "type": "User"},
        "author_association": "NONE",
        "created_at": "2025-03-03T10:00:00Z",
    }
    row.update(changes)
    return {k: v for k, v in row.items() if v is not DROP}


def report(**changes) -> dict:
    row = json.loads(REPORTS_FILE.read_text(encoding="utf-8").splitlines()[1])
    row.update(changes)
    return {k: v for k, v in row.items() if v is not DROP}


RELEASE = {
    "releases.jsonl": {
        "framework": "trl",
        "tag": "v0.1.0",
        "date": "2025-01-01T00:00:00+00:00",
        "commit": "a" * 40,
    },
    "commits.jsonl": {
        "framework": "trl",
        "sha": "b" * 40,
        "author_date": "2025-01-01T00:00:00+00:00",
        "commit_date": "2025-01-01T00:00:00+00:00",
        "pr_number": 7,
        "files_changed": 1,
        "insertions": 3,
        "deletions": 0,
        "is_merge": False,
        "first_release": "v0.1.0",
        "excluded": None,
    },
    "links.jsonl": {
        "sha": "b" * 40,
        "rel": "IMPLEMENTS",
        "label": "Method",
        "key": "dapo",
        "source_kind": "diff",
        "location": "trl/loss.py:3",
        "identifier": "dapo",
        "rule": "alias-in-diff",
        "confidence": 0.9,
    },
}


def lines(*rows: dict | str | bytes) -> bytes:
    parts = [
        r if isinstance(r, bytes) else (r if isinstance(r, str) else json.dumps(r)).encode() for r in rows
    ]
    return b"\n".join(parts) + b"\n"


# -- cases: each writes its input under `d` and returns the command and what the error must name ----

Case = Callable[[Path], tuple[list[str], list[str]]]
CASES: dict[str, Case] = {}


def case(name: str):
    def register(make: Case) -> Case:
        CASES[name] = make
        return make

    return register


def snapshot_case(name: str, content: bytes, *expected: str, suffix: str = ".jsonl") -> None:
    def make(d: Path):
        path = d / f"snap{suffix}"
        path.write_bytes(gzip.compress(content) if suffix == ".gz" else content)
        return ["load", "arxiv", "--snapshot", str(path)], [
            str(path) + e if e.startswith(":") else e for e in expected
        ]

    CASES[f"snapshot-{name}"] = make


GOOD = paper()
snapshot_case("invalid-json", lines(GOOD, "{not json"), ":2:", "not valid JSON")
snapshot_case("array-line", lines("[1, 2]"), ":1:", "expected a JSON object")
snapshot_case("id-missing", lines(GOOD, paper(id=DROP)), ":2:", "field 'id'")
snapshot_case("id-integer", lines(paper(id=2503)), ":1:", "field 'id'")
snapshot_case("id-malformed", lines(paper(id="not-an-id")), ":1:", "field 'id'")
snapshot_case("title-missing", lines(paper(title=DROP)), ":1:", "field 'title'")
snapshot_case("title-integer", lines(paper(title=7)), ":1:", "field 'title'")
snapshot_case("categories-list", lines(paper(categories=["cs.LG"])), ":1:", "field 'categories'")
snapshot_case("update-date-integer", lines(paper(update_date=20250520)), ":1:", "field 'update_date'")
snapshot_case("update-date-impossible", lines(paper(update_date="2025-13-45")), ":1:", "field 'update_date'")
snapshot_case("versions-object", lines(paper(versions={"v1": "x"})), ":1:", "field 'versions'")
snapshot_case(
    "version-date-integer", lines(paper(versions=[{"created": 1742320146}])), ":1:", "field 'versions'"
)
snapshot_case("version-date-garbage", lines(paper(versions=[{"created": "soon"}])), ":1:", "field 'versions'")
snapshot_case(
    "author-names-integers", lines(paper(authors_parsed=[[1, 2, 3]])), ":1:", "field 'authors_parsed'"
)
snapshot_case("authors-integer", lines(paper(authors=42)), ":1:", "field 'authors'")
snapshot_case("abstract-integer", lines(paper(abstract=3)), ":1:", "field 'abstract'")
snapshot_case("comments-list", lines(paper(comments=["x"])), ":1:", "field 'comments'")
snapshot_case(
    "invalid-utf8", lines(GOOD, b'{"id": "2503.14476", "title": "' + INVALID_UTF8 + b'"}'), ":2:", "UTF-8"
)
snapshot_case("binary-junk", JUNK, ":1:")
snapshot_case("overlong-line", lines(GOOD, b"x" * (MAX_LINE_BYTES + 10)), ":2:", "longer than the limit")
snapshot_case("deep-nesting", lines("[" * 100_000 + "]" * 100_000), ":1:", "nested too deeply")
snapshot_case("empty", b"", "no papers")
snapshot_case("gz-invalid-json", lines(GOOD, GOOD, "{oops"), ":3:", "not valid JSON", suffix=".gz")
snapshot_case("gz-invalid-utf8", lines(INVALID_UTF8), ":1:", "UTF-8", suffix=".gz")
snapshot_case("gz-empty", b"", "no papers", suffix=".gz")
snapshot_case(
    "gz-overlong-line", lines(b"a" * (3 * MAX_LINE_BYTES)), ":1:", "longer than the limit", suffix=".gz"
)


@case("snapshot-gz-not-gzip")
def _(d):
    path = d / "snap.gz"
    path.write_bytes(lines(GOOD))
    return ["load", "arxiv", "--snapshot", str(path)], [str(path), "gzip"]


@case("snapshot-gz-truncated")
def _(d):
    path = d / "snap.gz"
    path.write_bytes(gzip.compress(lines(*[GOOD] * 200))[:-30])
    return ["load", "arxiv", "--snapshot", str(path)], [str(path), "cut short"]


@case("snapshot-gz-corrupt")
def _(d):
    data = bytearray(gzip.compress(lines(*[paper(abstract=f"text {i}") for i in range(300)])))
    data[len(data) // 2 : len(data) // 2 + 16] = b"\x00" * 16
    path = d / "snap.gz"
    path.write_bytes(bytes(data))
    return ["load", "arxiv", "--snapshot", str(path)], [str(path)]


@case("snapshot-missing")
def _(d):
    return ["load", "arxiv", "--snapshot", str(d / "nope.jsonl")], [str(d / "nope.jsonl"), "no such file"]


@case("snapshot-directory")
def _(d):
    return ["load", "arxiv", "--snapshot", str(d)], [str(d), "is a directory"]


def ids_file_case(name: str, content: bytes, *expected: str) -> None:
    def make(d: Path):
        path = d / "ids.txt"
        path.write_bytes(content)
        args = ["load", "arxiv", "--ids-file", str(path), "--cache", str(d / "cache")]
        return args, [str(path) + e if e.startswith(":") else e for e in expected]

    CASES[f"ids-file-{name}"] = make


ids_file_case("bad-id", b"2503.14476\nbanana\n", ":2:", "not an arXiv id")
ids_file_case("invalid-utf8", b"2503.14476\n" + INVALID_UTF8 + b"\n", ":2:", "UTF-8")


@case("ids-file-missing")
def _(d):
    return ["load", "arxiv", "--ids-file", str(d / "nope.txt")], [str(d / "nope.txt"), "no such file"]


# -- arXiv Atom responses ---------------------------------------------------------------------------

ATOM = """<?xml version="1.0" encoding="UTF-8"?>
<feed xmlns="http://www.w3.org/2005/Atom" xmlns:arxiv="http://arxiv.org/schemas/atom">
  <entry>
    <id>{id}</id>
    <updated>2025-05-20T17:49:06Z</updated>
    <published>{published}</published>
    <title>{title}</title>
    <summary>We propose DAPO.</summary>
    <author><name>Qiying Yu</name></author>
  </entry>
</feed>
"""


def atom_case(name: str, content: bytes | str, *expected: str) -> None:
    def make(d: Path):
        folder = d / "atom"
        folder.mkdir()
        path = folder / "page.atom"
        path.write_bytes(content.encode() if isinstance(content, str) else content)
        return ["load", "arxiv", "--atom", str(folder)], [
            str(path) + e if e.startswith(":") else e for e in expected
        ]

    CASES[f"atom-{name}"] = make


def atom(**changes) -> str:
    values = {"id": "http://arxiv.org/abs/2503.14476v1", "published": "2025-03-18T17:49:06Z", "title": "DAPO"}
    return ATOM.format(**{**values, **changes})


atom_case("malformed", atom().replace("</entry>", ""), ":", "malformed Atom")
atom_case("not-a-feed", '<?xml version="1.0"?><html><body/></html>', ":1:", "not an Atom feed")
atom_case("bad-id", atom(id="http://arxiv.org/abs/banana"), "entry 1", "field 'id'")
atom_case("bad-published", atom(published="yesterday"), "entry 1", "field 'published'")
atom_case("empty-title", atom(title=""), "entry 1", "field 'title'")
atom_case(
    "invalid-utf8", atom().encode().replace(b"DAPO</title>", INVALID_UTF8 + b"</title>"), ":", "malformed"
)
atom_case("empty-file", b"", ":1:", "malformed Atom")
atom_case("binary-junk", JUNK, ":", "malformed Atom")
atom_case(
    "external-entity",
    '<?xml version="1.0"?><!DOCTYPE feed [<!ENTITY x SYSTEM "file:///etc/passwd">]>'
    '<feed xmlns="http://www.w3.org/2005/Atom"><title>&x;</title></feed>',
    ":1:",
)


@case("atom-too-large")
def _(d):
    folder = d / "atom"
    folder.mkdir()
    path = folder / "page.atom"
    with path.open("wb") as f:
        f.truncate(65 << 20)  # sparse: large on paper, quick to write
    return ["load", "arxiv", "--atom", str(folder)], [str(path), "larger than the limit"]


@case("atom-no-responses")
def _(d):
    (d / "notes.txt").write_text("nothing here")
    return ["load", "arxiv", "--atom", str(d)], [str(d), "no saved Atom responses"]


@case("atom-missing")
def _(d):
    return ["load", "arxiv", "--atom", str(d / "nope")], [str(d / "nope"), "no such directory"]


@case("atom-a-file")
def _(d):
    (d / "page.atom").write_text(atom())
    return ["load", "arxiv", "--atom", str(d / "page.atom")], [str(d / "page.atom"), "is a file"]


# -- GitHub dumps -----------------------------------------------------------------------------------


def dump_case(name: str, content: bytes | str | list, *expected: str, file: str = "issues.json") -> None:
    def make(d: Path):
        folder = d / "dump"
        folder.mkdir()
        path = folder / file
        if isinstance(content, list):
            path.write_text(json.dumps(content, indent=1))
        else:
            path.write_bytes(content.encode() if isinstance(content, str) else content)
        args = ["load", "github", "--framework", "trl", "--dump", str(folder), "--cache", str(d / "cache")]
        return args, [str(path) + e if e.startswith(":") else e for e in expected]

    CASES[f"dump-{name}"] = make


dump_case("invalid-json", '[\n{"number": 1,\n "title": oops}]', ":3:", "not JSON")
dump_case("unclosed-array", "[\n" + json.dumps(issue()) + ",\n", ":", "not JSON")
dump_case("not-an-item", [{"login": "x"}], ":2:", "not an issue")
dump_case("missing-created-at", [issue(), issue(number=14, created_at=DROP)], "field 'created_at'", "missing")
dump_case("missing-user", [issue(user=DROP)], ":2:", "field 'user'")
dump_case("missing-title", [issue(title=DROP, head=DROP, merge_commit_sha="c" * 40)], ":2:", "field 'title'")
dump_case("number-beyond-int64", [issue(number=10**30)], ":2:", "field 'number'")
dump_case("number-string", [issue(number="12")], ":2:", "field 'number'")
dump_case("number-negative", [issue(number=-3)], ":2:", "field 'number'")
dump_case("title-integer", [issue(title=5)], ":2:", "field 'title'")
dump_case("created-at-garbage", [issue(created_at="yesterday")], ":2:", "field 'created_at'")
dump_case("user-string", [issue(user="alice")], ":2:", "field 'user'")
dump_case("labels-string", [issue(labels="bug")], ":2:", "field 'labels'")
dump_case("comment-count-string", [issue(comments="3")], ":2:", "field 'comments'")
dump_case(
    "pull-merged-at-garbage", [pull(merged_at="tomorrow")], ":2:", "field 'merged_at'", file="pulls.json"
)
dump_case("comment-id-beyond-int64", [comment(id=10**30)], ":2:", "field 'id'", file="comments.json")
dump_case("comment-bad-date", [comment(created_at=17)], ":2:", "field 'created_at'", file="comments.json")
dump_case("invalid-utf8", b'[{"number": 1, "title": "' + INVALID_UTF8 + b'"}]', ":1:", "UTF-8")
dump_case("binary-junk", JUNK, ":2:", "UTF-8")
dump_case("empty-file", b"", "empty file")
dump_case(
    "jsonl-bad-line",
    lines(issue(), issue(number=99, user=None, created_at=3)),
    ":2:",
    "field 'created_at'",
    file="issues.jsonl",
)
dump_case(
    "jsonl-overlong-line",
    lines(issue(), b" " * (MAX_LINE_BYTES + 1)),
    ":2:",
    "longer than",
    file="issues.jsonl",
)


@case("dump-no-files")
def _(d):
    return ["load", "github", "--framework", "trl", "--dump", str(d)], [str(d), "no .json or .jsonl files"]


@case("dump-missing")
def _(d):
    return ["load", "github", "--framework", "trl", "--dump", str(d / "nope")], [
        str(d / "nope"),
        "no such folder",
    ]


@case("dump-a-file")
def _(d):
    (d / "issues.json").write_text(json.dumps([issue()]))
    args = ["load", "github", "--framework", "trl", "--dump", str(d / "issues.json")]
    return args, [str(d / "issues.json"), "is a file"]


# -- model reports ----------------------------------------------------------------------------------


def reports_case(name: str, content: bytes, *expected: str) -> None:
    def make(d: Path):
        path = d / "reports.jsonl"
        path.write_bytes(content)
        return ["load", "reports", "--facts", str(path)], [
            str(path) + e if e.startswith(":") else e for e in expected
        ]

    CASES[f"reports-{name}"] = make


reports_case(
    "unknown-field",
    lines(report(), report(rl_method_stated=["GRPO"])),
    ":2:",
    "field 'rl_method_stated'",
    "unknown",
)
reports_case("missing-field", lines(report(open_weights=DROP)), ":1:", "field 'open_weights'", "missing")
reports_case("params-out-of-range", lines(report(largest_params_b=1e30)), ":1:", "field 'largest_params_b'")
reports_case("open-weights-string", lines(report(open_weights="yes")), ":1:", "field 'open_weights'")
reports_case("arxiv-id-integer", lines(report(arxiv_id=2501)), ":1:", "field 'arxiv_id'")
reports_case("methods-string", lines(report(rl_methods_stated="GRPO")), ":1:", "field 'rl_methods_stated'")
reports_case("invalid-json", lines(report(), "{,}"), ":2:", "not valid JSON")
reports_case("invalid-utf8", lines(report(), INVALID_UTF8), ":2:", "UTF-8")
reports_case("binary-junk", JUNK, ":1:")
reports_case("empty", b"", "no reports")


@case("reports-missing")
def _(d):
    return ["load", "reports", "--facts", str(d / "nope.jsonl")], [str(d / "nope.jsonl"), "no such file"]


@case("reports-full-text-invalid-utf8")
def _(d):
    path = d / "report.txt"
    path.write_bytes(b"We train with GRPO.\n" + INVALID_UTF8)
    return ["load", "reports", "--full-text", f"2501.12948={path}"], [f"{path}:2:", "UTF-8"]


# -- the catalog ------------------------------------------------------------------------------------


def catalog_case(
    name: str, file: str, damage: Callable[[list[str]], list[str | bytes]], *expected: str
) -> None:
    def make(d: Path):
        folder = d / "catalog"
        shutil.copytree(CATALOG_FOLDER, folder, ignore=shutil.ignore_patterns("model_reports.jsonl"))
        path = folder / file
        rows = damage(path.read_text(encoding="utf-8").splitlines())
        path.write_bytes(lines(*rows))
        return ["load", "catalog", "--folder", str(folder)], [
            str(path) + e if e.startswith(":") else e for e in expected
        ]

    CASES[f"catalog-{name}"] = make


def edit_first(**changes) -> Callable[[list[str]], list[str]]:
    def damage(rows: list[str]) -> list[str]:
        first = json.loads(rows[0])
        first.update(changes)
        return [json.dumps({k: v for k, v in first.items() if v is not DROP}), *rows[1:]]

    return damage


catalog_case(
    "method-unknown-field", "methods.jsonl", edit_first(familly="other"), ":1:", "field 'familly'", "unknown"
)
catalog_case("framework-unknown-field", "frameworks.jsonl", edit_first(stars=10), ":1:", "field 'stars'")
catalog_case(
    "organization-missing-field", "organizations.jsonl", edit_first(kind=DROP), ":1:", "field 'kind'"
)
catalog_case("method-aliases-string", "methods.jsonl", edit_first(aliases="PPO"), ":1:", "field 'aliases'")
catalog_case(
    "framework-bad-date",
    "frameworks.jsonl",
    edit_first(first_commit_date=20200327),
    ":1:",
    "field 'first_commit_date'",
)
catalog_case(
    "method-invalid-json", "methods.jsonl", lambda rows: [*rows[:2], "{nope"], ":3:", "not valid JSON"
)
catalog_case("method-invalid-utf8", "methods.jsonl", lambda rows: [rows[0], INVALID_UTF8], ":2:", "UTF-8")
catalog_case(
    "framework-overlong-line",
    "frameworks.jsonl",
    lambda rows: [b" " * (MAX_LINE_BYTES + 1)],
    ":1:",
    "longer than",
)


@case("catalog-file-missing")
def _(d):
    folder = d / "catalog"
    shutil.copytree(CATALOG_FOLDER, folder)
    (folder / "frameworks.jsonl").unlink()
    return ["load", "catalog", "--folder", str(folder)], [str(folder / "frameworks.jsonl"), "not found"]


# -- the data release -------------------------------------------------------------------------------


def release_case(name: str, file: str, row: dict | bytes, *expected: str) -> None:
    def make(d: Path):
        folder = d / "release"
        folder.mkdir()
        for other, good in RELEASE.items():
            (folder / other).write_bytes(lines(good))
        (folder / "heads.jsonl").write_bytes(lines({"framework": "trl", "head": "b" * 40, "commits": 1}))
        (folder / file).write_bytes(lines(RELEASE[file], row))
        args = ["release", "load", "--folder", str(folder)]
        return args, [str(folder / file) + e if e.startswith(":") else e for e in expected]

    CASES[f"release-{name}"] = make


def release_row(file: str, **changes) -> dict:
    row = {**RELEASE[file], **changes}
    return {k: v for k, v in row.items() if v is not DROP}


release_case(
    "commit-unknown-field",
    "commits.jsonl",
    release_row("commits.jsonl", sha="c" * 40, stars=3),
    ":2:",
    "field 'stars'",
)
release_case(
    "pr-number-beyond-int64",
    "commits.jsonl",
    release_row("commits.jsonl", pr_number=10**30),
    ":2:",
    "field 'pr_number'",
)
release_case(
    "commit-date-garbage",
    "commits.jsonl",
    release_row("commits.jsonl", commit_date="yesterday"),
    ":2:",
    "field 'commit_date'",
)
release_case(
    "link-confidence-7", "links.jsonl", release_row("links.jsonl", confidence=7), ":2:", "field 'confidence'"
)
release_case("link-unknown-rel", "links.jsonl", release_row("links.jsonl", rel="LIKES"), ":2:", "field 'rel'")
release_case(
    "release-tag-missing", "releases.jsonl", release_row("releases.jsonl", tag=DROP), ":2:", "field 'tag'"
)
release_case(
    "link-unknown-commit", "links.jsonl", release_row("links.jsonl", sha="d" * 40), ":2:", "field 'sha'"
)
release_case("commit-invalid-utf8", "commits.jsonl", INVALID_UTF8, ":2:", "UTF-8")
release_case(
    "missing-paths-not-a-list",
    "commits.jsonl",
    release_row("commits.jsonl", missing_files=1, missing_paths="fw/a.py"),
    ":2:",
    "field 'missing_paths'",
)
release_case(
    "missing-files-without-paths",
    "commits.jsonl",
    release_row("commits.jsonl", missing_files=2),
    ":2:",
    "field 'missing_paths'",
)


@case("release-file-missing")
def _(d):
    folder = d / "release"
    folder.mkdir()
    return ["release", "load", "--folder", str(folder)], [str(folder / "releases.jsonl"), "not found"]


# -- git repository paths ---------------------------------------------------------------------------


def git_case(name: str, prepare: Callable[[Path], Path], *expected: str) -> None:
    def make(d: Path):
        repo = prepare(d)
        return ["load", "git", "--framework", "trl", "--repo", str(repo)], [str(repo), *expected]

    CASES[f"git-{name}"] = make


def _empty_repo(d: Path) -> Path:
    subprocess.run(["git", "init", "-q", str(d / "empty")], check=True)
    return d / "empty"


def _a_file(d: Path) -> Path:
    (d / "file.txt").write_text("not a repository")
    return d / "file.txt"


git_case("missing", lambda d: d / "nope", "does not exist")
git_case("not-a-repository", lambda d: d, "not a git repository")
git_case("a-file", _a_file, "not a git repository")
git_case("no-commits", _empty_repo, "HEAD does not resolve")


# -- running them -----------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def loaded_store(tmp_path_factory) -> str:
    """A store with the catalog, the model reports and two papers in it."""
    folder = tmp_path_factory.mktemp("store")
    snapshot = folder / "papers.jsonl"
    snapshot.write_bytes(lines(paper(), paper(id="2402.03300", title="DeepSeekMath")))
    path = str(folder / "graph.lbug")
    with open_store(path) as store:
        store.init()
        sync_catalog(store)
        sync_papers(store, read_snapshot(snapshot))
        sync_reports(store)
    return path


def counts(store: str) -> dict[str, int]:
    with open_store(store, read_only=True) as s:
        return s.counts()


def assert_one_line_error(stderr: str, expected: list[str]) -> None:
    assert "Traceback" not in stderr, stderr
    error_lines = [line for line in stderr.splitlines() if line.strip()]
    assert len(error_lines) == 1, stderr
    line = error_lines[0]
    assert line.startswith("error: "), line
    for part in expected:
        assert part in line, f"{part!r} not in {line!r}"


@pytest.mark.parametrize("name", list(CASES))
def test_bad_input_is_one_line_naming_where(name, loaded_store, tmp_path):
    args, expected = CASES[name](tmp_path)
    before = counts(loaded_store)
    result = CliRunner().invoke(app, [*args, "--store", loaded_store])
    assert result.exit_code == 1, result.output
    assert not isinstance(result.exception, Exception) or isinstance(result.exception, SystemExit)
    assert_one_line_error(result.stderr, expected)
    assert "Traceback" not in result.stdout
    assert counts(loaded_store) == before


SUBPROCESS_CASES = [
    "snapshot-gz-truncated",
    "snapshot-invalid-utf8",
    "dump-number-beyond-int64",
    "reports-unknown-field",
]


@pytest.mark.parametrize("name", SUBPROCESS_CASES)
def test_the_installed_command_prints_one_line(name, loaded_store, tmp_path):
    args, expected = CASES[name](tmp_path)
    before = counts(loaded_store)
    proc = subprocess.run([str(UPTAKE), *args, "--store", loaded_store], capture_output=True, text=True)
    assert proc.returncode == 1, proc.stderr
    assert_one_line_error(proc.stderr, expected)
    assert "Traceback" not in proc.stdout
    assert counts(loaded_store) == before


def test_debug_shows_the_traceback(loaded_store, tmp_path):
    args, _ = CASES["reports-unknown-field"](tmp_path)
    env = {**os.environ, "COLUMNS": "200"}
    proc = subprocess.run(
        [str(UPTAKE), "--debug", *args, "--store", loaded_store], capture_output=True, text=True, env=env
    )
    assert proc.returncode != 0
    assert "Traceback" in proc.stderr and "ReportError" in proc.stderr
