"""What a route asks FastAPI for: the store holder, the settings, paging, the admin check."""

from __future__ import annotations

import hmac
import threading
import time
from typing import Annotated

from fastapi import Depends, Query, Request, Security
from fastapi.security import APIKeyHeader

from ...graph.store import Store, StoreError, open_store
from .errors import ApiError
from .settings import MAX_PAGE_SIZE, ApiSettings


class StoreHolder:
    """The API's one store handle, opened lazily and read-only.

    A Ladybug store reopens itself when another process wrote its files (see
    `LadybugStore`); a Neo4j server may still be starting, so opening is retried.
    """

    def __init__(self, target: str, settings: ApiSettings):
        self.target = target
        self.settings = settings
        self._store: Store | None = None
        self._open_lock = threading.Lock()

    @property
    def is_ladybug(self) -> bool:
        return "://" not in self.target

    def store(self) -> Store:
        with self._open_lock:
            if self._store is None:
                self._store = self._open()
            return self._store

    def _open(self) -> Store:
        last: StoreError | None = None
        for attempt in range(max(1, self.settings.connect_attempts)):
            try:
                store = open_store(
                    self.target, read_only=True, refresh_interval=self.settings.refresh_interval
                )
                store.check_version()
                return store
            except StoreError as exc:
                last = exc
                if self.is_ladybug:  # a missing directory does not appear by waiting
                    break
                time.sleep(min(0.2 * 2**attempt, 2.0))
        raise ApiError(503, "store_unavailable", str(last))

    def close(self) -> None:
        with self._open_lock:
            if self._store is not None:
                self._store.close()
                self._store = None


# Async so that resolving them costs no trip through the worker threads.
async def _holder(request: Request) -> StoreHolder:
    return request.app.state.holder


async def _settings(request: Request) -> ApiSettings:
    return request.app.state.settings


HolderDep = Annotated[StoreHolder, Depends(_holder)]
SettingsDep = Annotated[ApiSettings, Depends(_settings)]
Limit = Annotated[int, Query(ge=1, le=MAX_PAGE_SIZE, description="page size")]
Offset = Annotated[int, Query(ge=0, le=10**9, description="rows to skip")]
_api_key_header = APIKeyHeader(name="X-API-Key", auto_error=False, description="admin API key")


def _require_admin(settings: SettingsDep, key: Annotated[str | None, Security(_api_key_header)]) -> None:
    if not settings.admin_api_key:
        raise ApiError(
            403, "admin_disabled", "admin actions are off; set UPTAKE_ADMIN_API_KEY to enable them"
        )
    if not key or not hmac.compare_digest(key.encode(), settings.admin_api_key.encode()):
        raise ApiError(401, "unauthorized", "a valid X-API-Key header is required")


AdminDep = Annotated[None, Depends(_require_admin)]
