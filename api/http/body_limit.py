"""A cap on request bodies, applied before any route parses them."""

from __future__ import annotations

import json
import os
from typing import Any

DEFAULT_MAX_BODY_BYTES = 256 * 1024  # a 5,000-character statement and generous parameters


def max_body_bytes() -> int:
    """UPTAKE_MAX_BODY_BYTES, else 256 KiB."""
    return int(os.environ.get("UPTAKE_MAX_BODY_BYTES") or DEFAULT_MAX_BODY_BYTES)


class BodyLimit:
    """ASGI middleware: a body over max_bytes gets 413 `body_too_large` and is never buffered whole.

    Declared lengths are judged at once; chunked bodies are read here up to the cap and then
    replayed to the app, so the app never sees more than max_bytes.
    """

    def __init__(self, app: Any, max_bytes: int) -> None:
        self.app = app
        self.max_bytes = max_bytes

    async def __call__(self, scope: dict, receive: Any, send: Any) -> None:
        if scope["type"] != "http" or scope["method"] in ("GET", "HEAD", "OPTIONS"):
            await self.app(scope, receive, send)
            return
        declared = dict(scope["headers"]).get(b"content-length", b"")
        if declared.isdigit() and int(declared) > self.max_bytes:
            await self._refuse(send, int(declared))
            return
        chunks, size, more = [], 0, True
        while more:
            message = await receive()
            if message["type"] != "http.request":
                break  # the client went away; the app sees the disconnect below
            chunks.append(message.get("body", b""))
            size += len(chunks[-1])
            if size > self.max_bytes:
                await self._refuse(send, size)
                return
            more = message.get("more_body", False)
        await self.app(scope, _replay(b"".join(chunks), receive), send)

    async def _refuse(self, send: Any, size: int) -> None:
        message = f"request body of at least {size} bytes is over the limit of {self.max_bytes} bytes"
        body = json.dumps({"error": {"code": "body_too_large", "message": message, "detail": None}}).encode()
        headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
        await send({"type": "http.response.start", "status": 413, "headers": headers})
        await send({"type": "http.response.body", "body": body})


def _replay(body: bytes, receive: Any) -> Any:
    sent = False

    async def replayed() -> dict:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()

    return replayed
