"""Mining a framework's git history into Commit, Release and link records.

One streaming `git log -p -U0` pass per slice of history: each commit's header and diff are
parsed and linked (see `link/commits.py`) as they arrive, and only the small facts are kept,
never the diffs. The history is cut into slices of commits that run in parallel processes,
since the cost is git computing diffs on one core. What was mined is remembered on the
Framework node (`mined_head`); the caller reads it from the store and hands it in, so a re-run
mines only new commits, notices a force-push, and a run interrupted before the end simply mines
the same commits again. A commit whose diff needs file contents the copy lacks (a partial clone)
is mined without those files and marked incomplete; the caller hands the incomplete commits back
in, and they are mined again once their files can be read. Nothing here talks to a store.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import os
import re
import subprocess
import threading
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from dataclasses import dataclass, field, replace
from multiprocessing import get_context
from pathlib import Path

from ..graph.records import Edge, Node, Record
from .link.commits import CommitLinker, FileDiff, Link, stored_rel
from .repository import GitError, git_succeeds, resolve_repository, run_git

_MARK = b"\x1e\x1eUPTAKE\x1f"
_FORMAT = "%x1e%x1eUPTAKE%x1f%H%x1f%P%x1f%an%x1f%ae%x1f%aI%x1f%cI%x1f%B%x1d%x1d"
_HEADER_END = "\x1d\x1d"
_SQUASH_PR = re.compile(r"\(#(\d+)\)\s*$")
_MERGE_PR = re.compile(r"^Merge pull request #(\d+)\b")
MAX_PATHS = 50  # paths kept per commit: enough to see what a commit touched, small on huge ones
MAX_SCAN = 4_000_000  # characters of one file's diff scanned for links (generated files are huge)


class MissingObjectError(GitError):
    """A blob the diff needs is absent (a partial or shallow copy); its path can be skipped."""

    def __init__(self, message: str, sha: str):
        super().__init__(message)
        self.sha = sha


_MISSING = re.compile(
    r"unable to read ([0-9a-f]{40})|missing blob object '?([0-9a-f]{40})"
    r"|could not fetch ([0-9a-f]{40}) from promisor remote"
)


def _no_lazy_fetch() -> dict[str, str]:
    """git's environment for mining. A partial clone would fetch each missing blob on its own, one
    round trip at a time (hours on a large history, and network the user did not ask for): the
    miner reads only what is present and reports the rest."""
    return {**os.environ, "GIT_NO_LAZY_FETCH": "1"}


# --- parsing the log stream (pure) ---------------------------------------------------------------


@dataclass
class MinedCommit:
    sha: str
    parents: list[str]
    author_name: str
    author_email: str
    author_date: str
    commit_date: str
    message: str
    files: list[FileDiff] = field(default_factory=list)  # with diff text; dropped after linking
    links: list[Link] = field(default_factory=list)
    reverts: str | None = None
    # What is kept of the files once the diff text is gone:
    paths: list[str] = field(default_factory=list)  # the first MAX_PATHS
    files_changed: int = 0
    insertions: int = 0
    deletions: int = 0
    # Files whose contents this copy lacks: counted and listed in `paths`, but neither their lines
    # nor their links are known, so the commit is incomplete until it is mined again.
    missing_paths: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        if self.files:
            self.paths = [f.path for f in self.files[:MAX_PATHS]]
            self.files_changed = len(self.files)
            self.insertions = sum(f.added for f in self.files)
            self.deletions = sum(f.deleted for f in self.files)

    @property
    def incomplete(self) -> bool:
        return bool(self.missing_paths)

    def add_missing(self, paths: Iterable[str]) -> None:
        """Record files left out of the diff because their contents are missing."""
        new = sorted(set(paths) - set(self.missing_paths))
        self.missing_paths = sorted(self.missing_paths + new)
        self.files_changed += len(new)
        self.paths = (self.paths + [p for p in new if p not in self.paths])[:MAX_PATHS]

    @property
    def subject(self) -> str:
        return self.message.split("\n", 1)[0].strip()

    @property
    def pr_number(self) -> int | None:
        return pr_number(self.message)

    @property
    def commit_ts(self) -> int | None:
        return iso_seconds(self.commit_date)


def iso_seconds(value: str) -> int | None:
    """`2025-05-19T22:43:23+08:00` -> seconds since 1970 (UTC); offsets make strings unsortable."""
    try:
        return int(dt.datetime.fromisoformat(value).timestamp())
    except ValueError:
        return None


def pr_number(message: str) -> int | None:
    """`Add GRPO (#2565)` (squash merge) or `Merge pull request #12 from ...` -> the number."""
    subject = message.split("\n", 1)[0].strip()
    for pattern in (_MERGE_PR, _SQUASH_PR):
        m = pattern.search(subject)
        if m:
            return int(m.group(1))
    return None


def _strip_prefix(path: str, prefix: str) -> str:
    if path.startswith('"') and path.endswith('"'):
        path = path[1:-1].encode("latin-1", "backslashreplace").decode("unicode_escape", "replace")
    return path[len(prefix) :] if path.startswith(prefix) else path


def parse_file_diff(section: str) -> FileDiff:
    """One `diff --git` section (without that prefix) of `git log -p -U0` output."""
    at = section.find("\n@@")
    header = section if at < 0 else section[:at]
    hunks = "" if at < 0 else section[at + 1 :]
    status, path, old_path, binary = "M", None, None, False
    lines = header.split("\n")
    for line in lines[1:]:
        first = line[:1]  # one comparison picks the kind of header line; most are `index` lines
        if first == "+":
            if line.startswith("+++ ") and line[4:] != "/dev/null":
                path = _strip_prefix(line[4:], "b/")
        elif first == "-":
            if line.startswith("--- ") and line[4:] != "/dev/null" and old_path is None:
                old_path = _strip_prefix(line[4:], "a/")
        elif first == "n":
            if line.startswith("new file mode"):
                status = "A"
        elif first == "d":
            if line.startswith("deleted file mode"):
                status = "D"
        elif first == "r":
            if line.startswith("rename from "):
                status, old_path = "R", line[12:]
            elif line.startswith("rename to "):
                path = line[10:]
        elif first == "B" and line.startswith("Binary files"):
            binary = True
    if path is None:
        path = old_path if status == "D" and old_path else _strip_prefix(lines[0].rpartition(" b/")[2], "")
    return FileDiff(
        path=path,
        status=status,
        old_path=old_path if status == "R" else None,
        added=hunks.count("\n+") + hunks.startswith("+"),
        deleted=hunks.count("\n-") + hunks.startswith("-"),
        binary=binary,
        text=hunks,
    )


def parse_commit(record: str) -> MinedCommit:
    """One record of the log stream: `sha\\x1fparents\\x1f...\\x1fmessage\\x1d\\x1d` then the diff."""
    header, _, diff = record.partition(_HEADER_END)
    sha, parents, an, ae, ad, cd, message = header.split("\x1f", 6)
    start = diff.find("diff --git ")
    files = []
    if start >= 0:
        for section in diff[start + len("diff --git ") :].split("\ndiff --git "):
            files.append(parse_file_diff(section))
    return MinedCommit(sha, parents.split(), an, ae, ad, cd, message.strip(), files)


def iter_records(stream: Iterable[bytes]) -> Iterator[str]:
    """Split the raw byte stream on the record marker; each record decoded on its own
    (invalid UTF-8 in messages or diffs becomes U+FFFD, never an exception). Only new bytes
    are searched, so small reads of a large commit cost no more than large ones."""
    buffer = bytearray()
    for chunk in stream:
        search_from = max(0, len(buffer) - len(_MARK) + 1)  # a marker may straddle the old end
        buffer += chunk
        done = 0
        at = buffer.find(_MARK, search_from)
        while at >= 0:
            if at > done:
                yield buffer[done:at].decode("utf-8", "replace")
            done = at + len(_MARK)
            at = buffer.find(_MARK, done)
        del buffer[:done]
    if buffer:
        yield buffer.decode("utf-8", "replace")


def _log_command(git_dir: Path | str, excludes: tuple[str, ...] = ()) -> list[str]:
    # With a pathspec, git drops commits that do not touch it unless told to keep every commit.
    pathspec = (
        ["--full-history", "--sparse", "--", ".", *(f":(exclude,literal){p}" for p in excludes)]
        if excludes
        else []
    )
    return [
        "git", "--git-dir", str(git_dir), "-c", "core.quotePath=false", "-c", "diff.renameLimit=2000",
        "log", "--no-walk=unsorted", "--stdin", "-p", "-U0", "-M", "--no-color", "--no-ext-diff",
        "--diff-merges=off", "--no-textconv", f"--format={_FORMAT}", *pathspec,
    ]  # fmt: skip


def _widen_pipe(stream) -> None:
    """A 1 MB pipe lets git run ahead while Python links a commit (the default 64 KB makes the two
    take turns); not every system allows it, and it is only an optimisation."""
    try:
        import fcntl

        fcntl.fcntl(stream.fileno(), fcntl.F_SETPIPE_SZ, 1 << 20)
    except (ImportError, AttributeError, OSError):
        pass


def stream_records(git_dir: Path | str, shas: list[str], excludes: tuple[str, ...] = ()) -> Iterator[str]:
    """Raw log records for `shas`, in that order, from one streaming `git log` process. A record
    cut short by a failing git is never yielded: the error is raised instead."""
    proc = subprocess.Popen(
        _log_command(git_dir, excludes),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=_no_lazy_fetch(),
    )

    def feed() -> None:
        try:
            proc.stdin.write(("\n".join(shas) + "\n").encode())
            proc.stdin.close()
        except BrokenPipeError:
            pass

    _widen_pipe(proc.stdout)
    writer = threading.Thread(target=feed, daemon=True)
    writer.start()
    records = iter_records(iter(lambda: proc.stdout.read1(1 << 20), b""))
    finished = False
    try:
        pending = next(records, None)
        for record in records:
            yield pending
            pending = record
        finished = True
    finally:
        if not finished:
            proc.kill()  # the reader stopped early: git need not compute the rest
        proc.stdout.close()
        err = proc.stderr.read().decode("utf-8", "replace")
        code = proc.wait()
        writer.join()
    if code != 0:
        message = f"git log failed in {git_dir} (exit {code}): {err.strip()[:500]}"
        missing = _MISSING.search(err)
        if missing:
            raise MissingObjectError(message, next(g for g in missing.groups() if g))
        raise GitError(message + "; the repository may be corrupt: re-clone it or run `git fsck`")
    if pending is not None:
        yield pending


def stream_commits(
    git_dir: Path | str, shas: list[str], excludes: tuple[str, ...] = ()
) -> Iterator[MinedCommit]:
    """Parsed commits for `shas`, in that order."""
    return map(parse_commit, stream_records(git_dir, shas, excludes))


def missing_contents(git_dir: Path | str, shas: Iterable[str]) -> dict[str, list[str]]:
    """For each of `shas` whose diff needs file contents this copy lacks (a partial clone, deleted
    objects), the paths it changed that cannot be read. Two git runs that read only trees."""
    shas = list(shas)
    if not shas:
        return {}
    # Rename detection would read the very blobs that are missing.
    raw = run_git(
        git_dir, "log", "--no-walk=unsorted", "--stdin", "--raw", "--no-abbrev", "--no-renames",
        "--diff-merges=off", "--format=%x00%H %P", input="\n".join(shas) + "\n", env=_no_lazy_fetch(),
    )  # fmt: skip
    changes: dict[str, list[tuple[str, str, str]]] = {}
    tips: set[str] = set()
    for block in raw.split("\0")[1:]:
        first, *lines = block.split("\n")
        sha, *parents = first.split()
        tips.update([sha, *parents])
        for line in lines:
            meta, tab, path = line.partition("\t")
            fields = meta.split()
            if tab and len(fields) >= 4:
                changes.setdefault(sha, []).append((path, fields[2], fields[3]))
    listed = run_git(
        git_dir, "rev-list", "--objects", "--no-walk", "--missing=print", "--stdin",
        input="\n".join(sorted(tips)) + "\n", env=_no_lazy_fetch(),
    )  # fmt: skip
    absent = {line[1:].strip() for line in listed.splitlines() if line.startswith("?")}
    missing = {
        sha: sorted({path for path, old, new in files if old in absent or new in absent})
        for sha, files in changes.items()
    }
    return {sha: paths for sha, paths in missing.items() if paths}


# --- mining in worker processes ------------------------------------------------------------------

_LINKER: CommitLinker | None = None


_TOP_PACKAGE = re.compile(r"^(?:src/)?([^/]+)/__init__\.py$")
# Top-level folders that hold a repository's tests, tooling or runnable recipes, not the package it ships.
_AUXILIARY = frozenset(
    {"test", "tests", "testing", "examples", "scripts", "tools", "docs", "benchmarks", "recipe", "recipes"}
)
_IDENTIFIER = re.compile(r"[A-Za-z_]\w*")


_CONFIG_FILE = re.compile(r"\.(?:ya?ml|toml|json)$|/configs?/[^/]+\.py$", re.I)  # config dataclasses too


def _nested_repository_packages(listing: list[str]) -> set[str]:
    """Packages of whole repositories copied into a folder of this one, whatever project they
    are: a repository's CI settings (`.github/`) act only at its root, so a folder that holds them
    came whole from elsewhere (`train/LLaMA-Factory/.github/`). Its packages count when no folder
    of that name lives outside such copies: a name this repository also uses says nothing."""
    roots = {path.split("/.github/", 1)[0] + "/" for path in listing if "/.github/" in path}
    if not roots:
        return set()
    copied: set[str] = set()
    folders: set[str] = set()  # folder names outside the copies
    for path in listing:
        root = next((r for r in roots if path.startswith(r)), None)
        if root is None:
            folders.update(part.lower() for part in path.split("/")[:-1])
        elif m := _TOP_PACKAGE.match(path[len(root) :]):
            copied.add(m.group(1).lower())
    return {p for p in copied - folders - _AUXILIARY if len(p) >= 3}


def _namespace_packages(git_dir: Path | str, head: str, listing: list[str]) -> set[str]:
    """Top-level folders without an `__init__.py` that the repository's code imports as packages
    (`from agent.tools import search`, with `agent/tools.py` at the head): a package of its own all
    the same. A folder named like an installed library (`evaluate/` beside `import evaluate`) is one
    only where the module imported is in it."""
    files = set(listing)
    folders = {path.split("/", 1)[0] for path in listing if path.endswith(".py") and "/" in path}
    folders = {
        f for f in folders - _AUXILIARY if _IDENTIFIER.fullmatch(f) and f"{f}/__init__.py" not in files
    }
    if not folders:
        return set()
    names = "|".join(sorted(folders))
    found = run_git(
        git_dir, "grep", "-h", "-o", "-E", rf"^\s*(from|import)\s+({names})\.[A-Za-z_][A-Za-z0-9_.]*",
        head, "--", "*.py", check=False,
    )  # fmt: skip
    modules = {line.split()[-1].replace(".", "/") for line in found.splitlines()}
    return {
        m.split("/", 1)[0] for m in modules if f"{m}.py" in files or any(p.startswith(m + "/") for p in files)
    }


def _former_names(git_dir: Path | str, head: str, init: str) -> set[str]:
    """The names the repository's only package (its `__init__.py` at `init`) had before a rename
    (`openrlhf/` became `marti/`): a fork that renamed the package it carried keeps that package's
    history as its own."""
    renames = run_git(
        git_dir, "log", "--follow", "--diff-filter=R", "--name-status", "--format=", head, "--", init,
        check=False,
    )  # fmt: skip
    return {
        m.group(1).lower()
        for line in renames.splitlines()
        if len(fields := line.split("\t")) == 3 and (m := _TOP_PACKAGE.match(fields[1]))
    }


def copied_trees(
    git_dir: Path | str, foreign: Iterable[str], head: str = "HEAD"
) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """Which of other frameworks' package names (`foreign`) are copies in this repository, and
    the config files in those copied trees, both read off one listing of the head.

    A repository whose only package at its head bears another framework's name is a fork that kept
    the name: that package is the repository's own code, and its history is not a copy. A config of
    this repository's own whose path ends as a copied tree's config does (three parts or more) is a
    copy of that framework's defaults (see `CommitLinker`)."""
    listing = run_git(git_dir, "ls-tree", "-r", "--name-only", head).splitlines()
    # package -> its `__init__.py`
    inits = {m.group(1).lower(): line for line in listing if (m := _TOP_PACKAGE.match(line))}
    packages = inits.keys() - _AUXILIARY
    foreign = tuple(foreign)
    if len(packages) == 1 and packages <= set(foreign) and not _namespace_packages(git_dir, head, listing):
        foreign = tuple(p for p in foreign if p not in packages)
    elif len(packages) == 1:
        former = _former_names(git_dir, head, inits[next(iter(packages))])
        foreign = tuple(p for p in foreign if p not in former)
    foreign += tuple(sorted(_nested_repository_packages(listing) - set(foreign)))
    if not foreign:
        return foreign, ()
    copied = {p.lower() for p in foreign}
    configs = tuple(
        path for path in listing
        if _CONFIG_FILE.search(path) and path.split("/", 1)[0].lower() in copied and path.count("/") >= 2
    )  # fmt: skip
    return foreign, configs


def _init_worker(
    methods: list, vendored: tuple[str, ...] = (), framework: str = "", configs: tuple[str, ...] = ()
) -> None:
    global _LINKER
    _LINKER = CommitLinker(methods, vendored, framework, configs)


INCOMPLETE_CONFIDENCE = 0.5  # factor on a link's confidence while its commit has unread files


def incomplete_link(link: Link, unread: int) -> Link:
    """A link found in a commit some of whose files could not be read: the unread files may hold
    a stronger (or the only real) implementation, so its evidence says so and its confidence is
    halved until the commit is mined whole."""
    return replace(
        link,
        rule=f"{link.rule}; incomplete commit, {unread} unread files not linked",
        confidence=round(link.confidence * INCOMPLETE_CONFIDENCE, 3),
    )


def link_commit(commit: MinedCommit, linker: CommitLinker) -> MinedCommit:
    """Attach links, then drop the files' diff text and the message body so only small facts
    leave the worker."""
    for i, f in enumerate(commit.files):
        if len(f.text) > MAX_SCAN:
            commit.files[i] = FileDiff(
                f.path, f.status, f.old_path, f.added, f.deleted, f.binary, f.text[:MAX_SCAN]
            )
    result = linker.link(commit.message, commit.files)
    commit.links, commit.reverts = result.links, result.reverts
    if commit.incomplete:
        commit.links = [incomplete_link(link, len(commit.missing_paths)) for link in commit.links]
    commit.message = commit.subject  # all that is stored; bodies of squash merges are long
    commit.files = []
    return commit


@dataclass
class Stretch:
    """A run of one repository's history mined from both ends at once, by two processes that
    each claim the next commit from their end until they meet: no slice is left to finish alone,
    and each end needs only one git process."""

    git_dir: str
    shas: list[str]
    bounds: object = None  # shared [next index from the front, next index from the back]

    def __post_init__(self) -> None:
        self.bounds = get_context("fork").Array("q", [0, len(self.shas) - 1])

    def claim(self, from_back: bool) -> bool:
        with self.bounds.get_lock():
            front, back = self.bounds[0], self.bounds[1]
            if front > back:
                return False
            self.bounds[1 if from_back else 0] = back - 1 if from_back else front + 1
            return True

    def remaining(self, from_back: bool) -> list[str]:
        with self.bounds.get_lock():
            part = self.shas[self.bounds[0] : self.bounds[1] + 1]
        return part[::-1] if from_back else part

    def claimed(self) -> int:
        with self.bounds.get_lock():
            return len(self.shas) - max(0, self.bounds[1] - self.bounds[0] + 1)


def stretches(jobs: list[tuple[str, list[str]]], workers: int, minimum: int = 100) -> list[Stretch]:
    """Each repository's history cut into at most one stretch per two workers."""
    out = []
    for git_dir, shas in jobs:
        count = max(1, min(-(-workers // 2), len(shas) // minimum))
        size = -(-len(shas) // count) if shas else 0
        out += [Stretch(git_dir, shas[i : i + size]) for i in range(0, len(shas), size or 1)]
    return out


_STRETCHES: list[Stretch] = []  # set before the workers fork, so they share the bounds


def mine_end(index: int, from_back: bool) -> list[MinedCommit]:
    """Worker entry point: commits of one stretch from one end, parsed and linked, in the order
    mined."""
    assert _LINKER is not None, "worker not initialised"
    stretch = _STRETCHES[index]
    mined: list[MinedCommit] = []
    while True:
        try:
            for record in stream_records(stretch.git_dir, stretch.remaining(from_back)):
                if not stretch.claim(from_back):
                    return mined  # met the other end
                mined.append(link_commit(parse_commit(record), _LINKER))
            return mined
        except MissingObjectError:
            # A commit ahead reads a file this copy lacks (a partial clone leaves out large
            # files): the next commit is mined alone, without such files, the rest as they are.
            rest = stretch.remaining(from_back)
            if not rest or not stretch.claim(from_back):
                return mined
            mined.append(link_commit(_mine_without_missing(stretch.git_dir, rest[0]), _LINKER))


def _mine_without_missing(git_dir: str, sha: str) -> MinedCommit:
    """One commit alone, leaving out the files whose contents this copy lacks; they are recorded
    as missing, so the commit is stored as incomplete and mined again once they are present."""
    excludes = tuple(missing_contents(git_dir, [sha]).get(sha, ()))
    try:
        commit = next(stream_commits(git_dir, [sha], excludes))
    except MissingObjectError as exc:
        raise GitError(
            f"{git_dir}: commit {sha} needs an object this copy lacks ({exc.sha}) outside its files' "
            "contents; fetch the missing objects or use a full clone"
        ) from exc
    commit.add_missing(excludes)
    return commit


def mine_commits(
    jobs: list[tuple[str, list[str]]],
    methods: list,
    workers: int | None = None,
    progress: Callable[[str, int], None] | None = None,
    vendored: Iterable[str] = (),
    framework: str = "",
    configs: Iterable[str] = (),
) -> Iterator[tuple[str, list[MinedCommit]]]:
    """Mine several repositories' commits in parallel: yields (git_dir, commits of one stretch
    in history order); `progress(git_dir, n)` hears of commits as they are claimed. `vendored`:
    other frameworks' package names, whose copied trees are marked; `framework`: the name of the
    framework whose history this is; `configs`: the copied trees' config files (see
    `CommitLinker`)."""
    global _STRETCHES
    workers = workers or os.cpu_count() or 1
    _STRETCHES = stretches(jobs, workers)
    # Compile the linker once, here: forked workers inherit it instead of each compiling its own.
    _init_worker(methods, tuple(vendored), framework, tuple(configs))
    tasks = [(i, from_back) for i in range(len(_STRETCHES)) for from_back in (False, True)]
    reported = [0] * len(_STRETCHES)

    def report() -> None:
        for i, stretch in enumerate(_STRETCHES):
            now = stretch.claimed()
            if progress and now > reported[i]:
                progress(stretch.git_dir, now - reported[i])
            reported[i] = now

    if workers == 1:
        for i, stretch in enumerate(_STRETCHES):
            mined = mine_end(i, False)
            report()
            yield stretch.git_dir, mined
        return
    with ProcessPoolExecutor(workers, mp_context=get_context("fork")) as pool:
        futures = {pool.submit(mine_end, i, back): (i, back) for i, back in tasks}
        ends: dict[int, dict[bool, list[MinedCommit]]] = {}
        pending = set(futures)
        while pending:
            done, pending = wait(pending, timeout=0.5, return_when=FIRST_COMPLETED)
            report()
            for future in done:
                i, back = futures[future]
                ends.setdefault(i, {})[back] = future.result()
                if len(ends[i]) == 2:
                    both = ends.pop(i)
                    yield _STRETCHES[i].git_dir, both[False] + both[True][::-1]


# --- records (pure) ------------------------------------------------------------------------------


def email_domain(email: str) -> str | None:
    domain = email.rpartition("@")[2].strip().lower()
    return domain or None


def commit_records(framework: str, c: MinedCommit, origin: str = "") -> Iterator[Record]:
    origin = origin or f"{framework}@{c.sha[:12]}"
    yield Node(
        "Commit",
        c.sha,
        {
            "framework": framework,
            "parents": c.parents,
            "author_name": c.author_name or None,
            "author_domain": email_domain(c.author_email),
            "author_date": c.author_date[:10] or None,
            "commit_date": c.commit_date[:10] or None,
            "committed_at": c.commit_date or None,
            "commit_ts": c.commit_ts,
            "subject": c.subject,
            "pr_number": c.pr_number,
            "files_changed": c.files_changed,
            "insertions": c.insertions,
            "deletions": c.deletions,
            "paths": c.paths,
            "is_merge": len(c.parents) > 1,
            # Written on every commit (not left unknown), so a repaired commit clears its flag.
            "incomplete": c.incomplete,
            "missing_files": len(c.missing_paths),
            "missing_paths": c.missing_paths[:MAX_PATHS],
        },
        origin,
    )
    yield Edge("PART_OF", ("Commit", c.sha), ("Framework", framework), {}, origin)
    yield from link_records(c.sha, c.links, origin)


def link_records(sha: str, links: Iterable[Link], origin: str = "") -> Iterator[Record]:
    for link in links:
        yield Edge(
            stored_rel(link.rel, bool(link.vendored)),
            ("Commit", sha),
            (link.label, link.key),
            link.evidence().props(),
            origin,
        )


# --- releases ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Tag:
    name: str
    date: str  # ISO timestamp: the tagger's for annotated tags, the commit's otherwise
    commit: str


def list_tags(git_dir: Path | str) -> list[Tag]:
    out = run_git(
        git_dir,
        "for-each-ref",
        "refs/tags",
        "--format=%(refname:strip=2)%00%(creatordate:iso-strict)%00%(objectname)%00%(*objectname)"
        "%00%(objecttype)%00%(*objecttype)",
    )
    tags = []
    for line in out.splitlines():
        name, date, obj, peeled, kind, peeled_kind = line.split("\0")
        commit = peeled if kind == "tag" else obj
        if (peeled_kind if kind == "tag" else kind) == "commit" and commit:
            tags.append(Tag(name, date, commit))
    return sorted(tags, key=lambda t: (t.date, t.name))


def first_releases(git_dir: Path | str, tags: list[Tag]) -> Iterator[tuple[Tag, list[str]]]:
    """For each tag in date order, the commits it is the first release of."""
    earlier: list[str] = []
    for tag in tags:
        stdin = "\n".join([tag.commit] + [f"^{c}" for c in earlier]) + "\n"
        shas = run_git(git_dir, "rev-list", "--stdin", input=stdin).split()
        earlier.append(tag.commit)
        yield tag, shas


def tag_release_records(framework: str, tag: Tag, shas: Iterable[str], keep: set[str]) -> Iterator[Record]:
    """A tag's Release node and the RELEASED_IN edges of the commits it first shipped (those in `keep`)."""
    release_id = f"{framework}/{tag.name}"
    origin = f"{framework} tag {tag.name}"
    yield Node(
        "Release",
        release_id,
        {"framework": framework, "tag": tag.name, "release_date": tag.date[:10], "commit_sha": tag.commit},
        origin,
    )
    yield Edge("PART_OF", ("Release", release_id), ("Framework", framework), {}, origin)
    for sha in shas:
        if sha in keep:
            yield Edge("RELEASED_IN", ("Commit", sha), ("Release", release_id), {}, origin)


def tags_digest(tags: list[Tag]) -> str:
    return hashlib.sha1("\n".join(f"{t.name} {t.commit}" for t in tags).encode()).hexdigest()


# --- one framework's new history ------------------------------------------------------------------


@dataclass
class MineResult:
    framework: str
    head: str
    new_commits: int = 0
    links: int = 0
    releases: int = 0
    force_push: bool = False
    abandoned: int = 0
    up_to_date: bool = False
    remined: list[str] = field(default_factory=list)  # stored incomplete commits now readable
    repaired: int = 0  # of those, mined whole
    # Commits left incomplete (sha -> paths whose contents this copy lacks), mined now or before.
    incomplete: dict[str, list[str]] = field(default_factory=dict)

    def summary(self) -> str:
        if self.up_to_date:
            return f"{self.framework}: up to date at {self.head[:12]}{self._incomplete_note()}"
        note = f", force-push: {self.abandoned} commits no longer on HEAD" if self.force_push else ""
        if self.repaired:
            note += f", {self.repaired} incomplete commits mined whole"
        return (
            f"{self.framework}: {self.new_commits} new commits, {self.links} links, "
            f"{self.releases} releases, head {self.head[:12]}{note}{self._incomplete_note()}"
        )

    def _incomplete_note(self) -> str:
        n = len(self.incomplete)
        return f", {n} commits incomplete (file contents missing from this copy)" if n else ""

    def incomplete_warning(self, repo: str | Path, shown: int = 10) -> list[str]:
        """What the user reads when commits are incomplete: which, which paths, how to repair."""
        if not self.incomplete:
            return []
        lines = [
            f"warning: {self.framework}: {len(self.incomplete)} commits stored as incomplete: {repo} "
            "lacks the contents of some files they change (a partial clone, or objects deleted); "
            "those files are not linked, and links found in the rest have half their confidence:"
        ]
        for sha, paths in sorted(self.incomplete.items())[:shown]:
            more = f" and {len(paths) - 5} more" if len(paths) > 5 else ""
            lines.append(f"  {sha[:12]}: {', '.join(paths[:5])}{more}")
        if len(self.incomplete) > shown:
            lines.append(f"  ... and {len(self.incomplete) - shown} more commits")
        lines.append(
            f"warning: to repair them, fetch the missing contents (`git -C {repo} fetch --refetch "
            "--no-filter origin` for a partial clone) or mine a full clone, then run `uptake load git` "
            "again: incomplete commits are mined again once their files can be read"
        )
        return lines


@dataclass(frozen=True)
class MinedState:
    """What a store remembers of one framework's history, read by the caller and handed in."""

    head: str | None = None
    tags: str | None = None  # digest of the tags mined with `head`
    commits: frozenset[str] = frozenset()  # stored shas; needed only when history was rewritten
    incomplete: frozenset[str] = frozenset()  # stored commits mined without some files' contents


def has_commit(git_dir: Path, sha: str) -> bool:
    """Whether this copy (a resolved git directory) holds the commit `sha`: a head mined
    elsewhere may be unknown here."""
    return git_succeeds(git_dir, "cat-file", "-e", f"{sha}^{{commit}}")


def history_rewritten(git_dir: Path, mined_head: str | None) -> bool:
    """Whether HEAD no longer descends from the mined head (a force-push): the caller then hands
    in the stored commits, so the miner can tell which of them HEAD dropped."""
    if not mined_head:
        return False
    return not git_succeeds(git_dir, "merge-base", "--is-ancestor", mined_head, "HEAD")


def plan_commits(git_dir: Path, head: str, state: MinedState) -> tuple[list[str], bool, list[str]]:
    """Commits to mine (oldest first), whether HEAD was force-pushed, and the stored commits it
    dropped (they get marked `excluded` so they never count as implementations)."""
    mined_head = state.head
    if mined_head and git_succeeds(git_dir, "merge-base", "--is-ancestor", mined_head, head):
        return run_git(git_dir, "rev-list", "--reverse", head, f"^{mined_head}").split(), False, []
    all_shas = run_git(git_dir, "rev-list", "--reverse", head).split()
    if not mined_head:
        return all_shas, False, []
    dropped = sorted(state.commits - set(all_shas))
    return [s for s in all_shas if s not in state.commits], True, dropped


@dataclass
class FrameworkMining:
    """One framework's new history as records; `result` is complete once `records` is consumed."""

    result: MineResult
    records: Iterator[Record]


def mine_framework(
    framework: str,
    repo_path: str | Path,
    methods: list,
    state: MinedState,
    *,
    workers: int | None = None,
    progress: Callable[[int], None] | None = None,
    vendored: Iterable[str] = (),
    head: str | None = None,
) -> FrameworkMining:
    """New commits of one framework since `state`, as records; nothing is written here. The
    framework's new mined state comes last, so a caller writing in order and stopped by a
    failure mines the same commits again next time. A caller that has resolved the repository
    and read its HEAD passes `head` (and the git directory as `repo_path`)."""
    git_dir = Path(repo_path) if head else resolve_repository(repo_path)
    head = head or run_git(git_dir, "rev-parse", "HEAD").strip()
    tags = list_tags(git_dir)
    digest = tags_digest(tags)
    result = MineResult(framework, head)
    _plan_repairs(git_dir, state.incomplete, result)
    if state.head == head and state.tags == digest and not result.remined:
        result.up_to_date = True
        return FrameworkMining(result, iter(()))
    shas, result.force_push, dropped = plan_commits(git_dir, head, state)
    result.abandoned = len(dropped)
    new = set(shas)
    result.remined = [sha for sha in result.remined if sha not in new]
    vendored, configs = copied_trees(git_dir, vendored, head)
    records = _history_records(
        git_dir, framework, methods, state, shas, dropped, tags, result, workers, progress, vendored, configs
    )
    return FrameworkMining(result, records)


def _plan_repairs(git_dir: Path, incomplete: frozenset[str], result: MineResult) -> None:
    """Of the stored incomplete commits this copy has, those whose files can all be read now are
    mined again (`result.remined`); the others stay incomplete, with the paths still missing."""
    if not incomplete:
        return
    present = run_git(
        git_dir, "rev-list", "--no-walk=unsorted", "--ignore-missing", "--stdin",
        input="\n".join(sorted(incomplete)) + "\n", env=_no_lazy_fetch(),
    ).split()  # fmt: skip
    still = missing_contents(git_dir, present)
    result.incomplete.update(still)
    result.remined = sorted(sha for sha in present if sha not in still)


def _history_records(
    git_dir: Path,
    framework: str,
    methods: list,
    state: MinedState,
    shas: list[str],
    dropped: list[str],
    tags: list[Tag],
    result: MineResult,
    workers: int | None,
    progress: Callable[[int], None] | None,
    vendored: tuple[str, ...] = (),
    configs: tuple[str, ...] = (),
) -> Iterator[Record]:
    for sha in dropped:
        yield Node("Commit", sha, {"excluded": "no longer on HEAD (force-push)"}, f"{framework} force-push")
    reverts: dict[str, str] = {}
    advance = (lambda _, n: progress(n)) if progress else None
    remined = set(result.remined)
    for _, mined in mine_commits(
        [(str(git_dir), result.remined + shas)], methods, workers, advance, vendored, framework, configs
    ):
        for c in mined:
            result.links += len(c.links)
            if c.incomplete:
                result.incomplete[c.sha] = c.missing_paths
            if c.reverts is not None:
                reverts[c.sha] = c.reverts or _revert_target_by_subject(git_dir, c.subject, c.sha)
            if c.sha not in remined:
                result.new_commits += 1
                yield from commit_records(framework, c)
                continue
            result.repaired += not c.incomplete
            # The commit node, which clears the flag, goes after its links: a run stopped
            # between the two leaves the commit flagged, so it is mined again.
            node, *rest = commit_records(framework, c)
            yield from rest
            yield node
    yield from _revert_records(git_dir, framework, reverts)
    digest = tags_digest(tags)
    if shas or state.tags != digest:
        on_head = set(run_git(git_dir, "rev-list", result.head).split())
        for tag, tag_shas in first_releases(git_dir, tags):
            result.releases += 1
            yield from tag_release_records(framework, tag, tag_shas, on_head)
    yield Node("Framework", framework, {"mined_head": result.head, "mined_tags": digest}, framework)


def _revert_target_by_subject(git_dir: Path, subject: str, sha: str) -> str:
    m = re.match(r'Revert "(.*)"', subject)
    if not m:
        return ""
    found = run_git(
        git_dir, "log", "--format=%H", "-n", "1", "-F", f"--grep={m.group(1)}", f"{sha}^", check=False
    )
    return found.strip()


def _revert_records(git_dir: Path, framework: str, reverts: dict[str, str]) -> Iterator[Record]:
    for revert_sha, target in sorted(reverts.items()):
        if not target:
            continue
        full = run_git(
            git_dir, "rev-parse", "--verify", "--quiet", f"{target}^{{commit}}", check=False
        ).strip()
        if full:
            yield Node("Commit", full, {"excluded": f"reverted by {revert_sha}"}, f"{framework} revert")


# --- a whole history at once (the data release, benchmarks) --------------------------------


@dataclass
class RepositoryFacts:
    framework: str
    head: str
    commits: list[MinedCommit]  # diffs dropped: messages, paths, counts, links
    tags: list[Tag]
    first_release: dict[str, str]  # commit sha -> tag name
    excluded: dict[str, str]  # commit sha -> why it never counts (reverted by ...)

    def incomplete_note(self) -> str:
        """Said when some commits were mined without some files' contents (a partial clone)."""
        n = sum(c.incomplete for c in self.commits)
        return (
            f"; warning: {n} of them incomplete, their files' contents missing from this copy "
            "(a partial clone?): the release lists them with missing_paths; mine a full clone"
            if n
            else ""
        )


def mine_repository(
    framework: str,
    repo_path: str | Path,
    methods: list,
    workers: int | None = None,
    vendored: Iterable[str] = (),
) -> RepositoryFacts:
    """The whole history of one repository, mined and linked, with releases and reverts."""
    git_dir = resolve_repository(repo_path)
    head = run_git(git_dir, "rev-parse", "HEAD").strip()
    shas = run_git(git_dir, "rev-list", "--reverse", head).split()
    vendored, configs = copied_trees(git_dir, vendored, head)
    commits: list[MinedCommit] = []
    for _, mined in mine_commits(
        [(str(git_dir), shas)], methods, workers, vendored=vendored, framework=framework, configs=configs
    ):
        commits.extend(mined)
    on_head = set(shas)
    tags = list_tags(git_dir)
    first_release: dict[str, str] = {}
    for tag, tag_shas in first_releases(git_dir, tags):
        for sha in tag_shas:
            if sha in on_head:
                first_release.setdefault(sha, tag.name)
    reverts = {
        c.sha: c.reverts or _revert_target_by_subject(git_dir, c.subject, c.sha)
        for c in commits
        if c.reverts is not None
    }
    excluded = {
        n.key: n.props["excluded"] for n in _revert_records(git_dir, framework, reverts) if n.key in on_head
    }
    return RepositoryFacts(framework, head, commits, tags, first_release, excluded)
