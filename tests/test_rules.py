"""Contribution rules read from real local git repositories (a work tree and a bare mirror)."""

from __future__ import annotations

import os
import subprocess

import pytest
from uptake.loaders.rules import GitTree, RulesError, rule_records, tree_rules

ENV = {
    **os.environ,
    "GIT_AUTHOR_NAME": "a",
    "GIT_AUTHOR_EMAIL": "a@x",
    "GIT_COMMITTER_NAME": "a",
    "GIT_COMMITTER_EMAIL": "a@x",
    "GIT_COMMITTER_DATE": "2025-05-06T07:00:00+00:00",
}


def _repo(tmp_path, files: dict[str, str]):
    repo = tmp_path / "work"
    repo.mkdir()
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    for path, text in files.items():
        (repo / path).parent.mkdir(parents=True, exist_ok=True)
        (repo / path).write_text(text)
    subprocess.run(["git", "-C", str(repo), "add", "-A"], check=True)
    subprocess.run(["git", "-C", str(repo), "commit", "-q", "-m", "rules"], check=True, env=ENV)
    return repo


def test_bare_mirror_reads_cla_workflow_codeowners_and_blank_issue_policy(tmp_path):
    work = _repo(
        tmp_path,
        {
            ".github/workflows/cla.yml": "name: CLA\non: pull_request\n"
            "jobs:\n  cla:\n    uses: cla-assistant/action\n",
            ".github/CODEOWNERS": "# owners\n/src/ @core\n/docs/ @docs\n",
            ".github/ISSUE_TEMPLATE/config.yml": "blank_issues_enabled: false\n",
            "setup.cfg": "[flake8]\nmax-line-length = 100\n",
            "src/a.py": "x = 1\n",
        },
    )
    bare = tmp_path / "mirror.git"
    subprocess.run(["git", "clone", "-q", "--mirror", str(work), str(bare)], check=True)
    records = list(rule_records("kit", GitTree(bare)))
    nodes = {r.key: r.props for r in records if hasattr(r, "key")}
    assert nodes["kit/cla"]["value"] == "CLA check runs on pull requests"
    assert nodes["kit/cla"]["source_path"] == ".github/workflows/cla.yml"
    assert nodes["kit/code-owners"]["value"] == "2 ownership rules"
    assert nodes["kit/blank-issues"]["value"].startswith("disabled")
    assert nodes["kit/lint/flake8"]["source_path"] == "setup.cfg"
    assert {r.props["rule_date"] for r in records if hasattr(r, "key")} == {"2025-05-06"}
    assert sum(1 for r in records if getattr(r, "type", None) == "HAS_RULE") == len(nodes)


def test_guide_headings_ignore_code_blocks_and_root_guide_wins():
    files = {
        "docs/CONTRIBUTING.md": "# Old guide\n",
        "CONTRIBUTING.md": "# Guide\n\n```bash\n# not a heading\n```\n\n## Style\n",
    }
    facts = list(tree_rules(list(files), files.__getitem__))
    guide = next(f for f in facts if f.kind == "contributing-guide")
    assert guide.source_path == "CONTRIBUTING.md" and guide.value == "Guide; Style"


def test_missing_repository_is_a_clear_error(tmp_path):
    with pytest.raises(RulesError, match="no such repository"):
        GitTree(tmp_path / "absent")
