"""Trusted hosts: a request whose `Host` header names another host is refused.

A web page on another site can point a name it controls at 127.0.0.1 (DNS
rebinding) and so reach a server listening on loopback; its requests still
carry that name in `Host`, which is what is checked here.
"""

from __future__ import annotations

from collections.abc import Iterable

from starlette.types import ASGIApp, Receive, Scope, Send

from .errors import error_response


def host_name(header: str) -> str:
    """The name in a Host header, without its port: `[::1]:8000` -> `::1`, `Localhost:80` -> `localhost`."""
    header = header.strip().lower()
    if header.startswith("["):
        return header[1 : header.find("]")] if "]" in header else ""
    return header.rsplit(":", 1)[0] if header.count(":") == 1 else header


class TrustedHosts:
    """ASGI middleware answering 400 to a request for a host not in `allowed` (`*` allows any)."""

    def __init__(self, app: ASGIApp, allowed: Iterable[str]):
        self.app = app
        self.allowed = {name.lower() for name in allowed}

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket") or "*" in self.allowed:
            await self.app(scope, receive, send)
            return
        headers = dict(scope["headers"])
        name = host_name(headers.get(b"host", b"").decode("latin-1"))
        if name in self.allowed:
            await self.app(scope, receive, send)
            return
        response = error_response(
            400,
            "untrusted_host",
            f"host {name!r} is not served here; add it to UPTAKE_TRUSTED_HOSTS to allow it",
        )
        await response(scope, receive, send)
