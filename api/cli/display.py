"""How the CLI shows rows and progress."""

from __future__ import annotations

import csv
import datetime as dt
import json
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table


def json_default(value: Any) -> Any:
    if isinstance(value, dt.date):
        return value.isoformat()
    return str(value)


# A table cell longer than this is cut in its middle (an evidence path keeps its folder and file
# name); `--format json` and `csv` carry the full value.
MAX_CELL = 48


def _cell(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, dict | list):
        return json.dumps(value, default=json_default)
    if isinstance(value, dt.date):
        return value.isoformat()
    return str(value)


def _shown(value: Any) -> str:
    """A value as a table shows it: numbers rounded for reading (0.94), long text shortened."""
    if isinstance(value, float):
        return f"{value:.2f}".rstrip("0").rstrip(".") if abs(value) < 1e15 else f"{value:.3g}"
    text = _cell(value)
    if len(text) <= MAX_CELL:
        return text
    head = (MAX_CELL - 1) // 2
    return text[:head] + "…" + text[len(text) - (MAX_CELL - 1 - head) :]


def print_json(value: Any) -> None:
    json.dump(value, sys.stdout, default=json_default, indent=2)
    sys.stdout.write("\n")


def print_rows(rows: list[dict[str, Any]], fmt: str = "table") -> None:
    if fmt == "json":
        print_json(rows)
        return
    columns = list(dict.fromkeys(k for row in rows for k in row))
    if fmt == "csv":
        writer = csv.writer(sys.stdout)
        writer.writerow(columns)
        writer.writerows([_cell(row.get(c)) for c in columns] for row in rows)
        return
    if fmt != "table":
        raise SystemExit(f"error: --format must be table, json or csv, not {fmt!r}")
    cells = [[_shown(row.get(c)) for c in columns] for row in rows]
    table = Table(show_lines=False)
    for i, column in enumerate(columns):
        # Where the terminal is too narrow the long columns give way (wrapped at spaces, a path cut
        # with an ellipsis) and the short ones keep their width.
        widest = max([len(column), *(len(r[i]) for r in cells)])
        table.add_column(column, no_wrap=widest <= 12, overflow="ellipsis")
    for row in cells:
        table.add_row(*row)
    Console(width=200 if not sys.stdout.isatty() else None).print(table)
    print(f"({len(rows)} row{'s' if len(rows) != 1 else ''})")


@contextmanager
def progress_bar(description: str, total: int | None = None) -> Iterator[Callable[[int], None]]:
    """A progress bar on a terminal; elsewhere one plain line once done (CI logs stay short).

    Nothing is printed before the work succeeds, so a failure shows only its one-line error.
    """
    if not sys.stderr.isatty():
        done = [0]
        yield lambda n: done.__setitem__(0, done[0] + n)
        print(f"{description}: {done[0]} done", file=sys.stderr)
        return
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
    with Progress(*columns, console=Console(stderr=True), transient=False) as progress:
        task = progress.add_task(description, total=total)
        yield lambda n: progress.advance(task, n)


def print_report(report: Any) -> None:
    """One line per sync step, the same form for every command: what was written, from what,
    and what was skipped and why (a `SyncReport` says it in its `str`)."""
    import typer

    typer.echo(str(report))
