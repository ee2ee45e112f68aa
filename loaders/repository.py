"""Running git: one runner every loader uses, and finding, cloning and fetching repositories."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

from .cache import clone_path


class GitError(RuntimeError):
    """A repository is missing, corrupt or unreadable; the message names it and says what to do."""


def run_git(
    repo: Path | str,
    *args: str,
    check: bool = True,
    input: str | None = None,
    error: type[Exception] = GitError,
) -> str:
    """git's output in `repo` (a work tree or a git directory); `error` is raised when it fails,
    so each loader reports in its own terms."""
    proc = subprocess.run(
        ["git", "-C", str(repo), "-c", "core.quotePath=false", *args],
        capture_output=True,
        text=True,
        errors="replace",
        input=input,
    )
    if check and proc.returncode != 0:
        raise error(f"git {' '.join(args[:3])} failed in {repo}: {proc.stderr.strip()[:500]}")
    return proc.stdout


def git_succeeds(repo: Path | str, *args: str) -> bool:
    """Whether a git command that answers by its exit code (merge-base --is-ancestor) says yes."""
    return subprocess.run(["git", "-C", str(repo), *args], capture_output=True).returncode == 0


def resolve_repository(path: str | Path) -> Path:
    """The git directory of a work tree or a bare repository; a clear error if it is neither."""
    p = Path(path).expanduser()
    if not p.exists():
        raise GitError(f"repository path {p} does not exist")
    proc = subprocess.run(
        ["git", "-C", str(p), "rev-parse", "--absolute-git-dir"], capture_output=True, text=True
    )
    if proc.returncode != 0:
        raise GitError(f"{p} is not a git repository: {proc.stderr.strip()[:300]}")
    git_dir = Path(proc.stdout.strip())
    if not git_succeeds(git_dir, "rev-parse", "--verify", "HEAD^{commit}"):
        raise GitError(f"{p}: HEAD does not resolve to a commit (empty or corrupt repository)")
    return git_dir


def clone_or_fetch(repo: str, cache_dir: Path | None = None, url: str | None = None) -> Path:
    """A bare mirror of `owner/name` in the cache, cloned the first time and fetched afterwards."""
    target = clone_path(repo, cache_dir)
    url = url or f"https://github.com/{repo}.git"
    if (target / "HEAD").exists():
        run_git(target, "fetch", "--prune", "--tags", "origin")
        return target
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.with_suffix(".partial")
    shutil.rmtree(partial, ignore_errors=True)
    proc = subprocess.run(["git", "clone", "--mirror", url, str(partial)], capture_output=True, text=True)
    if proc.returncode != 0:
        raise GitError(f"cloning {url} failed: {proc.stderr.strip()[:300]}")
    partial.rename(target)  # only a complete clone gets the final name
    return target
