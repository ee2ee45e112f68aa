"""CLI commands of the github loaders (`uptake load github` and friends)."""

from __future__ import annotations


def register(app, load_app, connect, fail) -> None:
    """Add this area's commands; `connect(store)` opens a store, `fail(msg)` exits with an error."""
