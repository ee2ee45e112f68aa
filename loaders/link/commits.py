"""Deciding, per commit and method, whether the commit implements the method or only mentions it.

Pure functions over one parsed commit (message + per-file diff text). The rules, in order of
strength, each recorded as the link's `rule`:

IMPLEMENTS (the commit makes the method usable):
  class-def       `class GRPOTrainer` added in package code
  new-file        a package code file added whose path names the method (`grpo_trainer.py`)
  option-name     a method-specific identifier added in package code (`epsilon_high`)
  option-value    a method's plain name added as an option value ("ipo", --ipo, `adv: grpo`)
  setting         a catalog setting added as key and value on one line (`loss_type == "dapo"`)
  definition      a plain name added as a definition (`ipo: bool = False`, `def ipo(`)
  message-and-code the message names the method and package code adds its name, or adds a
                  function or class carrying it that the change calls or imports (`grpo_loss`);
                  or the subject names it and code passes on the key of a setting only it has
                  (`importance_sampling_level=self.importance_sampling_level`)
  learned-alias   the message names the method and a new option carries its name or, named in
                  the subject, describes it (`off_policy_mask_threshold`): a SPELLS link too
  option-doc      a new option whose help, docstring or argument entry names or cites the method
                  (by an alias, its arXiv link, its paper's title or its name in words)
  named-definition a function or class whose name carries the method's name of several words
                  (`compute_decoupled_ppo_actor_loss`), registered or reached in the same change
  parent-spelling the subject names only a variant and the change adds its parent's identifier
                  (`"gspo"` under "GSPO-token"): a SPELLS link too
  doc-entry       a new option whose entry in the documentation the change adds names the method
  computation     package code computing what defines the method, in a change saying what for
  recipe-file     a new runnable recipe named after the method, with a second signal

MENTIONS (the commit talks about it): documents, comments, citations, tests alone,
examples alone, the commit message alone, and everything a revert or a typo fix adds; a new
module that nothing in the change reaches (and a method's class in it, unless the change gives a
second signal); TODOs; a string that is an item of a loop's literal iterable (`for t in ("KTOTrainer",)`).

Guards: vendored third-party paths, another framework's package and a whole repository copied in
are marked vendored; reverts and typo fixes never implement; catalog-flagged ambiguous aliases,
plain words, aliases two methods share and role classes of one common word (`RewardConfig`, unless
the file imports another framework's package) count only in option contexts, never as bare words,
and then need a second signal in the same change (the arXiv id or paper title, the message naming
the method, an unambiguous alias in package code, the method named beside it or in the documentation
the change adds). A value two methods share selects, where it selects behaviour, the one whose own
name it is (`"reinforce"` is REINFORCE, not REINFORCE++ that lists it). A variant's own file or
class offers the variant, not its ancestors: `loss_type == "sigmoid"` in `simpo_trainer.py`, or a
`DPOConfig` imported only to build `SimPOConfig` on, is no DPO. A constructor's keyword parameter
that the object keeps (`use_max_rl = False,` and `self.use_max_rl = use_max_rl`) is an option.
An ambiguous name in its own display spelling (`REINFORCE`) documents only an option carrying it.
"""

from __future__ import annotations

import bisect
import dataclasses
import functools
import itertools
import re
from collections import defaultdict
from collections.abc import Callable, Collection, Iterable, Iterator
from dataclasses import dataclass, field

from ...graph.records import Evidence
from .arxiv_ids import find_arxiv_ids
from .literals import LiteralScanner, PatternSet, Prefiltered, Screens, compile_for_long_text, utf8
from .methods import (
    CodeAlias,
    CodeAliasIndex,
    CodeHit,
    MethodMatch,
    MethodMatcher,
    ambiguous_names,
    method_names,
    spelled_out,
)
from .python_code import Place, PythonBlock, is_stub

IMPLEMENTS = "IMPLEMENTS"
# An implementation found only in another framework's copied tree is stored under its own type.
VENDORS = "VENDORS"
MENTIONS = "MENTIONS"
SPELLS = "SPELLS"  # a framework's own identifier for a method, learned from a change

_VENDORED = re.compile(
    r"(?:^|/)(?:third[_-]?party|3rdparty|vendor(?:ed)?|_vendor|external|site-packages|node_modules)/",
    re.IGNORECASE,
)
_TEST = re.compile(
    r"(?:^|/)(?:tests?|testing|unit_?tests?)/|(?:^|/)(?:test_[^/]*|[^/]*_test\.py|conftest\.py)$"
)
# Evaluation code scores a model; it trains nothing, whatever options it repeats.
_EVAL = re.compile(
    r"(?:^|/)(?:evals?|evaluations?|evaluate)/|(?:^|/)(?:eval_[^/]*|[^/]*_eval|evaluat(?:e|or|ion)[^/]*)\.py$",
    re.I,
)
_DOC = re.compile(
    r"(?:^|/)(?:docs?|documentation)/|\.(?:md|mdx|rst|txt|ipynb|html?)$|(?:^|/)readme[^/]*$", re.I
)
_EXAMPLE = re.compile(r"(?:^|/)(?:examples?|tutorials?|notebooks?|cookbooks?|demos?)/", re.IGNORECASE)
_SHELL = re.compile(r"\.(?:sh|bash)$", re.I)  # a launcher: whatever it sets, a user runs
_PROJECT_FILE = re.compile(r"^([^/]+)/(?:setup\.py|pyproject\.toml)$")  # a project in a folder
_CODE_EXT = re.compile(r"\.(?:py|pyi|pyx|ya?ml|toml|cfg|ini|json|jsonnet|cu|cuh|cc|cpp|h|rs|go)$", re.I)
_SKIP_EXT = re.compile(
    r"\.(?:lock|csv|tsv|svg|png|jpe?g|gif|pdf|bin|pt|safetensors|parquet|arrow|whl|zip|gz)$", re.I
)
_CI = re.compile(
    r"(?:^|/)(?:\.github|\.circleci|\.gitlab|\.buildkite|\.ci|ci)/"
    r"|(?:^|/)(?:pyproject\.toml|setup\.py|setup\.cfg|requirements[^/]*|environment\.ya?ml)$",
    re.IGNORECASE,
)  # CI and packaging: they name things, they do not implement them
# Records, not settings: a JSON file in a folder of data, results or logs (`results/dpo.json`, a
# run's scores; `data/kto_en_demo.json`, a sample dataset) is named after what it holds.
_DATA = re.compile(r"(?:^|/)(?:data|datasets?|results?|outputs?|logs?)/(?:[^/]+/)*[^/]+\.json$", re.I)
_YAML = re.compile(r"\.(?:ya?ml)$", re.I)
_HASH_COMMENT = re.compile(r"\.(?:py|pyi|ya?ml|toml|sh|cfg|ini)$|(?:^|/)(?:Dockerfile|Makefile)", re.I)
_PYTHON = re.compile(r"\.pyi?$", re.I)
# A plan to implement is not an implementation: a TODO, or prose saying what could come later.
_TODO = re.compile(
    r"\b(?:TODO|FIXME|XXX)\b"
    r"|(?i:\b(?:can|could|may|might) also (?:add|use|support|try)\b|\bin the future\b|\b(?:a|any) future\b"
    r"|\bnot (?:yet )?(?:supported|implemented)\b|\b(?:will|to) be (?:added|supported|implemented)\b)"
)
_REVERT = re.compile(r"^Revert\b", re.IGNORECASE)
_REVERTS_SHA = re.compile(r"This reverts commit ([0-9a-f]{7,40})", re.IGNORECASE)
_HUNK = re.compile(r"^@@ -\d+(?:,\d+)? \+(\d+)", re.MULTILINE)
_URL_TOKEN = re.compile(r"https?://\S+|arxiv:\S+", re.IGNORECASE)
_KEY_ACCESS = re.compile(r"(?:[\w\])]\[|\.(?:get|pop|setdefault)\()\s*$")
_KEY_AFTER = re.compile(r"\s*:\s*\S|\s+(?:not\s+)?in\s")  # {"token_mask": ...}, "x" in batch
_TYPE_ANNOTATION = re.compile(r"\s*:\s*(?:bool|int|float|str|Optional|Literal|list|dict|tuple)\b")
# An import statement; group 1 or 2 is its module path (`from trl.trainer.grpo_trainer import X`).
_IMPORT_STATEMENT = r"(?:from\s+([\w.]+)\s+import\b|import\s+([\w.]+))"
_IMPORT_PATH = re.compile(rf"\s*{_IMPORT_STATEMENT}")  # on an added line without its `+`


@dataclass(frozen=True, slots=True)
class FileDiff:
    path: str
    status: str = "M"  # A added, D deleted, M modified, R renamed
    old_path: str | None = None
    added: int = 0
    deleted: int = 0
    binary: bool = False
    text: str = ""  # hunks only (from the first `@@`), `-U0` style


@dataclass(frozen=True, slots=True)
class Link:
    rel: str  # IMPLEMENTS or MENTIONS
    label: str  # Method or Paper
    key: str  # method slug or arXiv id
    source_kind: str  # diff, commit-message
    location: str  # path:line, or "message"
    identifier: str
    rule: str
    confidence: float
    # Why this IMPLEMENTS still needs a second signal in the same change (an ambiguous alias, a
    # name two methods share); empty when the alias is enough on its own. Not stored.
    needs_signal: str = ""
    context: str = ""  # for a link needing a second signal: the lines around it, not stored
    recipe: bool = False  # found in a runnable example or recipe, not in package code
    vendored: str = ""  # the other framework's package whose copied tree it was found in

    def evidence(self) -> Evidence:
        """What the stored edge carries."""
        implementation = ("recipe" if self.recipe else "code") if self.rel == IMPLEMENTS else None
        return Evidence(self.source_kind, self.location, self.identifier, self.rule, self.confidence,
                        implementation, True if self.vendored else None)  # fmt: skip


def stored_rel(rel: str, vendored: bool) -> str:
    """The relationship a link is stored as: IMPLEMENTS in a copied tree is VENDORS, so that a query
    (stored or ad hoc) matching IMPLEMENTS reads only what the framework itself implemented."""
    return VENDORS if rel == IMPLEMENTS and vendored else rel


@dataclass
class CommitLinks:
    links: list[Link] = field(default_factory=list)
    reverts: str | None = None  # sha (or prefix) this commit reverts


@functools.lru_cache(maxsize=1 << 16)  # paths recur from commit to commit
def path_category(path: str) -> str:
    """code, test, eval, doc, example or other; vendored code and CI configuration are `other`."""
    if _VENDORED.search(path) or _SKIP_EXT.search(path) or _CI.search(path) or _DATA.search(path):
        return "other"
    if _TEST.search(path):
        return "test"
    if _EVAL.search(path):
        return "eval"
    if _DOC.search(path):
        return "doc"
    if _EXAMPLE.search(path) or _SHELL.search(path):
        return "example"
    if _CODE_EXT.search(path):
        return "code"
    return "other"


@functools.lru_cache(maxsize=1 << 16)
def _scan_plan(path: str) -> tuple[str, bool] | None:
    """(category, whether `#` starts a comment) for a file worth scanning; None to skip it."""
    comments = bool(_HASH_COMMENT.search(path))
    category = path_category(path)
    if _VENDORED.search(path) or (category == "other" and not comments):
        return None
    return category, comments


def reverted_sha(message: str) -> str | None:
    """The commit a revert undoes, or None if this is not a revert (a revert of a revert re-lands)."""
    subject = message.split("\n", 1)[0]
    # Only the subject decides: squash merges carry every commit message of the pull request,
    # including reverts made and undone inside it.
    if not _REVERT.match(subject) or subject.startswith('Revert "Revert'):
        return None
    m = _REVERTS_SHA.search(message)
    return m.group(1).lower() if m else ""


def _in_comment(line: str, offset: int) -> bool:
    """Is `offset` after a `#` that is not inside a string literal?"""
    quote = ""
    for ch in line[:offset]:
        if quote:
            if ch == quote:
                quote = ""
        elif ch in "\"'":
            quote = ch
        elif ch == "#":
            return True
    return False


def _judge_code_hit(alias: CodeAlias, line: str, s: int, e: int, path: str, ambiguous: bool):
    """(rule, confidence) for an alias found at line[s:e] of added package code; None if no use."""
    found = line[s:e]
    before, after = line[s - 1 : s] if s else "", line[e : e + 1]
    if before == "`" or after == "`":
        return ("docstring", 0.0)
    if alias.kind == "class":
        if found != alias.alias:
            return None
        return ("class-def", 0.95) if re.search(r"\bclass\s+$", line[:s]) else ("class-use", 0.75)
    if alias.kind == "setting":
        rest = line[e:]
        if alias.bool_setting:
            return ("setting-option", 0.7) if not re.match(r"\s*\(", rest) else None
        return ("setting", 0.85) if _value_follows(alias, rest) else None
    quoted = before in "\"'" and before and after == before
    if quoted and (_KEY_ACCESS.search(line[: s - 1]) or _KEY_AFTER.match(line[e + 1 :])):
        return ("code-word", 0.0)  # batch["token_mask"], .get("grpo"): a key, not an option
    if (m := _IMPORT_PATH.match(line)) and s < m.end():
        return ("code-word", 0.0)  # a module's name: importing from it is wiring, judged apart
    if alias.kind == "identifier" and not ambiguous:
        return ("option-value" if quoted else "option-name", 0.85)
    # A plain word (or an ambiguous identifier): only as an option, never as a bare word.
    if quoted:
        return ("option-value", 0.85)
    if line[max(0, s - 2) : s] == "--":
        return ("option-flag", 0.85)
    if _YAML.search(path) and re.match(r"\s*-?\s*[\w.-]+\s*:\s*[\"']?$", line[:s]):
        return ("config-value", 0.8)
    if _TYPE_ANNOTATION.match(line[e:]) and (not ambiguous or alias.kind == "word"):
        return ("definition", 0.65 if ambiguous else 0.75)  # `ipo: bool = False`
    if (
        not ambiguous
        and re.search(r"(?:\bdef\s+|self\.)$", line[:s])
        and re.match(r"\s*(?:\(|=[^=])", line[e:])
    ):
        return ("definition", 0.75)
    return ("code-word", 0.0)


def _prose_rule(alias: CodeAlias, line: str, s: int, place: Place | None | bool) -> str | None:
    """The MENTIONS rule for a hit in added code that is prose, not code: a TODO, a docstring,
    a comment, a string literal that selects nothing, one name among many a membership test
    sorts; None when the hit is code (or a literal in a selecting position) and the code rules
    judge it."""
    if _TODO.search(line[:s]):
        return "todo"
    if not place:
        return None
    if place.kind == "listed":
        return "listed"
    if place.kind == "docstring":
        return "docstring"
    if place.kind == "comment":
        return "code-comment"
    if place.kind != "string":
        return None
    if alias.kind == "setting":
        # A key in a literal of one token (`"--model.loss_type"`, a dict key) or a setting written
        # as one (`"loss_type=dapo"`, a command line) is code; a key with its value apart in a
        # sentence is prose: "unknown loss_type {x}: choose 'ipo' or 'hinge'".
        if place.whole or _one_token_literal(line, s) or _written_setting(alias).match(line, s):
            return None
        return "string-literal" if _value_follows(alias, line[s:]) else None
    if alias.kind == "class" and place.whole:
        return None  # `__all__ = ["GRPOTrainer"]`, a lazy-import table: the class is exported
    return None if place.why else "string-literal"


def _value_follows(alias: CodeAlias, rest: str) -> bool:
    """Whether a setting's value is on the rest of the line after its key."""
    return re.search(rf"(?<![\w-]){re.escape(alias.value)}(?![\w-])", rest, re.IGNORECASE) is not None


def _one_token_literal(line: str, s: int) -> bool:
    """Whether the quoted text holding column `s` has no space: a key, a flag, a dotted path."""
    opened = max(line.rfind('"', 0, s), line.rfind("'", 0, s))
    closed = min((i for i in (line.find('"', s), line.find("'", s)) if i >= 0), default=-1)
    return opened >= 0 and closed >= 0 and not any(ch.isspace() for ch in line[opened + 1 : closed])


@functools.lru_cache(maxsize=1 << 10)  # one pattern per catalog setting
def _written_setting(alias: CodeAlias) -> re.Pattern:
    """The setting as config or a command line writes it: its key, `=`, `:` or a space, its value."""
    return re.compile(
        rf"{re.escape(alias.token)}[\"']?\s*[=:\s]\s*[\"']?{re.escape(alias.value)}(?![\w-])", re.IGNORECASE
    )


class AddedBlocks:
    """A Python file's added lines, read as code around each hit: `place(offset, start, end)` for
    a hit at columns start:end of the added line holding `offset`. A hit with no quote or `#`
    before it on its line, outside any triple-quoted string, is code without tokenizing; a hit in
    a literal is read on its own line first, and with a few lines around it only when the line
    alone cannot say whether the literal selects behaviour."""

    BEFORE, AFTER = 8, 2  # lines of context tokenized around a hit: its statement, usually

    def __init__(self, text: str):
        self.text = text
        self._triples = _TRIPLE_QUOTE in text or _TRIPLE_APOS in text
        self._windows: dict[tuple[int, int], PythonBlock] = {}
        self._breaks: list[int] | None = None  # starts of the lines that are not added
        self._quotes: dict[str, list[int]] = {}  # where each kind of triple quote is

    def _positions(self, pattern: re.Pattern) -> list[int]:
        return [m.start() for m in pattern.finditer(self.text)]

    def place(self, offset: int, start: int, end: int) -> Place:
        text = self.text
        line_start = text.rfind("\n", 0, offset) + 1
        quoted = any(ch in text[line_start + 1 : line_start + 1 + start] for ch in "\"'#")
        inside = self._inside(line_start) if self._triples else ""
        if not inside and not quoted and not _MAY_LIST.match(text, line_start + 1):
            return _CODE_PLACE  # no string, comment or membership list can hold it
        if not inside and quoted:
            place = self._window(line_start, line_start, "").place(0, start, end)
            if place.kind == "comment" or not place.whole or place.why in _LINE_DECIDES:
                return place  # a token within the line: its own line shows all it can
            if place.kind == "code" and not _MAY_LIST.match(text, line_start + 1):
                return place
        lo, row = line_start, 0
        first = self._block_start(line_start)
        while row < self.BEFORE and lo > first:
            lo = text.rfind("\n", 0, lo - 1) + 1
            row += 1
        hi = line_start
        for _ in range(self.AFTER):
            nxt = text.find("\n", hi) + 1
            if nxt <= 0 or not text.startswith("+", nxt):
                break
            hi = nxt
        return self._window(lo, hi, self._inside(lo) if self._triples else "").place(row, start, end)

    def _block_start(self, line_start: int) -> int:
        """Offset of the first line of the run of added lines holding `line_start`."""
        if self._breaks is None:
            # Each found as a line break and the next line's first character: `re` finds a line
            # break fast, while it tries a multi-line `^` at every position.
            first = [0] if self.text[:1] in _NOT_ADDED_FIRST else []
            self._breaks = first + [at + 1 for at in self._positions(_NOT_ADDED)]
        k = bisect.bisect_left(self._breaks, line_start) - 1
        return 0 if k < 0 else self.text.find("\n", self._breaks[k]) + 1

    def _inside(self, line_start: int) -> str:
        """The triple quote the added line at `line_start` starts inside of, or '': triple quotes
        counted since its block began (one inside a one-line string is rare enough)."""
        first = self._block_start(line_start)
        for quote in (_TRIPLE_QUOTE, _TRIPLE_APOS):
            if quote not in self._quotes:
                self._quotes[quote] = self._positions(re.compile(re.escape(quote)))
            at = self._quotes[quote]
            if (bisect.bisect_left(at, line_start) - bisect.bisect_left(at, first)) % 2:
                return quote
        return ""

    def _window(self, lo: int, hi: int, inside: str) -> PythonBlock:
        """Added lines from the one at `lo` to the one at `hi` (offsets of their `+`)."""
        block = self._windows.get((lo, hi))
        if block is None:
            stop = self.text.find("\n", hi)
            lines = [line[1:] for line in self.text[lo : stop if stop >= 0 else len(self.text)].split("\n")]
            block = self._windows[lo, hi] = PythonBlock(lines, inside)
        return block


_CODE_PLACE = Place("code")
# An added line that may be an item of a membership list: names and commas alone, or an `in (`.
_MAY_LIST = re.compile(
    r"[^\n]*\bin\s*[(\[{]|[ \t]*(?:[\w.]+[ \t]*,[ \t]*)*[\w.]+[ \t]*,?[ \t]*[)\]}]*[ \t]*$", re.M
)
_NOT_ADDED_FIRST = ("-", "@", "\\", " ")  # removed lines, hunk headers, "\ No newline"
_NOT_ADDED = re.compile(r"\n[-@\\ ]")  # such a line after another
# Reasons a literal selects that its own line shows whatever surrounds it.
_LINE_DECIDES = {
    "compare",
    "option-default",
    "flag",
    "registry-key",
    "choices",
    "keyword-argument",
    "config-read",
}
_TRIPLE_QUOTE, _TRIPLE_APOS = '"' * 3, "'" * 3


_UNREACHED = "new-file; nothing in this change imports, registers or runs it"
_STUB = "new-file; its functions do nothing yet"
_STUB_LINES = 60  # the longest module read for stubs
_UNREACHED_CLASS = "its new module is reached by nothing in this change"
_PACKAGE_INIT = re.compile(r"^((?:[^/]+/)*?)([^/]+)/__init__\.py$")  # folder, package
_PACKAGING = re.compile(r"^((?:[^/]+/)*?)(?:setup\.py|pyproject\.toml)$")
_IMPORT = re.compile(rf"\+\s*{_IMPORT_STATEMENT}")  # at an added line's start
# A module that runs or registers itself; a loop at a module's top level is a script's own work
# (a training loop launched by `torchrun` or `deepspeed`, with no `__main__` guard).
_ENTRY = Prefiltered(re.compile(r"__main__|\bregist\w*\(|@\w*regist|add_argument\(|^\+(?:for|while) ", re.M))
_RECIPE = re.compile(r"(?:^|/)recipes?/", re.I)
_RUNNABLE = re.compile(r"\.(?:sh|ya?ml|py|toml|json)$", re.I)
_RECIPE_CONFIG = re.compile(r"\.(?:sh|ya?ml|toml|json)$", re.I)  # a recipe that only sets options
_DIFF_LINE_BREAK = re.compile(r"\s*\n\+\s*")  # between two added lines of one match
# A script's launch of a package (group 1: the package run).
_LAUNCH = Prefiltered(re.compile(r"^\+[^#\n]*?(?:\s-m\s+|python3?\s+)([A-Za-z_]\w*)[./]", re.M))
_ASSIGNED = re.compile(r"[\w.-]+\s*[=:]\s*[\"']?$")  # `adv_estimator=`, `loss_type: "`
_FLAG_VALUE = re.compile(r"(?:^|\s)--[\w.-]+[ \t]+[\"']?$")  # `--advantage_estimator `, its value next
# A quoted item of a list a recipe assigns: `loss_types=("sigmoid" "ipo")`, `losses = ["dpo", "ipo"]`.
_LISTED = re.compile(r"[\w.-]+\s*[=:]\s*[(\[](?:\s*[\"'][\w.-]*[\"']\s*,?)*\s*[\"']$")
_STRING = re.compile(r"""(["'])(-{0,2}[A-Za-z][\w.-]{2,48})\1""")
# A CLI flag's literal, or a key read from a configuration (`cfg.get("key", default)`).
_FLAG_STRING = re.compile(r"""(?:(?<=\.get\()|(?=["']-))(["'])(-{0,2}[A-Za-z][\w.-]{2,48})\1""")
_CLASS_DEF = Prefiltered(re.compile(r"^\+\s*class\s+([A-Za-z_]\w{2,48})", re.M))
_FIELD = Prefiltered(re.compile(r"^\+\s*([a-z_][a-z0-9_]{2,48})\s*:\s*[\w\[\]., |\"']+=", re.M))
# A field declared by its type alone, as in a TypedDict config (`ratio_clip_c: float`).
_TYPED_FIELD = Prefiltered(
    re.compile(r"^\+[ \t]+([a-z_][a-z0-9_]{2,48})[ \t]*:[ \t]*[\w\[\]., |\"']*[\w\]][ \t]*$", re.M)
)
_YAML_KEY = re.compile(r"^\+\s*-?\s*([A-Za-z_][\w-]{2,48})\s*:", re.M)
_SELECT_CUE = re.compile(
    r"==|!=|\bin\s*[(\[{]|choices|Literal\[|regist|default|\bcase\b|add_argument|[A-Z_]{3,}\s*=|\.get\("
)
_DULL = {"true", "false", "none", "null", "default", "mean", "sum", "max", "min", "auto", "token"}


_CLASS_WITH_BASES = re.compile(r"\s*class\s+(\w+)\s*\(")
# An import's line, or a name alone on a line of a parenthesised import (`    DPOConfig,`).
_IMPORTED_NAME = re.compile(r"\s*(?:from\s|import\s|[\w.]+\s*,?\s*(?:#.*)?$)")
_CLASS_BODY = re.compile(r"(?: {1,4}|\t)\S")  # one level in: a class's fields, not a function's locals
_PARAMETER = re.compile(r",\s*(?:#.*)?$")  # `critic_warmup: bool = False,`: a signature's line, not a field
_KEPT = Prefiltered(re.compile(r"^\+[ \t]*self\.(\w+)[ \t]*=[ \t]*(\w+)\b", re.M))
# A keyword parameter on a signature's line of its own (`use_max_rl = False,`), typed or not.
_KEYWORD_PARAMETER = Prefiltered(
    re.compile(
        r"^\+[ \t]+([a-z_][a-z0-9_]{2,48})[ \t]*(?::[^=\n]+)?=[ \t]*[^=\s][^\n]*,[ \t]*(?:#[^\n]*)?$", re.M
    )
)


@dataclass(frozen=True, slots=True)
class Identifier:
    """A user-facing identifier a change adds, where, and why it is user-facing."""

    identifier: str
    location: str
    # compare, choices, registry-key, flag, option-default, config-read, class, field, annotated,
    # config-key, init-param
    why: str


@functools.lru_cache(maxsize=64)  # a file's identifiers are read by several rules
def _kept_names(text: str) -> frozenset[str]:
    """The names a diff's added lines store on the object under their own name (`self.x = x`)."""
    return frozenset(m.group(1) for m in _KEPT.finditer(text) if m.group(1) == m.group(2))


def _python_kind(why: str, name: str, line: str, kept: frozenset[str]) -> str | None:
    """What a field-shaped line declares: a class's field, a constructor's parameter that the
    object keeps under its own name (an option of the class: `Trainer(use_max_rl=True)`), or
    a local or another function's parameter (`annotated`); None for an untyped parameter that
    nothing keeps."""
    if why == "parameter" or (why == "field" and _PARAMETER.search(line)):
        if name in kept:
            return "init-param"
        return None if why == "parameter" else "annotated"
    if why == "field" and not _CLASS_BODY.match(line):
        return "annotated"  # deeper than a class body: a local
    return why


def _option_elsewhere(name: str, f: FileDiff, scanned: list) -> Identifier | None:
    """The option called `name` that another code file of the change adds (a config field, a
    flag), or None."""
    for g, (category, _) in scanned:
        if g is not f and category == "code" and name in g.text:
            found = _identifiers(g, lambda ident: ident == name, literals=False, near=(name,))
            # A constructor's parameter is documented by its own line only (`_documented_options`).
            if (c := next((c for c in found if c.why in _OPTION_KINDS - {"init-param"}), None)) is not None:
                return c
    return None


_FEW_WORDS = 8


def _identifiers(
    f: FileDiff, worth: Callable[[str], bool], literals: bool = True, near: Collection[str] = ()
) -> Iterator[Identifier]:
    """User-facing identifiers on a code file's added lines: selecting string literals (CLI flags
    only, unless `literals`), classes and config fields in Python; keys in YAML configs.
    Candidates are found by pattern and judged by `worth` before anything is tokenized; `near`:
    words every identifier `worth` accepts contains, so that only the lines holding one are read."""
    python = _PYTHON.search(f.path) is not None
    if not python and not _YAML.search(f.path):
        return
    text = f.text
    blocks = AddedBlocks(text) if python else None
    strings = _STRING if literals else _FLAG_STRING
    kept = _kept_names(text) if python else frozenset()
    patterns = (
        ((_CLASS_DEF, "class"), (_FIELD, "field"), (_TYPED_FIELD, "field"),
         *(((_KEYWORD_PARAMETER, "parameter"),) if kept else ()), (strings, ""))
        if python
        else ((_YAML_KEY, "config-key"),)
    )  # fmt: skip
    # A few words are found faster than the patterns run; many words (a paragraph's) are not.
    spans = _lines_holding(text, near) if 0 < len(near) <= _FEW_WORDS else [(0, len(text))]
    for pattern, why in patterns:
        for m in (m for start, end in spans for m in pattern.finditer(text, start, end)):
            ident = m.group(2) if pattern is strings else m.group(1)
            if not worth(ident):
                continue
            line_start = text.rfind("\n", 0, m.start()) + 1
            if not text.startswith("+", line_start):
                continue
            group = 2 if pattern is strings else 1
            s, e = m.start(group) - line_start - 1, m.end(group) - line_start - 1
            line_end = text.find("\n", m.end())
            line = text[line_start + 1 : line_end if line_end >= 0 else len(text)]
            where = f"{f.path}:{_line_number(text, line_start)}"
            if not python:
                if "#" not in line[:s]:
                    yield Identifier(ident, where, why)
            elif why:
                kind = _python_kind(why, ident, line, kept)
                if kind and blocks.place(m.start(group), s, e).kind == "code":
                    yield Identifier(ident, where, kind)
            # a comparison, choices, registry or default on the line; a flag's call may open above it
            elif _SELECT_CUE.search(line) or ident.startswith("-"):
                place = blocks.place(m.start(group), s, e)
                if place.whole and place.why:
                    yield Identifier(ident, where, place.why)


# An option and the prose that documents it: its help string or docstring on the lines after it,
# or a comment on the lines just above.
_DOC_PROSE = ("docstring", "code-comment", "string-literal")
# Places where a value selects behaviour: an option's value, a config value, a recipe's value.
_SELECTING_VALUES = ("option-value", "config-value", "recipe-value")
_QUOTED = re.compile(r"([\"']).*?\1")  # a string literal on one line
_FLAG_NAME = re.compile(r"[\"']--?([\w.-]+)[\"']")  # a quoted command-line flag: `"--loss_type"`
# Option keys named for the part of training a method changes (the catalog's `change`).
_CHANGE_KEYS = {
    change: re.compile(rf"\b(?=[\w-]*[_-])[\w-]*(?:{words})[\w-]*", re.I)  # an identifier, not prose
    for change, words in {
        "advantage": "advantage|adv_est",
        "clip": "clip",
        "mask": "mask",
        "weight": "weight",
        "sampling": "sampl",
    }.items()
}
# Doubts about what a word names (not about whether the thing is reached): see `_second_signals`.
_DOUBTS_THE_WORD = re.compile(r"names a role|ambiguous alias|also names")
# A string standing alone on its line right under an attribute documents it (PEP 257).
_ATTRIBUTE_DOCSTRING = re.compile(r"^\s*[rRuU]?(?:\"{3}|'{3})")
# Terms an option's name may say it sets, which only some methods are about (see `_may_set`), and
# the words a method's defining change uses for them.
_QUANTITY = re.compile(r"(?<![a-z])(kl|entropy|clip\w*|eps|epsilon)(?![a-z])")
_QUANTITY_WORDS = {"kl": ("kl",), "entropy": ("entropy",), "clip": ("clip", "bound", "cap")}
_DOC_BEFORE, _DOC_AFTER = 2, 4
_OPTION_KINDS = frozenset({"field", "config-key", "flag", "config-read", "init-param"})
_DOCUMENTED_OPTION = Link(IMPLEMENTS, "Method", "", "diff", "", "", "option-doc", 0.7)  # its strength
_OPTION_WORD = re.compile(r"-{0,2}[A-Za-z_][\w-]*")
# The head of an argument entry (`name (type):`, `name: text`, `:param name:`, `- name:`), or a
# word shaped as an identifier (`disable_ppo_ratio`): the option prose documents. A plain word
# elsewhere in the prose (a file header's "model") names no option.
_IDENTIFIER_SHAPED = re.compile(r"\w[_-]\w|[a-z][A-Z]")
_ENTRY_HEAD = re.compile(r"^\s*(?:[-*]\s+|:param\s+)?`{0,2}(-{0,2}[A-Za-z_][\w-]*)`{0,2}\s*[(:]")
_DOCUMENTED_ENTRY = Link(IMPLEMENTS, "Method", "", "diff", "", "", "doc-entry", 0.7)
# A documentation entry that starts with an option in code font: a list item or a table row.
_DOC_ENTRY = re.compile(r"^(?P<indent>[ \t]*)(?:[-*+]|\|)[ \t]*``?(?P<key>[A-Za-z_][\w.-]*)``?")
_DESCRIBING_KINDS = _OPTION_KINDS | {"class", "choices", "option-default", "registry-key"}


# A subject saying the change is upkeep: a fix, docs, tests, a refactor, a chore, CI, a bump,
# after any `[tag]`, emoji or conventional-commit scope.
_SUBJECT_TAGS = r"^\W*(?:\[[^\]]*\]\W*)*"  # leading `[tag]`s and emoji
_UPKEEP = re.compile(
    _SUBJECT_TAGS + r"(?:(?:fix|docs?|tests?|refactor|chore|ci|style|build|perf|revert)\b(?:\([^)]*\))?!?:"
    r"|(?:fix(?:es|ed|ing)?|hotfix|bugfix|typo|docs?|document|tests?|refactor|cleanup|clean up|bump|revert"
    r"|remove|deprecate|update (?:docs?|readme|tests?))\b)",
    re.IGNORECASE,
)


# A subject saying the change fixes a typo, after any `[tag]` or conventional-commit scope.
_TYPO_FIX = re.compile(
    _SUBJECT_TAGS + r"(?:(?:fix|docs?|chore|style)\b(?:\([^)]*\))?!?:?\s*)?"
    r"(?:(?:fix(?:es|ed|ing)?|correct(?:s|ed|ing)?)\s+(?:an?\s+|the\s+|some\s+|small\s+|minor\s+)*)?typos?\b",
    re.IGNORECASE,
)
# A message's paragraphs and list items: where a name and the identifiers quoted beside it belong
# together ("- Adds `normalize_advantage`; set it to `false` for Dr. GRPO").
_MESSAGE_BLOCK = re.compile(r"\n\s*\n|\n(?=[ \t]*(?:[-*+]|\d+[.)])[ \t])")
_QUOTED_IDENTIFIER = re.compile(r"`-{0,2}([A-Za-z_][\w.-]*)(?:\s*[=:][^`]*)?`")
# A quoted setting (a value, `false`, or an option set to one, `epsilon_high=0.28`) said to be for
# the method right after it ("set both to `false` for Dr. GRPO"), or right after the method's name
# ("Dr. GRPO: `scale_rewards=false`").
_SETTING = r"`(?:true|false|none|null|-?\d[\w.]*|-{0,2}[A-Za-z_][\w.-]*\s*[=:]\s*[^`\s]+)`"
_QUOTED_SETTING = re.compile(_SETTING, re.I)
_SETTING_FOR = re.compile(_SETTING + r"[^`.;]{0,12}?\bfor\s+(?:the\s+|an?\s+)?\[?$", re.I)
_NAME_THEN_SETTING = re.compile(r"^\]?[^`.;]{0,24}?" + _SETTING, re.I)
# A paragraph that compares a thing with a method ("a model class similar to DPO's") is not about
# the method's own option.
_COMPARISON = re.compile(
    r"\b(?:similar to|(?:just |much )?like|unlike|instead of|rather than|compared (?:to|with)|vs\.?|"
    r"versus|same as|as in|borrowed from|inspired by|adapted from)\b",
    re.IGNORECASE,
)


def _ancestors(slug: str, parent_of: dict[str, str | None]) -> frozenset[str]:
    """A method's parents, their parents and so on (the catalog's `parent` chain)."""
    found, parent = set(), parent_of.get(slug)
    while parent and parent not in found:
        found.add(parent)
        parent = parent_of.get(parent)
    return frozenset(found)


def _describes(identifier: str, stems: frozenset[str]) -> frozenset[str]:
    """The describing stems an option of several words shares with a method (`off_policy_mask_
    threshold` and "masks ... threshold"), or an empty set."""
    several = "_" in identifier or "-" in identifier.strip("-") or _CAMEL.search(identifier)
    return _stems(identifier) & stems if stems and several else frozenset()


def _names_any(text: str, words: Iterable[str]) -> bool:
    """Whether a file's text holds any of the words at all (so an identifier in it could carry
    one): a cheap test before the file's identifiers are looked for."""
    folded = text.lower().replace("-", "_")
    return any(w in folded for w in words)


def _carries(identifier: str, words: tuple[str, ...]) -> bool:
    """Whether an identifier holds one of the method's names as a whole part
    (`use_dapo_loss`, `DAPOLoss`, `--dr-grpo`), not inside a longer word."""
    return bool(words) and _parts_pattern(words).search(_flat(identifier)) is not None


@functools.lru_cache(maxsize=1 << 16)  # literals recur from commit to commit
def _flat(identifier: str) -> str:
    """`DAPOLoss`, `--dr-grpo` as lower-case parts joined by underscores: `dapo_loss`, `dr_grpo`."""
    return _CAMEL.sub("_", identifier).lower().replace("-", "_").strip("_")


# Where camel case starts a word: after a lower-case letter or digit, and where an acronym ends
# before a capitalised word (`DrGRPOEstimator`: Dr, GRPO, Estimator).
_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])")


@functools.lru_cache(maxsize=256)
def _parts_pattern(words: tuple[str, ...]) -> re.Pattern:
    return re.compile(r"(?:^|_)(?:" + "|".join(map(re.escape, words)) + r")(?:_|$)")


def _name_words(method) -> tuple[str, ...]:
    """The method's names as identifier parts (`dr_grpo`, `dapo`, `reinforce_plus_plus`,
    `truncated_importance_sampling`); ambiguous ones and very short ones are left out, they say
    too little on their own."""
    ambiguous = ambiguous_names(method)
    words = set()
    for name in method_names(method):
        if name.lower() in ambiguous:
            continue
        word = re.sub(r"[^a-z0-9]+", "_", name.lower().replace("++", "_plus_plus")).strip("_")
        if len(word) >= 3 and re.fullmatch(r"[a-z0-9]+(?:_[a-z0-9]+){0,3}", word):
            words.add(word)
    return tuple(sorted(words))


# Words too plain to tie an identifier to one method, whatever the catalog says.
_PLAIN_WORDS = frozenset(
    "adds after all also and any are before but each for from into its not off one only other "
    "over same several than that the then this under uses using when where which while whose with "
    "within without instead keep keeps makes large open".split()
)
_SUFFIX = re.compile(r"(?:ing|es|ed|s)$")
_WORD = re.compile(r"[a-z]{3,}")


def _stem(word: str) -> str:
    """A crude stem, enough to meet `normalize`, `normalises` and `normalization`, or `masks` and
    `masking`: the word without a plural or verb ending, cut to six letters."""
    bare = _SUFFIX.sub("", word)
    return (bare if len(bare) >= 4 else word)[:6]


@functools.lru_cache(maxsize=1 << 14)  # identifiers recur from commit to commit
def _stems(text: str) -> frozenset[str]:
    """Content-word stems of an identifier or a phrase (`importance_sampling_level`)."""
    text = _CAMEL.sub(" ", text or "").lower()
    return frozenset(_stem(w) for w in _WORD.findall(text) if w not in _PLAIN_WORDS)


def _vocabularies(methods: list) -> dict[str, frozenset[str]]:
    """Per method, the stems that describe it (its names and aliases, and what it changes) and
    that fewer than one method in ten shares: a framework that names an option after what a
    method does (`off_policy_mask_threshold`) uses these words. Paper titles are left out: their
    heads name models and slogans ("DeepSeekMath", "Beyond the 80/20 Rule")."""
    raw = {}
    for m in methods:
        parts = [*method_names(m), getattr(m, "change_detail", "") or ""]
        raw[m.slug] = set().union(*(_stems(part) for part in parts))
    counts: dict[str, int] = {}
    for stems in raw.values():
        for stem in stems:
            counts[stem] = counts.get(stem, 0) + 1
    limit = max(2, len(methods) // 10)
    return {slug: frozenset(st for st in stems if counts[st] <= limit) for slug, stems in raw.items()}


def _module_named(path: str, token: str) -> bool:
    """A Python module named exactly after an alias (`algorithms/distillation.py`)."""
    name = path.rsplit("/", 1)[-1].lower()
    return name == f"{token}.py"


def _sets_for(block: str, m: MethodMatch) -> bool:
    """Whether `block` quotes a setting said to be for the method `m` names."""
    before = block[max(0, m.start - 60) : m.start]
    after = block[m.start + len(m.text) : m.start + len(m.text) + 60]
    return _SETTING_FOR.search(before) is not None or _NAME_THEN_SETTING.search(after) is not None


def _unlinked(text: str) -> str:
    """`text` with its links blanked out, so that what follows keeps its offsets. Every link has
    a colon 4 or 5 characters in (`http:`, `https:`, `arxiv:`): the pattern is tried only there,
    since a case-blind search over a long message costs more than finding its colons."""
    parts, done = [], 0
    colon = text.find(":")
    while colon >= 0:
        for start in (colon - 5, colon - 4):
            if start >= done and (m := _URL_TOKEN.match(text, start)) is not None:
                parts += (text[done:start], " " * (m.end() - start))
                done = m.end()
                break
        colon = text.find(":", max(colon + 1, done))
    return "".join((*parts, text[done:])) if parts else text


def _inside_link(line: str, offset: int) -> bool:
    """Is `offset` inside a URL (a paper link is a citation, not code)?"""
    for m in _URL_TOKEN.finditer(line):
        if m.start() <= offset < m.end():
            return True
    return False


def _line_of(location: str) -> int:
    return int(location.rsplit(":", 1)[1])


_CLASS_LINE = re.compile(r"^\s*class\s+\w+.*:\s*(?:#.*)?$")
_QUOTES = re.compile(r"\"{3}|'{3}")


def _only_imported(name: str, line: str, text: str) -> bool:
    """Whether a class is only imported in a file's diff, and used on no other line of it (a
    leftover `from trl.trainer import CPOTrainer`): an import alone uses nothing."""
    return _IMPORT_PATH.match(line) is not None and text.count(name) == 1


def _in_class_docstring(lines: dict[int, str], at: int) -> bool:
    """Whether added line `at` is in a docstring that opens right under a `class` line."""
    for n in range(at, at - _DOC_AFTER - 1, -1):
        if n not in lines:
            return False
        if _QUOTES.search(lines[n]):  # the docstring's opening line
            return bool(_CLASS_LINE.match(lines.get(n - 1, "")))
    return False


def _added_lines(text: str) -> dict[int, str]:
    """New-file line number -> text of each added line in `-U0` hunk text."""
    out: dict[int, str] = {}
    # Hunk by hunk: with no context lines, a hunk's added lines are numbered from its header on.
    for i, hunk in enumerate(text.split("\n@@")):
        if i:
            hunk = "@@" + hunk
        header = _HUNK.match(hunk) if hunk.startswith("@@") else None
        added = [line[1:] for line in hunk.split("\n") if line.startswith("+")]
        out.update(zip(itertools.count(int(header.group(1)) if header else 0), added))
    return out


# A recipe's loss setting and its value: `--pref_loss nca_pair`, `pref_loss: simpo`, `loss_type=ipo`.
_LOSS_SETTING = re.compile(
    r"(?:^|[\s{,(])-{0,2}[\w.]*loss[\w.]*[\"']?\s*[:=\s]\s*[\"']?([\w.+-]+)", re.IGNORECASE
)
_SRC_FOLDER = re.compile(r"(?:^|(?<=/))src/$")
_SIGNATURE_START = re.compile(r"^\s*(?:async\s+)?def\s+\w+\s*\(")
_SIGNATURE_END = re.compile(r"\)\s*(?:->[^:]*)?:\s*(?:#.*)?$")


def _in_signature(lines: dict[int, str], n: int) -> bool:
    """Whether added line `n` lies in a function's parameter list (`def __init__(self, ipo: bool =
    False)`, on its line or on one of the lines a long signature spans)."""
    for i in range(n, max(n - 12, 0), -1):
        line = lines.get(i)
        if line is None or (i < n and _SIGNATURE_END.search(line)):
            return False
        if _SIGNATURE_START.match(line):
            return True
    return False


def _lines_of(files: list[FileDiff], link: Link) -> tuple[FileDiff, dict[int, str], int] | None:
    """The file a diff link points into, its added lines by number, and the link's line number."""
    path, _, number = link.location.rpartition(":")
    f = next((f for f in files if f.path == path), None)
    if f is None or not number.isdigit():
        return None
    return f, _added_lines(f.text), int(number)


def _without_a_caller(files: list[FileDiff], best: dict) -> None:
    """A method's name as a parameter of a function (`def __init__(self, ipo: bool = False)`) is
    an implementation only where the change also passes it or exposes it (`ipo=...`, `--ipo`,
    `"ipo"`): a copy that kept a loss's switch but dropped every command that sets it never runs
    the method, and the later change that wires it in is the first implementation."""
    for slug, link in list(best.items()):
        if link.rel != IMPLEMENTS or not link.rule.startswith("definition") or link.source_kind != "diff":
            continue
        found = _lines_of(files, link)
        if found is None or not _in_signature(found[1], found[2]):
            continue
        f, lines, number = found
        name = re.escape(link.identifier)
        passed = re.compile(rf"(?<![\w.]){name}\s*=(?!=)|--{name}\b|[\"']{name}[\"']")
        elsewhere = (
            text
            for g in files
            for n, text in (lines if g is f else _added_lines(g.text)).items()
            if g is not f or n != number
        )
        if not any(passed.search(text) for text in elsewhere):
            best[slug] = dataclasses.replace(
                link, rel=MENTIONS, confidence=0.4,
                rule=f"{link.rule}; a parameter nothing in the change passes or exposes",
            )  # fmt: skip


def _doc_entries(f: FileDiff) -> Iterator[tuple[str, str, int]]:
    """(option, what its entry says, line) for each entry of a documentation file's added lines
    that starts with an option in code font: the rest of its line and the added lines indented
    under it (a list item's paragraphs), up to the next entry or the text after the list."""
    lines = _added_lines(f.text)
    for at, line in lines.items():
        m = _DOC_ENTRY.match(line)
        if m is None:
            continue
        said, n = [line[m.end() :]], at + 1
        while n in lines and (not lines[n].strip() or _indent(lines[n]) > len(m.group("indent"))):
            said.append(lines[n])
            n += 1
        yield m.group("key"), "\n".join(said), at


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" \t"))


def _lines_holding(text: str, words: Iterable[str]) -> list[tuple[int, int]]:
    """(start, end) of each added line of hunk text that holds one of `words`, in order: finding
    a word costs far less than trying a line-anchored pattern at every position of a diff."""
    spans: set[tuple[int, int]] = set()
    for word in words:
        at = text.find(word)
        while at >= 0:
            start = text.rfind("\n", 0, at) + 1
            end = text.find("\n", at)
            end = len(text) if end < 0 else end
            if text.startswith("+", start):
                spans.add((start, end))
            at = text.find(word, end)
    return sorted(spans)


def _imports(text: str) -> Iterator[re.Match]:
    """The import statements of hunk text's added lines."""
    return filter(None, (_IMPORT.match(text, start, end) for start, end in _lines_holding(text, ("import",))))


def _line_at(text: str, pos: int) -> tuple[int, str]:
    start = text.rfind("\n", 0, pos) + 1
    end = text.find("\n", pos)
    return start, text[start : end if end >= 0 else len(text)]


def _line_number(text: str, line_start: int) -> int:
    """New-file line number of the added line starting at `line_start` in `-U0` hunk text."""
    at = text.rfind("\n@@", 0, line_start) + 1
    hunk = _HUNK.match(text, at)
    if hunk is None:
        return 0
    return int(hunk.group(1)) + text.count("\n+", hunk.end(), line_start)


class CommitLinker:
    """Links for one commit at a time; build once per catalog and reuse (the regexes are compiled)."""

    def __init__(
        self,
        methods,
        vendored_packages: Iterable[str] = (),
        framework: str = "",
        copied_configs: Iterable[str] = (),
    ):
        """`vendored_packages`: package names of other frameworks; a tree of that name inside
        this framework's repository is a copy, whose links are marked `vendored`. `framework`: the
        name of the framework whose history is linked, read as `OwnName` says (prime-rl's "prime"
        is the framework, the PRIME repository's is the method).
        `copied_configs`: config files of those copied trees (`verl/trainer/config/ppo.yaml`); a
        config of this framework's own ending in the same path is a copy of that framework's
        defaults (see `_config_copy_of`)."""
        methods = list(methods)
        self.foreign = frozenset(p.lower() for p in vendored_packages)
        self.config_copies = {
            tail: path.split("/", 1)[0].lower() for path in copied_configs for tail in _config_tails(path)
        }
        self.index = CodeAliasIndex(methods)
        self.matcher = MethodMatcher(methods)
        self.own_name = self.matcher.own_name(framework)
        self.paper_of = {m.slug: getattr(m, "arxiv_id", None) for m in methods}
        self.parent_of = {m.slug: getattr(m, "parent", None) for m in methods}
        self.ancestors = {m.slug: _ancestors(m.slug, self.parent_of) for m in methods}
        self.titles = {m.slug: _title_cue(getattr(m, "paper_title", None)) for m in methods}
        # A display name that is not a plain word (`REINFORCE`, not `reinforce`).
        self.display = {m.slug: m.name for m in methods if not m.name.islower()}
        self.slug_of_paper: dict[str, list[str]] = {}
        for m in methods:
            if getattr(m, "arxiv_id", None):
                self.slug_of_paper.setdefault(m.arxiv_id, []).append(m.slug)
        # A paper that also brings a variant of its method (REINFORCE++ and its -baseline) is cited
        # for its method: the variant needs its own name.
        for arxiv_id, slugs in self.slug_of_paper.items():
            self.slug_of_paper[arxiv_id] = [s for s in slugs if self.parent_of.get(s) not in slugs]
        # Methods whose paper is a model's report: it brings many techniques, and code citing it
        # for one of them does not say which.
        self.reported = {m.slug for m in methods if _is_report(getattr(m, "paper_title", None))}
        # Methods known by what they compute (the catalog's `computation`), with what the change
        # must also say for the line to be that method (`computation_context`).
        computing = [m for m in methods if getattr(m, "computation", None)]
        self.computations = {m.slug: Prefiltered(re.compile(m.computation)) for m in computing}
        # Which of them a file may compute, all read in one pass over it.
        self.computation_screens = Screens(c.pattern for c in self.computations.values())
        # Every context read in one pass over a change's message and paths.
        self.computation_contexts = PatternSet([m.computation_context for m in computing], ignore_case=True)
        # Preference methods train on pairs: one whose name is ambiguous needs pairs in sight.
        self.pairwise = {m.slug for m in methods if getattr(m, "family", None) == "preference"}
        # What every change shipping a method has in sight (the catalog's `shipped_with`).
        self.shipped_with = {
            m.slug: compile_for_long_text(m.shipped_with, ignore_case=True)
            for m in methods
            if getattr(m, "shipped_with", None)
        }
        # What each method's defining change is about (for an option whose name says what it sets).
        self.detail_of = {m.slug: (getattr(m, "change_detail", None) or "").lower() for m in methods}
        # What part of training each method changes, as option keys spell it (`advantage_estimator`).
        self.change_keys = {
            m.slug: _CHANGE_KEYS[m.change] for m in methods if getattr(m, "change", None) in _CHANGE_KEYS
        }
        self.slugs_of_title: dict[str, list[str]] = {}  # how code cites a paper by its title
        for m in methods:
            cue = _code_title_cue(getattr(m, "paper_title", None))
            if cue and cue.isascii() and m.slug not in self.reported:
                self.slugs_of_title.setdefault(cue, []).append(m.slug)
        # How prose in code names a method in words ("Truncated importance sampling for ..."): the
        # spellings of several words, which code alias tokens never are.
        # A word before another method's name ("robust DPO", "online DPO") is how prose describes
        # a variant of that method as often as it names this one: such phrases name nothing here.
        self.slugs_of_phrase: dict[str, list[str]] = {}
        bases = {m.name.lower() for m in methods}
        for m in methods:
            for name in _phrases(m):
                self.slugs_of_phrase.setdefault(name, []).append(m.slug)
        prose = [p for p in self.slugs_of_phrase if not _qualified_base(p, bases)]
        self._citing_words = {*_PAPER_HINT_WORDS, *self.slugs_of_title, *prose}
        self.words = {m.slug: _name_words(m) for m in methods}
        # Other methods' names that hold a method's name as a part (`pf_ppo` holds `ppo`).
        self.longer_names: dict[str, tuple[str, ...]] = {}
        for slug, own in self.words.items():
            # `_ppo_` inside `_pf_ppo_`: a part of a name, without compiling a pattern for each
            parts = [f"_{word}_" for word in own]
            self.longer_names[slug] = tuple(
                w
                for other, ws in self.words.items()
                if other != slug
                for w in ws
                if "_" in w and any(part in f"_{w}_" for part in parts)
            )
        # Names in words as identifier parts (`decoupled_ppo`): a definition carrying one is named
        # after the method; one word (`grpo`) says too little in a function's name unless the
        # message names the method (`_reached_definition`), and the catalog's identifiers are
        # found as tokens already.
        self.compound: dict[str, list[str]] = {}
        for phrase, slugs in self.slugs_of_phrase.items():
            word = re.sub(r"[^a-z0-9]+", "_", phrase.replace("++", "_plus_plus")).strip("_")
            if re.fullmatch(r"[a-z0-9]+(?:_[a-z0-9]+){1,4}", word):
                self.compound.setdefault(word, []).extend(slugs)
        self._compound_parts = _parts_pattern(tuple(sorted(self.compound))) if self.compound else None
        # Which files could hold such a name at all (`decoupled_ppo`, `DecoupledPPO`), found in the
        # same pass over a change as what cites a paper.
        self._compound_words = {v for w in self.compound for v in (w, w.replace("_", ""))}
        self.citing = LiteralScanner(self._citing_words | self._compound_words)
        self.vocabulary = _vocabularies(methods)
        # Values one framework's code (and every copy of it) spells for one method only:
        # package -> alias (lower case) -> method.
        self.package_spellings: dict[str, dict[str, str]] = {}
        for m in methods:
            for package, aliases in getattr(m, "package_spellings", ()):
                self.package_spellings.setdefault(package, {}).update((a.lower(), m.slug) for a in aliases)
        self.known_tokens = {a.token.replace("-", "_") for a in self.index.aliases} | {
            a.token for a in self.index.aliases
        }

    def link(self, message: str, files: list[FileDiff]) -> CommitLinks:
        out = CommitLinks(reverts=reverted_sha(message))
        best: dict[str, Link] = {}  # slug -> strongest link
        code_words: dict[str, Link] = {}  # slug -> bare use in package code, or its setting's key
        plain: set[str] = set()  # methods an unambiguous alias names in package code
        papers: dict[str, Link] = {}
        scanned = [(f, plan) for f in files if not f.binary and (plan := _scan_plan(f.path))]
        per_file, hints, compound = self._hits([f for f, _ in scanned])
        copy_of = self._copies(files)
        for i, ((f, (category, comments)), hits) in enumerate(zip(scanned, per_file, strict=True)):
            cited = self._citations(f, hints[i], papers) if i in hints else []
            copied = copy_of(f)
            self._link_file(
                f, category, comments, hits, best, code_words, plain, copied, scanned, cited, i in compound
            )
        # A link's words name a site or a repository ("github.com/PRIME-RL/PRIME"), not what the
        # change does; papers it links are read from the whole message below.
        # Blanking links costs a pass over the message: only for a message that may name a method.
        in_message = self.matcher.find(_unlinked(message)) if self.matcher.may_name(message) else []
        named = {m.slug: m for m in in_message if not self.own_name.speaks_of_framework(m)}
        subject = message.split("\n", 1)[0]
        for slug, m in named.items():
            link = best.get(slug)
            if link and link.rel == IMPLEMENTS:
                best[slug] = dataclasses.replace(link, confidence=min(0.99, link.confidence + 0.04))
            elif slug in code_words and (code_words[slug].rule != "setting-key" or m.start < len(subject)):
                w = code_words[slug]
                best[slug] = Link(IMPLEMENTS, "Method", slug, "diff", w.location, w.identifier,
                                  "message-and-code", 0.7)  # fmt: skip
            elif defined := self._reached_definition(slug, scanned):
                best[slug] = Link(IMPLEMENTS, "Method", slug, "diff", *defined, "message-and-code", 0.7)
            elif link is None:
                best[slug] = Link(MENTIONS, "Method", slug, "commit-message", "message", m.text,
                                  "commit-message", m.confidence)  # fmt: skip
        cited = next(_PAPER_HINTS.find(message), None) is not None
        for a in find_arxiv_ids(message, bare=False) if cited else ():
            papers.setdefault(a.arxiv_id, Link(MENTIONS, "Paper", a.arxiv_id, "commit-message",
                                               "message", a.text, a.rule, 0.9))  # fmt: skip
        spelled = self._learn_spellings(message, named, scanned, best)
        displaced = {}  # what a recipe named after a method stands in for, until its signal is checked
        for slug, link in self._named_recipes(scanned, copy_of).items():
            if (old := best.get(slug)) is None or old.rel != IMPLEMENTS:
                displaced[slug], best[slug] = old, link
        spelled += self._second_signals(message, best, named, plain, papers, scanned)
        spelled += self._variants_spelled_as_parent(message, named, best)
        for link in self._documented_entries(scanned, best, copy_of):
            _keep(best, link)
        for slug, old in displaced.items():
            if best[slug].rel == IMPLEMENTS:
                continue
            if old is None:  # the recipe's name alone says nothing; what was there before stands
                del best[slug]
            else:
                best[slug] = old
        # What the change computes is the weakest sign: read only for methods nothing above found
        # implemented, so a spelling the message teaches is still learned.
        for link in self._computations(message, scanned, best):
            _keep(best, link)
        self._without_what_ships(message, files, best)
        _without_a_caller(files, best)
        self._stages_run_with_another_loss(files, best)
        if out.reverts is not None:  # what a revert adds was there before
            best = {
                s: Link(MENTIONS, "Method", s, lk.source_kind, lk.location, lk.identifier, "revert", 0.5)
                for s, lk in best.items()
            }
            spelled = []
        elif _TYPO_FIX.match(subject):
            # A typo fix changes words, not what runs (a docstring's line whose opening quotes lie
            # outside the diff reads as code).
            best = {
                s: dataclasses.replace(lk, rel=MENTIONS, rule="typo-fix", confidence=0.5)
                if lk.rel == IMPLEMENTS
                else lk
                for s, lk in best.items()
            }
            spelled = []
        out.links = (
            sorted(best.values(), key=lambda lk: lk.key)
            + spelled
            + sorted(papers.values(), key=lambda p: p.key)
        )
        return out

    def _without_what_ships(self, message: str, files: list[FileDiff], best: dict) -> None:
        """A method that a change names without what the method always ships with only mentions
        it: PPO trains a value function, so a `ppo_actor.py` in a critic-free trainer, or an
        unused subclass of another library's PPO trainer, is a name without the thing."""
        for slug, ships in self.shipped_with.items():
            link = best.get(slug)
            if link is None or link.rel != IMPLEMENTS:
                continue
            # Each file's added lines as one text, line by line: the catalog's patterns never
            # span a line break, and one search a file costs far less than one a line.
            texts = itertools.chain(
                (message,),
                (f.path for f in files),
                ("\n".join(_added_lines(f.text).values()) for f in files),
            )
            if not any(ships.search(text) for text in texts):
                best[slug] = dataclasses.replace(
                    link,
                    rel=MENTIONS,
                    confidence=0.4,
                    rule=f"{link.rule}; nothing it ships with in the change",
                )

    def _stages_run_with_another_loss(self, files: list[FileDiff], best: dict) -> None:
        """A recipe that runs one preference method's stage with another one's loss (`--stage dpo`
        beside `--pref_loss nca_pair`, `stage: dpo` beside `pref_loss: simpo`) runs the other
        method: the stage names the trainer they share, not what it optimises. Policy-gradient
        recipes are not read so: an advantage estimator and a loss are two parts that both run."""
        for slug, link in list(best.items()):
            recipe_value = link.rel == IMPLEMENTS and link.rule.startswith("recipe-value")
            if slug not in self.pairwise or not recipe_value or (found := _lines_of(files, link)) is None:
                continue
            _, lines, number = found
            if "loss" in lines.get(number, "").lower():
                continue  # the value is the loss itself
            for text in lines.values():
                other = next(
                    (
                        min(o)
                        for m in _LOSS_SETTING.finditer(text)
                        if (o := self._pairwise_named(m.group(1)) - {slug})
                    ),
                    None,
                )
                if other:
                    best[slug] = dataclasses.replace(
                        link, rel=MENTIONS, confidence=0.4,
                        rule=f"{link.rule}; the recipe's loss is {self.display.get(other, other)}'s",
                    )  # fmt: skip
                    break

    def _pairwise_named(self, value: str) -> set[str]:
        """The preference methods a value names by one of their aliases (`nca_pair`, `simpo`)."""
        named = self.index.by_token.get(value.lower(), ())
        return {a.slug for a in named if a.kind != "setting"} & self.pairwise  # a setting's token is a key

    def _variants_spelled_as_parent(self, message: str, named: dict, best: dict) -> list[Link]:
        """A variant the subject alone names (GSPO-token, the REINFORCE++ baseline), in a change that
        adds its parent method's identifier in the framework's own code (`"gspo"`,
        `reinforce_plus_plus`): the framework spells the variant with its parent's name. The
        change implements the variant, and a SPELLS link keeps the identifier."""
        subject = message.split("\n", 1)[0]
        in_subject = [m for m in named.values() if m.start < len(subject)]
        if len(in_subject) != 1 or _UPKEEP.match(subject):
            return []
        variant = in_subject[0]
        parent = best.get(self.parent_of.get(variant.slug) or "")
        if (old := best.get(variant.slug)) and old.rel == IMPLEMENTS:
            return []
        if not parent or parent.rel != IMPLEMENTS or parent.source_kind != "diff":
            return []
        if parent.recipe or parent.vendored or parent.needs_signal:
            return []
        rule = (
            f"parent-spelling: the subject names {variant.text!r}; the change adds {parent.key}'s identifier"
        )
        evidence = dict(source_kind="diff", location=parent.location, identifier=parent.identifier,
                        rule=rule, confidence=0.7)  # fmt: skip
        best[variant.slug] = Link(IMPLEMENTS, "Method", variant.slug, **evidence)
        return [Link(SPELLS, "Method", variant.slug, **evidence)]

    def _documented_entries(
        self, scanned: list, best: dict, copy_of: Callable[[FileDiff], str]
    ) -> Iterator[Link]:
        """An option the change adds, whose entry in the documentation the change adds names one
        method (`- ``gspo``: ... implements the GSPO-token variant`, a bullet for a config key
        whose paragraph says it approximates Decoupled PPO): the option implements that method.
        A method named with its variant stands for the variant. Copied trees document the copy."""
        docs = [  # an entry's option is in code font
            f for f, (category, _) in scanned if category == "doc" and "`" in f.text and not copy_of(f)
        ]
        own: list | None = None  # the change's own files, read only for an entry that names a method
        for f in docs:
            for key, description, at in _doc_entries(f):
                if _TODO.search(description):
                    continue  # "currently gae; will support GRPO in the future": a plan
                found = self.matcher.find(_unlinked(description))
                named = {m.slug for m in found if m.rule.startswith("alias-")}
                slugs = named - {self.parent_of.get(slug) for slug in named}
                if len(slugs) != 1 or not _improves(best, slug := slugs.pop(), _DOCUMENTED_ENTRY):
                    continue
                if own is None:
                    own = [  # the code files, each lower-cased once for every entry
                        (g, g.text.lower()) for g, (category, _) in scanned
                        if category == "code" and not copy_of(g)
                    ]  # fmt: skip
                option = self._option_in_code(key, own, best)
                # Entries of common options name methods in passing ("`reset`: ... as in GRPO"):
                # the option must carry the method's name or a word describing it.
                if option is not None and any(self._related(option.identifier, s) for s in named):
                    name = next(m.text for m in found if m.slug == slug)
                    rule = f"doc-entry; {f.path}:{at} documents {option.identifier!r} as {name!r}"
                    yield dataclasses.replace(_DOCUMENTED_ENTRY, key=slug, location=option.location,
                                              identifier=option.identifier, rule=rule)  # fmt: skip

    def _related(self, identifier: str, slug: str) -> bool:
        """Whether an identifier carries a method's name or a word describing it, a stem of four
        letters or more begun by or beginning one of its own (`compute_prox_log_prob`, "proximal")."""
        stems = self.vocabulary.get(slug, frozenset())
        return _carries(identifier, self.words.get(slug, ())) or any(
            a.startswith(b) or b.startswith(a)
            for a in _stems(identifier)
            for b in stems
            if min(len(a), len(b)) >= 4
        )

    def _option_in_code(self, key: str, own: list, best: dict) -> Identifier | None:
        """Where the change's own code makes `key` (`algorithm.policy_loss_type`'s last part, or a
        value) usable: a link it already has for that identifier, or a user-facing identifier.
        `own`: the change's own code files, each with its text in lower case."""
        token = key.rsplit(".", 1)[-1].lower()
        for link in best.values():
            if link.rel == IMPLEMENTS and link.source_kind == "diff" and not (link.recipe or link.vendored):
                if link.identifier.lower().rsplit("=", 1)[-1] == token:
                    return Identifier(link.identifier, link.location, "linked")
        for f, lowered in own:
            if token in lowered:
                found = next(_identifiers(f, lambda ident: ident.lower().strip("-") == token), None)
                if found is not None:
                    return found
        return None

    def _learn_spellings(self, message: str, in_message: dict, scanned: list, best: dict) -> list[Link]:
        """Aliases this framework teaches: when the message names a method (by catalog name or, in
        the subject, its paper's arXiv id) and the same change adds a user-facing identifier in
        package code (an option value that selects behaviour, a CLI flag, a class, a config field),
        that identifier is the framework's spelling of the method when it either
        * carries the method's name (`use_dapo_loss`), wherever in the message the name is, or
        * is an option of several words that shares a word describing the method and no other
          (`off_policy_mask_threshold` for "Off-policy sequence masking"), when the subject, which
          says what the change is for, names the method.
        A change that names a broad method adds many values that are not its spelling (`train`,
        `cpu`, `length`), so a new value that neither carries nor describes it teaches nothing.
        The change then implements the method, and a SPELLS link keeps the identifier with its
        evidence."""
        subject = message.split("\n", 1)[0]
        # "REINFORCE" in a message is REINFORCE's own name: it teaches no spelling of REINFORCE++,
        # which lists the word among its aliases.
        anywhere = {slug: m.text for slug, m in in_message.items() if self.matcher.names_its_method(m)}
        for found in find_arxiv_ids(subject, bare=False):  # a pull request body cites too much
            for slug in self.slug_of_paper.get(found.arxiv_id, ()):
                anywhere.setdefault(slug, found.text)
        # Every method the subject names, learned or not: an identifier that describes two of them
        # spells neither.
        named_in_subject = {
            slug for slug in anywhere if (m := in_message.get(slug)) is None or m.start < len(subject)
        }
        # Learned only where the catalog's aliases found no implementation: it costs a tokenizer
        # run per candidate, and where they did, the identifier is already known (an alias that
        # needs a second signal has one in the message that names its method).
        anywhere = {
            slug: text
            for slug, text in anywhere.items()
            if not (
                (old := best.get(slug))
                and old.rel == IMPLEMENTS
                and (not old.needs_signal or slug in in_message)
            )
        }
        in_subject = {slug: text for slug, text in anywhere.items() if slug in named_in_subject}
        if len(in_subject) > 2:
            in_subject = {}
        if len(anywhere) > 3:
            anywhere = in_subject
        if not anywhere:
            return []
        quoted = self._quoted_beside(message, anywhere)
        quoted_names = frozenset().union(*quoted.values())
        words = tuple(sorted({w for slug in anywhere for w in self.words.get(slug, ())}))
        # A change that fixes, documents, tests or tidies adds no new spelling of what it names.
        describing = {} if _UPKEEP.match(subject) or len(named_in_subject) > 2 else in_subject
        stems = frozenset().union(*(self.vocabulary.get(slug, ()) for slug in describing))

        def worth(ident: str) -> bool:
            described = _carries(ident, words) or _describes(ident, stems) or ident in quoted_names
            return self._new(ident) and described

        candidates = [
            c
            for f, (category, _) in scanned
            if category == "code"
            and _names_any(f.text, (*words, *stems, *quoted_names))
            and _user_facing(f.path, scanned)
            for c in _identifiers(f, worth)
        ]
        spelled: list[Link] = []
        for slug, name in sorted(anywhere.items()):
            found = self._spelling(slug, candidates, describing, named_in_subject, quoted.get(slug, ()))
            if found is None:
                continue
            c, why = found
            evidence = dict(source_kind="diff", location=c.location, identifier=c.identifier,
                            confidence=0.7)  # fmt: skip
            where = "subject" if slug in in_subject else "message"
            rule = f"learned-alias: the {where} names {name!r}; {c.why} {why}"
            spelled.append(Link(SPELLS, "Method", slug, rule=rule, **evidence))
            old = best.get(slug)
            if old is None or old.rel != IMPLEMENTS or old.needs_signal:
                best[slug] = Link(IMPLEMENTS, "Method", slug, rule=rule, **evidence)
        return spelled

    def _spelling(
        self,
        slug: str,
        candidates: list[Identifier],
        describing: dict,
        rivals: Iterable[str],
        quoted: Collection[str] = (),
    ) -> tuple | None:
        """The identifier that spells `slug` among a change's candidates, and why; None if none.
        `describing`: the methods whose spelling the subject of a change that adds something may
        teach; `rivals`: every method the subject names; `quoted`: identifiers the message quotes
        beside the method's name (`_quoted_beside`)."""
        for c in candidates:
            if _carries(c.identifier, self.words.get(slug, ())):
                return c, "carries the method's name"
        for c in candidates:
            if c.identifier in quoted and c.why in _OPTION_KINDS:
                return c, "is quoted beside it in the message"
        if slug not in describing:
            return None
        shared = {
            other: [(len(common), c, common) for c in candidates if c.why in _DESCRIBING_KINDS
                    and (common := _describes(c.identifier, self.vocabulary.get(other, frozenset())))]
            for other in {slug, *rivals}
        }  # fmt: skip
        ranked = sorted(shared[slug], key=lambda item: -item[0])
        for count, c, common in ranked:
            if any(n >= count for other in shared if other != slug for n, oc, _ in shared[other] if oc == c):
                continue  # the identifier describes another method the subject names as well
            return c, f"shares {', '.join(sorted(common))} with the method's description"
        return None

    def _quoted_beside(self, message: str, named: Collection[str]) -> dict[str, set[str]]:
        """Identifiers a message quotes in a paragraph or list item that names one of the `named`
        methods and no other method, quotes a setting and compares nothing: there the message says
        how the option selects the method ("set `normalize_advantage` to `false` for Dr. GRPO"). A
        paragraph quoting options without a setting lists a method's configuration instead."""
        quoted: dict[str, set[str]] = {}
        if "`" not in message:
            return quoted
        for block in _MESSAGE_BLOCK.split(message):
            # The cheap tests first: most paragraphs of a long body quote no setting.
            if "`" not in block or not _QUOTED_SETTING.search(block) or _COMPARISON.search(block):
                continue
            names = [m for m in self.matcher.find(_unlinked(block)) if self.matcher.names_its_method(m)]
            slugs = {m.slug for m in names}
            slugs |= {
                slug for found in find_arxiv_ids(block) for slug in self.slug_of_paper.get(found.arxiv_id, ())
            }
            if len(slugs) != 1 or (slug := next(iter(slugs))) not in named:
                continue
            if any(_sets_for(block, m) for m in names):
                quoted.setdefault(slug, set()).update(_QUOTED_IDENTIFIER.findall(block))
        return quoted

    def _new(self, identifier: str) -> bool:
        """Whether an identifier could be learned at all (reading its place costs a tokenizer
        run): not already a catalog alias, and not a word every option uses."""
        token = identifier.lower().strip("-")
        return token not in self.known_tokens and token not in _DULL

    def _second_signals(
        self, message: str, best: dict, named: dict, plain: set, papers: dict, scanned: list
    ) -> list[Link]:
        """An IMPLEMENTS from an ambiguous or shared alias stands only with an independent signal
        in the same change: the method's arXiv id or paper title, the message naming the method,
        an unambiguous alias of it in package code or in the documentation the change adds.
        Otherwise it is a MENTIONS saying why. Returns a SPELLS link for each value that stands
        because the catalog says its package spells the method so."""
        spells = []
        lowered = message.lower()
        documented = None  # methods the added documentation names, read only when needed
        pairs = None  # whether the change works on preference pairs, read only when needed
        for slug, link in list(best.items()):
            if link.rel != IMPLEMENTS or not link.needs_signal:
                continue
            spelled = self._package_spelling(link, scanned)
            if spelled and spelled[1] != slug:
                package, owner = spelled
                whose = f"{package}'s value for {self.display.get(owner, owner)}"
                best[slug] = dataclasses.replace(
                    link, rel=MENTIONS, confidence=0.4, rule=f"{link.rule}; {link.needs_signal}, {whose}"
                )
                continue
            title = self.titles.get(slug)
            if slug in self.pairwise and pairs is None:
                pairs = _works_on_pairs(message, scanned)
            if spelled:
                signal = f"{spelled[0]}'s own value for it"
            elif slug in self.pairwise and not pairs:
                signal = ""  # `IPO` in a change with no chosen or rejected answer is another IPO
            elif self.paper_of.get(slug) in papers:
                signal = "arXiv id"
            elif title and title in lowered:
                signal = "paper title"
            elif slug in named:
                signal = "message names it"
            elif slug == self.own_name.method:
                signal = "the framework is named after it"
            elif slug in plain:
                signal = "unambiguous alias"
            elif any(
                m.slug == slug and m.rule.startswith("alias-") and m.text.lower() != link.identifier.lower()
                for m in self.matcher.find(link.context)
            ):
                signal = "named beside it"  # `== "tis":  # truncated importance sampling`, not itself
            elif link.rule.split(";")[0] in _SELECTING_VALUES and self._keyed_by_its_change(slug, link):
                signal = "a value of an option for what the method changes"
            elif (documented := self._documented(scanned) if documented is None else documented).get(
                slug, set()
            ) - ({link.identifier.lower()} if _DOUBTS_THE_WORD.search(link.needs_signal) else set()):
                # "OPD (On-Policy Distillation)"; where the word itself is in doubt, the same word again
                # (`RewardConfig` in the docs of a change adding a `RewardConfig`) is no second signal
                signal = "the change's documentation names it"
            elif self._owns_shared_value(slug, link):
                signal = "a value another method shares, and this method's own name"
            else:
                signal = ""
            if not signal:
                unpaired = (
                    " (and no preference pairs in the change)" if slug in self.pairwise and not pairs else ""
                )
                best[slug] = dataclasses.replace(
                    link, rel=MENTIONS, confidence=0.4,
                    rule=f"{link.rule}; {link.needs_signal} without a second signal{unpaired}",
                )  # fmt: skip
                continue
            best[slug] = dataclasses.replace(link, rule=f"{link.rule}; {link.needs_signal}, {signal}")
            if spelled:
                spells.append(dataclasses.replace(best[slug], rel=SPELLS))
        return spells

    def _package_spelling(self, link: Link, scanned: list) -> tuple[str, str] | None:
        """The package whose value the link is, with the method the catalog says it spells by it:
        code under a folder of that name (`openrlhf/`, a copy's `build/lib/openrlhf/`), or a
        launcher that runs one of its modules (`python -m openrlhf.cli.train_ppo_ray`)."""
        value = link.identifier.lower()
        spelling = {p: owners[value] for p, owners in self.package_spellings.items() if value in owners}
        if not spelling:
            return None
        path = link.location.rpartition(":")[0]
        for package in path.lower().split("/")[:-1]:
            if package in spelling:
                return package, spelling[package]
        text = next((f.text for f, _ in scanned if f.path == path), "")
        for package, owner in spelling.items():
            if re.search(rf"(?<![\w./-]){package}\.[a-z_]", text):
                return package, owner
        return None

    def _keyed_by_its_change(self, slug: str, link: Link) -> bool:
        """Whether an ambiguous value is given to an option named for the part of training its
        method changes (`group_norm` for `advantage_estimator`: GRPO changes the advantage), which
        the value's other meanings (a normalisation layer) never are. A value that is another
        method's own name (`reinforce`) is that method's, whatever the option."""
        keys = self.change_keys.get(slug)
        if keys is None or self.matcher.owner_of_shared.get(link.identifier.lower(), slug) != slug:
            return False
        *above, line = link.context.rstrip("\n").split("\n")
        if keys.search(_QUOTED.sub(" ", line).replace(link.identifier, " ")):  # the key, not a value
            return True
        # `choices=[...]` under `add_argument("--advantage_estimator", ...)`
        return "choices" in line and any(
            keys.search(flag) for text in above for flag in _FLAG_NAME.findall(text)
        )

    def _owns_shared_value(self, slug: str, link: Link) -> bool:
        """Whether an option value that two catalog methods share (`"reinforce"`: REINFORCE's own
        name, an alias of REINFORCE++) selects the method whose own name it is. Where it selects
        behaviour it names that method whether or not the change also names the other one; the
        other still needs its own signal."""
        owner = self.matcher.owner_of_shared.get(link.identifier.lower())
        return owner == slug and link.rule.split(";")[0] in _SELECTING_VALUES

    def _documented(self, scanned: list) -> dict[str, set[str]]:
        """Methods that the documentation a change adds names by an unambiguous spelling, with the
        spellings (lower case)."""
        added = "\n".join(
            line[1:] for f, (category, _) in scanned if category == "doc"
            for line in f.text.splitlines() if line.startswith("+")
        )  # fmt: skip
        spellings: dict[str, set[str]] = defaultdict(set)
        for m in self.matcher.find(added):
            if m.rule.startswith("alias-"):
                spellings[m.slug].add(m.text.lower())
        return spellings

    def _hits(
        self, files: list[FileDiff]
    ) -> tuple[list[list[CodeHit]], dict[int, list[tuple[int, str]]], set[int]]:
        """Alias hits per file (offsets into its hunk text); where files may cite a paper, by a
        link or by its title (file index -> offsets and what was found); and the files that may
        name a method in words joined as an identifier: one pass over the whole commit for each
        kind of word, since a call costs more than most files' text."""
        joined = "\n".join(f.text for f in files)
        data = utf8(joined)  # encoded once for both scans
        starts = list(itertools.accumulate((len(f.text) + 1 for f in files), initial=0))
        per_file: list[list[CodeHit]] = [[] for _ in files]
        for hit in self.index.scan(joined, data):
            i = bisect.bisect_right(starts, hit.start) - 1
            per_file[i].append(CodeHit(hit.alias, hit.start - starts[i], hit.end - starts[i]))
        hints: dict[int, list[tuple[int, str]]] = {}
        compound: set[int] = set()
        for at, _, word in self.citing.find(joined, data):
            i = bisect.bisect_right(starts, at) - 1
            if word in self._compound_words:
                compound.add(i)
            if word in self._citing_words:
                hints.setdefault(i, []).append((at - starts[i], word))
        return per_file, hints, compound

    def _link_file(
        self,
        f: FileDiff,
        category: str,
        comments: bool,
        hits: list[CodeHit],
        best: dict,
        code_words: dict,
        plain: set,
        vendored: str = "",
        scanned: list = (),
        cited: list[Link] = (),
        compound: bool = False,
    ) -> None:
        recipe = category == "example" or _RECIPE.search(f.path) is not None
        if category == "example" and not _RUNNABLE.search(f.path):
            recipe = False
        mark = functools.partial(_mark, recipe=recipe, vendored=vendored)
        copy_of = "" if vendored else self._config_copy_of(f.path)
        reached = stub = None  # for a new file: whether the change reaches it, whether it only
        # holds stubs; each read once, when needed
        if f.status == "A" and category == "code" and f.added:  # an empty file implements nothing
            for alias in self.index.path_hits(f.path):
                doubt = self._doubt(alias)
                if doubt and not _module_named(f.path, alias.token):
                    continue  # `prime_metrics.py`, `opd.toml`: the word may mean something else
                link = Link(
                    IMPLEMENTS,
                    "Method",
                    alias.slug,
                    "diff",
                    f"{f.path}:1",
                    alias.alias,
                    "new-file",
                    0.9,
                    doubt,
                )
                if alias.kind != "path" and not (
                    reached := _reached(f, scanned) if reached is None else reached
                ):
                    link = dataclasses.replace(
                        link, rel=MENTIONS, confidence=0.5, needs_signal="", rule=_UNREACHED
                    )
                elif stub := (_new_stub(f) if stub is None else stub):
                    link = dataclasses.replace(
                        link, rel=MENTIONS, confidence=0.5, needs_signal="", rule=_STUB
                    )
                _keep(best, _mark(link, recipe=recipe, vendored=copy_of or vendored))
        python = category == "code" and _PYTHON.search(f.path) is not None
        if python and "import" in f.text:
            for link in self._wiring(f, scanned):
                _keep(best, mark(link))
        if python and compound:  # a name in joined words
            for link in self._named_definitions(f, scanned):
                _keep(best, mark(link))
        text = f.text
        blocks = AddedBlocks(text) if python and hits else None
        settled: set[str] = set()  # methods nothing later in this file can improve
        # Prose in package code naming or citing a method: the documentation of a new option?
        own = not (recipe or vendored or copy_of)  # this framework's own package code
        documenting = list(cited) if category == "code" and own else []
        for hit in hits:
            alias = hit.alias
            if alias.slug in settled:
                continue
            line_start, line = _line_at(text, hit.start)
            if not line.startswith("+"):
                continue
            line = line[1:]  # the added text, without the diff's `+`
            s, e = hit.start - line_start - 1, hit.end - line_start - 1
            ambiguous = self.index.is_ambiguous(alias)
            unreached = False
            verdict = _recipe_verdict(alias, line, s, e, f.path) if recipe and category == "example" else None
            if verdict is not None:
                rule, confidence = verdict
                rel = IMPLEMENTS
            elif category != "code":
                if alias.kind in ("class", "identifier") or (not ambiguous and alias.kind != "setting"):
                    settled.add(alias.slug)
                    rule, confidence, rel = f"{category}-mention", 0.5, MENTIONS
                else:
                    continue
            elif (comments and _in_comment(line, s)) or _inside_link(line, s):
                if ambiguous:
                    continue
                # A plan (`# TODO: rn either reinforce or grpo`) documents no option.
                rule = "todo" if _TODO.search(line[:s]) else "code-comment"
                confidence, rel = 0.5, MENTIONS
            elif (
                prose := _prose_rule(alias, line, s, place := python and blocks.place(hit.start, s, e))
            ) is not None:
                if ambiguous:
                    if prose in _DOC_PROSE and category == "code" and own:
                        where = f"{f.path}:{_line_number(text, line_start)}"
                        documenting += self._display_name_doc(alias, where, line[s:e], prose)
                    continue
                rule, confidence, rel = prose, 0.4 if prose == "string-literal" else 0.5, MENTIONS
            else:
                if place and place.why and alias.kind in ("word", "identifier"):
                    # `{"dapo": loss}` in a registry, `"--dapo"` in a parser: the literal selects
                    verdict = ("option-flag" if place.why == "flag" else "option-value", 0.85)
                else:
                    verdict = _judge_code_hit(alias, line, s, e, f.path, ambiguous)
                if verdict is None and self.index.owns_key(alias) and not alias.bool_setting:
                    # A key only this method's settings use, its value passed on from elsewhere
                    # (`importance_sampling_level=self.importance_sampling_level`): says nothing on
                    # its own, and implements the method where the subject names it.
                    where = f"{f.path}:{_line_number(text, line_start)}"
                    code_words.setdefault(alias.slug, Link(MENTIONS, "Method", alias.slug, "diff", where,
                                                           line[s:e], "setting-key", 0.4))  # fmt: skip
                    continue
                if verdict is None:
                    continue
                rule, confidence = verdict
                if rule == "setting" and alias.slug in self._variants_named(f.path):
                    continue  # `loss_type == "sigmoid"` in `simpo_trainer.py` is SimPO's own sigmoid
                if rule == "class-use" and (
                    _only_imported(alias.alias, line, text)
                    or self._only_a_base(alias, f.text)
                    or _from_missing_module(alias.alias, f, scanned)
                ):
                    continue  # only imported; `class SimPOConfig(DPOConfig)`, SimPO's; or not there at all
                rel = IMPLEMENTS
                if rule == "class-def" and f.status == "A" and not vendored:
                    reached = _reached(f, scanned) if reached is None else reached
                    unreached = not reached
                if not unreached and not self._doubt(alias, text):
                    plain.add(alias.slug)
                if confidence == 0.0:
                    # A bare word outranks a setting's key kept for the same method: the word needs
                    # the message to name the method anywhere, the key only in the subject.
                    kept = code_words.get(alias.slug)
                    if rule != "code-word" or ambiguous or (kept is not None and kept.rule == "code-word"):
                        continue
                    rel, confidence = MENTIONS, 0.4
            doubt = self._doubt(alias, text) if rel == IMPLEMENTS else ""
            if rel == IMPLEMENTS and unreached:
                doubt = doubt or _UNREACHED_CLASS  # a class nothing reaches yet, unless the change says why
            around = text[_lines_back(text, line_start, 3) : line_start + len(line) + 1] if doubt else ""
            link = mark(Link(rel, "Method", alias.slug, "diff", f"{f.path}:{_line_number(text, line_start)}",
                             line[s:e] if alias.kind != "setting" else alias.alias, rule, confidence, doubt,
                             around))  # fmt: skip
            if copy_of and rel == IMPLEMENTS and not _turns_on(alias, rule, line[e:]):
                link = _mark(link, recipe=False, vendored=copy_of)  # an option of the copy, left as it was
            if rule in _DOC_PROSE and category == "code" and own and self._names(alias):
                documenting.append(link)
            if not _improves(best, alias.slug, link):
                continue
            if rule == "code-word":
                code_words[alias.slug] = link
            best[alias.slug] = link
            if rel == IMPLEMENTS and confidence >= 0.95 and not doubt and not recipe and not vendored:
                settled.add(alias.slug)

        # Only where an option could still improve what this change already shows of the method.
        documenting = [link for link in documenting if _improves(best, link.key, _DOCUMENTED_OPTION)]
        if documenting:
            for link in self._documented_options(f, documenting, scanned):
                _keep(best, link)

    def _reached_definition(self, slug: str, scanned: list) -> tuple[str, str] | None:
        """(path:line, name) of a function or class the change adds in package code whose name
        carries the method's name (`compute_advantages_grpo`, `grpo_loss`) and that another added
        line calls or imports: with a message naming the method, the change implements it."""
        words = self.words.get(slug, ())
        for f, (category, _) in scanned:
            if category != "code" or not _PYTHON.search(f.path) or not _user_facing(f.path, scanned):
                continue
            for m in _DEFINITION.finditer(f.text):
                name = m.group(2)
                if (
                    _carries(name, words)
                    and not self._names_another(name, slug)
                    and _called_elsewhere(name, scanned)
                ):
                    return f"{f.path}:{_line_number(f.text, m.start(2))}", name
        return None

    def _names_another(self, identifier: str, slug: str) -> bool:
        """Whether an identifier carries another method's name that holds this one's
        (`compute_pf_ppo_reweight_data` is PF-PPO's, not PPO's)."""
        longer = self.longer_names.get(slug, ())
        return bool(longer) and _carries(identifier, longer)

    def _named_definitions(self, f: FileDiff, scanned: list) -> Iterator[Link]:
        """A function or class the change adds whose name carries a method's name of several words
        (`compute_decoupled_ppo_actor_loss`) implements it when the change also reaches it: a
        decorator registers it, or another added line calls, imports or dispatches to it. A
        definition nothing reaches is a helper no user runs yet."""
        for m in _DEFINITION.finditer(f.text):
            name = m.group(2)
            found = self._compound_parts.search(_flat(name))
            if found is None:
                continue
            if not (_REGISTERED.search(m.group(1) or "") or _called_elsewhere(name, scanned)):
                continue
            where = f"{f.path}:{_line_number(f.text, m.start(2))}"
            for slug in self.compound[found.group(0).strip("_")]:
                yield Link(IMPLEMENTS, "Method", slug, "diff", where, name, "named-definition", 0.8)

    def _documented_options(self, f: FileDiff, documenting: list[Link], scanned: list) -> Iterator[Link]:
        """A new option whose own documentation names or cites a method implements it: its help
        text, its docstring or the comment just above it, or the entry that a docstring's list of
        arguments gives it (`mask_truncated_completions` documented as DAPO's overlong filtering).
        An entry for a function's parameter documents the option of the same name that another
        file of the change adds (a config field passed on to the loss). Prose elsewhere in the
        file stays a mention."""
        lines = _added_lines(f.text)
        entries = {}  # documenting link -> the words of the lines that may hold its option's entry
        own_entry = {}  # documenting link -> the argument entry it is part of
        around: set[int] = set()  # the lines around every documenting prose, entries included
        for link in documenting:
            at = _line_of(link.location)
            if _ATTRIBUTE_DOCSTRING.match(lines.get(at, "")) and at - 1 not in lines:
                continue  # a docstring under an unchanged line documents that line's older attribute
            window = [lines.get(n, "") for n in range(at - _DOC_AFTER, at + 1)]
            heads = [m.group(1) for line in window if (m := _ENTRY_HEAD.match(line))]
            if heads:
                own_entry[link] = heads[-1]  # the entry nearest above the prose
            shaped = {w for w in _OPTION_WORD.findall(" ".join(window)) if _IDENTIFIER_SHAPED.search(w)}
            entries[link] = set(heads) | shaped
            around.update(range(at - _DOC_AFTER, at + _DOC_BEFORE + 1))
        # Only words on the lines around the prose can be the option it documents: reading the
        # place of every other literal in the file would cost a tokenizer run each.
        words = set(_OPTION_WORD.findall(" ".join(lines.get(n, "") for n in around)))
        options = [
            (_line_of(c.location), c)
            for c in _identifiers(
                f, lambda ident: ident in words and self._new(ident), literals=False, near=words
            )
            if c.why in _OPTION_KINDS
        ]
        for link, entry in entries.items():
            at = _line_of(link.location)
            # A constructor's parameter is documented by its own line's comment only, and a class's
            # docstring documents no field for being near it ("The arguments for the DPO training
            # script"): it names the class's method, and only an option it names is documented.
            by_place = not _in_class_docstring(lines, at)
            near = [
                ((0, abs(at - n)), c)
                for n, c in options
                if by_place and -_DOC_BEFORE <= at - n <= _DOC_AFTER and (c.why != "init-param" or n == at)
            ]
            # An entry that names the option says more than being near it; the nearest entry first.
            near += [
                ((-1, abs(at - n)), c) for n, c in options if c.identifier in entry and c.why != "init-param"
            ]
            c = min(near, key=lambda item: item[0])[1] if near else None
            if c is None and link in own_entry and _PYTHON.search(f.path) and self._new(own_entry[link]):
                c = _option_elsewhere(own_entry[link], f, scanned)
            if c is not None and link.needs_signal and not _carries(c.identifier, (link.identifier.lower(),)):
                c = None  # an ambiguous name (`REINFORCE`) documents only an option that carries it
            if c is not None and self._may_set(c.identifier, link.key):
                yield dataclasses.replace(
                    link, rel=IMPLEMENTS, confidence=_DOCUMENTED_OPTION.confidence, identifier=c.identifier,
                    location=c.location, needs_signal="",
                    rule=f"option-doc; the {c.why} {c.identifier!r} is documented as {link.identifier!r}",
                )  # fmt: skip

    def _may_set(self, option: str, slug: str) -> bool:
        """Whether an option may be what documentation citing `slug` documents: one whose name says
        it sets a KL, entropy or clipping term (`reward_minus_kl_coef`, `epsilon`) documents only a
        method whose defining change is about that term: prose citing RLOO, an advantage baseline,
        beside a KL coefficient cites a detail of the paper."""
        detail = self.detail_of.get(slug, "")
        if not detail:
            return True  # a method the catalog does not describe: nothing to check against
        quantities = {
            "clip" if q.startswith(("clip", "eps")) else q for q in _QUANTITY.findall(option.lower())
        }
        return all(any(word in detail for word in _QUANTITY_WORDS[q]) for q in quantities)

    @functools.lru_cache(maxsize=1 << 14)  # noqa: B019 - one linker per process; paths recur
    def _variants_named(self, path: str) -> frozenset[str]:
        """The methods a file's path names a variant of (`simpo_trainer.py`: SimPO's ancestors CPO
        and DPO): a setting of theirs in that file is the variant's own option value."""
        return frozenset().union(*(self.ancestors[a.slug] for a in self._module_aliases(path)))

    def _only_a_base(self, alias: CodeAlias, text: str) -> bool:
        """Whether a file's added lines use a method's class only to import it and to build a
        variant's class on it (`class SimPOTrainer(DPOTrainer)`): then the file offers the variant,
        not the method the base is named after."""
        if f"({alias.alias}" not in text and f", {alias.alias}" not in text:
            return False  # no class built on it: the common case, settled without a pattern
        if not re.search(rf"^\+\s*class\s+\w+\s*\([^\n]*\b{re.escape(alias.alias)}\b", text, re.M):
            return False
        uses = [line for line in _added_lines(text).values() if alias.alias in line]
        bases = [line for line in uses if alias.slug in self._variant_class(line)]
        return bool(bases) and all(line in bases or _IMPORTED_NAME.match(line) for line in uses)

    def _variant_class(self, line: str) -> frozenset[str]:
        """The ancestors of the method a class defined on this line is named after, when its bases
        are on the line (`class SimPOConfig(DPOConfig)`: CPO and DPO); else nothing."""
        m = _CLASS_WITH_BASES.match(line)
        if m is None:
            return frozenset()
        name = m.group(1).lower()
        named = [
            (len(w), slug)
            for slug, words in self.words.items()
            for w in words
            if name.startswith(w.replace("_", ""))
        ]
        return self.ancestors[max(named)[1]] if named else frozenset()

    @functools.lru_cache(maxsize=1 << 14)  # noqa: B019 - one linker per process; modules recur
    def _module_aliases(self, path: str) -> tuple[CodeAlias, ...]:
        return tuple(self.index.path_hits(path))

    def _copies(self, files: list[FileDiff]) -> Callable[[FileDiff], str]:
        """For one change: the other framework a file of it is a copy of, or runs as part of the
        copy the change brings, or ''. Examples and launchers arrive with the copy they run; a
        launcher of a copy added on its own is the wrapper's: its users run it."""
        imported = self._imported_repositories(files) | _transplanted_packages(files)
        inside = {
            f.path: src for f in files if (src := self._copied_from(f.path) or _inside_import(f, imported))
        }
        arriving = {src for f in files if f.status == "A" and (src := inside.get(f.path))} | set(
            imported.values()
        )
        modules = _copied_modules(files, inside) if arriving else {}
        roots: dict[str, str] | None = None  # read only for a launcher of an arriving copy

        def copy_of(f: FileDiff) -> str:
            nonlocal roots
            if found := inside.get(f.path) or modules.get(f.path):
                return found
            if (launched := self._runs_other(f)) not in arriving:
                return ""
            roots = self._copy_roots(files) if roots is None else roots
            # A launcher outside the folder a whole copied repository arrives in is the wrapper's.
            return launched if f.path.startswith(roots.get(launched, "")) else ""

        return copy_of

    def _copy_roots(self, files: list[FileDiff]) -> dict[str, str]:
        """Another framework's repository copied whole into a folder of this one (`verl/setup.py`
        beside `verl/verl/`): that framework -> the folder, ending in '/'. A fork, whose copied
        package sits at the top, has no such folder: everything it brings is the copy's."""
        roots: dict[str, str] = {}
        projects = {m.group(1) for f in files if f.status == "A" and (m := _PROJECT_FILE.match(f.path))}
        for f in files:
            parts = f.path.split("/")
            if (
                f.status == "A"
                and len(parts) > 2
                and parts[0] in projects
                and parts[1].lower() in self.foreign
            ):
                roots.setdefault(parts[1].lower(), parts[0] + "/")
        return roots

    def _runs_other(self, f: FileDiff) -> str:
        """The other framework whose package a runnable script or config launches
        (`python -m otherfw.trainer.main ...`), or '': what it sets, that package implements."""
        if not self.foreign or not _RECIPE_CONFIG.search(f.path):
            return ""
        return next(
            (m.group(1).lower() for m in _LAUNCH.finditer(f.text) if m.group(1).lower() in self.foreign), ""
        )

    def _config_copy_of(self, path: str) -> str:
        """The other framework whose config `path` repeats, or '': a wrapper keeps its own copy of
        the config of the framework it runs (`mypkg/trainer/config/ppo.yaml` beside a copied
        `verl/trainer/config/ppo.yaml`), with that framework's options and defaults. The options
        it leaves as they were are that framework's; a value it turns on is its own choice."""
        if not self.config_copies:
            return ""
        return next((p for tail in _config_tails(path) if (p := self.config_copies.get(tail))), "")

    def _copied_from(self, path: str) -> str:
        """The other framework whose package tree holds `path` (a vendored copy), or ''."""
        if not self.foreign:
            return ""
        for part in path.lower().split("/")[:-1]:
            if part in self.foreign:
                return part
        return ""

    def _imported_repositories(self, files: list[FileDiff]) -> dict[str, str]:
        """Folders into which this change copies another framework's whole repository (folder ->
        that framework's package): it adds a repository's packaging (`setup.py`, `pyproject.toml`)
        and that framework's package (`verl/__init__.py`) and no package of its own beside them,
        so its recipes, examples and scripts there are the copy's too."""
        if not self.foreign:
            return {}
        packages: dict[str, set[str]] = {}  # folder -> packages the change adds directly in it
        packaged: set[str] = set()  # folders the change adds a repository's packaging to
        for f in files:
            if f.status != "A":
                continue
            if m := _PACKAGE_INIT.search(f.path):
                folder = _SRC_FOLDER.sub("", m.group(1))  # a `src/` layout's packages are its folder's
                packages.setdefault(folder, set()).add(m.group(2).lower())
            elif m := _PACKAGING.search(f.path):
                packaged.add(m.group(1))
        out = {}
        for folder, names in packages.items():
            if folder not in packaged:
                continue
            foreign = names & self.foreign
            if len(foreign) == 1 and all(_TEST.search(n + "/") for n in names - foreign):
                out[folder] = foreign.pop()
        return out

    def _named_recipes(self, scanned: list, copy_of: Callable[[FileDiff], str]) -> dict[str, Link]:
        """Methods a new runnable recipe config is named after (`gsm8k_reinforce_baseline.yaml`).
        It runs the method when the change also says so (a second signal); alone, the name may
        be a dataset's or the method's family."""
        found: dict[str, Link] = {}
        for f, (category, _) in scanned:
            if f.status != "A" or not _RECIPE_CONFIG.search(f.path):
                continue
            if category != "example" and not _RECIPE.search(f.path):
                continue
            vendored = copy_of(f)
            for alias in self.index.path_hits(f.path):
                if alias.kind != "path" and alias.slug not in found:
                    link = Link(IMPLEMENTS, "Method", alias.slug, "diff", f"{f.path}:1", alias.alias,
                                "recipe-file", 0.6, "a recipe named after it")  # fmt: skip
                    found[alias.slug] = _mark(link, recipe=True, vendored=vendored)
        return found

    def _computations(self, message: str, scanned: list, best: dict) -> Iterator[Link]:
        """A method the change computes: an added line of the framework's own package code doing
        what defines it (a Bradley-Terry pairwise loss), in a change whose message or paths say
        what it is for (a reward model). Frameworks name such code their own way, if at all."""
        code = None  # package code, and an example's program (a recipe that trains with it)
        said = "\n".join((message, *(f.path for f, _ in scanned)))  # one search, not one a path
        in_context = self.computation_contexts.matching(said)
        for number, (slug, computes) in enumerate(self.computations.items()):
            if (old := best.get(slug)) and old.rel == IMPLEMENTS or number not in in_context:
                continue
            if code is None:
                code = [
                    (f, category == "example", self.computation_screens.may_match(f.text))
                    for f, (category, _) in scanned
                    if (category == "code" or category == "example" and _PYTHON.search(f.path))
                    and not self._copied_from(f.path)
                ]  # fmt: skip
            computed = (
                (c, recipe) for f, recipe, may in code
                if number in may and (c := _computing_line(f, computes))
            )  # fmt: skip
            found = next(computed, None)
            if found:
                (where, text), recipe = found
                link = Link(IMPLEMENTS, "Method", slug, "diff", where, text[:80], "computation", 0.75)
                yield _mark(link, recipe=recipe, vendored="")

    def _wiring(self, f: FileDiff, scanned: list) -> Iterator[Link]:
        """An added import of a module named after a method (`from .dapo_loss import ...`):
        the change wires that module into code users run."""
        for m in _imports(f.text):
            module = (m.group(1) or m.group(2)).strip(".")
            if not module or module.split(".")[0].lower() in self.foreign:
                continue  # another framework's module (`from trl.trainer.grpo_trainer import ...`)
            if _missing_from_new_package(f, m.group(1) or "", scanned):
                continue
            path = module.replace(".", "/") + ".py"
            for alias in self._module_aliases(path):
                doubt = self._doubt(alias)
                if alias.kind == "path" or (doubt and not _module_named(path, alias.token)):
                    continue
                where = f"{f.path}:{_line_number(f.text, m.start())}"
                yield Link(IMPLEMENTS, "Method", alias.slug, "diff", where, module, "wiring", 0.8, doubt)

    def _display_name_doc(self, alias: CodeAlias, where: str, found: str, prose: str) -> list[Link]:
        """An ambiguous name written as the method's own display name in prose (`REINFORCE`, not
        the verb): it may document an option that carries the word, and nothing else (its doubt
        kept as `needs_signal`, which `_documented_options` reads)."""
        if found != self.display.get(alias.slug):
            return []
        return [Link(MENTIONS, "Method", alias.slug, "diff", where, found, prose, 0.5, self._doubt(alias))]

    def _names(self, alias: CodeAlias) -> bool:
        """Whether prose holding the alias names its method: a setting's key alone does not
        (`loss_type` says nothing of the value), nor an ambiguous or shared alias."""
        return alias.kind != "setting" and not self._doubt(alias)

    def _doubt(self, alias: CodeAlias, text: str = "") -> str:
        """Why an alias alone does not establish the method: '' when it does. `text`: the diff of
        the file the alias was found in, where known."""
        if self.index.is_ambiguous(alias):
            return f"ambiguous alias {alias.alias!r}"
        others = self.index.sharing(alias)
        if others:
            return f"{alias.alias!r} also names {', '.join(others)}"
        if self.index.is_generic(alias) and not self._builds_on_framework(text):
            return f"{alias.alias!r} names a role any framework may define"
        return ""

    def _builds_on_framework(self, text: str) -> bool:
        """Whether a file's added lines import another catalog framework's package: a role class
        there is that framework's (`from trl import RewardTrainer`), the method the catalog means."""
        return any((m.group(1) or m.group(2)).split(".")[0].lower() in self.foreign for m in _imports(text))

    def _citations(self, f: FileDiff, found: list[tuple[int, str]], papers: dict) -> list[Link]:
        """Methods a file's added lines cite, by arXiv link or paper title, each where it is cited
        (mentions, until a new option turns out to be what cites them); the arXiv links are also
        Paper mentions."""
        out: list[Link] = []
        seen = set()
        for at, word in found:
            line_start, line = _line_at(f.text, at)
            if not line.startswith("+"):
                continue
            where = f"{f.path}:{_line_number(f.text, line_start)}"
            if word in self.slugs_of_title:
                out += [Link(MENTIONS, "Method", slug, "diff", where, word, "paper-title", 0.5)
                        for slug in self.slugs_of_title[word]]  # fmt: skip
                continue
            if word in self.slugs_of_phrase:
                out += [Link(MENTIONS, "Method", slug, "diff", where, word, "name-in-prose", 0.5)
                        for slug in self.slugs_of_phrase[word]]  # fmt: skip
                continue
            if line_start in seen:
                continue
            seen.add(line_start)
            for a in find_arxiv_ids(line, bare=False):
                papers.setdefault(
                    a.arxiv_id, Link(MENTIONS, "Paper", a.arxiv_id, "diff", where, a.text, a.rule, 0.9)
                )
                slugs = [slug for slug in self.slug_of_paper.get(a.arxiv_id, ()) if slug not in self.reported]
                out += [
                    Link(MENTIONS, "Method", slug, "diff", where, a.text, "paper-link", 0.5) for slug in slugs
                ]
        return out


_PAPER_HINT_WORDS = ("arxiv", "huggingface.co/papers", "alphaxiv")
_PAPER_HINTS = LiteralScanner(_PAPER_HINT_WORDS)


# An added definition, with the added decorator line just above it if there is one.
_DEFINITION = Prefiltered(
    re.compile(r"^(?:\+\s*(@[^\n]*)\n)?\+[ \t]*(?:async[ \t]+)?(?:def|class)[ \t]+([A-Za-z_]\w{5,80})", re.M)
)
_REGISTERED = re.compile(r"regist", re.I)


def _called_elsewhere(name: str, scanned: list) -> bool:
    """Whether an added line of the change other than the definition uses `name`."""
    pattern = re.compile(rf"^\+(?![ \t]*(?:async[ \t]+)?(?:def|class)[ \t]+{name}\b).*\b{name}\b", re.M)
    return any(name in f.text and pattern.search(f.text) for f, _ in scanned)


_PAIRS = Prefiltered(re.compile(r"chosen|rejected|prefer|pairwise|dpo", re.IGNORECASE))


def _works_on_pairs(message: str, scanned: list) -> bool:
    """Whether a change speaks of preference pairs anywhere: its message, a path or added text."""
    texts = (message, *(t for f, _ in scanned for t in (f.path, f.text)))
    return any(_PAIRS.search(text) for text in texts)


def _computing_line(f: FileDiff, computes: Prefiltered) -> tuple[str, str] | None:
    """(path:line, text) of the first added line of `f` that computes, outside a comment; a
    pattern with a group named `what` quotes only that group (the rest is the line's context)."""
    comments = _HASH_COMMENT.search(f.path) is not None
    named = "what" in computes.groupindex  # the part to quote, when the pattern has context
    for m in computes.finditer(f.text):
        start = m.start("what") if named else m.start()
        line_start, line = _line_at(f.text, start)
        if line.startswith("+") and not (comments and _in_comment(line, start - line_start)):
            quoted = _DIFF_LINE_BREAK.sub(" ", m.group("what" if named else 0))
            return f"{f.path}:{_line_number(f.text, line_start)}", quoted
    return None


_PRIVATE = re.compile(r"(?:^|/)_(?!_)\w*/")  # a folder of a private package (`_lite/`)


def _new_stub(f: FileDiff) -> bool:
    """Whether a new Python module only holds stubs (`python_code.is_stub`). Stubs are short: a
    longer module is not parsed to find out (most new modules under a method's folder are long)."""
    if not _PYTHON.search(f.path) or f.added > _STUB_LINES:
        return False
    return is_stub("\n".join(_added_lines(f.text).values()))


def _reached(f: FileDiff, scanned: list) -> bool:
    """Whether users can reach a new module in the change that adds it: it is a package's
    `__init__`, runs or registers itself, or another file of the change names it (an import, a
    config, a registry); inside a private package, only an import from outside its folder does.
    Configs and scripts are run as they are; only Python modules need it. A catalog path
    (`recipe/prime`) is the method's own folder and needs nothing more."""
    if not _PYTHON.search(f.path):
        return True
    if _PRIVATE.search(f.path):
        return _user_facing(f.path, scanned)
    stem = f.path.rsplit("/", 1)[-1].rsplit(".", 1)[0]
    if stem == "__init__" or _ENTRY.search(f.text):
        return True
    return any(stem in other.text for other, _ in scanned if other.path != f.path)


def _user_facing(path: str, scanned: list) -> bool:
    """Whether what a module defines can be something users run: anything outside a private
    package; inside one (`xtuner/_lite/algorithms/ppo/loss.py`), only a module whose folder's
    package an added import outside that folder names."""
    if not _PRIVATE.search(path):
        return True
    folder = path.rsplit("/", 1)[0]
    package = re.escape(folder.rsplit("/", 1)[-1])
    imports = re.compile(rf"^\+\s*(?:from|import)\s+[\w.]*\b{package}\b", re.MULTILINE)
    return any(imports.search(g.text) for g, _ in scanned if not g.path.startswith(folder + "/"))


def _missing_from_new_package(f: FileDiff, imported: str, scanned: list) -> bool:
    """Whether a new package's `__init__.py` imports a module of its own (`from .dpo_trainer
    import ...`) that the change does not add: a package that is new has no other modules, so
    the import names code that is not there (left over from the project it was cut from)."""
    if f.status != "A" or not f.path.endswith("/__init__.py") or not re.match(r"\.\w", imported):
        return False  # only `.module`: a parent package's modules may be older
    target = f.path.rsplit("/", 1)[0] + "/" + imported[1:].replace(".", "/")
    return not {f"{target}.py", f"{target}/__init__.py"} & {g.path for g, _ in scanned if g.status != "D"}


def _from_missing_module(name: str, f: FileDiff, scanned: list) -> bool:
    """Whether a new package's `__init__.py` imports `name` from a module the package lacks: what
    it exports under that name (`__all__`) is not there either."""
    if f.status != "A" or not f.path.endswith("/__init__.py"):
        return False
    return any(
        name in _line_at(f.text, m.start())[1] and _missing_from_new_package(f, m.group(1) or "", scanned)
        for m in _imports(f.text)
    )


def _lines_back(text: str, start: int, n: int) -> int:
    """Where the line `n` lines above the one starting at `start` starts (an option's key sits a
    line or two above its `choices` in an `add_argument` call)."""
    for _ in range(n):
        if start <= 0:
            break
        start = text.rfind("\n", 0, start - 1) + 1
    return start


def _transplanted_packages(files: list[FileDiff]) -> dict[str, str]:
    """Packages this change copies into a package of this repository, which still import
    themselves as top-level packages (`openrlhf/internvl/train/dpo.py` importing
    `internvl.model.chat`, which the change adds as `openrlhf/internvl/model/chat.py`): they were
    written to sit at another repository's top, so they are that project's code. Folder -> its
    package name. The folder above must be a package (an `__init__.py` in the change, or imported
    by it): above a source root (`src/pkg/`) or a project folder run on its own, a package
    importing itself so is at home; and a file that also imports it in place
    (`integrations.tool.envs`, as a fallback) is this repository's."""
    candidates = []  # (file, its folders, where its own package sits in them, the module's rest)
    for f in files:
        parts = f.path.split("/")[:-1]
        if f.status != "A" or not f.path.endswith(".py") or len(parts) < 2:
            continue
        if not any(f"from {p}." in f.text or f"import {p}." in f.text for p in parts[1:]):
            continue  # read the imports only of a file importing its own folders absolutely
        modules = [(m.group(1) or m.group(2)).split(".") for m in _imports(f.text)]
        for top, *rest in modules:
            if rest and top in parts[1:]:
                i = parts.index(top, 1)
                if not any(m[:2] == [parts[i - 1], top] for m in modules):
                    candidates.append((f.path, parts, i, rest))
    if not candidates:
        return {}
    paths = {f.path for f in files if f.status != "D"}  # what the change leaves
    folders = {path.rsplit("/", 1)[0] for path in paths if "/" in path}

    def resolves(folder: str, rest: list[str], importer: str = "") -> bool:
        target = "/".join([folder, *rest])  # a module importing itself means another one
        return f"{target}.py" in paths and f"{target}.py" != importer or target in folders

    imported = [
        (m.group(1) or m.group(2)).split(".")
        for f in files
        if f.path.endswith(".py")
        for m in _imports(f.text)
    ]
    out: dict[str, str] = {}
    for path, parts, i, rest in candidates:
        root, above = "/".join(parts[: i + 1]), "/".join(parts[:i])
        if resolves(root, rest, path) and (
            f"{above}/__init__.py" in paths
            or any(len(m) > 1 and m[0] == parts[i - 1] and resolves(above, m[1:]) for m in imported)
        ):
            out[root + "/"] = parts[i].lower()
    return out


def _copied_modules(files: list[FileDiff], inside: dict[str, str]) -> dict[str, str]:
    """Python modules this change adds outside a copy it brings, at a path that ends a module of
    that copy (`extras/constants.py` beside `Other/src/otherpkg/extras/constants.py`): a package's
    modules copied out of their package are the copy's too. Path -> the copy's framework."""
    tails: dict[str, str] = {}
    for f in files:
        if f.status == "A" and f.path.endswith(".py") and (src := inside.get(f.path)):
            parts = f.path.split("/")
            for k in range(2, len(parts)):  # a folder and the file at least: `__init__.py` says nothing
                tails.setdefault("/".join(parts[-k:]), src)
    return {
        f.path: tails[f.path] for f in files if f.status == "A" and f.path in tails and f.path not in inside
    }


def _inside_import(f: FileDiff, imported: dict[str, str]) -> str:
    """The framework whose repository this change copies into a folder holding the file it adds,
    or ''."""
    if f.status != "A":
        return ""
    return next((pkg for folder, pkg in imported.items() if f.path.startswith(folder)), "")


def _strength(link: Link) -> tuple:
    """Any IMPLEMENTS beats MENTIONS; then the framework's own code beats a vendored copy, one
    needing no second signal beats one that does, package code beats a recipe; then confidence."""
    return (
        link.rel == IMPLEMENTS,
        not link.vendored,
        not link.needs_signal,
        not link.recipe,
        link.confidence,
    )


def _improves(best: dict[str, Link], slug: str, link: Link) -> bool:
    old = best.get(slug)
    return old is None or _strength(link) > _strength(old)


def _keep(best: dict[str, Link], link: Link) -> None:
    """Keep the strongest link per method."""
    if _improves(best, link.key, link):
        best[link.key] = link


VENDORED_CONFIDENCE = 0.5  # factor on a link found in another framework's copied tree


def _mark(link: Link, recipe: bool, vendored: str) -> Link:
    """A link as found in a recipe or in a vendored copy: said in its rule, and a vendored one
    at lower confidence."""
    if recipe and link.rel == IMPLEMENTS:
        link = dataclasses.replace(link, recipe=True, confidence=min(link.confidence, 0.6))
    if vendored:
        link = dataclasses.replace(
            link, vendored=vendored, rule=f"{link.rule}; vendored copy of {vendored}",
            confidence=round(link.confidence * VENDORED_CONFIDENCE, 3),
        )  # fmt: skip
    return link


def _config_tails(path: str) -> list[str]:
    """The endings of a config file's path that say what it is: its last three or more parts
    (`trainer/config/ppo.yaml`), lower case; none for a hidden folder's file (`.github/...`)."""
    parts = path.lower().split("/")
    if any(part.startswith(".") for part in parts[:-1]):
        return []
    return ["/".join(parts[k:]) for k in range(len(parts) - 2)]


# Values that leave a switch off: a config copied from another framework lists its options so.
_OFF = frozenset({"", "false", "no", "off", "null", "none", "~", "0", "0.0", "-1", "[]", "{}"})
_EMPTY_FACTORY = re.compile(r"default_factory\s*=\s*(?:dict|list|set|tuple)\s*\)")  # an empty field
_KEY_VALUE = re.compile(r"""\s*["']?\s*[:=]([^#]*)""")  # `: 3.0`, `=False`, `: bool = False`


def _turns_on(alias: CodeAlias, rule: str, rest: str) -> bool:
    """Whether a config line turns the method on: a value naming it (`adv_estimator: grpo`), or
    its key set to something other than off (`clip_ratio_c: 3.0`, not `use_pf_ppo: False`)."""
    if alias.kind == "setting" or rule in ("config-value", "option-value"):
        return True
    m = _KEY_VALUE.match(rest)
    if m is None or _EMPTY_FACTORY.search(m.group(1)):
        return False
    return m.group(1).rsplit("=", 1)[-1].strip().strip("\"',").lower() not in _OFF


def _recipe_verdict(alias: CodeAlias, line: str, s: int, e: int, path: str) -> tuple[str, float] | None:
    """(rule, confidence) for an alias that a runnable example config or script sets: a setting
    (`adv_estimator=grpo`), a flag (`--use_tis`), a config value or key; None otherwise."""
    if alias.kind == "setting":
        verdict = _judge_code_hit(alias, line, s, e, path, False)
        return ("recipe-setting", 0.6) if verdict else None
    if alias.kind not in ("identifier", "word") or _in_comment(line, s):
        return None
    if line[max(0, s - 2) : s] == "--":
        return ("recipe-flag", 0.6)
    if _ASSIGNED.search(line[:s]) or _LISTED.search(line[:s]) or _FLAG_VALUE.search(line[:s]):
        return ("recipe-value", 0.6)
    if alias.kind == "identifier" and re.match(r"\s*[=:]", line[e:]):
        return ("recipe-option", 0.6)
    return None


def _is_report(title: str | None) -> bool:
    """A model's technical report ("DeepSeek-V3.2: ...", "MiMo-V2-Flash Technical Report"): its
    head is one versioned name, or it says it is a report."""
    if not title:
        return False
    head = title.split(":", 1)[0].strip()
    return "technical report" in title.lower() or (
        len(head.split()) == 1 and any(ch.isdigit() for ch in head)
    )


def _phrases(method) -> list[str]:
    """A method's unambiguous names of several words as the catalog writes them, lower-cased
    ("truncated importance sampling", "on-policy distillation", "dual-clip", "dr.grpo"): prose,
    never a code token (identifiers join words with underscores). The spaced forms of its
    identifiers ("sync ref model") are left out: as prose they are common."""
    ambiguous = ambiguous_names(method)
    # an identifier that is the method's slug is also written with hyphens (`dual_clip`, "dual-clip")
    slug_written = {a.replace("_", "-") for a in method.aliases if a.replace("_", "-").lower() == method.slug}
    written = {method.name, *method.aliases, spelled_out(method), *slug_written}
    return sorted({
        n.lower()
        for n in {*method_names(method), *slug_written}
        if n.isascii() and n.lower() not in ambiguous and n.strip() == n
        and ((" " in n and len(n) >= 8) or (_JOINED_WORDS.fullmatch(n) and len(n) >= 7))
        and (n in written or n in method.name)  # the name without its "(acronym)" too
    })  # fmt: skip


# Words joined by hyphens or dots into one written name ("dual-clip", "Dr.GRPO"), not an identifier.
_JOINED_WORDS = re.compile(r"[A-Za-z][A-Za-z0-9]*(?:(?:-|\.\s?)[A-Za-z0-9]+)+")


def _qualified_base(phrase: str, bases: set[str]) -> bool:
    """Whether a name of two words is a word before another method's name (`robust dpo`)."""
    words = phrase.split()
    return len(words) == 2 and words[1] in bases


def _code_title_cue(title: str | None) -> str | None:
    """The part of a paper title that, in code, cites the paper: the head before its colon when it
    is a phrase ("Beyond the 80/20 Rule"), else the whole title. A head of one or two words names
    a model or a method ("DeepSeek-V3.2", "DAPO"), which code names for other reasons."""
    if not title:
        return None
    head = title.split(":", 1)[0].strip().lower()
    return head if ":" in title and len(head.split()) >= 3 else title.lower()


def _title_cue(title: str | None) -> str | None:
    """The part of a paper title a commit message would quote: the whole title, or the name
    before its colon when that is long enough not to be a common word."""
    if not title:
        return None
    head = title.split(":", 1)[0].strip().lower()
    return head if len(head) >= 12 else title.lower()
