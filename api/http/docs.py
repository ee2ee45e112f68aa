"""`/docs` (Swagger UI) and `/redoc`, served with no network: their scripts and styles come from the
installed `fastapi-offline` package's files, never from a CDN, so the pages render offline."""

from __future__ import annotations

from functools import cache
from importlib import resources

from fastapi import APIRouter
from fastapi.openapi.docs import get_redoc_html, get_swagger_ui_html
from fastapi.responses import HTMLResponse, Response

from .errors import ApiError

router = APIRouter(include_in_schema=False)

ASSETS = "/docs/assets"
# The pages' own inline start-up scripts run; anything else comes from this server (ReDoc would
# otherwise fetch its logo from its makers' site).
_OWN_ONLY = {
    "Content-Security-Policy": "default-src 'self'; script-src 'self' 'unsafe-inline'; "
    "style-src 'self' 'unsafe-inline'; img-src 'self' data:; worker-src 'self' blob:"
}
_TYPES = {
    "swagger-ui-bundle.js": "text/javascript",
    "swagger-ui.css": "text/css",
    "redoc.standalone.js": "text/javascript",
    "favicon.png": "image/png",
}


@cache
def _asset(name: str) -> bytes:
    return resources.files("fastapi_offline").joinpath("static", name).read_bytes()


def _own_only(page: HTMLResponse) -> HTMLResponse:
    page.headers.update(_OWN_ONLY)
    return page


@router.get("/docs", response_class=HTMLResponse)
def swagger_ui() -> HTMLResponse:
    page = get_swagger_ui_html(
        openapi_url="/openapi.json",
        title="Uptake API",
        swagger_js_url=f"{ASSETS}/swagger-ui-bundle.js",
        swagger_css_url=f"{ASSETS}/swagger-ui.css",
        swagger_favicon_url=f"{ASSETS}/favicon.png",
    )
    return _own_only(page)


@router.get("/redoc", response_class=HTMLResponse)
def redoc() -> HTMLResponse:
    page = get_redoc_html(
        openapi_url="/openapi.json",
        title="Uptake API",
        redoc_js_url=f"{ASSETS}/redoc.standalone.js",
        redoc_favicon_url=f"{ASSETS}/favicon.png",
        with_google_fonts=False,
    )
    return _own_only(page)


@router.get(ASSETS + "/{name}")
def asset(name: str) -> Response:
    if name not in _TYPES:
        raise ApiError(404, "not_found", f"no documentation asset {name!r}")
    return Response(_asset(name), media_type=_TYPES[name], headers={"Cache-Control": "max-age=86400"})
