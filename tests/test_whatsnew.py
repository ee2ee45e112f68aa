"""What is new: `uptake update` against a local git remote says what it added, and a run with
nothing new says so; `uptake whatsnew --since` reads the same from the graph."""

from __future__ import annotations

import subprocess

from git_history import Repo
from typer.testing import CliRunner
from uptake.api.cli import app
from uptake.api.views.whatsnew import added, render_lines
from uptake.loaders.cache import clone_path

runner = CliRunner()


def row(kind, subject, date="2025-03-01", framework="trl"):
    return {"kind": kind, "date": date, "framework": framework, "subject": subject, "commit": None}


def test_added_is_what_after_holds_and_before_did_not():
    before = [row("first-implementation", "grpo")]
    after = [*before, row("failure", "trl#6/failure"), row("first-implementation", "grpo", framework="verl")]
    assert [(r["kind"], r["framework"]) for r in added(before, after)] == [
        ("failure", "trl"),
        ("first-implementation", "verl"),
    ]
    assert render_lines([]) == ["nothing new"]


def test_update_from_a_local_remote_says_what_is_new_then_nothing(tmp_path, monkeypatch):
    monkeypatch.setenv("UPTAKE_CACHE", str(tmp_path / "cache"))
    monkeypatch.delenv("GITHUB_TOKEN", raising=False)
    origin = Repo(tmp_path / "origin")
    origin.commit("Initial commit", {"README.md": "# trl\n", "CONTRIBUTING.md": "Please add tests.\n"})
    origin.commit("Add GRPO trainer (#5)", {"trl/grpo_trainer.py": "class GRPOTrainer:\n    pass\n"})
    mirror = clone_path("huggingface/trl")
    mirror.parent.mkdir(parents=True)
    subprocess.run(["git", "clone", "-q", "--mirror", str(origin.path), str(mirror)], check=True)
    store = str(tmp_path / "g.lbug")
    assert runner.invoke(app, ["load", "catalog", "--store", store]).exit_code == 0

    first = runner.invoke(app, ["update", "--framework", "trl", "--store", store])
    assert first.exit_code == 0, first.output
    new = first.output.split("What is new:")[1]
    assert "new first implementations" in new and "trl  grpo" in new
    assert "set GITHUB_TOKEN" in first.output  # threads: said clearly that they were not refreshed

    again = runner.invoke(app, ["update", "--framework", "trl", "--store", store])
    assert again.exit_code == 0, again.output
    assert again.output.split("What is new:")[1].strip() == "nothing new"

    since = runner.invoke(app, ["whatsnew", "--since", "2000-01-01", "--store", store])
    assert since.exit_code == 0 and "trl  grpo" in since.output
    bad = runner.invoke(app, ["whatsnew", "--since", "last week", "--store", store])
    assert bad.exit_code != 0 and "--since: not a date" in bad.output
