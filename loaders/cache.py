"""Where Uptake keeps what it fetched: one cache root, and a folder per source under it.

`$UPTAKE_CACHE`, else `$XDG_CACHE_HOME/uptake`, else `~/.cache/uptake`. Clones of framework
repositories live under `repos/`, GitHub threads under `github/`, arXiv responses under
`arxiv/`, so every command that needs a clone finds the one another command made.
"""

from __future__ import annotations

import os
from pathlib import Path


def cache_root() -> Path:
    base = os.environ.get("UPTAKE_CACHE") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "uptake"
    )
    return Path(base)


def _folder_name(repo: str) -> str:
    return repo.replace("/", "+")


def clones_dir() -> Path:
    return cache_root() / "repos"


def clone_path(repo: str, clones: Path | None = None) -> Path:
    """The bare mirror of `owner/name` that `uptake load git` clones and fetches."""
    return (clones or clones_dir()) / (_folder_name(repo) + ".git")


def github_cache_dir() -> Path:
    return cache_root() / "github"


def github_cache_folder(repo: str, root: Path | None = None) -> Path:
    """Raw issues, pull requests and comments of `owner/name`, as fetched."""
    return Path(root or github_cache_dir()) / _folder_name(repo)


def arxiv_cache_dir() -> Path:
    return cache_root() / "arxiv"
