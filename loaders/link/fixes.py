"""Which commit or pull request fixed a reported issue.

Three signals, from strongest to weakest:

* GitHub's closing keywords (`fixes #123`, `Closes owner/repo#123`, a full
  issue URL) in a pull request's title or body, or in a commit message;
* a merged pull request that closes an issue: its merge (or squash) commit
  fixes it too;
* an issue number in a squash-merge subject (`Fix NaN in loss, #123 (#456)`)
  beside a fix-like verb: the trailing `(#456)` is the PR, the other number
  is likely the issue.

Only references to the same repository count; numbers known to be pull
requests are never taken for issues.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from ...graph.records import Edge, Evidence
from .threads import Thread

_KEYWORD = r"(?:close[sd]?|fix(?:e[sd])?|resolve[sd]?)"
_REF = (
    r"(?:(?P<repo>[\w.-]+/[\w.-]+)?#(?P<num>\d+)"
    r"|https?://github\.com/(?P<urlrepo>[\w.-]+/[\w.-]+)/issues/(?P<urlnum>\d+))"
)
_CLOSING = re.compile(rf"\b{_KEYWORD}\b:?\s+{_REF}", re.IGNORECASE)
# "Fixes #1, #2 and #3": the references after the first, joined by commas or "and".
_MORE = re.compile(rf"\s*(?:,|\band\b|&)\s*{_REF}", re.IGNORECASE)
_SQUASH_PR = re.compile(r"\(#(\d+)\)\s*$")
_SUBJECT_REF = re.compile(r"(?<![\w/])#(\d+)\b")
_FIX_VERB = re.compile(
    r"\b(fix(?:e[sd]|ing)?|bug|resolve[sd]?|correct(?:s|ed)?|avoid|prevent|handle)\b", re.IGNORECASE
)


def _target(m: re.Match, repo: str) -> int | None:
    ref_repo = m.group("repo") or m.group("urlrepo")
    if ref_repo and ref_repo.lower() != repo.lower():
        return None  # another repository's issue
    return int(m.group("num") or m.group("urlnum"))


def closing_references(text: str, repo: str) -> list[tuple[int, str, float]]:
    """(issue number, matched text, confidence) for each closing keyword reference."""
    found: dict[int, tuple[int, str, float]] = {}
    for m in _CLOSING.finditer(text or ""):
        number = _target(m, repo)
        if number is not None and number not in found:
            found[number] = (number, m.group(0), 0.95)
        pos = m.end()
        while more := _MORE.match(text, pos):
            number = _target(more, repo)
            if number is not None and number not in found:
                found[number] = (number, more.group(0).strip(" ,&"), 0.8)
            pos = more.end()
    return list(found.values())


def squash_subject_references(subject: str) -> list[tuple[int, str]]:
    """Issue numbers in a squash-merge subject other than its trailing `(#PR)`."""
    pr = _SQUASH_PR.search(subject)
    if not pr or not _FIX_VERB.search(subject):
        return []
    head = subject[: pr.start()]
    return [(int(m.group(1)), m.group(0)) for m in _SUBJECT_REF.finditer(head)]


def pull_request_fix_edges(thread: Thread, repo: str, *, pr_numbers: set[int]) -> Iterator[Edge]:
    """A PR's closing references: the PR fixes the issue, and so does its merge commit."""
    for place, text in (("title", thread.title), ("body", thread.body)):
        for number, matched, confidence in closing_references(text, repo):
            if number in pr_numbers or number == thread.number:
                continue
            issue = ("Issue", f"{thread.framework}#{number}")
            location = f"{thread.key} {place}"
            yield Edge(
                "FIXES",
                ("PullRequest", thread.key),
                issue,
                Evidence(f"pr-{place}", location, matched, "closing-keyword", confidence).props(),
                origin=location,
            )
            if thread.merge_commit_sha:
                yield Edge(
                    "FIXES",
                    ("Commit", thread.merge_commit_sha),
                    issue,
                    Evidence(
                        f"pr-{place}",
                        location,
                        matched,
                        "merged-pr-closing-keyword",
                        round(confidence - 0.05, 3),
                    ).props(),
                    origin=location,
                )


def commit_fix_edges(
    framework: str,
    repo: str,
    sha: str,
    message: str,
    *,
    issue_numbers: set[int],
    pr_numbers: set[int],
) -> Iterator[Edge]:
    """FIXES from one commit message: closing keywords, then squash-subject issue numbers."""
    subject = message.strip().split("\n", 1)[0]
    linked: set[int] = set()
    for number, matched, confidence in closing_references(message, repo):
        if number in pr_numbers:
            continue
        linked.add(number)
        yield Edge(
            "FIXES",
            ("Commit", sha),
            ("Issue", f"{framework}#{number}"),
            Evidence(
                "commit-message", f"commit {sha[:12]}", matched, "closing-keyword", confidence - 0.05
            ).props(),
            origin=f"commit {sha}",
        )
    for number, matched in squash_subject_references(subject):
        # Only numbers known to be issues: a subject's "#12" is as often a PR or a step.
        if number in linked or number not in issue_numbers:
            continue
        yield Edge(
            "FIXES",
            ("Commit", sha),
            ("Issue", f"{framework}#{number}"),
            Evidence(
                "commit-subject", f"commit {sha[:12]}", matched, "issue-ref-in-squash-subject", 0.6
            ).props(),
            origin=f"commit {sha}",
        )
