"""What is new in the graph: first implementations, failure reports with their fixes, proposals.

`whats_new(store, since)` reads the stored `whats-new` query; `added(before, after)` is what a
load added (the rows of after whose item was not in before), so `uptake update` can say what it
brought whatever the items' own dates.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from ...graph.store import Store
from ...queries.run import run_query

KINDS = {
    "first-implementation": "new first implementations (method -> framework -> commit -> release)",
    "failure": "new failure reports (-> fixing commit -> release)",
    "proposal": "new proposals (issues and pull requests citing a paper or naming a method)",
}
EVERYTHING = dt.date(1900, 1, 1)


def whats_new(store: Store, since: dt.date = EVERYTHING) -> list[dict[str, Any]]:
    rows = run_query(store, "whats-new", {"since": since}).rows
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
