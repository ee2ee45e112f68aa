"""Checks of saved GitHub REST items (issues, pull requests, issue comments) before they are used.

GitHub adds fields over time, so unknown fields are allowed; every field the
loader reads must be there when GitHub always sends it, and of the type GitHub
sends. Errors name the file, the line where the item starts, and the field.
"""

from __future__ import annotations

import datetime as dt
import json
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from .input_error import InputError
from .input_files import INT64_MAX, json_type

_ISSUE_URL = re.compile(r"/issues/(\d+)$")


def _timestamp(value: Any) -> bool:
    if not isinstance(value, str):
        return False
    try:
        dt.datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        return False
    return True


def _positive_int64(value: Any) -> bool:
    return not isinstance(value, bool) and isinstance(value, int) and 0 < value <= INT64_MAX


def _user(value: Any) -> bool:
    return isinstance(value, dict) and isinstance(value.get("login"), str)


def _labels(value: Any) -> bool:
    return isinstance(value, list) and all(
        isinstance(v, dict) and isinstance(v.get("name"), str) for v in value
    )


def _count(value: Any) -> bool:
    return not isinstance(value, bool) and isinstance(value, int) and 0 <= value <= INT64_MAX


_Check = tuple[Callable[[Any], bool], str]
_TEXT: _Check = (lambda v: isinstance(v, str), "a string")
_TIME: _Check = (_timestamp, "an ISO 8601 timestamp")
_NUMBER: _Check = (_positive_int64, "a positive 64-bit integer")
_USER: _Check = (_user, "an object with a string 'login'")

# field -> (check, words, required); a field that is not required may also be null.
_THREAD: dict[str, tuple[Callable[[Any], bool], str, bool]] = {
    "number": (*_NUMBER, True),
    "title": (*_TEXT, True),
    "created_at": (*_TIME, True),
    "user": (*_USER, True),
    "body": (*_TEXT, False),
    "state": (*_TEXT, False),
    "updated_at": (*_TIME, False),
    "closed_at": (*_TIME, False),
    "html_url": (*_TEXT, False),
    "author_association": (*_TEXT, False),
    "labels": (_labels, "a list of {name} objects", False),
}
_FIELDS = {
    "issues": {
        **_THREAD,
        "comments": (_count, "a count", False),
        "pull_request": (lambda v: isinstance(v, dict), "an object", False),
    },
    "pulls": {**_THREAD, "merged_at": (*_TIME, False), "merge_commit_sha": (*_TEXT, False)},
    "comments": {
        "id": (*_NUMBER, True),
        "issue_url": (lambda v: isinstance(v, str) and bool(_ISSUE_URL.search(v)), "an issue URL", True),
        "created_at": (*_TIME, True),
        "user": (*_USER, True),
        "body": (*_TEXT, False),
        "author_association": (*_TEXT, False),
    },
}


def check_item(item: dict[str, Any], kind: str, path: Path, line: int) -> None:
    """Raise an `InputError` naming the field of `item` that the loader could not use."""
    for field, (valid, words, required) in _FIELDS[kind].items():
        if field not in item:
            if required:
                raise InputError(path, f"missing from this {_NAMES[kind]}", line=line, field=field)
            continue
        value = item[field]
        if value is None and not required:
            continue
        if not valid(value):
            shown = (
                repr(value) if isinstance(value, int | str) and len(repr(value)) < 60 else json_type(value)
            )
            raise InputError(path, f"must be {words}, got {shown}", line=line, field=field)
    merged = (item.get("pull_request") or {}).get("merged_at") if kind == "issues" else None
    if merged is not None and not _timestamp(merged):
        raise InputError(path, "'merged_at' must be an ISO 8601 timestamp", line=line, field="pull_request")


_NAMES = {"issues": "issue", "pulls": "pull request", "comments": "comment"}


class _Lines:
    """Line numbers of increasing positions in a text, counted once."""

    def __init__(self, text: str):
        self.text, self.pos, self.line = text, 0, 1

    def at(self, pos: int) -> int:
        self.line += self.text.count("\n", self.pos, pos)
        self.pos = pos
        return self.line


def json_items(text: str, path: Path) -> Iterator[tuple[int, Any]]:
    """(line, value) of every top-level JSON value in `text`, the items of arrays one by one.

    `gh api --paginate` concatenates pages (arrays); each item is located by the line it starts on.
    """
    decoder = json.JSONDecoder()
    lines = _Lines(text)

    def skip_space(at: int) -> int:
        while at < len(text) and text[at].isspace():
            at += 1
        return at

    def decode(at: int) -> tuple[Any, int]:
        try:
            return decoder.raw_decode(text, at)
        except json.JSONDecodeError as exc:
            raise InputError(path, f"not JSON ({exc.msg})", line=lines.at(max(exc.pos, at))) from None
        except RecursionError:
            raise InputError(path, "JSON nested too deeply", line=lines.at(at)) from None

    pos = skip_space(0)
    while pos < len(text):
        if text[pos] != "[":
            value, end = decode(pos)
            yield lines.at(pos), value
            pos = skip_space(end)
            continue
        pos = skip_space(pos + 1)
        while pos < len(text) and text[pos] != "]":
            value, end = decode(pos)
            yield lines.at(pos), value
            pos = skip_space(end)
            if pos < len(text) and text[pos] == ",":
                pos = skip_space(pos + 1)
                if pos < len(text) and text[pos] == "]":
                    raise InputError(path, "not JSON (a comma before ']')", line=lines.at(pos))
            elif pos >= len(text) or text[pos] != "]":
                raise InputError(path, "not JSON (expected ',' or ']' after an item)", line=lines.at(pos))
        if pos >= len(text):
            raise InputError(path, "not JSON (an array is not closed)", line=lines.at(pos))
        pos = skip_space(pos + 1)
