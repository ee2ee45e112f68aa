"""The loading commands end to end: one framework look-up for all, one readable line per step."""

from __future__ import annotations

import json
import re

import pytest
from fake_github import make_issue
from git_history import crafted_history
from typer.testing import CliRunner
from uptake.api.cli import app
from uptake.graph.store import open_store

runner = CliRunner()


def uptake(*args: str):
    return runner.invoke(app, list(args))


@pytest.fixture
def target(tmp_path, monkeypatch) -> str:
    monkeypatch.setenv("UPTAKE_CACHE", str(tmp_path / "cache"))
    monkeypatch.delenv("UPTAKE_ARXIV_SNAPSHOT", raising=False)
    monkeypatch.delenv("UPTAKE_ARXIV_ATOM", raising=False)
    return str(tmp_path / "x.lbug")


@pytest.mark.parametrize("spelling", ["nemo-rl", "NeMo_RL", "NeMo-RL", "NVIDIA-NeMo/RL"])
def test_git_github_and_rules_accept_the_same_framework_spellings(target, tmp_path, spelling):
    repo, _ = crafted_history(tmp_path / "clone")
    dump = tmp_path / "dump"
    dump.mkdir()
    (dump / "issues.json").write_text(json.dumps([make_issue(1, "GRPO diverges")]))
    assert uptake("load", "catalog", "--store", target).exit_code == 0

    for command in (
        ["load", "git", "--framework", spelling, "--repo", str(repo.path)],
        ["load", "github", "--framework", spelling, "--dump", str(dump)],
        ["load", "rules", "--framework", spelling, "--git", str(repo.path)],
    ):
        result = uptake(*command, "--store", target)
        assert result.exit_code == 0, (command, result.output)
        assert "WriteStats(" not in result.output and "SyncReport(" not in result.output
    with open_store(target) as s:
        rows = s.read("MATCH (c:Commit)-[:PART_OF]->(f:Framework) RETURN DISTINCT f.slug AS slug")
        assert [r["slug"] for r in rows] == ["nemo-rl"]
        rows = s.read("MATCH (i:Issue)-[:PART_OF]->(f:Framework) RETURN DISTINCT f.slug AS slug")
        assert [r["slug"] for r in rows] == ["nemo-rl"]


def test_an_unknown_framework_is_refused_with_the_known_ones(target):
    for command in (["load", "git"], ["load", "github"], ["load", "rules"]):
        result = uptake(*command, "--framework", "nope", "--store", target)
        assert result.exit_code != 0
        assert "unknown framework 'nope'" in result.output and "trl" in result.output


def test_build_prints_one_readable_line_per_step(target):
    result = uptake("build", "--offline", "--store", target)
    assert result.exit_code == 0, result.output
    report = re.compile(r"^([a-z][a-z ()]+): (?:nothing written|\d+ nodes created, \d+ updated, )")
    steps = [m.group(1) for m in map(report.match, result.output.splitlines()) if m]
    assert steps == [
        "catalog",
        "framework histories (data release)",
        "papers (curated lists and framework citations)",
        "papers",
        "model reports",
        "contribution rules",
        "github threads",
        "framework histories (fetched)",
    ]
    assert "Stats(" not in result.output and "Report(" not in result.output
    assert re.search(r"^catalog: \d+ nodes created", result.output, re.M)
    assert "framework histories (fetched): nothing written; skipped: needs network" in result.output
