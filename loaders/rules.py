"""What a framework asks of a contribution, read from its own git tree.

A researcher about to propose a method to a framework wants to know its
rules first: is there a contributing guide and what does it cover, what the
pull-request template asks to tick, which issue templates exist, whether a
CLA or a DCO sign-off is required, which pre-commit hooks and linters run,
who owns the code, and whether there is a policy on adding new algorithms.

Everything is read at HEAD of a local clone or bare mirror with `git ls-tree`
and `git show` (no work tree needed). Each fact is a `ContributionRule` with
its kind, a short value, the source path, and the sha and date of the last
commit that changed that path.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

from ..graph.records import Edge, Node, Record
from .repository import run_git

_MAX_VALUE = 600


class RulesError(RuntimeError):
    """The repository could not be read; the message names it."""


@dataclass(frozen=True)
class RuleFact:
    kind: str
    value: str
    source_path: str
    detail: str = ""  # distinguishes several facts of one kind (issue templates)


# -- reading the tree (I/O) ----------------------------------------------------


class GitTree:
    """Paths and file texts at one revision of a repository."""

    def __init__(self, git_dir: Path, rev: str = "HEAD"):
        self.git_dir = Path(git_dir)
        if not self.git_dir.exists():
            raise RulesError(f"{git_dir}: no such repository")
        self.rev = run_git(
            self.git_dir, "rev-parse", "--verify", f"{rev}^{{commit}}", error=RulesError
        ).strip()
        self.paths = run_git(
            self.git_dir, "ls-tree", "-r", "--name-only", self.rev, error=RulesError
        ).splitlines()

    def text(self, path: str) -> str:
        return run_git(self.git_dir, "show", f"{self.rev}:{path}", error=RulesError)

    def last_change(self, path: str) -> tuple[str, str]:
        """(sha, committer date) of the last commit that changed `path`."""
        out = run_git(
            self.git_dir, "log", "-1", "--format=%H%x1f%cI", self.rev, "--", path, error=RulesError
        ).strip()
        sha, _, date = out.partition("\x1f")
        return sha, date[:10]


# -- recognising rules (pure) --------------------------------------------------

_CONTRIBUTING = re.compile(r"^(?:\.github/|docs/(?:source/)?)?contributing(?:\.md|\.rst|\.txt)?$", re.I)
_PR_TEMPLATE = re.compile(
    r"^(?:\.github/|docs/)?pull_request_template(?:\.md)?$|pull_request_template/[^/]+\.md$", re.I
)
_ISSUE_TEMPLATE = re.compile(r"^\.github/issue_template/([^/]+)\.(?:md|ya?ml)$", re.I)
_CODEOWNERS = re.compile(r"^(?:\.github/|docs/)?codeowners$", re.I)
_CODE_OF_CONDUCT = re.compile(r"^(?:\.github/)?code_of_conduct(?:\.md)?$", re.I)
_WORKFLOW = re.compile(r"^\.github/workflows/[^/]+\.ya?ml$")
_LINT_FILES = {
    ".flake8": "flake8",
    ".pylintrc": "pylint",
    "ruff.toml": "ruff",
    ".ruff.toml": "ruff",
    "mypy.ini": "mypy",
}
_LINT_SECTIONS = re.compile(r"^\[(?:tool\.)?(ruff|black|isort|mypy|pylint|flake8|yapf)\b", re.M)

_CLA = re.compile(r"\bCLA\b|contributor license agreement|cla[-_ ]assistant", re.I)
_DCO = re.compile(r"signed-off-by|\bDCO\b|developer certificate of origin|git commit -s\b|--signoff", re.I)
_NEW_ALGORITHM = re.compile(
    r"\bnew (?:algorithm|method|trainer|loss|recipe|feature|model)s?\b"
    r"|\b(?:algorithm|method)s? (?:from|in) (?:a )?paper|\bpapers?\b",
    re.I,
)
_TESTS_REQUIRED = re.compile(
    r"\b(?:add|write|include|provide)\w* (?:\w+ )?(?:unit )?tests?\b|\btests? (?:must|should|are required)",
    re.I,
)
_ASKS_FIRST = re.compile(
    r"\b(?:open|file|create) an? (?:issue|discussion)\b.{0,80}\b(?:before|first)\b"
    r"|\bdiscuss\w* (?:it )?first\b",
    re.I,
)
_FENCE = re.compile(r"```.*?```", re.S)
_ESCAPED_CHAR = re.compile(r"\\U[0-9A-Fa-f]{8}|\\u[0-9A-Fa-f]{4}")  # emoji escapes in YAML names
_NEW_ALGORITHM_TEMPLATE = re.compile(r"new[ _-]?(?:trainer|algorithm|method|loss)", re.I)
_CHECKBOX = re.compile(r"^\s*[-*] \[[ xX]\]\s*(.+?)\s*$", re.M)
_HEADING = re.compile(r"^#{1,3}\s+(.+?)\s*#*\s*$|^(.+)\n[=-]{3,}\s*$", re.M)
_TEMPLATE_NAME = re.compile(r"^name:\s*['\"]?(.+?)['\"]?\s*$", re.M)
_HOOK_ID = re.compile(r"^\s*-\s*id:\s*([\w.-]+)", re.M)
_BLANK_ISSUES = re.compile(r"^blank_issues_enabled:\s*false\b", re.M)


def _short(text: str) -> str:
    text = re.sub(r"\s+", " ", text).strip()
    return text if len(text) <= _MAX_VALUE else text[: _MAX_VALUE - 1] + "…"


def _sentences(text: str, pattern: re.Pattern, limit: int = 3) -> list[str]:
    """Whole sentences (or list items) of prose that match, without code blocks."""
    prose = re.sub(r"```.*?```", " ", text, flags=re.S)
    pieces = re.split(r"(?<=[.!?])\s+|\n\s*\n|\n\s*[-*]\s+", prose)
    found = [p.strip() for p in pieces if pattern.search(p) and len(p.strip()) > 15]
    return found[:limit]


def guide_rules(path: str, text: str) -> Iterator[RuleFact]:
    """Facts from a contributing guide: its sections and the policies it states."""
    headings = [h1 or h2 for h1, h2 in _HEADING.findall(_FENCE.sub(" ", text))]
    yield RuleFact("contributing-guide", _short("; ".join(h.strip() for h in headings) or path), path)
    for kind, pattern in (
        ("new-algorithm-policy", _NEW_ALGORITHM),
        ("tests-required", _TESTS_REQUIRED),
        ("discuss-first", _ASKS_FIRST),
    ):
        sentences = _sentences(text, pattern)
        if sentences:
            yield RuleFact(kind, _short(" … ".join(sentences)), path)
    if m := _CLA.search(text):
        yield RuleFact("cla", _short(f"CLA required (guide says: {m.group(0)})"), path)
    if m := _DCO.search(text):
        yield RuleFact("dco", _short(f"commits must be signed off (guide says: {m.group(0)})"), path)


def tree_rules(paths: list[str], read: Callable[[str], str]) -> Iterator[RuleFact]:
    """Every rule found in a tree, given its paths and a way to read a file."""
    seen_kinds: set[str] = set()
    for path in sorted(paths, key=lambda p: (p.count("/"), p)):  # root files win over nested copies
        name = path.rsplit("/", 1)[-1]
        if _CONTRIBUTING.match(path) and "contributing-guide" not in seen_kinds:
            for fact in guide_rules(path, read(path)):
                if fact.kind not in seen_kinds:
                    seen_kinds.add(fact.kind)
                    yield fact
        elif _PR_TEMPLATE.search(path) and "pr-template" not in seen_kinds:
            text = read(path)
            items = _CHECKBOX.findall(text)
            value = (
                "checklist: " + "; ".join(items)
                if items
                else "sections: " + "; ".join(h1 or h2 for h1, h2 in _HEADING.findall(text))
            )
            seen_kinds.add("pr-template")
            yield RuleFact("pr-template", _short(value), path)
        elif m := _ISSUE_TEMPLATE.match(path):
            text = read(path)
            if m.group(1).lower() == "config":
                if _BLANK_ISSUES.search(text):
                    yield RuleFact("blank-issues", "disabled: an issue must use a template", path)
                continue
            named = _TEMPLATE_NAME.search(text)
            title = _ESCAPED_CHAR.sub("", named.group(1)).strip() if named else m.group(1)
            if _NEW_ALGORITHM_TEMPLATE.search(f"{m.group(1)} {title}"):
                yield RuleFact(
                    "new-algorithm-template", _short(f"proposals use the template '{title}'"), path
                )
            yield RuleFact("issue-template", _short(title), path, m.group(1))
        elif _CODEOWNERS.match(path) and "code-owners" not in seen_kinds:
            rules = [ln for ln in read(path).splitlines() if ln.strip() and not ln.lstrip().startswith("#")]
            seen_kinds.add("code-owners")
            yield RuleFact("code-owners", f"{len(rules)} ownership rules", path)
        elif _CODE_OF_CONDUCT.match(path) and "code-of-conduct" not in seen_kinds:
            seen_kinds.add("code-of-conduct")
            yield RuleFact("code-of-conduct", "present", path)
        elif path == ".pre-commit-config.yaml":
            hooks = list(dict.fromkeys(_HOOK_ID.findall(read(path))))
            yield RuleFact("pre-commit", _short(", ".join(hooks) or "configured"), path)
        elif path in _LINT_FILES:
            yield RuleFact("lint", _LINT_FILES[path], path, _LINT_FILES[path])
        elif path in ("pyproject.toml", "setup.cfg", "tox.ini"):
            tools = list(dict.fromkeys(t.lower() for t in _LINT_SECTIONS.findall(read(path))))
            for tool in tools:
                yield RuleFact("lint", tool, path, tool)
        elif _WORKFLOW.match(path) or name in (".clabot", "cla.json", "dco.yml"):
            text = read(path)
            if "cla" not in seen_kinds and (_CLA.search(text) or name in (".clabot", "cla.json")):
                seen_kinds.add("cla")
                yield RuleFact("cla", "CLA check runs on pull requests", path)
            if "dco" not in seen_kinds and (_DCO.search(text) or name == "dco.yml"):
                seen_kinds.add("dco")
                yield RuleFact("dco", "sign-off (DCO) check runs on pull requests", path)


def rule_records(framework: str, tree: GitTree) -> Iterator[Record]:
    """ContributionRule nodes and HAS_RULE edges for one framework's tree at HEAD."""
    changes: dict[str, tuple[str, str]] = {}
    lint_by_tool: dict[str, RuleFact] = {}
    facts = list(tree_rules(tree.paths, tree.text))
    for fact in facts:
        if fact.kind == "lint":
            lint_by_tool.setdefault(fact.detail, fact)
    for fact in facts:
        if fact.kind == "lint" and lint_by_tool.get(fact.detail) is not fact:
            continue
        if fact.source_path not in changes:
            changes[fact.source_path] = tree.last_change(fact.source_path)
        sha, date = changes[fact.source_path]
        key = f"{framework}/{fact.kind}" + (f"/{fact.detail}" if fact.detail else "")
        yield Node(
            "ContributionRule",
            key,
            {
                "framework": framework,
                "kind": fact.kind,
                "value": fact.value,
                "source_path": fact.source_path,
                "commit_sha": sha,
                "rule_date": date or None,
            },
            origin=f"{tree.git_dir}:{fact.source_path}",
        )
        yield Edge("HAS_RULE", ("Framework", framework), ("ContributionRule", key))
