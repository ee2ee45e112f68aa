"""Stored Cypher queries: one `.cypher` file each, with a documented header.

A file starts with `//` header lines::

    // name: method-lineage
    // description: Ancestors and descendants of a method through EXTENDS.
    // param: slug STRING = "grpo" -- the method's slug
    // param: since DATE -- no default: required
    // returns: direction, method, name, change, depth

The same file runs on every backend; `NAME.neo4j.cypher` or
`NAME.ladybug.cypher` next to it overrides it where a dialect forces that.
`queries.run.run_query` binds the parameters and runs a query on a store.
"""

from __future__ import annotations

import datetime as dt
import json
import re
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

QUERY_DIR = Path(__file__).parent
BACKENDS = ("ladybug", "neo4j")
PARAM_TYPES = ("STRING", "INT64", "DOUBLE", "BOOL", "DATE", "STRING[]")
_PARAM = re.compile(
    r"(?P<name>[a-z_][a-z0-9_]*)\s+(?P<type>STRING\[\]|STRING|INT64|DOUBLE|BOOL|DATE)"
    r"(?:\s*=\s*(?P<default>.+?))?\s*(?:--\s*(?P<doc>.*))?$"
)


_ISO_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")


class QueryError(ValueError):
    """A stored query file or a parameter value is wrong; the message names it."""


@dataclass(frozen=True)
class QueryParam:
    name: str
    type: str
    default: Any = None
    required: bool = True
    doc: str = ""

    @property
    def signature(self) -> str:
        shown = f"={json.dumps(self.default, default=str)}" if not self.required else ""
        return f"{self.name}: {self.type}{shown}"

    def coerce(self, value: Any) -> Any:
        """Convert a CLI string or JSON value to this parameter's type, or say why not."""
        try:
            return _coerce(self.type, value)
        except (ValueError, TypeError):
            raise QueryError(f"parameter {self.name!r} must be {self.type}, got {value!r}") from None


def _coerce(type_: str, value: Any) -> Any:
    if value is None:
        return None
    if type_ == "STRING":
        if not isinstance(value, str):
            raise TypeError
        return value
    if type_ == "INT64":
        if isinstance(value, bool) or isinstance(value, float):
            raise TypeError
        return int(value)
    if type_ == "DOUBLE":
        if isinstance(value, bool):
            raise TypeError
        return float(value)
    if type_ == "BOOL":
        if isinstance(value, bool):
            return value
        if str(value).lower() in ("true", "1", "yes"):
            return True
        if str(value).lower() in ("false", "0", "no"):
            return False
        raise ValueError
    if type_ == "DATE":
        if isinstance(value, dt.date):
            return value
        if not isinstance(value, str) or not _ISO_DATE.match(value):
            raise ValueError  # not 0, a timestamp or the compact 20240101: a date reads YYYY-MM-DD
        return dt.date.fromisoformat(value)
    if type_ == "STRING[]":
        if isinstance(value, str):
            return [v.strip() for v in value.split(",") if v.strip()]
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise TypeError
        return value
    raise AssertionError(type_)


@dataclass(frozen=True)
class StoredQuery:
    name: str
    description: str
    params: tuple[QueryParam, ...]
    returns: tuple[str, ...]
    cypher: str
    path: Path
    overrides: dict[str, str] = field(default_factory=dict)

    def cypher_for(self, backend: str) -> str:
        return self.overrides.get(backend, self.cypher)


def _body(text: str) -> str:
    return "\n".join(line for line in text.splitlines() if not line.lstrip().startswith("//")).strip()


def parse_query_file(path: Path) -> StoredQuery:
    header: dict[str, Any] = {"param": []}
    for number, line in enumerate(path.read_text().splitlines(), 1):
        if not line.startswith("//"):
            break
        key, _, value = line[2:].strip().partition(":")
        key, value = key.strip(), value.strip()
        if key == "param":
            header["param"].append(_parse_param(path, number, value))
        elif key in ("name", "description", "returns"):
            header[key] = value
        else:
            raise QueryError(f"{path.name} line {number}: unknown header field {key!r}")
    for required in ("name", "description", "returns"):
        if not header.get(required):
            raise QueryError(f"{path.name}: header field {required!r} is missing")
    if header["name"] != path.stem:
        raise QueryError(f"{path.name}: header name {header['name']!r} must match the file name")
    body = _body(path.read_text())
    if not body:
        raise QueryError(f"{path.name}: no Cypher after the header")
    overrides = {
        b: _body(o.read_text()) for b in BACKENDS if (o := path.with_suffix(f".{b}.cypher")).exists()
    }
    return StoredQuery(
        name=header["name"],
        description=header["description"],
        params=tuple(header["param"]),
        returns=tuple(c.strip() for c in header["returns"].split(",")),
        cypher=body,
        path=path,
        overrides=overrides,
    )


def _parse_param(path: Path, number: int, text: str) -> QueryParam:
    m = _PARAM.match(text)
    if not m:
        raise QueryError(f"{path.name} line {number}: param must read 'name TYPE [= default] [-- doc]'")
    default = m.group("default")
    param = QueryParam(
        m.group("name"), m.group("type"), None, default is None, (m.group("doc") or "").strip()
    )
    if default is None:
        return param
    try:
        value = None if default == "null" else param.coerce(json.loads(default))
    except (json.JSONDecodeError, QueryError) as exc:
        raise QueryError(f"{path.name} line {number}: bad default for {param.name!r}: {exc}") from None
    return QueryParam(param.name, param.type, value, False, param.doc)


@cache
def load_queries(folder: Path = QUERY_DIR) -> dict[str, StoredQuery]:
    files = sorted(p for p in folder.glob("*.cypher") if p.suffixes == [".cypher"])
    return {q.name: q for q in map(parse_query_file, files)}


def parse_params(pairs: list[str]) -> dict[str, str]:
    """`["slug=grpo", "depth=3"]` -> dict; the stored query's types convert the values."""
    out = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        if not sep or not name:
            raise QueryError(f"--param takes name=value, got {pair!r}")
        out[name.strip()] = value
    return out
