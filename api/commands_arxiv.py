"""CLI commands of the arxiv loaders (`uptake load arxiv` and friends)."""

from __future__ import annotations


def register(app, load_app, connect, fail) -> None:
    """Add this area's commands; `connect(store)` opens a store, `fail(msg)` exits with an error."""
