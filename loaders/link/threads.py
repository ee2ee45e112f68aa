"""Which papers an issue or pull request cites and which methods it names.

An issue or PR becomes a *proposal* of a paper or method when its title, body
or comments cite the paper (an arXiv URL, an `arXiv:` label, or a bare id
outside code and logs) or name a catalog method (the alias matching shared
with the commit linker, with the same guards). A title's conventional-commit
scope (`feat(ppo):`) and a file name (`dpo.py`) name nothing; a class built
from a method's capitals and a role word (`RayPPOTrainer`) names that method.
Each link keeps its evidence: which text (title, body, comment id), the
identifier, the rule, a confidence.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from ...graph.records import Edge, Evidence
from .arxiv_ids import find_arxiv_ids
from .methods import MethodMatcher

MAINTAINER_ASSOCIATIONS = frozenset({"OWNER", "MEMBER", "COLLABORATOR"})

# Where a link is found changes how sure it is: the title states the topic,
# a comment may only mention it in passing.
_PLACE_WEIGHT = {"title": 1.0, "body": 1.0, "comment": 0.85}
_ARXIV_CONFIDENCE = {"arxiv-url": 0.95, "arxiv-label": 0.9, "bare-id": 0.6}
_FENCE = re.compile(r"```.*?(?:```|\Z)|~~~.*?(?:~~~|\Z)", re.DOTALL)
_CODE_SPAN = re.compile(r"`[^`\n]+`")
_CJK = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uff01-\uff5e"
# Between a CJK character and Latin text there is no \b (both are \w); a space puts one there.
_CJK_EDGE = re.compile(rf"(?<=[{_CJK}])(?=[^\s{_CJK}])|(?<=[^\s{_CJK}])(?=[{_CJK}])")
# A conventional-commit scope ("feat(ppo): add CISPO") says where a change goes, not what it names.
_COMMIT_SCOPE = re.compile(r"^(\s*\w+)\(([^)\n]{1,40})\)(!?:)")
# A file name (`dpo.py`, `grpo.yaml`) or a module path (`grpo.main`) says where something is, not
# what it names; a class's attribute (`DPOConfig.beta`) still names the class's method.
_FILE_SUFFIX = re.compile(r"\.(?:py|ya?ml|sh|md|json|toml|txt|ipynb|cfg)\b")
_MODULE_PATH_NEXT = re.compile(r"\.[a-z_][a-z0-9_]*\b")
# A class named by a method's capitals and a role word ("DPOTrainModule", "RayPPOTrainer"): the
# capitals are that method's name. Split so the matcher sees them as a word.
_CLASS_COMPOUND = re.compile(r"(?<![\w-])((?:[A-Z][a-z]+)*)([A-Z][A-Z0-9+]+)((?:[A-Z][a-z]+)+)(?![\w-])")
# What every such compound contains (two capitals, then a capitalised word): a cheap test first.
_COMPOUND_EDGE = re.compile(r"[A-Z][A-Z0-9+][A-Z][a-z]")


@dataclass(frozen=True)
class TextPart:
    """A comment of a thread (or any authored text in it)."""

    text: str
    location: str  # "comment 123456"
    author: str | None = None
    author_association: str | None = None
    created_at: str | None = None
    is_bot: bool = False


@dataclass(frozen=True)
class Thread:
    """An issue or pull request with its comments, as read from the REST API."""

    framework: str
    number: int
    is_pr: bool
    title: str
    body: str
    state: str
    author: str | None = None
    author_association: str | None = None
    created_at: str | None = None
    closed_at: str | None = None
    merged_at: str | None = None
    updated_at: str | None = None
    comment_count: int | None = None
    labels: tuple[str, ...] = ()
    url: str | None = None
    merge_commit_sha: str | None = None
    comments: tuple[TextPart, ...] = ()

    @property
    def label(self) -> str:
        return "PullRequest" if self.is_pr else "Issue"

    @property
    def key(self) -> str:
        return f"{self.framework}#{self.number}"

    @property
    def kind(self) -> str:
        return "pr" if self.is_pr else "issue"

    def texts(self) -> Iterator[tuple[str, str, str]]:
        """(place, location, text): title, body, then each human comment."""
        yield "title", f"{self.key} title", self.title
        yield "body", f"{self.key} body", self.body
        for c in self.comments:
            if not c.is_bot:
                yield "comment", f"{self.key} {c.location}", c.text


def maintainer_first_reply(thread: Thread) -> TextPart | None:
    """The earliest comment by an owner, member or collaborator other than the author."""
    for c in sorted(thread.comments, key=lambda c: c.created_at or ""):
        if c.is_bot or c.author == thread.author:
            continue
        if (c.author_association or "").upper() in MAINTAINER_ASSOCIATIONS:
            return c
    return None


def prose(text: str) -> str:
    """The text with code blocks and spans blanked (same length, so offsets still hold)."""
    blank = lambda m: re.sub(r"[^\n]", " ", m.group(0))  # noqa: E731
    return _CODE_SPAN.sub(blank, _FENCE.sub(blank, text))


def tokenised(text: str) -> str:
    """The text with a space between CJK and Latin runs, so `kl变为Nan` and `ppo训练` have word boundaries."""
    return _CJK_EDGE.sub(" ", text)


def _split_compounds(text: str, matcher: MethodMatcher) -> str:
    """ "RayPPOTrainer" -> "Ray PPO·Trainer"; a class the catalog knows whole ("PPOTrainer") and
    identifiers of other shapes stay as they are."""

    def split(m: re.Match) -> str:
        if matcher.find(m.group(0)):
            return m.group(0)
        prefix, capitals, role = m.groups()
        # A middle dot, not a space, before the role word: "GRPO Trainer" would read as the
        # `grpo_trainer` spelling in any case rather than as the exact "GRPO".
        return f"{prefix} {capitals}\u00b7{role}" if prefix else f"{capitals}\u00b7{role}"

    return _CLASS_COMPOUND.sub(split, text) if _COMPOUND_EDGE.search(text) else text


def _names_a_place(text: str, name: str, end: int) -> bool:
    """Whether the name matched just before `end` is part of a file name or a module path."""
    return bool(_FILE_SUFFIX.match(text, end) or (name.islower() and _MODULE_PATH_NEXT.match(text, end)))


def _without_scope(title: str) -> str:
    return _COMMIT_SCOPE.sub(lambda m: m.group(1) + "(" + " " * len(m.group(2)) + ")" + m.group(3), title)


def _better(new: Evidence, old: Evidence | None) -> bool:
    return old is None or new.confidence > old.confidence


def cited_papers(thread: Thread) -> dict[str, Evidence]:
    """arXiv id -> evidence of the strongest citation in the thread."""
    best: dict[str, Evidence] = {}
    for place, location, text in thread.texts():
        kept = prose(text)
        for m in find_arxiv_ids(text, bare=True):
            # Bare numbers inside code and logs are loss values and versions as often as ids.
            if m.rule == "bare-id" and kept[m.start : m.start + len(m.text)].strip() != m.text:
                continue
            confidence = round(_ARXIV_CONFIDENCE[m.rule] * _PLACE_WEIGHT[place], 3)
            evidence = Evidence(f"{thread.kind}-{place}", location, m.text, m.rule, confidence)
            if _better(evidence, best.get(m.arxiv_id)):
                best[m.arxiv_id] = evidence
    return best


def named_methods(thread: Thread, matcher: MethodMatcher) -> dict[str, Evidence]:
    """Method slug -> evidence of the strongest naming in the thread."""
    best: dict[str, Evidence] = {}
    own = matcher.own_name(thread.framework)
    for place, location, text in thread.texts():
        text = _split_compounds(tokenised(_without_scope(text) if place == "title" else text), matcher)
        kept = prose(text)
        for m in matcher.find(text):
            if _names_a_place(text, m.text, m.start + len(m.text)):
                continue
            if not matcher.names_its_method(m):
                continue  # "Add reinforce algorithm" names REINFORCE, not REINFORCE++ that lists the word
            if own.speaks_of_framework(m):
                continue  # "the prime monitor" in prime-rl is the framework's, not PRIME
            in_code = kept[m.start : m.start + len(m.text)].strip() != m.text
            evidence = Evidence(
                f"{thread.kind}-{place}",
                location,
                m.text,
                m.rule + ("-in-code" if in_code else ""),
                round(m.confidence * _PLACE_WEIGHT[place] * (0.8 if in_code else 1.0), 3),
            )
            if _better(evidence, best.get(m.slug)):
                best[m.slug] = evidence
    return best


def thread_link_edges(thread: Thread, matcher: MethodMatcher) -> Iterator[Edge]:
    """CITES and NAMES edges of one thread, each with its evidence."""
    src = (thread.label, thread.key)
    for arxiv_id, evidence in cited_papers(thread).items():
        yield Edge("CITES", src, ("Paper", arxiv_id), evidence.props(), origin=evidence.location)
    for slug, evidence in named_methods(thread, matcher).items():
        yield Edge("NAMES", src, ("Method", slug), evidence.props(), origin=evidence.location)
