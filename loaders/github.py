"""Issues, pull requests and their comments from GitHub, as graph records.

Three layers, kept apart so each is testable on its own:

* `GitHubClient` is the one object that talks to the REST API (through
  PyGithub's requester). It owns politeness: it reads the rate-limit headers
  of every response and waits or stops *before* the limit bites, retries a
  server error or a malformed body a few times with back-off, and never loops
  hot. Everything it receives is appended to a disk cache of raw JSON items,
  page by page, with the incremental cursors saved after each page, so an
  interrupted or rate-limited run resumes where it stopped and a later run
  asks only for what changed since.
* `read_dump` reads the same raw JSON from a folder of files saved by
  `gh api --paginate` (or copied from a cache), so a team can share a dump.
* `thread_records` is pure: raw REST JSON in, `Node`/`Edge` records out,
  with the linkers of `loaders/link/` deciding CITES, NAMES, FIXES and
  failure reports.
"""

from __future__ import annotations

import datetime as dt
import json
import os
import re
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..graph.records import Edge, Evidence, Node, Record
from .github_items import check_item, json_items
from .input_error import InputError
from .input_files import json_line, json_type, read_lines, read_text
from .link.failures import classify_thread, failure_records
from .link.fixes import commit_fix_edges, pull_request_fix_edges
from .link.methods import MethodMatcher
from .link.threads import TextPart, Thread, maintainer_first_reply, thread_link_edges
from .repository import run_git

DEFAULT_API_URL = "https://api.github.com"
PER_PAGE = 100
KINDS = ("issues", "pulls", "comments")


class GitHubError(RuntimeError):
    """The GitHub load could not go on; the message says why and what was kept."""


class RateLimited(GitHubError):
    """The rate limit is spent and the wait is longer than allowed; resume at `resume_at`."""

    def __init__(self, message: str, resume_at: dt.datetime):
        super().__init__(message)
        self.resume_at = resume_at


class DumpError(InputError):
    """A dump file is not GitHub REST JSON; the message names the file, line and field."""


# -- raw JSON helpers ----------------------------------------------------------


def item_kind(item: dict[str, Any]) -> str | None:
    """Which REST list an item comes from: issues, pulls, comments, or None."""
    if not isinstance(item, dict):
        return None
    if "number" in item and ("merge_commit_sha" in item or "head" in item):
        return "pulls"
    if "number" in item and "title" in item:
        return "issues"
    if "issue_url" in item and "body" in item:
        return "comments"
    return None


def _issue_number_of_comment(comment: dict[str, Any]) -> int | None:
    m = re.search(r"/issues/(\d+)$", comment.get("issue_url") or "")
    return int(m.group(1)) if m else None


def _login(item: dict[str, Any]) -> str | None:
    user = item.get("user") or {}
    return user.get("login")


def _is_bot(item: dict[str, Any]) -> bool:
    user = item.get("user") or {}
    return user.get("type") == "Bot" or (user.get("login") or "").endswith("[bot]")


def _dedupe(items: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    """The last copy of each item wins: later fetches carry newer state."""
    by_id: dict[Any, dict[str, Any]] = {}
    for item in items:
        by_id[item.get("id", item.get("number"))] = item
    return list(by_id.values())


# -- the cache: raw items on disk, one JSON Lines file per list ----------------


@dataclass
class RawThreads:
    """Raw REST items of one repository, deduplicated."""

    issues: list[dict[str, Any]] = field(default_factory=list)
    pulls: list[dict[str, Any]] = field(default_factory=list)
    comments: list[dict[str, Any]] = field(default_factory=list)

    def add(self, kind: str, item: dict[str, Any]) -> None:
        getattr(self, kind).append(item)

    def deduplicated(self) -> RawThreads:
        return RawThreads(_dedupe(self.issues), _dedupe(self.pulls), _dedupe(self.comments))


class ThreadCache:
    """Raw items and incremental cursors of one repository, in a folder.

    Items are appended page by page (duplicates are resolved on reading), and
    the cursors are written after the page they describe, atomically: a crash
    between the two only means one page is fetched again.
    """

    def __init__(self, folder: Path):
        self.folder = Path(folder)

    def _file(self, kind: str) -> Path:
        return self.folder / f"{kind}.jsonl"

    def append(self, kind: str, items: list[dict[str, Any]]) -> None:
        self.folder.mkdir(parents=True, exist_ok=True)
        with self._file(kind).open("a", encoding="utf-8") as f:
            for item in items:
                f.write(json.dumps(item, ensure_ascii=False) + "\n")
            f.flush()
            os.fsync(f.fileno())

    def read(self) -> RawThreads:
        raw = RawThreads()
        for kind in KINDS:
            path = self._file(kind)
            if not path.exists():
                continue
            for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
                if not line.strip():
                    continue
                try:
                    raw.add(kind, json.loads(line))
                except json.JSONDecodeError:
                    # A line cut short by a crash: the page it belonged to is fetched again.
                    if number != len(path.read_text(encoding="utf-8").splitlines()):
                        raise GitHubError(f"{path}:{number}: not JSON; delete the cache folder") from None
        return raw.deduplicated()

    def compact(self) -> None:
        """Rewrite each file without superseded copies (atomic rename)."""
        raw = self.read()
        for kind in KINDS:
            path = self._file(kind)
            if not path.exists():
                continue
            tmp = path.with_suffix(".tmp")
            tmp.write_text("".join(json.dumps(i, ensure_ascii=False) + "\n" for i in getattr(raw, kind)))
            tmp.replace(path)

    @property
    def state(self) -> dict[str, Any]:
        path = self.folder / "state.json"
        return json.loads(path.read_text()) if path.exists() else {}

    def save_state(self, **values: Any) -> None:
        self.folder.mkdir(parents=True, exist_ok=True)
        state = {**self.state, **values}
        tmp = self.folder / "state.json.tmp"
        tmp.write_text(json.dumps(state, indent=1, sort_keys=True))
        tmp.replace(self.folder / "state.json")


# -- the client ----------------------------------------------------------------


@dataclass
class FetchReport:
    """What one run fetched; `numbers` are the threads touched (for re-linking)."""

    requests: int = 0
    items: dict[str, int] = field(default_factory=lambda: dict.fromkeys(KINDS, 0))
    numbers: set[int] = field(default_factory=set)
    waited_seconds: float = 0.0

    def summary(self) -> str:
        got = ", ".join(f"{n} {k}" for k, n in self.items.items())
        return f"{self.requests} requests, {got}"


def _parse_time(value: str) -> dt.datetime:
    return dt.datetime.fromisoformat(value.replace("Z", "+00:00"))


def _next_link(headers: dict[str, Any]) -> str | None:
    link = headers.get("link") or headers.get("Link") or ""
    for part in link.split(","):
        m = re.match(r'\s*<([^>]+)>\s*;\s*rel="next"', part)
        if m:
            return m.group(1)
    return None


def _header(headers: dict[str, Any], name: str) -> str | None:
    for key, value in (headers or {}).items():
        if key.lower() == name:
            return str(value)
    return None


class GitHubClient:
    """The one object that talks to the GitHub REST API for a repository.

    `max_wait` is how long it may sleep for a rate-limit reset; beyond that it
    raises `RateLimited` naming when to resume. `reserve` requests are left
    unspent so that other tools sharing the token are not starved.
    """

    def __init__(
        self,
        repo: str,
        cache_folder: Path,
        *,
        api_url: str = DEFAULT_API_URL,
        token: str | None = None,
        max_wait: float = 900.0,
        reserve: int = 0,
        retries: int = 3,
        sleep: Callable[[float], None] = time.sleep,
        now: Callable[[], dt.datetime] = lambda: dt.datetime.now(dt.UTC),
        seconds_between_requests: float = 0.25,
        per_page: int = PER_PAGE,
        progress: Callable[[int], None] | None = None,
    ):
        import github
        from github import Auth

        if not re.fullmatch(r"[\w.-]+/[\w.-]+", repo):
            raise GitHubError(f"repository must read owner/name, got {repo!r}")
        self.repo = repo
        self.cache = ThreadCache(cache_folder)
        self.max_wait = max_wait
        self.reserve = reserve
        self.retries = retries
        self.per_page = per_page
        self._sleep = sleep
        self._now = now
        self._progress = progress
        token = token if token is not None else os.environ.get("GITHUB_TOKEN")
        self._gh = github.Github(
            auth=Auth.Token(token) if token else None,
            base_url=api_url.rstrip("/"),
            per_page=per_page,
            retry=None,  # retries and waits are decided here, where the cache and cursors are
            seconds_between_requests=seconds_between_requests,
            timeout=30,
        )
        self.report = FetchReport()

    # -- one page, politely --------------------------------------------------

    def _wait_or_stop(self, reset_at: dt.datetime, why: str) -> None:
        wait = max(0.0, (reset_at - self._now()).total_seconds()) + 1.0
        if wait > self.max_wait:
            raise RateLimited(
                f"GitHub {why} for {self.repo}; {self.report.summary()} fetched and kept. "
                f"Resume after {reset_at.strftime('%Y-%m-%d %H:%M:%S UTC')} by running the same command.",
                reset_at,
            )
        self._sleep(wait)
        self.report.waited_seconds += wait

    def _reset_time(self, headers: dict[str, Any]) -> dt.datetime:
        retry_after = _header(headers, "retry-after")
        if retry_after and retry_after.isdigit():
            return self._now() + dt.timedelta(seconds=int(retry_after))
        reset = _header(headers, "x-ratelimit-reset")
        if reset and reset.isdigit():
            return dt.datetime.fromtimestamp(int(reset), dt.UTC)
        return self._now() + dt.timedelta(seconds=60)  # GitHub's advice for a secondary limit

    def _get_page(self, url: str, params: dict[str, Any] | None) -> tuple[list[dict[str, Any]], str | None]:
        from github import GithubException

        failures = 0
        while True:
            try:
                headers, data = self._gh.requester.requestJsonAndCheck("GET", url, parameters=params)
                self.report.requests += 1
            except GithubException as exc:
                self.report.requests += 1
                headers = exc.headers or {}
                limited = exc.status == 429 or (
                    exc.status == 403
                    and (_header(headers, "x-ratelimit-remaining") == "0" or _header(headers, "retry-after"))
                )
                if limited:
                    self._wait_or_stop(self._reset_time(headers), "rate limit reached")
                    continue
                if exc.status >= 500 and failures < self.retries:
                    failures += 1
                    self._sleep(2.0**failures)
                    continue
                raise GitHubError(
                    f"GET {url} failed with HTTP {exc.status}: {exc.message or exc.data}; "
                    f"{self.report.summary()} fetched and kept"
                ) from exc
            except OSError as exc:  # requests' connection errors are OSErrors: no network, DNS, refused
                host = self._gh.requester.base_url
                raise GitHubError(
                    f"cannot reach {host} ({type(exc).__name__}): no network?; "
                    f"{self.report.summary()} fetched and kept"
                ) from None
            except ValueError as exc:  # a body that is not JSON
                failures += 1
                if failures <= self.retries:
                    self._sleep(2.0**failures)
                    continue
                raise GitHubError(
                    f"GET {url} answered a malformed body {self.retries + 1} times ({exc}); "
                    f"{self.report.summary()} fetched and kept"
                ) from exc
            if not isinstance(data, list):
                failures += 1
                if failures <= self.retries:
                    self._sleep(2.0**failures)
                    continue
                raise GitHubError(
                    f"GET {url} answered {type(data).__name__} where a JSON list was expected; "
                    f"{self.report.summary()} fetched and kept"
                )
            break
        next_url = _next_link(headers)
        remaining = _header(headers, "x-ratelimit-remaining")
        if next_url and remaining is not None and remaining.isdigit() and int(remaining) <= self.reserve:
            self._wait_or_stop(self._reset_time(headers), "rate limit spent")
        return data, next_url

    def _pages(self, path: str, params: dict[str, Any]) -> Iterator[list[dict[str, Any]]]:
        url: str | None = path
        page_params: dict[str, Any] | None = params
        while url:
            items, url = self._get_page(url, page_params)
            page_params = None  # the next link carries every parameter
            yield items

    # -- the three lists -----------------------------------------------------

    def _note(self, kind: str, items: list[dict[str, Any]]) -> None:
        """Count the items and remember their threads as not yet written to a store."""
        self.report.items[kind] += len(items)
        touched = {item.get("number") or _issue_number_of_comment(item) for item in items} - {None}
        self.report.numbers |= touched
        unwritten = set(self.cache.state.get("unwritten", [])) | touched
        self.cache.save_state(unwritten=sorted(unwritten))
        if self._progress:
            self._progress(len(items))

    def _fetch_ascending(self, kind: str, path: str) -> None:
        """Issues or comments by update time, oldest first, from the saved cursor."""
        cursor = self.cache.state.get(f"{kind}_since")
        params = {"sort": "updated", "direction": "asc", "per_page": self.per_page}
        if kind == "issues":
            params["state"] = "all"
        if cursor:
            params["since"] = cursor
        newest = None
        for items in self._pages(path, params):
            if not items:
                continue
            self.cache.append(kind, items)
            self._note(kind, items)
            newest = max(i["updated_at"] for i in items if i.get("updated_at"))
            # Inclusive while the pass runs: an interrupted pass may have left same-second items behind.
            self.cache.save_state(**{f"{kind}_since": newest})
        if newest:
            # The pass is complete, so nothing of that second is missing: the next run starts after it.
            later = _parse_time(newest) + dt.timedelta(seconds=1)
            self.cache.save_state(**{f"{kind}_since": later.strftime("%Y-%m-%dT%H:%M:%SZ")})

    def _fetch_pulls(self) -> None:
        """Pull requests, newest update first, down to the previous run's newest.

        The pulls list takes no `since`; its cursor moves only when a pass
        completes, so an interrupted pass is repeated, never left with a gap.
        """
        cursor = self.cache.state.get("pulls_since")
        params = {"state": "all", "sort": "updated", "direction": "desc", "per_page": self.per_page}
        newest = self.cache.state.get("pulls_pass_newest")
        for items in self._pages(f"/repos/{self.repo}/pulls", params):
            fresh = [i for i in items if not cursor or i.get("updated_at", "") > cursor]
            if fresh:
                self.cache.append("pulls", fresh)
                self._note("pulls", fresh)
                top = max(i["updated_at"] for i in fresh)
                if not newest or top > newest:
                    newest = top
                    self.cache.save_state(pulls_pass_newest=newest)
            if len(fresh) < len(items):
                break
        if newest:
            self.cache.save_state(pulls_since=newest, pulls_pass_newest=None)

    def fetch(self) -> FetchReport:
        """Everything new since the last run into the cache; raises `RateLimited` to pause."""
        after_whole_run = self.cache.state.get("complete") is True and "issues_since" in self.cache.state
        self.cache.save_state(complete=False)
        self._fetch_ascending("issues", f"/repos/{self.repo}/issues")
        # A new or changed pull request and a new comment each move their issue's `updated_at`
        # (pull requests are issues): with no issue changed since a whole run, the other two
        # passes would find nothing, and skipping them saves two requests a framework.
        if not (after_whole_run and self.report.items["issues"] == 0):
            self._fetch_pulls()
            self._fetch_ascending("comments", f"/repos/{self.repo}/issues/comments")
        self.cache.save_state(last_complete_run=self._now().strftime("%Y-%m-%dT%H:%M:%SZ"), complete=True)
        self.cache.compact()
        return self.report


# -- dumps saved by `gh api --paginate` ---------------------------------------


MAX_DUMP_FILE_BYTES = 1 << 30  # one saved list, read whole: all comments of a large repository fit


def _dump_values(path: Path) -> Iterator[tuple[int, Any]]:
    """(line, value) of each item of a dump file: JSON Lines, or pages as `gh api --paginate` saves them."""
    empty = DumpError(path, "empty file (an empty list is saved as [])")
    if path.suffix != ".jsonl":
        text = read_text(path, max_bytes=MAX_DUMP_FILE_BYTES)
        if not text.strip():
            raise empty
        yield from json_items(text, path)
        return
    lines = 0
    for number, text in read_lines(path):
        if text.strip():
            lines += 1
            yield number, json_line(text, path, number)
    if not lines:
        raise empty


def read_dump(folder: Path) -> RawThreads:
    """Raw items from `*.json` (pages as saved by `gh api --paginate`) and `*.jsonl` files.

    Every item is checked (see `github_items`) before any is used.
    """
    folder = Path(folder)
    if folder.is_file():
        raise DumpError(folder, "is a file, expected a folder of saved GitHub REST JSON")
    if not folder.is_dir():
        raise DumpError(folder, "no such folder of saved GitHub REST JSON")
    raw = RawThreads()
    files = sorted([*folder.glob("*.json"), *folder.glob("*.jsonl")])
    files = [f for f in files if f.name != "state.json"]
    if not files:
        raise DumpError(folder, "no .json or .jsonl files")
    try:
        for path in files:
            for line, value in _dump_values(path):
                for item in value if isinstance(value, list) else [value]:
                    raw.add(_checked_kind(item, path, line), item)
    except DumpError:
        raise
    except InputError as exc:
        raise DumpError(exc.source, exc.message, line=exc.line, field=exc.field) from None
    return raw.deduplicated()


def _checked_kind(item: Any, path: Path, line: int) -> str:
    kind = item_kind(item)
    if kind is None:
        keys = ", ".join(sorted(item)[:8]) if isinstance(item, dict) else json_type(item)
        raise DumpError(
            path,
            f"not an issue, pull request or issue comment in GitHub REST format (keys: {keys})",
            line=line,
        )
    check_item(item, kind, path, line)
    return kind


# -- raw JSON to records (pure) ------------------------------------------------


def _day(value: str | None) -> str | None:
    return value[:10] if value else None


def build_threads(framework: str, raw: RawThreads) -> list[Thread]:
    """Issues and pull requests with their comments, merged from the three lists."""
    comments: dict[int, list[dict[str, Any]]] = {}
    for c in raw.comments:
        number = _issue_number_of_comment(c)
        if number is not None:
            comments.setdefault(number, []).append(c)
    pulls = {p["number"]: p for p in raw.pulls}
    issues = {i["number"]: i for i in raw.issues}
    threads = []
    for number in sorted(set(issues) | set(pulls)):
        issue, pull = issues.get(number, {}), pulls.get(number, {})
        # The later copy wins for shared fields; labels and comment counts come from the issues list.
        newer_pull = (pull.get("updated_at") or "") >= (issue.get("updated_at") or "")
        base = {**issue, **pull} if newer_pull else {**pull, **issue}
        for field_name in ("labels", "comments"):
            if field_name in issue:
                base[field_name] = issue[field_name]
        is_pr = bool(pull) or "pull_request" in issue
        merged_at = pull.get("merged_at") or (issue.get("pull_request") or {}).get("merged_at")
        thread_comments = sorted(comments.get(number, []), key=lambda c: c.get("created_at") or "")
        threads.append(
            Thread(
                framework=framework,
                number=number,
                is_pr=is_pr,
                title=base.get("title") or "",
                body=base.get("body") or "",
                state="merged" if merged_at else (base.get("state") or "open"),
                author=_login(base),
                author_association=base.get("author_association"),
                created_at=base.get("created_at"),
                closed_at=base.get("closed_at"),
                merged_at=merged_at,
                updated_at=base.get("updated_at"),
                comment_count=base.get("comments") if isinstance(base.get("comments"), int) else None,
                labels=tuple(lb.get("name", "") for lb in base.get("labels") or [] if isinstance(lb, dict)),
                url=base.get("html_url"),
                merge_commit_sha=pull.get("merge_commit_sha") if merged_at else None,
                comments=tuple(
                    TextPart(
                        text=c.get("body") or "",
                        location=f"comment {c.get('id')}",
                        author=_login(c),
                        author_association=c.get("author_association"),
                        created_at=c.get("created_at"),
                        is_bot=_is_bot(c),
                    )
                    for c in thread_comments
                ),
            )
        )
    return threads


def thread_node(thread: Thread) -> Node:
    reply = maintainer_first_reply(thread)
    props: dict[str, Any] = {
        "framework": thread.framework,
        "number": thread.number,
        "title": thread.title,
        "state": thread.state,
        "author": thread.author,
        "author_association": thread.author_association,
        "created_date": _day(thread.created_at),
        "closed_date": _day(thread.closed_at),
        "updated_at": thread.updated_at,
        "comments": thread.comment_count if thread.comment_count is not None else len(thread.comments),
        "first_maintainer_reply_date": _day(reply.created_at) if reply else None,
        "labels": list(thread.labels),
        "url": thread.url,
        "source_kind": "github",
    }
    if thread.is_pr:
        props["merged_date"] = _day(thread.merged_at)
        props["merge_commit_sha"] = thread.merge_commit_sha
    return Node(thread.label, thread.key, props, origin=thread.url or thread.key)


def thread_records(
    threads: Iterable[Thread],
    *,
    repo: str,
    matcher: MethodMatcher,
    numbers: set[int] | None = None,
) -> Iterator[Record]:
    """Nodes and edges of the threads (all of them, or only `numbers`)."""
    threads = list(threads)
    pr_numbers = {t.number for t in threads if t.is_pr}
    for thread in threads:
        if numbers is not None and thread.number not in numbers:
            continue
        yield thread_node(thread)
        yield Edge("PART_OF", (thread.label, thread.key), ("Framework", thread.framework))
        yield from thread_link_edges(thread, matcher)
        if thread.is_pr:
            if thread.merge_commit_sha:
                yield Edge(
                    "MERGED_AS",
                    (thread.label, thread.key),
                    ("Commit", thread.merge_commit_sha),
                    Evidence(
                        "pull-request",
                        f"{thread.key} merge_commit_sha",
                        thread.merge_commit_sha,
                        "merge-commit-sha",
                        1.0,
                    ).props(),
                )
            yield from pull_request_fix_edges(thread, repo, pr_numbers=pr_numbers)
        else:
            verdict = classify_thread(thread, matcher)
            if verdict is not None:
                yield from failure_records(thread, verdict)


# -- commit messages of a local clone, for FIXES from commits ----------------


def read_commit_messages(git_dir: Path, rev: str = "HEAD") -> Iterator[tuple[str, str]]:
    """(sha, full message) of every commit reachable from `rev`; no diffs, so it is cheap."""
    out = run_git(git_dir, "log", rev, "--format=%H%x1f%B%x1e", error=GitHubError)
    for entry in out.split("\x1e"):
        sha, sep, message = entry.strip("\n").partition("\x1f")
        if sep:
            yield sha.strip(), message


def fixes_from_git(framework: str, repo: str, git_dir: Path, threads: Iterable[Thread]) -> Iterator[Edge]:
    """FIXES from commit messages: closing keywords, and issue numbers in squash subjects."""
    threads = list(threads)
    issue_numbers = {t.number for t in threads if not t.is_pr}
    pr_numbers = {t.number for t in threads if t.is_pr}
    for sha, message in read_commit_messages(git_dir):
        yield from commit_fix_edges(
            framework, repo, sha, message, issue_numbers=issue_numbers, pr_numbers=pr_numbers
        )
