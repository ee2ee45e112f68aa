"""Fetching the cache's copies: a copy is fetched only when its origin's branches or tags moved."""

from __future__ import annotations

from git_history import Repo
from uptake.loaders.repository import clone_or_fetch, run_git, up_to_date


def test_a_copy_is_fetched_only_when_its_origin_moved(tmp_path):
    origin = Repo(tmp_path / "origin")
    origin.commit("Initial commit", {"README.md": "# fw\n"})
    fetch = lambda: clone_or_fetch("owner/fw", cache_dir=tmp_path / "cache", url=str(origin.path))  # noqa: E731
    copy = fetch()
    assert up_to_date(copy)
    head = lambda: run_git(copy, "rev-parse", "HEAD").strip()  # noqa: E731

    origin.commit("Add a trainer", {"fw/trainer.py": "x = 1\n"})
    assert not up_to_date(copy) and head() != origin.head()
    fetch()
    assert up_to_date(copy) and head() == origin.head()

    # A new tag, a new branch and a deleted branch are each a change the next fetch takes.
    origin.git("tag", "v1.0")
    assert not up_to_date(copy)
    fetch()
    assert run_git(copy, "tag").split() == ["v1.0"]
    origin.git("branch", "feature")
    fetch()
    origin.git("branch", "-D", "feature")
    assert not up_to_date(copy)
    fetch()
    assert "feature" not in run_git(copy, "branch")
    assert up_to_date(copy)
