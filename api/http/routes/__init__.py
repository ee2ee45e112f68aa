"""The API's routes, one module per resource, each with a `router` that `app.create_app` includes."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from fastapi import APIRouter

from ..errors import ERRORS


def route(router: APIRouter, method: str) -> Callable:
    """A decorator factory: `get(path, response model, operation id, tag)` with the shared error answers."""

    def decorator_for(path: str, model: Any, operation_id: str, tag: str, status_code: int = 200) -> Callable:
        return router.api_route(
            path,
            methods=[method],
            response_model=model,
            operation_id=operation_id,
            tags=[tag],
            responses=ERRORS,
            status_code=status_code,
        )

    return decorator_for
