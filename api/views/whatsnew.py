"""What is new in the graph: first implementations, failure reports with their fixes, proposals.

`whats_new(store, since)` reads the stored `whats-new` query; `added(before, after)` is what a
load added (the rows of after whose item was not in before), so `uptake update` can say what it
brought whatever the items' own dates.
"""

from __future__ import annotations

import datetime as dt
import xml.etree.ElementTree as ET
from typing import Any

from ...graph.store import Store
from ...queries.run import run_query
from .graph_style import evidence_url

KINDS = {
    "first-implementation": "new first implementations (method -> framework -> commit -> release)",
    "failure": "new failure reports (-> fixing commit -> release)",
    "proposal": "new proposals (issues and pull requests citing a paper or naming a method)",
}
EVERYTHING = dt.date(1900, 1, 1)


def whats_new(store: Store, since: dt.date = EVERYTHING) -> list[dict[str, Any]]:
    return newest_first(run_query(store, "whats-new", {"since": since}).rows)


def newest_first(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return sorted(rows, key=lambda r: (str(r["date"]), r["kind"], r["framework"], r["subject"]), reverse=True)


def _item(row: dict[str, Any]) -> tuple[str, str, str]:
    return row["kind"], row["framework"], row["subject"]


def added(before: list[dict[str, Any]], after: list[dict[str, Any]]) -> list[dict[str, Any]]:
    seen = {_item(r) for r in before}
    return [r for r in after if _item(r) not in seen]


def render_lines(rows: list[dict[str, Any]]) -> list[str]:
    """One heading per kind with its count, then one line per item."""
    if not rows:
        return ["nothing new"]
    lines = []
    for kind, heading in KINDS.items():
        mine = [r for r in rows if r["kind"] == kind]
        if not mine:
            continue
        lines.append(f"{len(mine)} {heading}:")
        for r in mine:
            where = " ".join(
                part
                for part in (r["commit"] and r["commit"][:12], r["release"] and f"in {r['release']}")
                if part
            )
            lines.append(
                f"  {r['date']}  {r['framework']}  {r['subject']}  {r['detail'] or ''}  {where}".rstrip()
            )
    return lines


def headline(row: dict[str, Any]) -> str:
    """One item in words, as a feed reader shows its title."""
    fw, detail = row["framework"], row["detail"] or row["subject"]
    if row["kind"] == "first-implementation":
        shipped = f", released in {row['release']}" if row["release"] else ""
        return f"{detail} first implemented in {fw}{shipped}"
    if row["kind"] == "failure":
        fixed = f", fixed by {row['commit'][:12]}" if row["commit"] else ""
        return f"{detail} failure in {fw} ({row['subject']}){fixed}"
    return f"{row['subject']} in {fw} proposes {detail}"


def item_url(row: dict[str, Any], repo: str | None) -> str | None:
    """The commit that did it, else the thread that said it."""
    if row["commit"]:
        return evidence_url("Commit", row["commit"], {}, repo)
    label = "FailureReport" if row["kind"] == "failure" else "Issue"
    return evidence_url(label, row["subject"], {}, repo)


ATOM = "http://www.w3.org/2005/Atom"


def atom_feed(rows: list[dict[str, Any]], repos: dict[str, str], self_url: str) -> bytes:
    """An Atom 1.0 feed of what is new, newest first; each item's id stays the same across
    requests, so a reader shows an item once."""
    ET.register_namespace("", ATOM)
    feed = ET.Element(f"{{{ATOM}}}feed")

    def child(parent: ET.Element, tag: str, text: str | None = None, **attrs: str) -> ET.Element:
        node = ET.SubElement(parent, f"{{{ATOM}}}{tag}", attrs)
        node.text = text
        return node

    child(feed, "title", "Uptake: what is new")
    child(feed, "id", "urn:uptake:whats-new")
    child(feed, "link", rel="self", href=self_url)
    child(child(feed, "author"), "name", "Uptake")
    child(feed, "updated", _timestamp(rows[0]["date"]) if rows else "1970-01-01T00:00:00Z")
    for row in rows:
        entry = child(feed, "entry")
        child(entry, "id", f"urn:uptake:{row['kind']}:{row['framework']}:{row['subject']}")
        child(entry, "title", headline(row))
        child(entry, "updated", _timestamp(row["date"]))
        child(entry, "category", term=row["kind"])
        url = item_url(row, repos.get(row["framework"]))
        if url:
            child(entry, "link", href=url)
        where = " ".join(p for p in (row["commit"] and f"commit {row['commit']}", row["release"]) if p)
        child(entry, "summary", f"{headline(row)}. {where}".strip())
    return ET.tostring(feed, encoding="utf-8", xml_declaration=True)


def _timestamp(value: Any) -> str:
    """An Atom date (RFC 3339) from a stored day or timestamp."""
    text = str(value)
    if len(text) == 10:
        return text + "T00:00:00Z"
    return dt.datetime.fromisoformat(text).astimezone(dt.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
