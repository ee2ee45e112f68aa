"""Pull requests, issue references and failure reports known from commit messages alone.

A framework's history says a good deal about its tracker without the GitHub API:

* a squash merge's subject is the pull request's title followed by `(#N)`, and a merge
  commit's subject is `Merge pull request #N from ...` with the title on the next line: the
  pull request's number, title, merge date and merge commit are facts of the history;
* `Fixes #12`, `Closes owner/repo#12` in a message (and an issue number beside a fix verb in a
  squash subject, as in `fixes.py`) say the commit fixes issue 12;
* a fix commit whose message states a failure of a run (NaN, OOM, crash, hang, divergence...,
  read by the same classifier as issues) is a failure report whose evidence is that message.

Everything here is pure; each fact names the rule that found it. The GitHub loader later adds
what the history does not know (state, author, body, comments) to the same nodes.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, replace

from .failures import FailureVerdict, classify_failure
from .fixes import closing_references, squash_subject_references
from .methods import MethodMatcher
from .threads import Thread, cited_papers, named_methods

_SQUASH = re.compile(r"\s*\(#(\d+)\)\s*$")
_MERGE = re.compile(r"^Merge pull request #(\d+) from \S+")
_REVERT = re.compile(r"^Revert\b", re.IGNORECASE)
# Leading "[tags]", a conventional-commit type and a fix verb: what comes after says what changed.
_LEAD = (
    r"^\s*(?:[\[(][^\])\n]{1,40}[\])]\s*)*"  # [tags]
    r"(?:[A-Za-z]+(?:\([^)\n]{0,40}\))?!?:\s*)?"  # a conventional-commit type
    r"(?:(?:bug|hot)?fix\w*:?\s+)?"  # a fix verb
)
# Fixes of the development process, not of a run: a bad merge or rebase, a syntax slip, linters
# and type checkers. Their "error" is the developer's, never a user's.
_DEVELOPMENT = re.compile(
    r"\b(?:syntax errors?|merge (?:errors?|conflicts?)|(?:incorrect|bad|wrong|broken) merge|rebase|"
    r"lint\w*|mypy|ruff|pre-commit|flake8|pylint|type[- ]?check\w*)\b",
    re.IGNORECASE,
)
# A commit that adds an error or a check for a bad setup guards against a failure; it fixes none.
_GUARD = re.compile(
    _LEAD + r"(?:raise|throw|add|emit|assert)s? (?:an? |the )?(?:\w+ )?(?:clear |explicit |early )?"
    r"(?:error|exception|assert\w*|check|validation|warning)s?\b",
    re.IGNORECASE,
)
# "fix value mask bug", "bug fix in X": past its tags and fix verb, the subject calls what it repairs
# a bug of the code, even when it names no symptom. A "[bugfix]" tag or a "bugfix:" type is only a
# fix verb; a bug in docs, tests or CI is no failure of a run.
_LEADING = re.compile(_LEAD, re.IGNORECASE)
_BUG = re.compile(r"\bbugs?\b", re.IGNORECASE)
# "Pass the epochs option to the actor", "honor the ratio setting": a fix that makes the code pass on
# or obey a setting says the run went without it.
_PASSES_SETTING = re.compile(
    _LEAD + r"((?:always |correctly |properly )?(?:honou?r|respect)\w*\b|always pass\w*\b|"
    r"(?:pass|forward|propagate)\w*\b(?=.{1,60}?\b(?:to|into|through|down|on)\b))",
    re.IGNORECASE,
)
# "Handle missing prompts", "catch errors in the reward function": a fix that makes the code cope
# with an input or an error says the run failed on it.
_HANDLES = re.compile(
    _LEAD + r"((?:handle|catch|tolerate)s? (?:the |a |an |any |all )?(?:[\w.]+[ -]){0,2}?"
    r"(?:missing|empty|none|null|invalid|malformed|errors?|exceptions?|failures?)\b)",
    re.IGNORECASE,
)
# Directives to CI at the end of a subject say nothing about the change.
_CI_DIRECTIVE = re.compile(r"\s*\[(?:skip ci|ci skip|no ci)\]\s*$", re.IGNORECASE)
_CHORE = re.compile(
    r"\b(?:docs?|documentation|typos?|readme|comments?|docstrings?|links?|tests?|xfail|ci|format\w*|"
    r"spelling|grammar|warnings?|logging|bump\w*|release)\b",
    re.IGNORECASE,
)
# What a fix does that tells the symptom it repairs: (symptom, rule, pattern).
_WHAT_THE_FIX_DOES = (
    ("wrong-result", "setting-not-passed", _PASSES_SETTING),
    ("crash", "handles-bad-input", _HANDLES),
)


@dataclass(frozen=True)
class HistoryCommit:
    sha: str
    commit_date: str  # ISO timestamp
    message: str

    @property
    def subject(self) -> str:
        return self.message.strip().split("\n", 1)[0].strip()

    @property
    def body(self) -> str:
        return self.message.strip().partition("\n")[2].strip()


@dataclass(frozen=True)
class MergedPull:
    number: int
    title: str
    sha: str
    merged_at: str
    rule: str  # squash-subject or merge-commit-subject
    # (rel, key, identifier, rule, confidence): papers its title cites (CITES), methods it names (NAMES)
    links: tuple[tuple[str, str, str, str, float], ...] = ()


@dataclass(frozen=True)
class IssueFix:
    sha: str
    issue: int
    identifier: str
    rule: str
    confidence: float
    pull: int | None  # the pull request the fixing commit merged, when known


@dataclass(frozen=True)
class CommitFailure:
    sha: str
    commit_date: str
    verdict: FailureVerdict
    issue: int | None  # the issue the commit closes, where the failure was first reported


def merged_pull(commit: HistoryCommit) -> MergedPull | None:
    """The pull request a squash or merge commit merged, with its title, or None."""
    subject = commit.subject
    merge = _MERGE.match(subject)
    if merge:
        title = commit.body.split("\n", 1)[0].strip() if commit.body else ""
        return MergedPull(int(merge.group(1)), title, commit.sha, commit.commit_date, "merge-commit-subject")
    squash = _SQUASH.search(subject)
    if squash:
        title = subject[: squash.start()].strip()
        return MergedPull(int(squash.group(1)), title, commit.sha, commit.commit_date, "squash-subject")
    return None


def issue_fixes(commit: HistoryCommit, repo: str, pull: int | None) -> list[IssueFix]:
    """Issues a commit says it fixes: closing keywords anywhere in the message, then issue
    numbers beside a fix verb in a squash subject. The message's own pull request is no issue."""
    found: dict[int, IssueFix] = {}
    for number, matched, confidence in closing_references(commit.message, repo):
        if number != pull:
            found.setdefault(
                number, IssueFix(commit.sha, number, matched, "closing-keyword", confidence - 0.05, pull)
            )
    for number, matched in squash_subject_references(commit.subject):
        if number != pull and number not in found:
            found[number] = IssueFix(commit.sha, number, matched, "issue-ref-in-squash-subject", 0.6, pull)
    return list(found.values())


def stated_failure(commit: HistoryCommit, matcher: MethodMatcher | None) -> FailureVerdict | None:
    """The failure a fix commit states, or None: the subject must say it fixes something and name
    a symptom of a run, or call what it fixes a bug (symptom `malfunction`, kind unknown); a bare
    "fix" names none. Only the subject is read: bodies of squash merges carry pull request
    templates and lists of other changes. Reverts restore; fixes of the development process
    (merges, linters) and commits that add a guard report no failure of a run."""
    title = _SQUASH.sub("", _CI_DIRECTIVE.sub("", commit.subject))
    if _REVERT.match(title) or _DEVELOPMENT.search(title) or _GUARD.match(title):
        return None
    verdict = classify_failure(title, "", matcher)
    if verdict is None or "malfunction" not in verdict.symptoms:
        return None  # no symptom, or no fix
    if verdict.symptom != "malfunction":
        return verdict
    if _CHORE.search(title):
        return None
    for symptom, rule, pattern in _WHAT_THE_FIX_DOES:
        found = pattern.match(title)
        if found:
            return replace(
                verdict,
                symptoms=(symptom, *verdict.symptoms),
                rule=f"{symptom}/{rule}",
                identifier=found.group(1),
                confidence=0.7,  # inferred from what the fix does, not from a stated symptom
            )
    return verdict if _BUG.search(_LEADING.sub("", title, count=1)) else None


@dataclass
class HistoryFacts:
    pulls: list[MergedPull]
    fixes: list[IssueFix]
    failures: list[CommitFailure]


def history_facts(
    commits: Iterable[HistoryCommit], repo: str, matcher: MethodMatcher | None = None
) -> HistoryFacts:
    """Every pull request, issue fix and stated failure in a history, oldest commit first.
    A number seen twice (a cherry-pick keeps its subject) is the first commit's; numbers known
    as pull requests are never taken for issues."""
    ordered = sorted(commits, key=lambda c: (c.commit_date, c.sha))
    pulls: dict[int, MergedPull] = {}
    for commit in ordered:
        pull = merged_pull(commit)
        if pull is not None and pull.number not in pulls:
            pulls[pull.number] = _with_title_links(pull, matcher, repo) if matcher else pull
    fixes: list[IssueFix] = []
    failures: list[CommitFailure] = []
    for commit in ordered:
        pull = merged_pull(commit)
        number = pull.number if pull else None
        closed = [f for f in issue_fixes(commit, repo, number) if f.issue not in pulls]
        fixes += closed
        verdict = stated_failure(commit, matcher)
        if verdict is not None:
            failures.append(
                CommitFailure(commit.sha, commit.commit_date, verdict, closed[0].issue if closed else None)
            )
    return HistoryFacts(list(pulls.values()), fixes, failures)


def _with_title_links(pull: MergedPull, matcher: MethodMatcher, repo: str) -> MergedPull:
    """The papers a pull request's title cites and the methods it names, by the thread rules."""
    thread = Thread(repo, pull.number, True, pull.title, "", "closed")
    links = [("CITES", i, e.identifier, e.rule, e.confidence) for i, e in cited_papers(thread).items()]
    links += [
        ("NAMES", s, e.identifier, e.rule, e.confidence) for s, e in named_methods(thread, matcher).items()
    ]
    return replace(pull, links=tuple(links))


def failure_key(framework: str, sha: str, issue: int | None) -> str:
    """The issue's key when the fixing commit closes one (so the GitHub loader's report of the
    same issue is the same node), else the commit's."""
    if issue is not None:
        return f"{framework}#{issue}/failure"
    return f"{framework}@{sha[:12]}/failure"
