"""Reading input files within limits, turning every low-level failure into an `InputError`.

Lines are read with a bounded `readline`, so an overlong line is refused after
at most `max_line` bytes were read, never after it was held whole in memory. Gzip
files are recognised by their suffix; a file that is not gzip, or is cut
short, is named as such. Text must be UTF-8; the error gives line and column.
"""

from __future__ import annotations

import gzip
import json
import zlib
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, BinaryIO

from .input_error import InputError

MAX_LINE_BYTES = 1 << 20  # one JSON Lines record; a GitHub item or arXiv record is a few kB
MAX_FILE_BYTES = 64 << 20  # a file read whole (a full text, a list of ids)
_CHUNK = 1 << 16
INT64_MAX = (1 << 63) - 1


def _mebibytes(n: int) -> str:
    return f"{n / (1 << 20):g} MB"


def _open_binary(path: Path) -> BinaryIO:
    if not path.exists():
        raise InputError(path, "no such file")
    if path.is_dir():
        raise InputError(path, "is a directory, expected a file")
    try:
        return gzip.open(path, "rb") if path.suffix == ".gz" else path.open("rb")
    except OSError as exc:
        raise InputError(path, f"cannot be opened ({exc.strerror})") from None


@contextmanager
def _reading(path: Path) -> Iterator[None]:
    """Low-level read failures of `path` as input errors."""
    try:
        yield
    except gzip.BadGzipFile as exc:
        raise InputError(path, f"not a valid gzip file ({exc})") from None
    except EOFError:
        raise InputError(path, "the gzip data is cut short (truncated file)") from None
    except zlib.error as exc:
        raise InputError(path, f"corrupt gzip data ({exc})") from None
    except OSError as exc:
        raise InputError(path, f"cannot be read ({exc.strerror or exc})") from None


def decode_line(raw: bytes, path: str | Path, line: int) -> str:
    """UTF-8 text of one line; an invalid byte is named with its column."""
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InputError(
            path, f"not valid UTF-8 (byte 0x{raw[exc.start]:02x} at column {exc.start + 1})", line=line
        ) from None


def read_lines(path: str | Path, *, max_line: int = MAX_LINE_BYTES) -> Iterator[tuple[int, str]]:
    """(line number, text) of every line of a plain or .gz file, each at most `max_line` bytes.

    `readline` with a size reads no more than that, so an overlong line costs `max_line` bytes of memory.
    """
    path = Path(path)
    with _open_binary(path) as stream, _reading(path):
        number = 0
        while raw := stream.readline(max_line + 1):
            number += 1
            if raw.endswith(b"\n"):
                raw = raw[:-1]
            elif len(raw) > max_line:
                raise _overlong(path, max_line, number)
            yield number, decode_line(raw, path, number)


def _overlong(path: Path, max_line: int, line: int) -> InputError:
    return InputError(path, f"line longer than the limit of {_mebibytes(max_line)}", line=line)


def read_text(path: str | Path, *, max_bytes: int = MAX_FILE_BYTES) -> str:
    """A whole (small) file as UTF-8 text, refused beyond `max_bytes`."""
    data = read_bytes(path, max_bytes=max_bytes)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        column = exc.start - (data.rfind(b"\n", 0, exc.start) + 1) + 1
        raise InputError(
            path, f"not valid UTF-8 (byte 0x{data[exc.start]:02x} at column {column})", line=line
        ) from None


def read_bytes(path: str | Path, *, max_bytes: int = MAX_FILE_BYTES) -> bytes:
    """A whole (small) file, refused once more than `max_bytes` were read."""
    path = Path(path)
    parts: list[bytes] = []
    size = 0
    with _open_binary(path) as stream, _reading(path):
        while chunk := stream.read(_CHUNK):
            size += len(chunk)
            if size > max_bytes:
                raise InputError(path, f"larger than the limit of {_mebibytes(max_bytes)}")
            parts.append(chunk)
    return b"".join(parts)


def json_line(text: str, path: str | Path, line: int) -> Any:
    """One JSON Lines value; a syntax error names the line and column."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise InputError(path, f"not valid JSON ({exc.msg} at column {exc.colno})", line=line) from None
    except RecursionError:
        raise InputError(path, "JSON nested too deeply", line=line) from None


def json_objects(path: str | Path, *, max_line: int = MAX_LINE_BYTES) -> Iterator[tuple[int, dict[str, Any]]]:
    """(line number, object) of every non-blank line of a JSON Lines file."""
    for number, text in read_lines(path, max_line=max_line):
        if not text.strip():
            continue
        value = json_line(text, path, number)
        if not isinstance(value, dict):
            raise InputError(path, f"expected a JSON object, got {json_type(value)}", line=number)
        yield number, value


def json_type(value: Any) -> str:
    """The JSON name of a Python value's type, for messages."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int | float):
        return "a number"
    if isinstance(value, str):
        return "a string"
    return "an array" if isinstance(value, list) else "an object"


def check_known_fields(
    obj: dict[str, Any], known: Iterable[str], path: str | Path, *, line: int | None = None
) -> None:
    """Refuse a field the format does not have: a misspelt field would otherwise vanish."""
    allowed = set(known)
    for name in obj:
        if name not in allowed:
            raise InputError(path, "unknown field", line=line, field=name)
