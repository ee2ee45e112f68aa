"""The stored queries of the GitHub area, on both stores, over a fixture built from
a real local git repository (contribution rules, fixing commits) and REST JSON
served by the local fake GitHub (issues, pull requests, comments).

Commits, releases and IMPLEMENTS links are written as the git miner would
write them, so these tests do not depend on the miner's code.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest
from fake_github import FakeGitHub, FakeRepo, make_comment, make_issue, make_pull
from uptake.graph.records import Edge, Node
from uptake.loaders.catalog import MethodEntry
from uptake.queries.run import run_query
from uptake.sync.github import sync_github
from uptake.sync.rules import sync_rules

REPO = "acme/rlkit"
FW = "rlkit"
METHODS = [
    MethodEntry(
        "grpo", "GRPO", ("grpo", "GRPOTrainer"), "2402.03300", None, None, None, "", "policy-gradient"
    ),
    MethodEntry("dapo", "DAPO", ("dapo",), "2503.14476", None, "grpo", "clip", "", "policy-gradient"),
]


def _git(repo: Path, *args: str, date: str = "2025-03-01T12:00:00+00:00") -> str:
    env = {
        **os.environ,
        "GIT_AUTHOR_NAME": "Dev",
        "GIT_AUTHOR_EMAIL": "dev@example.org",
        "GIT_COMMITTER_NAME": "Dev",
        "GIT_COMMITTER_EMAIL": "dev@example.org",
        "GIT_AUTHOR_DATE": date,
        "GIT_COMMITTER_DATE": date,
    }
    return subprocess.run(
        ["git", "-C", str(repo), *args], check=True, capture_output=True, text=True, env=env
    ).stdout


def _commit(repo: Path, files: dict[str, str], message: str, date: str) -> str:
    for path, text in files.items():
        (repo / path).parent.mkdir(parents=True, exist_ok=True)
        (repo / path).write_text(text)
    _git(repo, "add", "-A")
    _git(repo, "commit", "-q", "-m", message, date=date)
    return _git(repo, "rev-parse", "HEAD").strip()


@pytest.fixture
def framework_repo(tmp_path) -> tuple[Path, dict[str, str]]:
    repo = tmp_path / "rlkit"
    repo.mkdir()
    _git(repo, "init", "-q", "-b", "main")
    shas = {}
    shas["guide"] = _commit(
        repo,
        {
            "CONTRIBUTING.md": "# Contributing to rlkit\n\n## Proposing a new algorithm\n\n"
            "Open an issue to discuss a new algorithm before sending a pull request, and link its paper.\n\n"
            "## Tests\n\nEvery pull request must add unit tests.\n\n"
            "All commits must carry a Signed-off-by line (git commit -s).\n",
            ".pre-commit-config.yaml": "repos:\n  - repo: local\n    hooks:\n"
            "      - id: ruff\n      - id: ruff-format\n",
            "pyproject.toml": "[project]\nname = 'rlkit'\n\n[tool.ruff]\nline-length = 100\n",
            "rlkit/loss.py": "def loss():\n    return 0.0\n",
        },
        "Initial layout",
        "2025-01-10T09:00:00+00:00",
    )
    shas["template"] = _commit(
        repo,
        {
            ".github/pull_request_template.md": "## What does this PR do?\n\n- [ ] I linked the issue\n"
            "- [ ] I added tests\n",
            ".github/ISSUE_TEMPLATE/new-algorithm.yml": "name: New algorithm proposal\n"
            "description: propose one\n",
        },
        "Add PR and issue templates",
        "2025-02-01T09:00:00+00:00",
    )
    shas["fix"] = _commit(
        repo,
        {"rlkit/loss.py": "def loss():\n    return 1.0  # guard std=0\n"},
        "Guard zero std in GRPO advantages, fixes #3 (#12)",
        "2025-03-20T09:00:00+00:00",
    )
    return repo, shas


def _served_threads(fix_sha: str) -> FakeRepo:
    repo = FakeRepo()
    repo.issues += [
        make_issue(
            3,
            "GRPO loss becomes NaN when all rewards in a group are equal",
            "Training for 50 steps, then loss: nan.",
            created_at="2025-03-10T08:00:00Z",
            updated_at="2025-03-20T10:00:00Z",
            state="closed",
            closed_at="2025-03-20T10:00:00Z",
            comments=1,
        ),
        make_issue(
            5,
            "Support DAPO",
            "Would be nice to have https://arxiv.org/abs/2503.14476 in rlkit.",
            created_at="2025-04-01T08:00:00Z",
            comments=1,
            labels=("enhancement",),
        ),
        make_issue(
            7,
            "Clip-higher as in DAPO?",
            "Is DAPO planned?",
            created_at="2025-05-01T08:00:00Z",
        ),
        make_issue(
            12,
            "Guard zero std in GRPO advantages",
            "Fixes #3.",
            created_at="2025-03-15T08:00:00Z",
            updated_at="2025-03-20T09:00:00Z",
            is_pull=True,
            pull_merged_at="2025-03-20T09:00:00Z",
        ),
    ]
    repo.pulls.append(
        make_pull(
            12,
            "Guard zero std in GRPO advantages",
            "Fixes #3.",
            created_at="2025-03-15T08:00:00Z",
            updated_at="2025-03-20T09:00:00Z",
            closed_at="2025-03-20T09:00:00Z",
            merged_at="2025-03-20T09:00:00Z",
            merge_commit_sha=fix_sha,
            state="closed",
        )
    )
    repo.comments += [
        make_comment(
            900,
            3,
            "Thanks, looking into it.",
            association="MEMBER",
            author="maint",
            created_at="2025-03-11T08:00:00Z",
        ),
        make_comment(901, 5, "+1, we need this.", association="NONE", created_at="2025-04-02T08:00:00Z"),
        make_comment(
            902,
            5,
            "Automated triage",
            association="MEMBER",
            author="triage[bot]",
            bot=True,
            created_at="2025-04-02T09:00:00Z",
        ),
    ]
    return repo


def _miner_records(shas: dict[str, str]) -> list:
    """What the git miner and the catalog would have written."""
    fix = shas["fix"]
    return [
        Node("Framework", FW, {"name": "rlkit", "repo": REPO}),
        Node("Method", "grpo", {"name": "GRPO", "arxiv_id": "2402.03300"}),
        Node("Method", "dapo", {"name": "DAPO", "arxiv_id": "2503.14476"}),
        Node("Paper", "2503.14476", {"title": "DAPO paper", "published_date": "2025-03-18"}),
        Edge("PROPOSES", ("Paper", "2503.14476"), ("Method", "dapo")),
        Node(
            "Commit", fix, {"framework": FW, "commit_date": "2025-03-20", "subject": "Guard zero std in GRPO"}
        ),
        Edge("PART_OF", ("Commit", fix), ("Framework", FW)),
        Edge("IMPLEMENTS", ("Commit", fix), ("Method", "grpo"), {"rule": "diff-alias", "confidence": 0.9}),
        Node("Release", f"{FW}/v0.2.0", {"framework": FW, "tag": "v0.2.0", "release_date": "2025-04-02"}),
        Node("Release", f"{FW}/v0.3.0", {"framework": FW, "tag": "v0.3.0", "release_date": "2025-06-01"}),
        Edge("RELEASED_IN", ("Commit", fix), ("Release", f"{FW}/v0.2.0")),
        Edge("RELEASED_IN", ("Commit", fix), ("Release", f"{FW}/v0.3.0")),
    ]


@pytest.fixture
def loaded(store, framework_repo, tmp_path):
    repo, shas = framework_repo
    store.write(_miner_records(shas))
    with FakeGitHub({REPO: _served_threads(shas["fix"])}) as fake:
        sync_github(
            store,
            FW,
            REPO,
            METHODS,
            api_url=fake.url,
            token="",
            cache_root=tmp_path / "cache",
            git_dir=repo,
            client_options={"seconds_between_requests": 0},
        )
    sync_rules(store, FW, repo)
    return store, shas


def run(store, name: str, **params) -> list[dict]:
    return run_query(store, name, params).rows


def test_earlier_proposals_for_a_method_and_its_paper(loaded):
    store, _ = loaded
    rows = run(store, "earlier-proposals", framework=FW, method="dapo")
    by_thread = {(r["thread"], r["via"]): r for r in rows}
    assert set(by_thread) == {
        ("rlkit#5", "cites 2503.14476"),
        ("rlkit#5", "names dapo"),
        ("rlkit#7", "names dapo"),
    }
    cited = by_thread[("rlkit#5", "cites 2503.14476")]
    assert cited["kind"] == "issue" and cited["state"] == "open" and cited["answered"] is False
    assert cited["rule"] == "arxiv-url" and cited["location"] == "rlkit#5 body"
    assert cited["labels"] == ["enhancement"] and cited["comments"] == 1
    # Asking by paper finds the same threads, through PROPOSES.
    by_paper = run(store, "earlier-proposals", framework=FW, paper="2503.14476")
    assert {(r["thread"], r["via"]) for r in by_paper} == set(by_thread)


def test_earlier_proposals_report_maintainer_reply(loaded):
    store, _ = loaded
    rows = run(store, "earlier-proposals", framework=FW, method="grpo")
    issue = next(r for r in rows if r["thread"] == "rlkit#3")
    assert issue["answered"] is True and issue["days_to_reply"] == 1
    assert str(issue["first_reply_date"]) == "2025-03-11"
    pr = next(r for r in rows if r["thread"] == "rlkit#12")
    assert pr["kind"] == "pull-request" and pr["state"] == "merged" and str(pr["merged_date"]) == "2025-03-20"


def test_unanswered_proposals_ignore_bots(loaded):
    store, _ = loaded
    rows = run(store, "unanswered-proposals", framework=FW)
    assert [(r["thread"], r["cites"], r["names"]) for r in rows] == [
        ("rlkit#5", ["2503.14476"], ["dapo"]),
        ("rlkit#7", [], ["dapo"]),
    ]


def test_failure_to_fixing_commit_to_release(loaded):
    store, shas = loaded
    rows = run(store, "failure-fixes", framework=FW)
    fix_rows = {(r["fix_commit"], r["fix_rule"]) for r in rows}
    # The PR's closing keyword (through its merge commit) and the commit message's own keyword.
    assert fix_rows == {(shas["fix"], "merged-pr-closing-keyword")} or fix_rows == {
        (shas["fix"], "closing-keyword")
    }
    row = rows[0]
    assert row["failure"] == "rlkit#3/failure" and row["symptom"] == "nan-loss" and row["method"] == "grpo"
    assert row["issue"] == "rlkit#3" and row["fix_pr"] == "rlkit#12" and row["implements"] == ["grpo"]
    assert row["release"] == "v0.2.0" and str(row["release_date"]) == "2025-04-02"
    assert row["days_to_release"] == 23
    assert run(store, "failure-fixes", framework=FW, symptom="oom") == []
    assert len(run(store, "failure-fixes", framework=FW, method="grpo")) == len(rows)


def test_contribution_rules_from_the_framework_tree(loaded):
    store, shas = loaded
    rows = run(store, "contribution-rules", framework=FW)
    kinds = {r["kind"]: r for r in rows}
    assert set(kinds) >= {
        "contributing-guide",
        "new-algorithm-policy",
        "tests-required",
        "discuss-first",
        "dco",
        "pre-commit",
        "lint",
        "pr-template",
        "issue-template",
        "new-algorithm-template",
    }
    assert kinds["pre-commit"]["value"] == "ruff, ruff-format"
    assert kinds["pr-template"]["value"] == "checklist: I linked the issue; I added tests"
    assert kinds["pr-template"]["commit_sha"] == shas["template"]
    assert str(kinds["pr-template"]["rule_date"]) == "2025-02-01"
    assert kinds["contributing-guide"]["commit_sha"] == shas["guide"]
    assert "before sending a pull request" in kinds["new-algorithm-policy"]["value"]
