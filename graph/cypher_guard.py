"""The statement check for ad-hoc Cypher: read clauses only, one statement, bounded size.

It runs before any database sees the text, on both stores, in the API and the CLI. The
databases' own read-only modes do not cover file access (COPY, LOAD FROM, LOAD CSV), storage
operations (CHECKPOINT) or server administration (SHOW, TERMINATE), so the check works on
tokens: strings, backtick identifiers, comments and parameters are recognised first, and only
bare words are judged as keywords. Anything it cannot read with certainty is refused.
"""

from __future__ import annotations

from dataclasses import dataclass

MAX_STATEMENT_CHARS = 5_000
# Deeply nested brackets crash Ladybug's parser (a segfault at a few thousand levels).
MAX_NESTING = 64
# A timeout of 0 means "none" to Ladybug, so a tiny one must never round down to it.
MIN_TIMEOUT = 0.1
MAX_TIMEOUT = 3600.0

# Words that end the check at once, with the reason given to the caller.
_REFUSED_WORDS: dict[str, str] = {
    "COPY": "COPY reaches files",
    "LOAD": "LOAD reaches files and the network",
    "CHECKPOINT": "CHECKPOINT writes storage",
    "ATTACH": "ATTACH opens other databases",
    "DETACH": "DETACH changes the graph or the attached databases",
    "INSTALL": "INSTALL loads extensions",
    "UNINSTALL": "UNINSTALL changes extensions",
    "EXPORT": "EXPORT writes files",
    "IMPORT": "IMPORT reads files",
    "SHOW": "SHOW reads server administration",
    "TERMINATE": "TERMINATE ends transactions",
    "TRANSACTIONS": "TRANSACTIONS controls transactions",
    "USE": "USE switches databases",
    "CREATE": "CREATE writes the graph",
    "MERGE": "MERGE writes the graph",
    "SET": "SET writes the graph",
    "DELETE": "DELETE writes the graph",
    "REMOVE": "REMOVE writes the graph",
    "DROP": "DROP changes the schema",
    "ALTER": "ALTER changes the schema",
    "RENAME": "RENAME changes the schema",
    "FOREACH": "FOREACH writes the graph",
    "BEGIN": "BEGIN controls transactions",
    "COMMIT": "COMMIT controls transactions",
    "ROLLBACK": "ROLLBACK controls transactions",
    "GRANT": "GRANT changes security",
    "DENY": "DENY changes security",
    "REVOKE": "REVOKE changes security",
    "START": "START administers databases",
    "STOP": "STOP administers databases",
    "ENABLE": "ENABLE administers servers",
    "DEALLOCATE": "DEALLOCATE administers servers",
    "REALLOCATE": "REALLOCATE administers servers",
    "PROFILE": "PROFILE is not offered",
    "EXPLAIN": "EXPLAIN is not offered",
}

_FIRST_CLAUSES = frozenset({"MATCH", "OPTIONAL", "WITH", "UNWIND", "RETURN", "CALL"})

# Read-only procedures that describe the graph (Neo4j and Ladybug names).
ALLOWED_PROCEDURES = frozenset(
    {"db.labels", "db.relationshiptypes", "db.propertykeys", "show_tables", "table_info"}
)

# Built-in function namespaces that compute values only (date.truncate, point.distance, ...).
ALLOWED_FUNCTION_NAMESPACES = frozenset(
    {"date", "datetime", "localdatetime", "time", "localtime", "duration", "point"}
)

_BRACKETS = {"(": ")", "[": "]", "{": "}"}
_CLOSERS = frozenset(_BRACKETS.values())
_SAFE_WHITESPACE = frozenset(" \t\r\n")


class StatementRefused(ValueError):
    """The statement breaks a rule of the ad-hoc sandbox; the message names the rule."""

    def __init__(self, rule: str) -> None:
        super().__init__(f"refused: {rule}")
        self.rule = rule


@dataclass(frozen=True)
class Token:
    kind: str  # word, quoted (backtick identifier), string, number, param, punct
    text: str
    position: int


def tokenize(statement: str) -> list[Token]:
    """The statement's tokens, comments and whitespace dropped; refuses what it cannot read."""
    tokens: list[Token] = []
    i, n = 0, len(statement)
    while i < n:
        char = statement[i]
        if char in _SAFE_WHITESPACE:
            i += 1
        elif statement.startswith("//", i):
            end = statement.find("\n", i)
            i = n if end < 0 else end + 1
        elif statement.startswith("/*", i):
            end = statement.find("*/", i + 2)
            if end < 0:
                raise StatementRefused(f"unterminated comment at character {i}")
            i = end + 2
        elif char in "'\"":
            end = _string_end(statement, i)
            tokens.append(Token("string", statement[i:end], i))
            i = end
        elif char == "`":
            end = _backtick_end(statement, i)
            tokens.append(Token("quoted", statement[i + 1 : end - 1].replace("``", "`"), i))
            i = end
        elif char == "$":
            end = _param_end(statement, i)
            tokens.append(Token("param", statement[i:end], i))
            i = end
        elif char.isascii() and char.isdigit():
            end = _number_end(statement, i)
            tokens.append(Token("number", statement[i:end], i))
            i = end
        elif char.isascii() and (char.isalpha() or char == "_"):
            end = _word_end(statement, i)
            tokens.append(Token("word", statement[i:end], i))
            i = end
        elif char.isascii() and char.isprintable():
            tokens.append(Token("punct", char, i))
            i += 1
        else:
            # Unicode whitespace or letters outside strings: engines disagree on them, so refuse.
            raise StatementRefused(f"character U+{ord(char):04X} outside a string at character {i}")
    return tokens


def _string_end(text: str, start: int) -> int:
    quote, i = text[start], start + 1
    while i < len(text):
        if text[i] == "\\":
            i += 2
        elif text[i] == quote:
            return i + 1
        else:
            i += 1
    raise StatementRefused(f"unterminated string at character {start}")


def _backtick_end(text: str, start: int) -> int:
    i = start + 1
    while i < len(text):
        if text[i] == "`":
            if text.startswith("``", i):
                i += 2
                continue
            return i + 1
        i += 1
    raise StatementRefused(f"unterminated backtick identifier at character {start}")


def _word_end(text: str, start: int) -> int:
    end = start + 1
    while end < len(text) and text[end].isascii() and (text[end].isalnum() or text[end] == "_"):
        end += 1
    return end


def _param_end(text: str, start: int) -> int:
    if text.startswith("$`", start):
        return _backtick_end(text, start + 1)
    end = start + 1
    while end < len(text) and text[end].isascii() and (text[end].isalnum() or text[end] == "_"):
        end += 1
    if end == start + 1:
        raise StatementRefused(f"a bare $ at character {start}")
    return end


def _number_end(text: str, start: int) -> int:
    end = start
    while end < len(text) and text[end].isascii() and (text[end].isalnum() or text[end] == "_"):
        end += 1
    # A decimal part, but not the `..` of a variable-length range such as *1..3.
    if end + 1 < len(text) and text[end] == "." and text[end + 1].isdigit():
        end += 1
        while end < len(text) and text[end].isascii() and (text[end].isalnum() or text[end] == "_"):
            end += 1
    return end


def check_statement(statement: str, *, max_chars: int = MAX_STATEMENT_CHARS) -> str:
    """The statement without a trailing `;` if it is one read-only statement; else StatementRefused."""
    if len(statement) > max_chars:
        raise StatementRefused(f"statement is {len(statement)} characters, the limit is {max_chars}")
    tokens = tokenize(statement)
    if tokens and tokens[-1].text == ";" and tokens[-1].kind == "punct":
        statement, tokens = statement[: tokens[-1].position], tokens[:-1]
    if not tokens:
        raise StatementRefused("empty statement")
    _check_brackets(tokens)
    # The most telling rule first: a COPY after a `;` is refused as COPY, not as two statements.
    for index, token in enumerate(tokens):
        if token.kind == "word" and _is_keyword_position(tokens, index):
            _check_word(tokens, index)
    if any(token.kind == "punct" and token.text == ";" for token in tokens):
        raise StatementRefused("one statement per request")
    _check_first_clause(tokens[0])
    return statement.rstrip()


def _check_brackets(tokens: list[Token]) -> None:
    open_stack: list[str] = []
    for token in tokens:
        if token.kind != "punct":
            continue
        if token.text in _BRACKETS:
            open_stack.append(_BRACKETS[token.text])
            if len(open_stack) > MAX_NESTING:
                raise StatementRefused(f"brackets nested deeper than {MAX_NESTING} levels")
        elif token.text in _CLOSERS:
            if not open_stack or open_stack.pop() != token.text:
                raise StatementRefused(f"unbalanced '{token.text}' at character {token.position}")
    if open_stack:
        raise StatementRefused(f"unclosed bracket, expected '{open_stack[-1]}'")


def _check_first_clause(token: Token) -> None:
    if token.kind != "word" or token.text.upper() not in _FIRST_CLAUSES:
        raise StatementRefused(f"a statement starts with one of {', '.join(sorted(_FIRST_CLAUSES))}")


def _is_keyword_position(tokens: list[Token], index: int) -> bool:
    """False for property names (n.copy), labels and map keys (n:Load, {set: 1})."""
    before = tokens[index - 1] if index > 0 else None
    if before is not None and before.kind == "punct" and before.text in ".:":
        return False
    after = tokens[index + 1] if index + 1 < len(tokens) else None
    return not (after is not None and after.kind == "punct" and after.text == ":")


def _check_word(tokens: list[Token], index: int) -> None:
    word = tokens[index].text.upper()
    if word in _REFUSED_WORDS:
        raise StatementRefused(_REFUSED_WORDS[word])
    if word == "CALL":
        _check_call(tokens, index)
    elif _is_namespaced_call(tokens, index):
        raise StatementRefused(f"namespaced function {_dotted_name(tokens, index)[0]} is not allowed")


def _check_call(tokens: list[Token], index: int) -> None:
    following = tokens[index + 1] if index + 1 < len(tokens) else None
    if following is None:
        raise StatementRefused("CALL without a procedure")
    if following.kind == "punct" and following.text in "{(":
        return  # a subquery; its clauses are checked like the rest
    name, _ = _dotted_name(tokens, index + 1)
    if name.lower() not in ALLOWED_PROCEDURES:
        raise StatementRefused(f"CALL {name} is not an allowed procedure")


def _dotted_name(tokens: list[Token], index: int) -> tuple[str, int]:
    """The name a.b.c starting at index, and the index after it."""
    parts = []
    while index < len(tokens) and tokens[index].kind in ("word", "quoted"):
        parts.append(tokens[index].text)
        index += 1
        if index < len(tokens) and tokens[index].text == "." and tokens[index].kind == "punct":
            index += 1
        else:
            break
    return ".".join(parts), index


def _is_namespaced_call(tokens: list[Token], index: int) -> bool:
    """apoc.load.json(...), dbms.x(...): namespaced functions, which may reach outside the graph."""
    if index > 0 and tokens[index - 1].kind == "word" and tokens[index - 1].text.upper() == "CALL":
        return False  # a procedure name, judged by _check_call
    name, after = _dotted_name(tokens, index)
    if "." not in name or after >= len(tokens) or _is_builtin_namespace(name):
        return False
    return tokens[after].kind == "punct" and tokens[after].text == "("


def _is_builtin_namespace(name: str) -> bool:
    namespace, _, function = name.lower().rpartition(".")
    return namespace in ALLOWED_FUNCTION_NAMESPACES and function.isidentifier()
