"""Frameworks a user adds without code: one JSON Lines file of catalog rows kept beside a store.

The file holds rows of the shipped `frameworks.jsonl` format (`slug`, `name`, `repo`, and any
known fact: `default_branch`, `license`, `language`, `organization`, `first_commit_date`,
`supports`); a user may edit it by hand, and `read_catalog(user_frameworks=...)` checks it
like the shipped one, naming file, line and field. Adding and removing here are pure decisions
over the catalog plus one atomic file write, so a rejected change leaves the file as it was.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, replace
from pathlib import Path

from .catalog import Catalog, FrameworkEntry, framework_row, is_repo
from .input_error import InputError

_GITHUB_URL = re.compile(r"^(?:https?://|git@)?(?:www\.)?github\.com[/:](?P<repo>[^/]+/[^/]+?)(?:\.git)?/?$")
_SLUG = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")


class FrameworkArgumentError(InputError):
    """A framework named on the command line cannot be added or removed; one line says why."""


def _refuse(field: str, message: str) -> FrameworkArgumentError:
    return FrameworkArgumentError("framework", message, field=field)


def parse_repo(text: str) -> str:
    """`owner/name`, also from a GitHub URL; anything else is refused."""
    text = text.strip()
    url = _GITHUB_URL.match(text)
    repo = url["repo"] if url else text
    if not is_repo(repo):
        raise _refuse(
            "OWNER/REPO", f"{text!r} is not a GitHub repository as owner/name (e.g. huggingface/trl)"
        )
    return repo


def default_slug(repo: str) -> str:
    """The repository's name in lowercase words joined by '-' (`modelscope/Trinity-RFT` -> `trinity-rft`)."""
    return "-".join(re.findall(r"[a-z0-9]+", repo.rpartition("/")[2].lower()))


@dataclass(frozen=True)
class Addition:
    entry: FrameworkEntry
    change: str  # "added", "updated" or "unchanged"


def plan_addition(
    catalog: Catalog,
    repo: str,
    *,
    name: str | None = None,
    slug: str | None = None,
    default_branch: str | None = None,
) -> Addition:
    """What adding `repo` does to a catalog that already holds the user's frameworks.

    Adding the same repository again is idempotent: it changes only the facts given anew. A slug
    or repository that belongs to another framework is refused.
    """
    repo = parse_repo(repo)
    slug = slug if slug is not None else default_slug(repo)
    if not _SLUG.match(slug):
        raise _refuse("--slug", f"{slug!r} is not a slug (lowercase letters and digits joined by '-')")
    for field, value in (("--name", name), ("--default-branch", default_branch)):
        if value is not None and (not value.strip() or value != value.strip()):
            raise _refuse(field, f"must be non-empty text without surrounding spaces, got {value!r}")
    same_repo = next((f for f in catalog.frameworks.values() if f.repo.casefold() == repo.casefold()), None)
    if same_repo is not None and same_repo.source == "shipped":
        raise _refuse("OWNER/REPO", f"{repo} is shipped with Uptake as {same_repo.slug!r}; nothing to add")
    if same_repo is not None and same_repo.slug != slug:
        raise _refuse(
            "--slug", f"{repo} is already added as {same_repo.slug!r}; remove it first to rename it"
        )
    taken = catalog.frameworks.get(slug)
    if taken is not None and same_repo is None:
        whose = "shipped with Uptake" if taken.source == "shipped" else "already added"
        raise _refuse("--slug", f"{slug!r} is the slug of {taken.repo} ({whose}); choose another with --slug")
    for field, spelling in (("--slug", slug), ("--name", name)):
        # Commands find a framework by slug, name or repository: each must still find one only.
        taken = catalog.find_framework(spelling) if spelling else None
        if taken is not None and taken.repo.casefold() != repo.casefold():
            raise _refuse(field, f"{spelling!r} already names {taken.slug!r} ({taken.repo}); choose another")
    if same_repo is None:
        entry = FrameworkEntry(
            slug=slug,
            name=name or repo.rpartition("/")[2],
            repo=repo,
            default_branch=default_branch,
            source="user",
        )
        return Addition(entry, "added")
    given = {"name": name, "default_branch": default_branch}
    entry = replace(same_repo, **{k: v for k, v in given.items() if v is not None})
    return Addition(entry, "unchanged" if entry == same_repo else "updated")


def plan_removal(catalog: Catalog, name: str) -> FrameworkEntry:
    """The user's framework `name` (slug, name or repository) names; shipped ones stay."""
    entry = catalog.find_framework(name)
    if entry is None:
        added = sorted(f.slug for f in catalog.frameworks.values() if f.source == "user")
        raise _refuse("SLUG", f"no framework {name!r}; added by you: {', '.join(added) or 'none'}")
    if entry.source == "shipped":
        raise _refuse("SLUG", f"{entry.slug!r} is shipped with Uptake and cannot be removed")
    return entry


def user_entries(catalog: Catalog) -> list[FrameworkEntry]:
    return [f for f in catalog.frameworks.values() if f.source == "user"]


def write_user_frameworks(path: Path, entries: list[FrameworkEntry]) -> Path:
    """Write the rows to a temporary file beside `path` and return it; the caller checks it and
    moves it into place (`Path.replace`), so a half-written file never replaces a good one."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    rows = "".join(json.dumps(framework_row(e), ensure_ascii=False) + "\n" for e in entries)
    tmp.write_text(rows, encoding="utf-8")
    return tmp
