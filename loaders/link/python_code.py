"""Added Python lines understood by their tokens: code, comment, docstring or string literal,
and whether a string literal sits where it selects behaviour.

A `-U0` diff gives fragments, not modules: a block of added lines may start inside a call, a
class body or a docstring. Each line's indentation is set aside before `tokenize` reads the block
(indentation never changes what a token is, and fragments rarely indent consistently), and a
block that ends inside a triple-quoted string is read again as if it had started inside one.
Only blocks holding an alias hit are tokenized, so the cost follows the hits, not the history.
"""

from __future__ import annotations

import ast
import io
import keyword
import re
import tokenize
from collections.abc import Iterator
from dataclasses import dataclass
from token import COMMENT, DEDENT, ENDMARKER, INDENT, NAME, NEWLINE, NL, OP, STRING

_SKIP = {NL, COMMENT, INDENT, DEDENT}
_CLOSE = {")": "(", "]": "[", "}": "{"}
_SELECT_KEYWORDS = {"default", "choices", "const", "default_factory"}
_REGISTRY_CALL = re.compile(r"regist", re.IGNORECASE)  # register(...), registry.add(...)
_CONSTANT = re.compile(r"^_?[A-Z][A-Z0-9_]*$")
_REGISTRY_WORD = re.compile(r"regist|mapping|_map$|_fns?$|dispatch", re.IGNORECASE)
# Names a configuration object goes by (`cfg`, `self.config`, `policy_conf`, `args`, `hparams`).
_CONFIGURATION = re.compile(r"(?:^|_)(?:cfg|config|conf|args|options|opts|params|hparams|settings)$", re.I)
# A dict of keyword arguments being filled for a call: its keys are the callee's options.
_KEYWORD_ARGUMENTS = re.compile(r"(?:^|_)(?:kw)?args$", re.IGNORECASE)
_PREFIX = re.compile(r"^[rbuf]*", re.IGNORECASE)


@dataclass(frozen=True)
class Place:
    """What an added token is: `code`, `comment`, `docstring`, `string`, or `listed` (a name that
    is one item of many a membership test sorts). For a string: whether the alias is the whole
    literal (`"ipo"`, `"--ipo"`) and, if so, whether the literal selects behaviour (`why`:
    compare, option-default, choices, registry-key, flag, keyword-argument); empty otherwise."""

    kind: str
    whole: bool = False
    why: str = ""


CODE = Place("code")
# A name that is one item among several of a literal tested for membership: `x in (A.GRPO,
# A.RLOO, A.OPO)` sorts values (which need a critic, which are allowed); it selects none of them.
LISTED = Place("listed")
MANY_LISTED = 3  # items from which a membership test classifies rather than dispatches


class PythonBlock:
    """A few consecutive added lines, tokenized once; `place(row, start, end)` answers for a hit on
    line `row` at columns `start:end` of the line as added. `inside` is the triple quote the
    first line starts inside of, if any (the caller counts quotes on the lines before)."""

    def __init__(self, lines: list[str], inside: str = ""):
        self.shift = [len(line) - len(line.lstrip(" \t")) for line in lines]
        text = "\n".join(line[s:] for line, s in zip(lines, self.shift, strict=True)) + "\n"
        self.tokens, self.open_string = _tokens(inside + text, len(inside))
        # Lines that start inside a call close brackets they never opened; tokenize would then
        # take the next line break inside a bracket for a statement's end. Opening them first,
        # as the lines before did, keeps the structure; the added tokens are told apart by `_fake`.
        self._fake = -min(_levels(self.tokens), default=0)
        if self._fake > 0:
            prefix = "(" * self._fake + inside
            self.tokens, self.open_string = _tokens(prefix + text, len(prefix))
        self.significant = [t for t in self.tokens if t.type not in _SKIP]
        self._index = {id(t): k for k, t in enumerate(self.significant)}
        self._prose: dict[int, list[tokenize.TokenInfo]] = {}  # row -> comments and strings on it
        for tok in self.tokens:
            if tok.type in (COMMENT, STRING):
                for r in range(tok.start[0], tok.end[0] + 1):
                    self._prose.setdefault(r, []).append(tok)

    def place(self, row: int, start: int, end: int) -> Place:
        pos = (row + 1, start - self.shift[row])
        stop = (row + 1, end - self.shift[row])
        if self.open_string is not None and pos >= self.open_string:
            return Place("docstring")  # a triple-quoted string still open where the lines end
        for tok in self._prose.get(row + 1, ()):
            if tok.start <= pos and stop <= tok.end:
                if tok.type == COMMENT:
                    return Place("comment")
                return self._string_place(tok, pos, stop)
        i = self._name_at(pos)
        return LISTED if i is not None and self._listed(i) else CODE

    def _name_at(self, pos) -> int | None:
        """The significant NAME token holding position `pos`, if any."""
        for k, tok in enumerate(self.significant):
            if tok.type == NAME and tok.start <= pos < tok.end:
                return k
        return None

    def _listed(self, i: int) -> bool:
        """Whether the dotted name holding NAME token `i` is a whole item of a bracketed literal
        of at least MANY_LISTED items that follows `in` and is not a loop's iterable."""
        sig = self.significant
        first = i
        while first >= 2 and sig[first - 1].string == "." and sig[first - 2].type == NAME:
            first -= 2
        last = i
        while last + 2 < len(sig) and sig[last + 1].string == "." and sig[last + 2].type == NAME:
            last += 2
        opener_at = self._opener_index(first)
        if opener_at is None or opener_at < 1 or sig[opener_at - 1].string != "in":
            return False
        if self._iterated(opener_at - 1):
            return False
        if first - 1 != opener_at and sig[first - 1].string != ",":
            return False
        if last + 1 < len(sig) and sig[last + 1].string not in (",", *_CLOSE):
            return False
        return self._items(opener_at) >= MANY_LISTED

    def _string_place(self, tok: tokenize.TokenInfo, pos, stop) -> Place:
        i = self._index[id(tok)]
        before = self.significant[i - 1] if i else None
        after = self.significant[i + 1] if i + 1 < len(self.significant) else None
        if (before is None or before.type in (NEWLINE, INDENT, DEDENT) or before.string == ";") and (
            after is None or after.type in (NEWLINE, ENDMARKER) or after.string == ";"
        ):
            return Place("docstring")
        body = _PREFIX.sub("", tok.string)
        quote = 3 if body[:3] in ('"""', "'''") else 1
        inner_start = tok.start[1] + (len(tok.string) - len(body)) + quote
        whole = (
            tok.start[0] == tok.end[0] and pos[1] - inner_start in (0, 1, 2) and stop[1] == tok.end[1] - quote
        )
        if not whole or self._loop_item(i):
            # A loop's items are visited, not chosen or exported: `for t in ("SFTTrainer", ...)`.
            return Place("string")
        content = body[quote:-quote] if len(body) >= 2 * quote else ""
        if pos[1] > inner_start and content[: pos[1] - inner_start].strip("-"):
            return Place("string")
        return Place("string", True, self._selects(i, content))

    def _selects(self, i: int, content: str) -> str:
        """Why the literal at significant token `i` selects behaviour, or '' if it does not."""
        sig = self.significant
        before = sig[i - 1] if i else None
        after = sig[i + 1] if i + 1 < len(sig) else None
        if self._statement_keyword(i) == "assert":
            return ""  # an assertion checks a value, it does not choose what runs
        if (before and before.string in ("==", "!=")) or (after and after.string in ("==", "!=")):
            return "compare"
        if before and before.string == "case":
            return "compare"
        if before and before.string == "=" and i >= 2 and sig[i - 2].string in _SELECT_KEYWORDS:
            return "option-default"
        if content.startswith("-") and self._opener(i) == "(":
            return "flag"
        if before and before.string == "=" and self._annotated_default(i - 1):
            return "option-default"
        opener_at = self._opener_index(i)
        if opener_at is None:
            return ""
        if opener_at < 0:  # inside brackets opened before the block: the context is not in the diff
            return "outside-block" if before is None or before.string == "," else ""
        opener = sig[opener_at]
        lead = sig[opener_at - 1] if opener_at else None
        lead2 = sig[opener_at - 2] if opener_at >= 2 else None
        if lead is not None and lead.string == "in":
            return "compare"
        if self._config_read(i, opener_at):
            return "config-read"
        if opener.string in "([" and lead is not None and lead.string == "Literal":
            return "choices"
        if lead is not None and lead.string == "=" and lead2 is not None and lead2.string == "choices":
            return "choices"
        if (
            opener.string == "("
            and lead is not None
            and lead.type == NAME
            and _REGISTRY_CALL.search(lead.string)
        ):
            return "registry-key"
        if opener.string == "[" and after and after.string == "]" and lead is not None:
            follows = sig[i + 2] if i + 2 < len(sig) else None
            if follows is not None and follows.string == "=":
                if _registry_name(lead.string):
                    return "registry-key"
                if _KEYWORD_ARGUMENTS.search(lead.string):
                    return "keyword-argument"  # trainer_kwargs["use_weighting"] = ...: an option passed on
        if opener.string in "([{" and lead is not None and lead.string == "=" and lead2 is not None:
            if (
                lead2.type == NAME
                and _CONSTANT.match(lead2.string)
                and (after is None or after.string != ":")
            ):
                return "choices"  # MODES = ("a", "b"): the values a setting may take
        if (
            opener.string == "{"
            and after is not None
            and after.string == ":"
            and lead is not None
            and lead.string == "="
            and lead2 is not None
            and _registry_name(lead2.string)
        ):
            return "registry-key"
        return ""

    def _config_read(self, i: int, opener_at: int) -> bool:
        """`cfg.get("disable_ppo_ratio", False)`: the first argument of a configuration's `get`
        with a default is an option the user may set."""
        sig = self.significant
        if opener_at != i - 1 or opener_at < 3 or sig[opener_at].string != "(":
            return False
        owner, dot, get = sig[opener_at - 3], sig[opener_at - 2], sig[opener_at - 1]
        after = sig[i + 1] if i + 1 < len(sig) else None
        return (
            get.string == "get"
            and dot.string == "."
            and owner.type == NAME
            and _CONFIGURATION.search(owner.string) is not None
            and after is not None
            and after.string == ","
        )

    def _loop_item(self, i: int) -> bool:
        """Whether the literal at significant token `i` is an item of the literal iterable of a
        `for` loop or comprehension; `x in ("a", "b")` tests a value instead."""
        opener_at = self._opener_index(i)
        if opener_at is None or opener_at < 1:
            return False
        return self.significant[opener_at - 1].string == "in" and self._iterated(opener_at - 1)

    def _iterated(self, in_at: int) -> bool:
        """Whether the `in` at significant token `in_at` heads a `for` loop's or comprehension's
        iterable: only its target (names, commas, brackets) stands between it and the `for`."""
        k = in_at - 1
        while k >= 0 and (
            (self.significant[k].type == NAME and not keyword.iskeyword(self.significant[k].string))
            or self.significant[k].string in (",", "(", ")", "[", "]")
        ):
            k -= 1
        return k >= 0 and self.significant[k].string == "for"

    def _statement_keyword(self, i: int) -> str:
        """The first token of the statement holding significant token `i`."""
        k = i
        while k > 0 and self.significant[k - 1].type not in (NEWLINE, INDENT, DEDENT):
            k -= 1
        return self.significant[k].string

    def _annotated_default(self, eq: int) -> bool:
        """`name: type = <literal>` at statement level (a config field), or `name=<literal>` among
        a `def`'s parameters (an argument default)."""
        sig = self.significant
        k = eq - 1
        depth = 0
        while k >= 0:
            t = sig[k]
            if t.type == OP and t.string in _CLOSE:
                depth += 1
            elif t.type == OP and t.string in "([{":
                if depth == 0:
                    return self._is_def_params(k) and sig[eq - 1].type == NAME
                depth -= 1
            elif t.type in (NEWLINE, INDENT, DEDENT) and depth == 0:
                break
            k -= 1
        # statement start: NAME ':' ... '='
        first = k + 1
        return (
            first + 1 < eq
            and sig[first].type == NAME
            and sig[first + 1].string == ":"
            and all(sig[j].string != "=" for j in range(first, eq))
        )

    def _is_def_params(self, paren: int) -> bool:
        sig = self.significant
        return paren >= 2 and sig[paren].string == "(" and sig[paren - 2].string == "def"

    def _opener_index(self, i: int) -> int | None:
        """The bracket enclosing token `i`; None at statement level, -1 if opened before the block."""
        sig = self.significant
        depth = 0
        for k in range(i - 1, -1, -1):
            t = sig[k]
            if t.type != OP:
                if t.type == NEWLINE and depth == 0:
                    return None
                continue
            if t.string in _CLOSE:
                depth += 1
            elif t.string in "([{":
                if depth == 0:
                    return -1 if k < self._fake else k
                depth -= 1
        return -1 if depth == 0 else None

    def _items(self, opener_at: int) -> int:
        """How many items the bracket opened at significant token `opener_at` holds, as far as
        the block shows them."""
        depth, items, open_item = 0, 0, False
        for tok in self.significant[opener_at + 1 :]:
            if tok.type == OP and tok.string in _CLOSE:
                if depth == 0:
                    break
                depth -= 1
            elif tok.type == OP and tok.string in "([{":
                depth += 1
            if depth == 0 and tok.string == ",":
                items, open_item = items + open_item, False
            elif tok.type not in (NEWLINE, ENDMARKER):
                open_item = True
        return items + open_item

    def _opener(self, i: int) -> str:
        k = self._opener_index(i)
        return self.significant[k].string if k is not None and k >= 0 else ""


def _levels(tokens: list[tokenize.TokenInfo]) -> Iterator[int]:
    """The bracket depth after each bracket token."""
    level = 0
    for tok in tokens:
        if tok.type == OP and tok.string in "([{":
            level += 1
        elif tok.type == OP and tok.string in ")]}":
            level -= 1
            yield level


def _registry_name(name: str) -> bool:
    """A name that holds a registry: a module constant (`LOSSES`) or one that says so."""
    return bool(_CONSTANT.match(name) or _REGISTRY_WORD.search(name))


def _tokens(text: str, col_fix: int = 0) -> tuple[list[tokenize.TokenInfo], tuple[int, int] | None]:
    """The lines' tokens, and where a triple-quoted string left open at the end starts. With
    `col_fix`, the first line was prefixed by that many characters, taken off row 1's columns."""
    out: list[tokenize.TokenInfo] = []
    try:
        for tok in tokenize.generate_tokens(io.StringIO(text).readline):
            out.append(_unshift(tok, col_fix) if col_fix else tok)
    except tokenize.TokenError as exc:
        if "string" in str(exc.args[0]) and len(exc.args) > 1:
            row, col = exc.args[1]
            return out, (row, col - col_fix if row == 1 else col)
    except (IndentationError, SyntaxError):
        pass
    return out, None


def _unshift(tok: tokenize.TokenInfo, n: int) -> tokenize.TokenInfo:
    (sr, sc), (er, ec) = tok.start, tok.end
    return tok._replace(start=(sr, sc - n if sr == 1 else sc), end=(er, ec - n if er == 1 else ec))


def is_stub(source: str) -> bool:
    """Whether a new module only promises: it defines functions, and none of them does anything
    (a docstring, `pass`, `...`, a `print`, `raise NotImplementedError`, a bare `return`), nor
    does anything else in it beyond imports, assignments and a `__main__` guard. A file named
    after a method that only holds such stubs is scaffolding, not the method."""
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError):
        return False
    functions = [n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)]
    return bool(functions) and all(_inert(n) for n in tree.body)


def _inert(node: ast.stmt) -> bool:
    if isinstance(node, ast.Import | ast.ImportFrom | ast.Assign | ast.Pass):
        return True
    if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
        return all(_does_nothing(n) for n in node.body)
    if isinstance(node, ast.ClassDef):
        return all(_inert(n) or _does_nothing(n) for n in node.body)
    if isinstance(node, ast.If):  # `if __name__ == "__main__":` runs what the module defines
        return "__main__" in ast.unparse(node.test)
    return _does_nothing(node)


def _does_nothing(node: ast.stmt) -> bool:
    if isinstance(node, ast.Pass):
        return True
    if isinstance(node, ast.Expr):  # a docstring, `...`, or a `print(...)`
        value = node.value
        if isinstance(value, ast.Constant):
            return True
        return isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id == "print"
    if isinstance(node, ast.Return):
        return node.value is None or isinstance(node.value, ast.Constant)
    if isinstance(node, ast.Raise) and node.exc is not None:
        exc = node.exc.func if isinstance(node.exc, ast.Call) else node.exc
        return isinstance(exc, ast.Name) and exc.id == "NotImplementedError"
    return False
