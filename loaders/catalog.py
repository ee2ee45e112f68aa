"""The method catalog: hand-curated methods, frameworks and organisations.

The catalog is the first thing a build loads, so the graph knows the named
methods (with their lineage and the identifiers frameworks use for them), the
frameworks and who maintains them before any paper or commit arrives. The data
lives in JSON Lines files beside this module so that every error can name the
file, the line and the field. The whole catalog is validated before a single
record is written: a malformed row leaves a stored graph exactly as it was.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..graph.records import Edge, Evidence, Node, Record
from .input_error import InputError
from .input_files import json_objects

DATA_FOLDER = Path(__file__).resolve().parent / "data"
METHODS_FILE = "methods.jsonl"
FRAMEWORKS_FILE = "frameworks.jsonl"
ORGANIZATIONS_FILE = "organizations.jsonl"

CHANGES = ("coefficient", "clip", "mask", "weight", "advantage", "sampling", "other")
FAMILIES = ("policy-gradient", "preference", "reward-model", "distillation", "other")
ORGANIZATION_KINDS = ("company", "lab", "university", "community")

_SLUG = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
_REPO = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]*/[A-Za-z0-9][A-Za-z0-9_.-]*$")
# New-style arXiv ids: four-digit serials until 1412, five from 1501 on.
_ARXIV = re.compile(r"^(?P<yy>\d{2})(?P<mm>\d{2})\.(?P<serial>\d{4,5})$")


@dataclass(frozen=True)
class MethodEntry:
    slug: str
    name: str
    aliases: tuple[str, ...]
    arxiv_id: str | None
    paper_title: str | None
    parent: str | None
    change: str | None
    change_detail: str
    family: str
    ambiguous_aliases: tuple[str, ...] = ()
    paper_date: str | None = None  # the paper's first arXiv version, ISO date
    # The method's defining computation as a regular expression over the added lines of package
    # code ('+'-led diff lines; a group named `what` is the part quoted as evidence), and what the
    # change's message or paths must also say for the match to be this method (a regular expression
    # that matches within a line).
    computation: str | None = None
    computation_context: str | None = None
    # What every change that ships the method has somewhere in its message, paths or added lines,
    # as a regular expression that matches within a line (PPO trains a value function): a change
    # that names the method without it only mentions it.
    shipped_with: str | None = None
    # Aliases that name this method and no other in one framework's code and in every copy of it,
    # as that framework documents them: package name -> aliases (OpenRLHF's `reinforce` is
    # REINFORCE++, though elsewhere the word is REINFORCE).
    package_spellings: tuple[tuple[str, tuple[str, ...]], ...] = ()


@dataclass(frozen=True)
class FrameworkEntry:
    slug: str
    name: str
    repo: str
    organization: str | None = None  # None: not stated, so no MAINTAINED_BY
    license: str | None = None
    language: str | None = None
    default_branch: str | None = None
    first_commit_date: str | None = None
    supports: tuple[tuple[str, str], ...] = ()  # (method slug, evidence path at head)
    source: str = "shipped"  # or "user": added with `uptake framework add`, kept beside the store


@dataclass(frozen=True)
class OrganizationEntry:
    slug: str
    name: str
    kind: str


@dataclass(frozen=True)
class Catalog:
    methods: dict[str, MethodEntry]
    frameworks: dict[str, FrameworkEntry]
    organizations: dict[str, OrganizationEntry]

    def find_framework(self, name: str) -> FrameworkEntry | None:
        """A framework by any spelling the catalog knows: its slug, its name or its repository
        (`owner/name` or `name`), in any case and with `_`, `-` or `.` alike."""
        wanted = _spelling(name)
        entries = self.frameworks.values()
        for spellings_of in (
            lambda e: (e.slug,),  # a slug wins over another framework's name or repository
            lambda e: (e.name, e.repo, e.repo.rpartition("/")[2]),
        ):
            for entry in entries:
                if wanted in {_spelling(s) for s in spellings_of(entry)}:
                    return entry
        return None

    def vendored_packages(self, slug: str) -> tuple[str, ...]:
        """Package names of the other catalog frameworks (from their slugs and repository names):
        a tree of that name inside `slug`'s repository is a vendored copy. Names under three
        characters say too little to tell a copy from a folder."""

        def names(entry: FrameworkEntry) -> set[str]:
            spelled = {entry.slug, entry.repo.rpartition("/")[2]}
            return {n.lower().replace("-", "_") for n in spelled if len(n) >= 3}

        own = {slug.lower().replace("-", "_")}  # never the framework's own, even if not catalogued
        if slug in self.frameworks:
            own |= names(self.frameworks[slug])
        return tuple(sorted(set().union(*(names(e) for e in self.frameworks.values())) - own))


def _spelling(name: str) -> str:
    return re.sub(r"[-_.\s]+", "-", name.strip().lower())


class CatalogError(InputError):
    """A catalog row is malformed; the message names the file, the line and the field."""


# --- reading rows -----------------------------------------------------------


@dataclass(frozen=True)
class _Row:
    file: Path
    line: int
    data: dict[str, Any]

    def fail(self, field: str, problem: str) -> CatalogError:
        return CatalogError(self.file, problem, line=self.line, field=field)


def _read_rows(folder: Path, name: str) -> list[_Row]:
    return _read_file_rows(folder / name)


def _read_file_rows(path: Path) -> list[_Row]:
    if not path.exists():
        raise CatalogError(path, "file not found")
    try:
        return [_Row(path, number, data) for number, data in json_objects(path)]
    except InputError as exc:
        raise CatalogError(exc.source, exc.message, line=exc.line, field=exc.field) from None


def _check_fields(row: _Row, required: tuple[str, ...], optional: tuple[str, ...] = ()) -> None:
    """Every required field present, nothing unknown (a misspelt field would otherwise vanish)."""
    for name in required:
        if name not in row.data:
            raise row.fail(name, "missing")
    for name in row.data:
        if name not in required and name not in optional:
            raise row.fail(name, "unknown field")


def _text(row: _Row, field: str, *, nullable: bool = False) -> str | None:
    value = row.data.get(field)
    if value is None and nullable:
        return None
    if not isinstance(value, str):
        expected = "a string or null" if nullable else "a string"
        raise row.fail(field, f"must be {expected}, got {value!r}")
    if not value.strip() or value != value.strip():
        raise row.fail(field, f"must be non-empty text without surrounding spaces, got {value!r}")
    return value


def _slug(row: _Row, field: str, *, nullable: bool = False) -> str | None:
    value = _text(row, field, nullable=nullable)
    if value is not None and not _SLUG.match(value):
        raise row.fail(field, f"{value!r} is not a slug (lowercase words joined by '-')")
    return value


def _choice(row: _Row, field: str, allowed: tuple[str, ...], *, nullable: bool = False) -> str | None:
    value = _text(row, field, nullable=nullable)
    if value is not None and value not in allowed:
        raise row.fail(field, f"{value!r} is not one of {', '.join(allowed)}")
    return value


def _pattern(row: _Row, field: str) -> str | None:
    """An optional regular expression, checked to compile."""
    value = _text(row, field, nullable=True)
    if value is not None:
        try:
            re.compile(value)
        except re.error as exc:
            raise row.fail(field, f"is not a regular expression ({exc})") from None
    return value


def _texts(row: _Row, field: str, *, min_items: int = 0) -> tuple[str, ...]:
    value = row.data.get(field, [])
    if not isinstance(value, list):
        raise row.fail(field, f"must be a list of strings, got {value!r}")
    items = []
    for item in value:
        if not isinstance(item, str) or not item.strip() or item != item.strip():
            raise row.fail(field, f"items must be non-empty strings without surrounding spaces, got {item!r}")
        if item in items:
            raise row.fail(field, f"{item!r} is listed twice")
        items.append(item)
    if len(items) < min_items:
        raise row.fail(field, f"needs at least {min_items} item(s)")
    return tuple(items)


def _arxiv_id(row: _Row, field: str) -> str | None:
    value = _text(row, field, nullable=True)
    if value is None:
        return None
    m = _ARXIV.match(value)
    if not m or not 1 <= int(m["mm"]) <= 12:
        raise row.fail(field, f"{value!r} is not a new-style arXiv id (YYMM.NNNNN, no version)")
    five_digits = (int(m["yy"]), int(m["mm"])) >= (15, 1)
    if five_digits != (len(m["serial"]) == 5):
        raise row.fail(field, f"{value!r}: ids from 1501 on have five digits after the dot, earlier four")
    return value


def _iso_date(row: _Row, field: str, *, nullable: bool = False) -> str | None:
    value = _text(row, field, nullable=nullable)
    if value is None:
        return None
    try:
        dt.datetime.fromisoformat(value)
    except ValueError:
        raise row.fail(field, f"{value!r} is not an ISO date or timestamp") from None
    return value


_PACKAGE = re.compile(r"^[a-z_][a-z0-9_]*$")


def _package_spellings(row: _Row, ambiguous: tuple[str, ...]) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """`{"package": ["alias", ...]}`: each alias one of the row's ambiguous aliases (an unambiguous
    one needs no package to say whose it is)."""
    value = row.data.get("package_spellings", {})
    if not isinstance(value, dict):
        raise row.fail("package_spellings", f"must be an object of package name -> aliases, got {value!r}")
    out = []
    for package, aliases in value.items():
        if not _PACKAGE.match(package):
            raise row.fail("package_spellings", f"{package!r} is not a package name (lowercase, '_' for '-')")
        listed = _Row(row.file, row.line, {"package_spellings": aliases})
        spelled = _texts(listed, "package_spellings", min_items=1)
        for alias in spelled:
            if alias not in ambiguous:
                raise row.fail("package_spellings", f"{alias!r} is not one of the row's ambiguous_aliases")
        out.append((package, spelled))
    return tuple(out)


# --- one entry per row ------------------------------------------------------

_METHOD_FIELDS = ("slug", "name", "aliases", "arxiv_id", "paper_title", "parent", "change", "change_detail")


def _method(row: _Row) -> MethodEntry:
    _check_fields(
        row,
        _METHOD_FIELDS + ("family",),
        ("ambiguous_aliases", "paper_date", "computation", "computation_context", "shipped_with",
         "package_spellings"),
    )  # fmt: skip
    aliases = _texts(row, "aliases", min_items=1)
    ambiguous = _texts(row, "ambiguous_aliases")
    for alias in ambiguous:
        if alias not in aliases:
            raise row.fail("ambiguous_aliases", f"{alias!r} is not one of the row's aliases")
    entry = MethodEntry(
        slug=_slug(row, "slug"),
        name=_text(row, "name"),
        aliases=aliases,
        arxiv_id=_arxiv_id(row, "arxiv_id"),
        paper_title=_text(row, "paper_title", nullable=True),
        parent=_slug(row, "parent", nullable=True),
        change=_choice(row, "change", CHANGES, nullable=True),
        change_detail=_text(row, "change_detail"),
        family=_choice(row, "family", FAMILIES),
        ambiguous_aliases=ambiguous,
        paper_date=_iso_date(row, "paper_date") if row.data.get("paper_date") is not None else None,
        computation=_pattern(row, "computation"),
        computation_context=_pattern(row, "computation_context"),
        shipped_with=_pattern(row, "shipped_with"),
        package_spellings=_package_spellings(row, ambiguous),
    )
    if (entry.computation is None) != (entry.computation_context is None):
        raise row.fail("computation_context", "must be given exactly when computation is given")
    if entry.paper_date and not entry.arxiv_id:
        raise row.fail("paper_date", "given without arxiv_id")
    if entry.arxiv_id and not entry.paper_title:
        raise row.fail("paper_title", "required when arxiv_id is given")
    if (entry.parent is None) != (entry.change is None):
        raise row.fail("change", "must be given exactly when parent is given")
    if entry.parent == entry.slug:
        raise row.fail("parent", "a method cannot extend itself")
    return entry


FRAMEWORK_FIELDS = ("slug", "name", "repo")
# Facts a row states or leaves null when they are not known.
FRAMEWORK_FACTS = ("organization", "license", "language", "default_branch", "first_commit_date")


def _framework(row: _Row, source: str = "shipped") -> FrameworkEntry:
    # The shipped file spells every fact out (null where unknown); a user's file may leave them out.
    if source == "shipped":
        _check_fields(row, FRAMEWORK_FIELDS + FRAMEWORK_FACTS, ("supports",))
    else:
        _check_fields(row, FRAMEWORK_FIELDS, FRAMEWORK_FACTS + ("supports",))
    repo = _text(row, "repo")
    if not is_repo(repo):
        raise row.fail("repo", f"{repo!r} is not owner/name")
    return FrameworkEntry(
        slug=_slug(row, "slug"),
        name=_text(row, "name"),
        repo=repo,
        organization=_slug(row, "organization", nullable=True),
        license=_text(row, "license", nullable=True),
        language=_text(row, "language", nullable=True),
        default_branch=_text(row, "default_branch", nullable=True),
        first_commit_date=_iso_date(row, "first_commit_date", nullable=True),
        supports=_supports(row),
        source=source,
    )


def is_repo(text: str) -> bool:
    """`owner/name` as GitHub spells repositories."""
    return bool(_REPO.match(text)) and not text.endswith(".git")


def framework_row(entry: FrameworkEntry) -> dict[str, Any]:
    """The catalog row of an entry, as the frameworks files hold it (facts left out when unknown)."""
    row: dict[str, Any] = {"slug": entry.slug, "name": entry.name, "repo": entry.repo}
    row |= {field: getattr(entry, field) for field in FRAMEWORK_FACTS if getattr(entry, field) is not None}
    if entry.supports:
        row["supports"] = [{"method": m, "evidence": e} for m, e in entry.supports]
    return row


def _supports(row: _Row) -> tuple[tuple[str, str], ...]:
    value = row.data.get("supports", [])
    if not isinstance(value, list):
        raise row.fail("supports", "must be a list of {method, evidence} objects")
    pairs: list[tuple[str, str]] = []
    for item in value:
        if not isinstance(item, dict) or set(item) != {"method", "evidence"}:
            raise row.fail("supports", f"items must be {{method, evidence}} objects, got {item!r}")
        method, evidence = item["method"], item["evidence"]
        if not isinstance(method, str) or not _SLUG.match(method):
            raise row.fail("supports", f"method {method!r} is not a slug")
        if not isinstance(evidence, str) or not evidence or evidence.startswith("/"):
            raise row.fail("supports", f"evidence for {method!r} must be a path inside the repository")
        if any(m == method for m, _ in pairs):
            raise row.fail("supports", f"method {method!r} is listed twice")
        pairs.append((method, evidence))
    return tuple(pairs)


def _organization(row: _Row) -> OrganizationEntry:
    _check_fields(row, ("slug", "name", "kind"))
    return OrganizationEntry(
        slug=_slug(row, "slug"),
        name=_text(row, "name"),
        kind=_choice(row, "kind", ORGANIZATION_KINDS),
    )


# --- the whole catalog ------------------------------------------------------


def _entries(rows: list[_Row], build: Callable[[_Row], Any]) -> tuple[dict[str, Any], dict[str, _Row]]:
    """Entries by slug, and the row each came from (for errors found across rows)."""
    entries: dict[str, Any] = {}
    origins: dict[str, _Row] = {}
    for row in rows:
        entry = build(row)
        if entry.slug in entries:
            first = origins[entry.slug].line
            raise row.fail("slug", f"{entry.slug!r} already defined on line {first}")
        entries[entry.slug] = entry
        origins[entry.slug] = row
    return entries, origins


def _check_lineage(methods: dict[str, MethodEntry], origins: dict[str, _Row]) -> None:
    for slug, method in methods.items():
        if method.parent is not None and method.parent not in methods:
            raise origins[slug].fail("parent", f"unknown method {method.parent!r}")
    for slug in methods:
        seen = [slug]
        parent = methods[slug].parent
        while parent is not None:
            if parent in seen:
                cycle = " -> ".join(seen + [parent])
                raise origins[slug].fail("parent", f"lineage loops: {cycle}")
            seen.append(parent)
            parent = methods[parent].parent


def _check_aliases(methods: dict[str, MethodEntry], origins: dict[str, _Row]) -> None:
    """An alias may name two methods only if every method listing it marks it ambiguous.

    Compared case-insensitively, because the linker matches aliases that way.
    """
    owners: dict[str, str] = {}
    for slug, method in methods.items():
        for alias in method.aliases:
            key = alias.casefold()
            other = owners.get(key)
            if other is None:
                owners[key] = slug
                continue
            if other == slug:
                continue  # display and code spellings of one method ("PPO", "ppo")
            both_ambiguous = _is_ambiguous(methods[other], key) and _is_ambiguous(method, key)
            if not both_ambiguous:
                raise origins[slug].fail(
                    "aliases",
                    f"{alias!r} is also an alias of {other!r}; list it in ambiguous_aliases of both",
                )


def _check_package_spellings(methods: dict[str, MethodEntry], origins: dict[str, _Row]) -> None:
    """A package spells an alias for one method only."""
    owners: dict[tuple[str, str], str] = {}
    for slug, method in methods.items():
        for package, aliases in method.package_spellings:
            for alias in aliases:
                other = owners.setdefault((package, alias.casefold()), slug)
                if other != slug:
                    raise origins[slug].fail(
                        "package_spellings", f"{package!r} already spells {alias!r} for {other!r}"
                    )


def _is_ambiguous(method: MethodEntry, key: str) -> bool:
    return any(a.casefold() == key for a in method.ambiguous_aliases)


def _check_papers(methods: dict[str, MethodEntry], origins: dict[str, _Row]) -> None:
    """Methods sharing a proposing paper must agree on its title."""
    titles: dict[str, str] = {}
    for slug, method in methods.items():
        if method.arxiv_id is None:
            continue
        known = titles.setdefault(method.arxiv_id, method.paper_title)
        if known != method.paper_title:
            raise origins[slug].fail("paper_title", f"{method.arxiv_id} is titled {known!r} on another row")


def _check_frameworks(catalog: Catalog, origins: dict[str, _Row]) -> None:
    repos: dict[str, str] = {}
    for slug, framework in catalog.frameworks.items():
        row = origins[slug]
        if framework.organization is not None and framework.organization not in catalog.organizations:
            raise row.fail("organization", f"unknown organization {framework.organization!r}")
        for method, _ in framework.supports:
            if method not in catalog.methods:
                raise row.fail("supports", f"unknown method {method!r}")
        other = repos.setdefault(framework.repo.casefold(), slug)
        if other != slug:
            raise row.fail("repo", f"{framework.repo} is already the repository of {other!r}")


def _check_user_frameworks(
    shipped: Catalog, added: dict[str, FrameworkEntry], origins: dict[str, _Row]
) -> None:
    """A user's framework may not take a shipped framework's slug or repository, nor a slug that
    the framework look-up would read as a shipped framework's name or repository."""
    for slug, framework in added.items():
        row = origins[slug]
        if slug in shipped.frameworks:
            taken = shipped.frameworks[slug]
            raise row.fail(
                "slug", f"{slug!r} is the slug of {taken.repo}, shipped with Uptake; choose another"
            )
        taken = shipped.find_framework(slug)  # a slug is looked up first, so it would shadow that one
        if taken is not None and taken.repo.casefold() != framework.repo.casefold():
            raise row.fail("slug", f"{slug!r} would be read as {taken.slug!r} ({taken.repo}); choose another")


def read_catalog(folder: Path | None = None, user_frameworks: Path | None = None) -> Catalog:
    """Read and validate the catalog; the default is the packaged data folder. `user_frameworks`
    is a file of frameworks a user added (the same row format; absent means none)."""
    folder = Path(folder) if folder is not None else DATA_FOLDER
    organizations, _ = _entries(_read_rows(folder, ORGANIZATIONS_FILE), _organization)
    methods, method_rows = _entries(_read_rows(folder, METHODS_FILE), _method)
    frameworks, framework_rows = _entries(_read_rows(folder, FRAMEWORKS_FILE), _framework)
    _check_lineage(methods, method_rows)
    _check_aliases(methods, method_rows)
    _check_package_spellings(methods, method_rows)
    _check_papers(methods, method_rows)
    catalog = Catalog(methods, frameworks, organizations)
    _check_frameworks(catalog, framework_rows)
    if user_frameworks is None or not Path(user_frameworks).exists():
        return catalog
    added, added_rows = _entries(
        _read_file_rows(Path(user_frameworks)), lambda row: _framework(row, source="user")
    )
    _check_user_frameworks(catalog, added, added_rows)
    merged = Catalog(methods, frameworks | added, organizations)
    _check_frameworks(merged, framework_rows | added_rows)
    return merged


# --- records ----------------------------------------------------------------


def catalog_records(catalog: Catalog) -> Iterator[Record]:
    """Nodes and edges for the catalog, parents and endpoints before the edges that use them."""
    for org in catalog.organizations.values():
        yield Node(
            "Organization", org.slug, {"name": org.name, "kind": org.kind}, f"{ORGANIZATIONS_FILE} {org.slug}"
        )
    for method in catalog.methods.values():
        origin = f"{METHODS_FILE} {method.slug}"
        yield Node(
            "Method",
            method.slug,
            {
                "name": method.name,
                "aliases": list(method.aliases),
                "ambiguous_aliases": list(method.ambiguous_aliases),
                "arxiv_id": method.arxiv_id,
                "family": method.family,
                "loss_change": method.change,
                "description": method.change_detail,
                "origin": "catalog",
            },
            origin,
        )
        if method.arxiv_id is not None:
            paper = {"title": method.paper_title, "published_date": method.paper_date}
            yield Node("Paper", method.arxiv_id, paper, origin)
            yield Edge(
                "PROPOSES",
                ("Paper", method.arxiv_id),
                ("Method", method.slug),
                Evidence("catalog", METHODS_FILE, method.arxiv_id, "catalog", 1.0).props(),
                origin,
            )
    for method in catalog.methods.values():
        if method.parent is not None:
            yield Edge(
                "EXTENDS",
                ("Method", method.slug),
                ("Method", method.parent),
                {"change": method.change, "detail": method.change_detail},
                f"{METHODS_FILE} {method.slug}",
            )
    for framework in catalog.frameworks.values():
        yield from _framework_records(framework, catalog)


def _framework_records(framework: FrameworkEntry, catalog: Catalog) -> Iterator[Record]:
    """A framework's node, its maintainer (where stated) and the methods its docs say it supports."""
    origin = f"{FRAMEWORKS_FILE if framework.source == 'shipped' else 'user frameworks'} {framework.slug}"
    organization = catalog.organizations.get(framework.organization) if framework.organization else None
    yield Node(
        "Framework",
        framework.slug,
        {
            "name": framework.name,
            "repo": framework.repo,
            "license": framework.license,
            "language": framework.language,
            "default_branch": framework.default_branch,
            "first_commit_date": framework.first_commit_date,
            "maintainer": organization.name if organization else None,
        },
        origin,
    )
    if organization is not None:
        yield Edge(
            "MAINTAINED_BY", ("Framework", framework.slug), ("Organization", organization.slug), {}, origin
        )
    for method, path in framework.supports:
        yield Edge(
            "SUPPORTS",
            ("Framework", framework.slug),
            ("Method", method),
            Evidence("framework-docs", path, None, "catalog", 1.0).props(),
            origin,
        )
