"""What is new: `uptake update` against a local git remote says what it added, and a run with
nothing new says so; `uptake whatsnew --since` reads the same from the graph."""

from __future__ import annotations

import json
import subprocess

from fake_arxiv import FakeArxiv
from fake_github import FakeGitHub, FakeRepo, make_issue
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

    first = runner.invoke(app, ["update", "--framework", "trl", "--no-papers", "--store", store])
    assert first.exit_code == 0, first.output
    new = first.output.split("What is new:")[1]
    assert "new first implementations" in new and "trl  grpo" in new
    assert "set GITHUB_TOKEN" in first.output  # threads: said clearly that they were not refreshed

    again = runner.invoke(app, ["update", "--framework", "trl", "--no-papers", "--store", store])
    assert again.exit_code == 0, again.output
    assert again.output.split("What is new:")[1].strip() == "nothing new"

    # GitHub out of reach: the threads are skipped with the reason, the rest of the update stands.
    monkeypatch.setenv("GITHUB_TOKEN", "test-token")
    unreachable = ["--github-url", "http://127.0.0.1:1"]
    offline = runner.invoke(
        app, ["update", "--framework", "trl", "--no-papers", *unreachable, "--store", store]
    )
    assert offline.exit_code == 0, offline.output
    assert "github threads of trl: skipped" in offline.output and "test-token" not in offline.output

    since = runner.invoke(app, ["whatsnew", "--since", "2000-01-01", "--store", store])
    assert since.exit_code == 0 and "trl  grpo" in since.output
    as_json = runner.invoke(app, ["whatsnew", "--since", "2000-01-01", "--format", "json", "--store", store])
    items = json.loads(as_json.stdout)
    assert {(i["kind"], i["framework"], i["subject"]) for i in items} >= {
        ("first-implementation", "trl", "grpo")
    }
    assert all(i["headline"] for i in items)
    bad = runner.invoke(app, ["whatsnew", "--since", "last week", "--store", store])
    assert bad.exit_code != 0 and "--since: not a date" in bad.output


def _mirror(origin: Repo, repo: str) -> None:
    """The cache's copy of `repo`, fetched from a local origin as `uptake update` fetches."""
    mirror = clone_path(repo)
    mirror.parent.mkdir(parents=True, exist_ok=True)
    subprocess.run(["git", "clone", "-q", "--mirror", str(origin.path), str(mirror)], check=True)


def _arxiv_paper(arxiv_id: str, title: str, day: str) -> dict:
    return {
        "arxiv_id": arxiv_id, "title": title, "published": f"{day}T00:00:00Z", "updated": f"{day}T00:00:00Z",
        "abstract": f"We propose {title.split(':')[0]}, a reinforcement learning method for language models.",
    }  # fmt: skip


def test_update_refreshes_lists_and_arxiv_then_a_second_run_asks_for_nothing_new(tmp_path, monkeypatch):
    monkeypatch.setenv("UPTAKE_CACHE", str(tmp_path / "cache"))
    monkeypatch.delenv("GITHUB_TOKEN", raising=False)
    framework = Repo(tmp_path / "trl")
    framework.commit("Initial commit", {"README.md": "# trl\n"})
    framework.commit("Fix NaN loss in GRPO trainer (#7)\n\nFixes #6", {"trl/grpo.py": "x = 1\n"})
    _mirror(framework, "huggingface/trl")
    awesome = Repo(tmp_path / "awesome")
    awesome.commit("Start", {"README.md": "## Methods\n- [DAPO](https://arxiv.org/abs/2503.14476)\n"})
    _mirror(awesome, "acme/awesome-rl")
    store = str(tmp_path / "g.lbug")
    assert runner.invoke(app, ["load", "catalog", "--store", store]).exit_code == 0
    papers = [
        _arxiv_paper(
            "2503.14476", "DAPO: An Open-Source LLM Reinforcement Learning System at Scale", "2025-03-18"
        ),
        _arxiv_paper("2507.18071", "GSPO: Group Sequence Policy Optimization", "2025-07-24"),
    ]
    monkeypatch.setenv("GITHUB_TOKEN", "test-token")
    issue = make_issue(
        21, "GRPO loss becomes NaN after 100 steps", repo="huggingface/trl", created_at="2026-11-30T10:00:00Z"
    )
    command = ["update", "--framework", "trl", "--list", "acme/awesome-rl", "--store", store]
    with FakeArxiv(papers) as api, FakeGitHub({"huggingface/trl": FakeRepo(issues=[issue])}) as github:
        command += ["--arxiv-url", api.url_format, "--github-url", github.url]
        first = runner.invoke(app, command)
        assert first.exit_code == 0, first.output
        asked = len(api.requests)
        assert asked >= 2  # the list's paper by id, then the study's query
        awesome.commit(
            "More",
            {
                "README.md": "- [DAPO](https://arxiv.org/abs/2503.14476)\n- [GSPO](https://arxiv.org/abs/2507.18071)\n"
            },
        )
        again = runner.invoke(app, command)
        assert again.exit_code == 0, again.output
        # The second run asks arXiv only for the query's newest page: both papers are known.
        assert len(api.requests) - asked == 1 and api.requests[-1]["id_list"] == [""]
    assert "from messages: 1 pull requests, 1 issue fixes, 1 failure reports" in first.output
    new = first.output.split("What is new:")[1]
    assert "trl#21" in new and "trl#6/failure" in new  # from the thread, and from the fixing commit
    assert again.output.split("What is new:")[1].strip().splitlines()[0] == "nothing new"
    assert "curated paper lists (fetched)" in again.output and "skipped" not in again.output
    from uptake.graph.store import open_store

    with open_store(store, read_only=True) as s:
        rows = s.read("MATCH (p:Paper) WHERE p.arxiv_id IN ['2503.14476', '2507.18071'] "
                      "RETURN p.arxiv_id AS id, p.abstract IS NOT NULL AS has_abstract, p.sources AS sources "
                      "ORDER BY id")  # fmt: skip
        failures = s.read(
            "MATCH (f:FailureReport)-[:REPORTED_IN]->(i:Issue) RETURN i.id AS issue ORDER BY issue"
        )
    assert [(r["id"], r["has_abstract"]) for r in rows] == [("2503.14476", True), ("2507.18071", True)]
    assert "acme/awesome-rl" in rows[1]["sources"]  # the list's second commit, fetched and read
    assert failures == [{"issue": "trl#21"}, {"issue": "trl#6"}]
