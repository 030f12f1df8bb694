"""The guards every HTTP request passes before the app reads it: plain ASGI middleware,
so that they act before a body is read and whatever route is behind them.

- `OriginGuard`: a request that changes something (POST, PUT, PATCH, DELETE) sent from
  another site's page is refused (403 `cross-origin`). Browsers name the page's site in
  `Origin` (or, from old ones, `Referer`); the site must be this server's own `Host`.
  SameSite=Lax cookies alone do not cover this: another port of the same host and a
  sibling subdomain are the "same site", and they would ride on the player's cookie.
  Requests that name no origin at all come from programs, not from a victim's browser.
- `JsonOnly`: a request that changes something under /api and names a Content-Type must
  name JSON (415 otherwise), body or no body. A page of another site can send a form or
  text/plain without asking the server first (no CORS preflight), but not
  application/json: a second line behind the origin check, for the routes that take no
  body (join, close, log out) too.

- `BodyLimit`: a request whose Content-Length passes `MAX_BODY` is refused (413) before
  a byte of it is read. A body streamed without a length is cut by FastAPI's own limit
  (`max_body_size`, set on each router) as soon as the bytes read pass it, with the same
  answer; FastAPI's limit alone answers an announced length in plain text.

Each refusal has the app's error shape, `{error, message, field}`.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Receive, Scope, Send

#: Methods that may change something: the ones guarded against other sites.
UNSAFE = frozenset({"POST", "PUT", "PATCH", "DELETE"})
#: Largest request body: the largest real one (a game record of 2,000 moves to replay)
#: is far below it.
MAX_BODY = 256 * 1024
TOO_LARGE = f"the request body is too large: at most {MAX_BODY // 1024} KB"


def _header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope.get("headers", ()):
        if key == name:
            text: str = value.decode("latin-1")
            return text
    return None


async def _refuse(scope: Scope, receive: Receive, send: Send, status: int, error: str, message: str) -> None:
    body = {"error": error, "message": message, "field": None}
    await JSONResponse(body, status_code=status)(scope, receive, send)


def foreign_origin(scope: Scope) -> str | None:
    """The other site a request comes from (None: this server's own page, or no page at
    all). `Origin: null` (a sandboxed frame, a page opened from a file) is foreign."""
    origin = _header(scope, b"origin")
    if origin is None:
        origin = _header(scope, b"referer")
        if origin is None:
            return None
    host = _header(scope, b"host")
    return None if host is not None and urlsplit(origin).netloc == host else origin


class OriginGuard:
    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["method"] in UNSAFE:
            origin = foreign_origin(scope)
            if origin is not None:
                message = f"a request from another site's page ({origin[:100]}) cannot change anything here"
                await _refuse(scope, receive, send, 403, "cross-origin", message)
                return
        await self.app(scope, receive, send)


class JsonOnly:
    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["method"] in UNSAFE and scope["path"].startswith("/api/"):
            named = _header(scope, b"content-type")
            kind = (named or "").split(";", 1)[0].strip().lower()
            if named is not None and kind != "application/json":
                message = f"the request body is application/json, not {kind[:100] or 'empty'}"
                await _refuse(scope, receive, send, 415, "unsupported-media-type", message)
                return
        await self.app(scope, receive, send)


class BodyLimit:
    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            length = _header(scope, b"content-length")
            if length is not None and (not length.isdigit() or int(length) > MAX_BODY):
                await _refuse(scope, receive, send, 413, "too-large", TOO_LARGE)
                return
        await self.app(scope, receive, send)
