"""Running git: one runner every loader uses, and finding, cloning and fetching repositories."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

from .cache import clone_path


class GitError(RuntimeError):
    """A repository is missing, corrupt or unreadable; the message names it and says what to do."""


class ShallowCloneError(GitError):
    """A shallow clone: mined, it would date every first implementation wrongly."""


def run_git(
    repo: Path | str,
    *args: str,
    check: bool = True,
    input: str | None = None,
    error: type[Exception] = GitError,
    env: dict[str, str] | None = None,
) -> str:
    """git's output in `repo` (a work tree or a git directory); `error` is raised when it fails,
    so each loader reports in its own terms."""
    proc = subprocess.run(
        ["git", "-C", str(repo), "-c", "core.quotePath=false", *args],
        capture_output=True,
        text=True,
        errors="replace",
        input=input,
        env=env,
    )
    if check and proc.returncode != 0:
        raise error(f"git {' '.join(args[:3])} failed in {repo}: {proc.stderr.strip()[:500]}")
    return proc.stdout


def git_succeeds(repo: Path | str, *args: str) -> bool:
    """Whether a git command that answers by its exit code (merge-base --is-ancestor) says yes."""
    return subprocess.run(["git", "-C", str(repo), *args], capture_output=True).returncode == 0


def resolve_repository(path: str | Path) -> Path:
    """The git directory of a work tree or a bare repository; a clear error if it is neither, if
    its HEAD is not a commit, or if it is shallow. One git call: every command resolves each
    framework's copy, some of them more than once."""
    p = Path(path).expanduser()
    if not p.exists():
        raise GitError(f"repository path {p} does not exist")
    proc = subprocess.run(
        ["git", "-C", str(p), "rev-parse", "--absolute-git-dir", "--is-shallow-repository",
         "--verify", "-q", "HEAD^{commit}"],
        capture_output=True, text=True,
    )  # fmt: skip
    answers = proc.stdout.split("\n")
    if len(answers) < 2 or not answers[0]:
        raise GitError(f"{p} is not a git repository: {proc.stderr.strip()[:300]}")
    if proc.returncode != 0 or len(answers) < 3 or not answers[2]:
        raise GitError(f"{p}: HEAD does not resolve to a commit (empty or corrupt repository)")
    if answers[1] == "true":
        raise ShallowCloneError(
            f"{p} is a shallow clone: its older history is cut off, so every first implementation found "
            f"in it would be wrong; fetch the whole history with `git -C {p} fetch --unshallow` "
            "(or pass --unshallow to let Uptake fetch it)"
        )
    return Path(answers[0])


def is_shallow(git_dir: Path | str) -> bool:
    """Whether a copy holds only the latest commits (`git clone --depth`)."""
    return run_git(git_dir, "rev-parse", "--is-shallow-repository").strip() == "true"


def fetch_full_history(path: str | Path) -> bool:
    """Deepen a shallow clone to its whole history (network); False when it was complete already."""
    git_dir = run_git(Path(path).expanduser(), "rev-parse", "--absolute-git-dir").strip()
    if not is_shallow(git_dir):
        return False
    run_git(git_dir, "fetch", "--unshallow", "--tags")
    return True


# Branches and tags only: GitHub also serves a ref per pull request (thousands in a busy
# repository), which the miner never reads and which made every fetch twice as slow.
BRANCHES = "+refs/heads/*:refs/heads/*"


def clone_or_fetch(repo: str, cache_dir: Path | None = None, url: str | None = None) -> Path:
    """A bare copy of `owner/name` in the cache (branches and tags), cloned the first time and
    fetched afterwards."""
    target = clone_path(repo, cache_dir)
    url = url or f"https://github.com/{repo}.git"
    if (target / "HEAD").exists():
        if not up_to_date(target):
            run_git(target, "fetch", "--prune", "--tags", "origin", BRANCHES)
        return target
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.with_suffix(".partial")
    shutil.rmtree(partial, ignore_errors=True)
    proc = subprocess.run(["git", "clone", "--bare", url, str(partial)], capture_output=True, text=True)
    if proc.returncode != 0:
        raise GitError(f"cloning {url} failed: {proc.stderr.strip()[:300]}")
    partial.rename(target)  # only a complete clone gets the final name
    return target


def up_to_date(git_dir: Path) -> bool:
    """Whether the copy's branches and tags are its origin's: asking for the origin's refs is
    one light request, a fetch with nothing to fetch several times the work (it negotiates, checks
    and writes), and most updates find most repositories unchanged."""
    remote = run_git(git_dir, "ls-remote", "origin", "refs/heads/*", "refs/tags/*")
    local = run_git(git_dir, "for-each-ref", "--format=%(objectname)\t%(refname)", "refs/heads", "refs/tags")
    theirs = {line for line in remote.splitlines() if line and not line.endswith("^{}")}
    return theirs == set(local.splitlines()) - {""}


def fetch_all(repos: list[str], cache_dir: Path | None = None) -> list[Path | GitError]:
    """`clone_or_fetch` of each repository at once (fetches wait on the network, not on each
    other): its copy, or the error that stopped it, in the order given."""
    from concurrent.futures import ThreadPoolExecutor

    def fetch(repo: str) -> Path | GitError:
        try:
            return clone_or_fetch(repo, cache_dir)
        except GitError as exc:
            return exc

    with ThreadPoolExecutor(max_workers=8) as pool:
        return list(pool.map(fetch, repos))
