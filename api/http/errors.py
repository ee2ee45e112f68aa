"""One error shape for every answer that is not a success: `{"error": {"code", "message", "detail"}}`."""

from __future__ import annotations

import logging
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.routing import Match

from .models import ErrorResponse

# The error answers every route documents in OpenAPI.
ERRORS: dict[int | str, dict[str, Any]] = {
    code: {"model": ErrorResponse} for code in (400, 401, 403, 404, 405, 408, 422, 500, 503)
}


_METHODS = ("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS")


class ApiError(Exception):
    def __init__(
        self, status: int, code: str, message: str, detail: Any = None, headers: dict[str, str] | None = None
    ):
        super().__init__(message)
        self.status, self.code, self.message, self.detail = status, code, message, detail
        self.headers = headers


def error_response(
    status: int, code: str, message: str, detail: Any = None, headers: dict[str, str] | None = None
) -> JSONResponse:
    body = ErrorResponse.model_validate({"error": {"code": code, "message": message, "detail": detail}})
    return JSONResponse(body.model_dump(mode="json"), status_code=status, headers=headers)


def allowed_methods(request: Request) -> list[str]:
    """Every method some route answers on this path; Starlette's own `Allow` names only the first
    route whose path matched (POST for /queries/NAME/rows, though GET is served there too)."""
    routes = request.app.router.routes
    return [
        method
        for method in _METHODS
        if any(route.matches({**request.scope, "method": method})[0] == Match.FULL for route in routes)
    ]


def install_error_handlers(app: FastAPI) -> None:
    @app.exception_handler(ApiError)
    async def api_error(_: Request, exc: ApiError) -> JSONResponse:
        return error_response(exc.status, exc.code, exc.message, exc.detail, exc.headers)

    @app.exception_handler(RequestValidationError)
    async def validation_error(_: Request, exc: RequestValidationError) -> JSONResponse:
        problems = [
            {"parameter": ".".join(str(p) for p in e["loc"][1:]) or e["loc"][0], "message": e["msg"]}
            for e in exc.errors()
        ]
        first = problems[0] if problems else {"parameter": "?", "message": "invalid request"}
        return error_response(
            422, "invalid_parameter", f"parameter {first['parameter']!r}: {first['message']}", problems
        )

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        code = {404: "not_found", 405: "method_not_allowed"}.get(exc.status_code, "http_error")
        headers = dict(exc.headers or {})
        if exc.status_code == 405:
            headers["Allow"] = ", ".join(allowed_methods(request))
        return error_response(exc.status_code, code, str(exc.detail), headers=headers)

    @app.exception_handler(Exception)
    async def unexpected(_: Request, exc: Exception) -> JSONResponse:
        logging.getLogger("uptake.api").exception("unexpected error")
        return error_response(500, "internal", f"{type(exc).__name__}: {exc}")
