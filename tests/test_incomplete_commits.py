"""A copy that lacks some files' contents (a partial clone, deleted objects) never yields silently
wrong git data: the commits whose diffs need them are stored as incomplete with the missing paths
and a warning, and a later load mines them again once the contents are present, giving the graph
a whole copy gives."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest
from git_history import METHODS, Repo
from typer.testing import CliRunner
from uptake.api.cli import app
from uptake.graph.store import open_store
from uptake.loaders.git import mine_repository
from uptake.loaders.release import ReleaseError, data_release_records, write_release
from uptake.queries.run import run_query

TRAINER = "fw/grpo_trainer.py"


def _source(path: Path) -> tuple[Repo, dict[str, str]]:
    r = Repo(path)
    s = {"root": r.commit("Initial commit", {"README.md": "# fw\n"})}
    # Read whole, the commit implements GRPO (the class); without the trainer's contents only the
    # docs mention it: a different kind of link, which a repair must replace, not add to.
    s["grpo"] = r.commit(
        "Add a trainer (#5)",
        {TRAINER: "class GRPOTrainer:\n    pass\n", "docs/usage.md": "Train with GRPO.\n"},
    )
    s["tidy"] = r.commit("Tidy", {"fw/log.py": "x = 1\n"})
    r.git("config", "uploadpack.allowFilter", "true")  # lets a partial clone be made from it
    return r, s


def _damaged_copy(source: Repo, target: Path, sha: str, path: str) -> Path:
    """A clone whose object store lacks the contents of `path` as commit `sha` wrote them."""
    subprocess.run(["git", "clone", "-q", "--no-hardlinks", str(source.path), str(target)], check=True)
    blob = source.git("rev-parse", f"{sha}:{path}")
    (target / ".git" / "objects" / blob[:2] / blob[2:]).unlink()  # a local clone copies loose objects
    return target


def _restore(source: Repo, copy: Path, sha: str, path: str) -> None:
    blob = source.git("rev-parse", f"{sha}:{path}")
    loose = Path(blob[:2]) / blob[2:]
    shutil.copy(source.path / ".git" / "objects" / loose, copy / ".git" / "objects" / loose)


def _load(repo: Path, store: str, *extra: str):
    args = ["load", "git", "--framework", "trl", "--repo", str(repo), "--store", store, "--workers", "1"]
    return CliRunner().invoke(app, [*args, *extra])


def _graph(store: str) -> dict[str, list]:
    """Every fact the miner writes about commits and their links, in a comparable form."""
    queries = {
        "commits": "MATCH (c:Commit) RETURN c.sha AS sha, c.files_changed AS files, c.insertions AS ins, "
        "c.deletions AS dels, c.paths AS paths, c.incomplete AS incomplete, c.missing_files AS missing, "
        "c.missing_paths AS missing_paths ORDER BY sha",
        "implements": "MATCH (c:Commit)-[r:IMPLEMENTS]->(m:Method) RETURN c.sha AS sha, m.slug AS key, "
        "r.location AS location, r.rule AS rule, r.confidence AS confidence ORDER BY sha, key",
        "mentions": "MATCH (c:Commit)-[r:MENTIONS]->(m:Method) RETURN c.sha AS sha, m.slug AS key, "
        "r.location AS location, r.rule AS rule, r.confidence AS confidence ORDER BY sha, key",
        "papers": "MATCH (c:Commit)-[r:MENTIONS]->(p:Paper) RETURN c.sha AS sha, p.arxiv_id AS key, "
        "r.rule AS rule ORDER BY sha, key",
    }
    with open_store(store, read_only=True) as s:
        return {name: s.read(cypher) for name, cypher in queries.items()}


def _first_implementations(store: str) -> list[dict]:
    with open_store(store, read_only=True) as s:
        return run_query(s, "framework-methods", {"framework": "trl"}).rows


def _commit(graph: dict[str, list], sha: str) -> dict:
    return next(c for c in graph["commits"] if c["sha"] == sha)


def test_missing_contents_are_reported_stored_incomplete_and_repaired(store_target, tmp_path):
    source, s = _source(tmp_path / "src")
    copy = _damaged_copy(source, tmp_path / "copy", s["grpo"], TRAINER)
    assert CliRunner().invoke(app, ["load", "catalog", "--store", store_target]).exit_code == 0

    first = _load(copy, store_target)
    assert first.exit_code == 0, first.output
    assert "1 commits incomplete" in first.stdout
    warning = [line for line in first.stderr.splitlines() if s["grpo"][:12] in line]
    assert warning == [f"  {s['grpo'][:12]}: {TRAINER}"]
    assert "warning: trl: 1 commits stored as incomplete" in first.stderr
    assert "fetch the missing contents" in first.stderr and "full clone" in first.stderr
    graph = _graph(store_target)
    grpo = _commit(graph, s["grpo"])
    # The unread file still counts as changed and is named; only its lines are unknown.
    assert grpo["incomplete"] is True and grpo["missing"] == 1 and grpo["missing_paths"] == [TRAINER]
    assert grpo["files"] == 2 and TRAINER in grpo["paths"] and grpo["ins"] == 1  # docs/usage.md only
    assert all(c["incomplete"] is False for c in graph["commits"] if c["sha"] != s["grpo"])
    links = [
        r for rows in graph.values() if rows is not graph["commits"] for r in rows if r["sha"] == s["grpo"]
    ]
    assert links and all("incomplete commit, 1 unread files not linked" in r["rule"] for r in links)
    assert [(r["key"], r["location"]) for r in graph["mentions"]] == [("grpo", "docs/usage.md:1")]
    assert graph["implements"] == []
    assert [r["method"] for r in _first_implementations(store_target)] == []

    # Nothing changed in the copy: still incomplete, and --strict says so by the exit status.
    strict = _load(copy, store_target, "--strict")
    assert strict.exit_code == 3 and "up to date" in strict.stdout and s["grpo"][:12] in strict.stderr
    assert _graph(store_target) == graph

    _restore(source, copy, s["grpo"], TRAINER)
    repaired = _load(copy, store_target)
    assert repaired.exit_code == 0, repaired.output
    assert "0 new commits" in repaired.stdout and "1 incomplete commits mined whole" in repaired.stdout
    assert "warning" not in repaired.stderr

    whole = str(tmp_path / "whole.lbug")
    assert CliRunner().invoke(app, ["load", "catalog", "--store", whole]).exit_code == 0
    assert _load(source.path, whole).exit_code == 0
    expected = _graph(whole)
    assert _commit(expected, s["grpo"])["incomplete"] is False
    assert _graph(store_target) == expected and expected["mentions"] == []
    (grpo_first,) = [r for r in _first_implementations(store_target) if r["method"] == "grpo"]
    assert grpo_first["commit"] == s["grpo"] and grpo_first["evidence"].startswith(TRAINER)
    assert "incomplete" not in grpo_first["rule"]

    again = _load(copy, store_target)
    assert again.exit_code == 0 and "nothing written" in again.stdout and "up to date" in again.stdout
    assert again.stderr.count("warning") == 0 and _graph(store_target) == expected


def _missing_objects(repo: Path) -> int:
    listed = subprocess.run(
        ["git", "-C", str(repo), "rev-list", "--objects", "--all", "--missing=print"],
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, "GIT_NO_LAZY_FETCH": "1"},  # counting must not fetch either
    ).stdout
    return sum(line.startswith("?") for line in listed.splitlines())


def test_partial_clone_is_mined_without_fetching_then_repaired_after_a_refetch(tmp_path):
    source, s = _source(tmp_path / "src")
    partial = tmp_path / "partial"
    subprocess.run(
        ["git", "clone", "-q", "--filter=blob:none", "--no-checkout", f"file://{source.path}", str(partial)],
        check=True,
    )
    lacking = _missing_objects(partial)
    assert lacking == 4  # every file's contents
    store = str(tmp_path / "graph.lbug")
    assert CliRunner().invoke(app, ["load", "catalog", "--store", store]).exit_code == 0

    first = _load(partial, store)
    assert first.exit_code == 0, first.output
    assert _missing_objects(partial) == lacking  # the miner fetched nothing behind the user's back
    assert "3 commits stored as incomplete" in first.stderr and "--refetch --no-filter" in first.stderr
    graph = _graph(store)
    assert [c["missing_paths"] for c in graph["commits"]] == [
        sorted(_changed_paths(source, c["sha"])) for c in graph["commits"]
    ]
    assert all(c["files"] == len(c["paths"]) > 0 for c in graph["commits"])  # no commit claims 0 files

    subprocess.run(
        ["git", "-C", str(partial), "fetch", "-q", "--refetch", "--no-filter", "origin"], check=True
    )
    assert _missing_objects(partial) == 0
    repaired = _load(partial, store)
    assert repaired.exit_code == 0 and "3 incomplete commits mined whole" in repaired.stdout
    whole = str(tmp_path / "whole.lbug")
    assert CliRunner().invoke(app, ["load", "catalog", "--store", whole]).exit_code == 0
    assert _load(source.path, whole).exit_code == 0
    assert _graph(store) == _graph(whole)
    assert "up to date" in _load(partial, store).stdout


def _changed_paths(repo: Repo, sha: str) -> list[str]:
    return repo.git("show", "--name-only", "--format=", sha).split()


def test_release_lists_incomplete_commits_and_loads_them_flagged(tmp_path):
    source, s = _source(tmp_path / "src")
    copy = _damaged_copy(source, tmp_path / "copy", s["grpo"], TRAINER)
    facts = mine_repository("trl", copy, METHODS, workers=1)
    assert "1 of them incomplete" in facts.incomplete_note()
    folder = tmp_path / "release"
    write_release([facts], folder)
    rows = {r["sha"]: r for r in map(json.loads, (folder / "commits.jsonl").open())}
    assert rows[s["grpo"]]["missing_paths"] == [TRAINER] and rows[s["grpo"]]["missing_files"] == 1
    assert all("missing_paths" not in r for sha, r in rows.items() if sha != s["grpo"])
    commit = next(r for r in data_release_records(folder) if getattr(r, "key", None) == s["grpo"])
    assert commit.props["incomplete"] is True and commit.props["missing_paths"] == [TRAINER]

    whole = tmp_path / "whole"
    write_release([mine_repository("trl", source.path, METHODS, workers=1)], whole)
    assert all("missing_paths" not in line for line in (whole / "commits.jsonl").open())

    lines = (folder / "commits.jsonl").read_text().splitlines()
    damaged = [json.loads(line) for line in lines]
    for row in damaged:
        if row["sha"] == s["grpo"]:
            del row["missing_files"]
    (folder / "commits.jsonl").write_text("".join(json.dumps(r) + "\n" for r in damaged))
    with pytest.raises(ReleaseError, match="missing_files"):
        data_release_records(folder)
