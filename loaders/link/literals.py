"""Finding many literal words in long text, fast.

Every diff line a framework ever added is scanned for a few hundred catalog tokens. Python's
`re` tries the whole alternation at each position (about 50 ns a character); RE2 runs it as a
DFA over bytes, several times faster, which is what lets the miner keep pace with git.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Iterator
from re import _constants, _parser  # the parse tree `re` itself compiles from

import re2
from re2 import _re2

_IDENTIFIER = "a-z0-9_"
_UNANCHORED = _re2.RE2.Anchor.UNANCHORED


# ASCII punctuation (and controls) as RE2 hex escapes; everything else stands for itself.
_ESCAPES = {c: f"\\x{{{c:02x}}}" for c in range(128) if not (chr(c).isalnum() or chr(c) == "_")}


def _escape(word: str) -> str:
    """A literal in RE2 syntax: ASCII punctuation as hex escapes, everything else as it is."""
    return word.translate(_ESCAPES)


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

    def find(self, text: str, data: bytes | None = None) -> Iterator[tuple[int, int, str]]:
        """(start, end, word) of each occurrence, offsets into `text`; `data`: the text's bytes
        (`utf8`), where a caller reads one text with several scanners."""
        if self._regexp is None:
            return
        data = utf8(text) if data is None else data
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


def utf8(text: str) -> bytes:
    """The bytes a `LiteralScanner` reads (a lone surrogate, which no diff should hold, passes)."""
    return text.encode("utf-8", "surrogatepass")


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
    """A compiled pattern for text searched whole (a file's diff), where most positions cannot
    start a match and Python's `re` tries every one. RE2 finds where the pattern's relaxation
    (`relaxed`) matches, and `re` tries only those places; where RE2 cannot run the relaxation or
    read the text, `re` runs only on text holding the fragments every match needs. Either way the
    matches are exactly `re`'s."""

    __slots__ = ("pattern", "needs", "groupindex", "_screen")

    def __init__(self, pattern: re.Pattern):
        self.pattern = pattern
        self.needs = required_fragments(pattern)
        self.groupindex = pattern.groupindex
        self._screen = _compile_relaxed(pattern)

    def finditer(self, text: str, pos: int = 0, endpos: int | None = None) -> Iterator[re.Match]:
        end = len(text) if endpos is None else endpos
        data = _encoded(text) if self._screen is not None else None
        if data is not None:
            return self._screened(text, data, pos, end)
        return self.pattern.finditer(text, pos, end) if may_match(self.needs, text) else iter(())

    def search(self, text: str, pos: int = 0, endpos: int | None = None) -> re.Match | None:
        return next(self.finditer(text, pos, endpos), None)

    def _screened(self, text: str, data: bytes, pos: int, end: int) -> Iterator[re.Match]:
        """`re`'s matches: `re` tries only where RE2 finds the relaxation matching, since no match
        of the pattern starts anywhere else."""
        offsets = _Offsets(text, data)
        stop = len(data) if end == len(text) else len(text[:end].encode())
        if stop < len(data):  # `re` reads the text as ending there (`$` matches), RE2 a view that does
            data = memoryview(data)[:stop]
        while pos <= end:
            found = self._screen.Match(_UNANCHORED, data, offsets.to_bytes(pos), stop)[0][0]
            if found < 0:
                return
            found = offsets.to_chars(found)
            m = self.pattern.match(text, found, end)
            if m is None:
                pos = found + 1
                continue
            yield m
            pos = m.end() + (m.end() == m.start())


class _Offsets:
    """Offsets into a text and into its UTF-8 bytes, converted moving forward only: each part of
    the text is measured once however many matches are converted."""

    __slots__ = ("text", "data", "chars", "bytes", "same")

    def __init__(self, text: str, data: bytes):
        self.text, self.data = text, data
        self.same = len(text) == len(data)  # ASCII: the offsets are the same
        self.chars = self.bytes = 0

    def to_bytes(self, chars: int) -> int:
        if self.same:
            return chars
        self.bytes += len(self.text[self.chars : chars].encode())
        self.chars = chars
        return self.bytes

    def to_chars(self, at: int) -> int:
        if self.same:
            return at
        self.chars += len(self.data[self.bytes : at].decode())
        self.bytes = at
        return self.chars


@functools.lru_cache(maxsize=4)
def _encoded(text: str) -> bytes | None:
    """A text's UTF-8 bytes, encoded once for the several patterns searched in it in turn; None
    where it holds a lone surrogate, which RE2 cannot read."""
    try:
        return text.encode()
    except UnicodeEncodeError:
        return None


# Outside a negated class, what `re` counts as word, space or digit characters beyond ASCII, which
# RE2's classes never match: added so the relaxation matches wherever `re` does.
_NON_ASCII = "\\x{80}-\\x{10ffff}"
_WIDENED = {"\\w", "\\s", "\\d"}


def relaxed(pattern: str) -> str:
    """A pattern for RE2 that matches, starting at the same place, wherever `pattern` matches in
    Python's `re`: look-arounds and `\\b`, `\\B` are dropped (they only restrict), `$` may end any
    line, a back-reference becomes what its group matches, groups stop capturing, and `\\w`, `\\s`,
    `\\d` also take every non-ASCII character. ValueError for what it does not handle (inline
    verbose or ASCII flags)."""
    out: list[str] = []
    open_groups: list[tuple[str, int, tuple[str, ...]]] = []  # (kind, where in `out`, its names)
    groups: dict[str, str] = {}  # number or name -> the group's relaxed source
    opened = 0  # capturing groups opened so far: `re` numbers them in that order
    i = 0
    while i < len(pattern):
        ch = pattern[i]
        if ch == "\\":
            esc = pattern[i : i + 2]
            out.append(_relaxed_escape(esc, groups))
            i += 2
        elif ch == "[":
            end = _class_end(pattern, i)
            body = pattern[i + 1 : end]
            if not body.startswith("^") and any(w in body for w in _WIDENED):
                body += _NON_ASCII
            out.append(f"[{body}]")
            i = end + 1
        elif ch == "(":
            m = _GROUP_OPENER.match(pattern, i)
            name, reference, lookaround, flags, flags_end = m.group(1, 2, 3, 4, 5)
            i = m.end()
            if reference:
                out.append(f"(?:{groups[reference]})")
            elif m.group(0).startswith("(?#"):
                pass
            elif flags_end == ")":
                if set(flags) & set("axL"):
                    raise ValueError(f"inline flags {flags!r} are not relaxed")
                out.append(m.group(0))
            elif lookaround:
                open_groups.append(("assert", len(out), ()))
            elif m.group(0) == "(" or name:
                opened += 1
                open_groups.append(("capture", len(out), (str(opened), *([name] if name else []))))
                out.append("(?:")
            else:  # (?:, (?i:, (?> (RE2 has no atomic groups; a plain one matches more)
                open_groups.append(("group", len(out), ()))
                out.append(f"(?{flags}:" if flags_end == ":" else "(?:")
        elif ch == ")":
            kind, begun, names = open_groups.pop()
            if kind == "assert":
                del out[begun:]
            else:
                out.append(")")
                groups.update(dict.fromkeys(names, "".join(out[begun + 1 : -1])))
            i += 1
        else:
            # `re`'s `$` also matches before a last line break; RE2's multi-line `$` before any.
            out.append("(?m:$)" if ch == "$" else ch)
            i += 1
    return "".join(out)


def _relaxed_escape(esc: str, groups: dict[str, str]) -> str:
    if esc[1:].isdigit():  # patterns with ten groups or more are not relaxed (`_compile_relaxed`)
        return f"(?:{groups[esc[1:]]})"
    if esc in ("\\b", "\\B"):
        return ""
    if esc == "\\Z":
        return "\\z"
    if esc in _WIDENED:
        return f"[{esc}{_NON_ASCII}]"
    return esc


def _class_end(pattern: str, i: int) -> int:
    """The index of the `]` closing the class that opens at `i`."""
    j = i + 1 + (pattern[i + 1 : i + 2] == "^")
    j += pattern[j : j + 1] == "]"  # a `]` first in the class is a literal
    while pattern[j] != "]":
        j += 2 if pattern[j] == "\\" else 1
    return j


# What follows a `(`: a named group, a back-reference, a look-around, a comment, inline flags
# (alone or opening a group), an atomic group, or nothing (a capturing group).
_GROUP_OPENER = re.compile(r"\((?:\?(?:P<(\w+)>|P=(\w+)\)|([=!]|<[=!])|\#[^)]*\)|([aiLmsux-]*)([:)])|>))?")


def _relaxed_source(pattern: re.Pattern) -> str | None:
    """The pattern's relaxation with its flags, for RE2; None where there is none."""
    if pattern.flags & (re.VERBOSE | re.ASCII) or pattern.groups > 9:
        return None
    flags = "".join(f for f, bit in (("i", re.I), ("m", re.M), ("s", re.S)) if pattern.flags & bit)
    try:
        source = relaxed(pattern.pattern)
    except (ValueError, KeyError, IndexError):
        return None
    return f"(?{flags}){source}" if flags else source


def _options(ignore_case: bool = False) -> re2.Options:
    options = re2.Options()
    options.case_sensitive = not ignore_case
    options.log_errors = False  # a pattern RE2 cannot run is expected, not an error
    return options


def _compile_relaxed(pattern: re.Pattern):
    """RE2's compilation of the pattern's relaxation, or None where there is none."""
    source = _relaxed_source(pattern)
    if source is None:
        return None
    # The binding's own entry point, as in `LiteralScanner`: its Python layer costs more per call
    # than most searches.
    compiled = _re2.RE2(source.encode(), _options())
    return compiled if compiled.ok() else None


class _SourceSet:
    """RE2's set matching over several pattern sources, each known by its number in the order
    given: which of those RE2 runs occur in a text's bytes. `outside`: the numbers of the sources
    it does not run (None, or one RE2 cannot compile)."""

    def __init__(self, sources: Iterable[str | None], ignore_case: bool = False):
        self._set = _re2.Set(_UNANCHORED, _options(ignore_case))
        self._in_set: list[int] = []  # the set's index -> the source's number
        self.outside: list[int] = []
        for number, source in enumerate(sources):
            if source is not None and self._set.Add(source.encode()) >= 0:
                self._in_set.append(number)
            else:
                self.outside.append(number)
        self._set.Compile()
        self.numbers = range(len(self._in_set) + len(self.outside))

    def occurring(self, data: bytes) -> set[int]:
        return {self._in_set[i] for i in self._set.Match(data) or ()}


class Screens:
    """Which of several patterns may match a text, read in one RE2 pass: their relaxations in one
    RE2 set. A pattern without a relaxation always may, and any pattern in a text RE2 cannot read."""

    def __init__(self, patterns: Iterable[re.Pattern]):
        self._set = _SourceSet(_relaxed_source(p) for p in patterns)

    def may_match(self, text: str) -> set[int]:
        data = _encoded(text)
        if data is None:
            return set(self._set.numbers)
        return self._set.occurring(data) | set(self._set.outside)


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
    try:
        return re2.compile(pattern, _options(ignore_case))
    except re2.error:
        return re.compile(pattern, re.IGNORECASE if ignore_case else 0)


class PatternSet:
    """Which of several patterns a text holds, in one pass: RE2's set matching for the patterns
    RE2 can run, `re` for the rest. For a text read against many patterns, where a call each
    (and the text encoded for each) costs more than the search."""

    def __init__(self, patterns: Iterable[str], *, ignore_case: bool = False):
        self._patterns = [re.compile(p, re.IGNORECASE if ignore_case else 0) for p in patterns]
        self._set = _SourceSet((p.pattern for p in self._patterns), ignore_case)

    def matching(self, text: str) -> set[int]:
        """The numbers (in the order given) of the patterns that occur in `text`."""
        data = _encoded(text)
        if data is None:  # a lone surrogate: RE2 reads UTF-8 only
            found, others = set(), self._set.numbers
        else:
            found, others = self._set.occurring(data), self._set.outside
        return found | {n for n in others if self._patterns[n].search(text)}
