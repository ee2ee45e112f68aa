"""Finding many literal words in long text, fast.

Every diff line a framework ever added is scanned for a few hundred catalog tokens. Python's
`re` tries the whole alternation at each position (about 50 ns a character); RE2 runs it as a
DFA over bytes, several times faster, which is what lets the miner keep pace with git.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from re import _constants, _parser  # the parse tree `re` itself compiles from

import re2
from re2 import _re2

_IDENTIFIER = "a-z0-9_"
_UNANCHORED = _re2.RE2.Anchor.UNANCHORED


def _escape(word: str) -> str:
    """A literal in RE2 syntax: ASCII punctuation as hex escapes, everything else as it is."""
    return "".join(
        f"\\x{{{ord(ch):02x}}}" if ch.isascii() and not (ch.isalnum() or ch == "_") else ch for ch in word
    )


class LiteralScanner:
    """Leftmost, longest, non-overlapping occurrences of lowercase ASCII words in text of any
    case, the same occurrences a longest-first alternation in `re.finditer` finds in
    `text.lower()`. Scanning the text as it is spares a lower-cased copy of every diff."""

    def __init__(self, words: Iterable[str], *, whole_identifiers: bool = False):
        ordered = sorted(set(words), key=lambda w: (-len(w), w))
        if not all(w.isascii() and w == w.lower() for w in ordered):
            raise ValueError("LiteralScanner takes lowercase ASCII words")
        alternation = "|".join(_escape(w) for w in ordered)
        # The word is the whole match, or, with the characters around it, group 1: a pattern with
        # no group needs no submatch search, which costs RE2 more than finding the match.
        self._group = 0
        if whole_identifiers:
            # Never inside a longer identifier: `grpo` is not found in `dr_grpo` or `GRPOx`.
            alternation = f"(?:^|[^{_IDENTIFIER}])({alternation})(?:[^{_IDENTIFIER}]|$)"
            self._group = 1
        options = re2.Options()
        # Latin-1 reads UTF-8 text byte by byte: ASCII words then match ASCII bytes only, and
        # case folds stay within ASCII, as `str.lower` does for these words.
        options.encoding = re2.Options.Encoding.LATIN1
        options.case_sensitive = False
        # The binding's own entry point: one call per occurrence, without building match objects
        # (the Python layer above it costs more per call than the search itself).
        self._regexp = _re2.RE2(alternation.encode(), options) if ordered else None
        if self._regexp is not None and not self._regexp.ok():
            raise ValueError(f"cannot compile the word list: {self._regexp.error()}")

    def find(self, text: str) -> Iterator[tuple[int, int, str]]:
        """(start, end, word) of each occurrence, offsets into `text`."""
        if self._regexp is None:
            return
        data = text.encode("utf-8", "surrogatepass")
        ascii_only = len(data) == len(text)
        byte_at = char_at = 0
        pos = 0
        while (spans := self._regexp.Match(_UNANCHORED, data, pos, len(data)))[0][0] >= 0:
            start, pos = spans[self._group]
            word = data[start:pos].decode().lower()
            if not ascii_only:  # byte offsets to character offsets, walking forward once
                char_at += len(data[byte_at:start].decode("utf-8", "surrogatepass"))
                byte_at = start
                start = char_at
            yield start, start + len(word), word


# What a regular expression needs of a text, read off its parse tree: a pattern whose search
# scans every position (`(?m)^\+\s*...`) costs a pass over each diff, while `str.__contains__`
# over a few fragments costs almost nothing and rules most diffs out.
_REPEATS = (_constants.MAX_REPEAT, _constants.MIN_REPEAT, _constants.POSSESSIVE_REPEAT)


def required_fragments(pattern: re.Pattern) -> tuple[frozenset[str], ...]:
    """Groups of fragments such that every match of `pattern` contains one fragment of each group;
    () when nothing can be said (a case-insensitive pattern, say)."""
    if pattern.flags & re.IGNORECASE:
        return ()
    return tuple(dict.fromkeys(_needs(_parser.parse(pattern.pattern, pattern.flags))))


def may_match(needs: tuple[frozenset[str], ...], text: str) -> bool:
    """False only when `text` lacks every fragment of some group, so the pattern cannot match."""
    return all(any(map(text.__contains__, group)) for group in needs)


class Prefiltered:
    """A compiled pattern that runs only on text holding the fragments every match needs: for
    patterns searched over whole diffs, most of which cannot match."""

    __slots__ = ("pattern", "needs", "groupindex")

    def __init__(self, pattern: re.Pattern):
        self.pattern = pattern
        self.needs = required_fragments(pattern)
        self.groupindex = pattern.groupindex

    def search(self, text: str) -> re.Match | None:
        return self.pattern.search(text) if may_match(self.needs, text) else None

    def finditer(self, text: str) -> Iterator[re.Match]:
        return self.pattern.finditer(text) if may_match(self.needs, text) else iter(())


def _needs(items) -> list[frozenset[str]]:
    """The groups a sequence of parsed items needs: each run of literal characters, and what each
    group, required repeat or alternation inside it needs (classes, anchors, lookarounds and
    back-references need nothing)."""
    needs: list[frozenset[str]] = []
    run = ""
    for op, av in items:
        if op is _constants.LITERAL:
            run += chr(av)
            continue
        if run:
            needs.append(frozenset({run}))
            run = ""
        if op is _constants.SUBPATTERN and not av[1] & re.IGNORECASE:
            needs += _needs(av[3])
        elif op is _constants.ATOMIC_GROUP:
            needs += _needs(av)
        elif op in _REPEATS and av[0] >= 1:
            needs += _needs(av[2])
        elif op is _constants.BRANCH:
            # One group for the alternation: the strongest group of each alternative, together.
            strongest = [max(_needs(alt), key=lambda g: min(map(len, g)), default=None) for alt in av[1]]
            if all(strongest):
                needs.append(frozenset().union(*strongest))
    if run:
        needs.append(frozenset({run}))
    return needs


def compile_for_long_text(pattern: str, *, ignore_case: bool = False):
    """`pattern` compiled by RE2 where RE2 can run it (no look-arounds, no back-references), else
    by `re`; both answer `.search(text)`. For a pattern searched over whole diffs: Python's `re`
    tries a case-insensitive alternation at every position, RE2 runs it as an automaton, tens of
    times faster. RE2's `\\w` and `\\b` are ASCII, which is what code is written in."""
    options = re2.Options()
    options.case_sensitive = not ignore_case
    options.log_errors = False  # a pattern RE2 cannot run is expected, not an error
    try:
        return re2.compile(pattern, options)
    except re2.error:
        return re.compile(pattern, re.IGNORECASE if ignore_case else 0)
