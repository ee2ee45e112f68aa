"""A shallow clone is refused, since mined it would date every first implementation wrongly, unless
the user lets Uptake fetch the whole history (--unshallow)."""

from __future__ import annotations

import subprocess
from pathlib import Path

from git_history import Repo
from typer.testing import CliRunner
from uptake.api.cli import app
from uptake.graph.store import open_store


def _full_and_shallow(tmp_path: Path) -> tuple[Repo, Path]:
    full = Repo(tmp_path / "full")
    full.commit("Initial commit", {"README.md": "# fw\n"})
    full.commit("Add GRPO trainer (#5)", {"fw/grpo_trainer.py": "class GRPOTrainer:\n    pass\n"})
    for n in range(3):
        full.commit(f"Tidy {n}", {"fw/log.py": f"x = {n}\n"})
    shallow = tmp_path / "shallow"
    subprocess.run(
        ["git", "clone", "-q", "--depth", "2", f"file://{full.path}", str(shallow)],
        check=True,
        capture_output=True,
    )
    return full, shallow


def _commits(store: str) -> list[str]:
    with open_store(store, read_only=True) as s:
        return sorted(r["sha"] for r in s.read("MATCH (c:Commit) RETURN c.sha AS sha"))


def test_shallow_clone_is_refused_with_the_reason_and_the_fix(tmp_path):
    _, shallow = _full_and_shallow(tmp_path)
    store = str(tmp_path / "graph.lbug")
    result = CliRunner().invoke(
        app, ["load", "git", "--framework", "trl", "--repo", str(shallow), "--store", store]
    )
    assert result.exit_code == 1
    (line,) = [x for x in result.stderr.splitlines() if x.strip()]
    assert line.startswith("error: ") and str(shallow) in line
    assert "shallow clone" in line and f"git -C {shallow} fetch --unshallow" in line and "--unshallow" in line
    assert _commits(store) == []


def test_unshallow_fetches_the_whole_history_then_mines_it(tmp_path):
    full, shallow = _full_and_shallow(tmp_path)
    store = str(tmp_path / "graph.lbug")
    args = ["load", "git", "--framework", "trl", "--repo", str(shallow), "--unshallow", "--store", store]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    assert (
        subprocess.run(
            ["git", "-C", str(shallow), "rev-parse", "--is-shallow-repository"],
            capture_output=True,
            text=True,
        ).stdout.strip()
        == "false"
    )
    every_commit = sorted(full.git("rev-list", "HEAD").split())
    assert len(every_commit) == 5 and _commits(store) == every_commit
