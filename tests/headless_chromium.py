"""Debian's Chromium driven by Playwright, for the tests that look at pages.

Playwright launches the system browser by path; it never downloads one. Where
Chromium is missing the test skips with the reason, except under CI=true,
where it fails (CI installs the `chromium` package).
"""

from __future__ import annotations

import os
import shutil
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

CHROMIUM = os.environ.get("UPTAKE_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
REPO = Path(__file__).resolve().parent.parent
SCREENSHOTS = REPO / "out" / "screenshots"
MERMAID_JS = REPO / "tests" / "js" / "node_modules" / "mermaid" / "dist" / "mermaid.min.js"


def _missing(reason: str):
    if os.environ.get("CI") == "true":
        pytest.fail(f"CI must run the browser tests: {reason}")
    pytest.skip(reason)


@contextmanager
def chromium_page(width: int = 1280, height: int = 900) -> Iterator:
    """A fresh page in headless Chromium (Playwright's sync API)."""
    if not Path(CHROMIUM).exists():
        _missing(f"no Chromium at {CHROMIUM}; install Debian's `chromium` package")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        _missing("the playwright package is not installed (pip install playwright)")
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        try:
            page = browser.new_page(viewport={"width": width, "height": height})
            yield page
        finally:
            browser.close()


def mermaid_js() -> Path:
    if not MERMAID_JS.exists():
        _missing(
            f"Mermaid is not installed for the tests; run `npm ci --prefix tests/js` ({MERMAID_JS.name})"
        )
    return MERMAID_JS


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextmanager
def serve_app(app) -> Iterator[str]:
    """The ASGI app as a real HTTP server on loopback (uvicorn in a thread); yields its base URL."""
    import uvicorn

    port = free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("the API server did not start")
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=10)


def screenshot(page, name: str) -> Path:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOTS / name
    page.screenshot(path=str(path), full_page=True)
    return path
