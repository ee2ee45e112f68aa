"""The API's settings, in one place: environment variables prefixed UPTAKE_ or arguments to create_app."""

from __future__ import annotations

from pydantic_settings import BaseSettings, SettingsConfigDict

MAX_PAGE_SIZE = 1000


class ApiSettings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="UPTAKE_", extra="ignore")

    store: str | None = None
    """Ladybug path or Neo4j URI; None falls back like every command ($UPTAKE_STORE, ./uptake.lbug)."""
    max_rows: int = 1000
    """Most rows one query returns; ad-hoc Cypher past it is cut and flagged `truncated`."""
    query_timeout: float = 10.0
    """Seconds before the database cancels a query; requests may ask for less, never more."""
    admin_api_key: str | None = None
    """Admin actions (triggering a load) answer only when this is set and sent as X-API-Key."""
    refresh_interval: float = 1.0
    """How often (seconds) a Ladybug store is checked for writes by another process."""
    connect_attempts: int = 5
    """Tries to reach the store before a request gives up (a Neo4j server may still be starting)."""
    trusted_hosts: list[str] = ["localhost", "127.0.0.1", "::1", "testserver"]
    """Host names requests may address (a JSON list; `["*"]` allows any): a guard against DNS rebinding.
    `testserver` is the name the test client sends."""
