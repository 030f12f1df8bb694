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

- `NoNulText`: a request with the NUL character (U+0000) anywhere in its path, its query
  or its JSON body is refused (422 `invalid-request`), sockets included. No name, id,
  move or text of the app holds one, and PostgreSQL cannot store one in a text column
  (it failed with a 500); refused here, once for every route, rather than in each.
  `no_nul_in_schema` states it in /openapi.json: every text a request carries has
  the pattern `NO_NUL`.

Each refusal has the app's error shape, `{error, message, field}`.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any
from urllib.parse import unquote_to_bytes, urlsplit

from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

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


#: The JSON Schema pattern of a text without NUL, stated on every text of a request.
NO_NUL = "^[^\\x00]*$"
NUL_REFUSED = "text may not contain the NUL character (U+0000)"
#: A NUL in a JSON text: the escape \u0000 after an even number of backslashes (after an
#: odd number, its backslash is itself escaped: the six characters "\u0000" are harmless),
#: or the raw byte, which JSON does not allow in a text anyway.
_JSON_NUL = re.compile(rb"(?<!\\)(?:\\\\)*\\u0000|\x00")


def nul_in(scope: Scope) -> str | None:
    """Where a request's path or query holds a NUL ("path", "query"), or None."""
    if "\x00" in scope.get("path", ""):
        return "path"
    if b"\x00" in unquote_to_bytes(scope.get("query_string", b"")):
        return "query"
    return None


class NoNulText:
    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        where = nul_in(scope)
        if where is not None and scope["type"] == "websocket":
            await send({"type": "websocket.close", "code": 1008, "reason": f"the {where}'s {NUL_REFUSED}"})
            return
        if where is None and scope["type"] == "http" and scope["method"] in UNSAFE:
            # The body is read (up to MAX_BODY: a longer one, streamed without a length, is
            # cut by FastAPI's limit behind) and handed on as read.
            messages: list[Message] = []
            body = b""
            while len(body) <= MAX_BODY:
                received = await receive()
                messages.append(received)
                if received["type"] != "http.request":
                    break
                body += received.get("body", b"")
                if not received.get("more_body", False):
                    break
            if _JSON_NUL.search(body):
                where = "body"
            receive = _replaying(messages, receive)
        if where is not None:
            answer = {"error": "invalid-request", "message": f"the {where}'s {NUL_REFUSED}", "field": where}
            await JSONResponse(answer, status_code=422)(scope, receive, send)
            return
        await self.app(scope, receive, send)


def _replaying(messages: list[Message], receive: Receive) -> Receive:
    """A `receive` that gives `messages` again, then goes on with `receive`'s."""
    replayed = iter(messages)

    async def receive_again() -> Message:
        return next(replayed, None) or await receive()

    return receive_again


def _texts(schema: Any, components: dict[str, Any], seen: set[str]) -> Iterator[dict[str, Any]]:
    """Every string schema in `schema`, through references (each component once)."""
    if isinstance(schema, list):
        for item in schema:
            yield from _texts(item, components, seen)
        return
    if not isinstance(schema, dict):
        return
    ref = schema.get("$ref")
    if isinstance(ref, str):
        name = ref.rsplit("/", 1)[-1]
        if name not in seen:
            seen.add(name)
            yield from _texts(components.get(name), components, seen)
        return
    if schema.get("type") == "string":
        yield schema
    for key, value in schema.items():
        if key in ("properties", "$defs"):
            for sub in value.values():
                yield from _texts(sub, components, seen)
        elif key in ("items", "anyOf", "oneOf", "allOf", "additionalProperties"):
            # (Not into `not`: a pattern there would turn its meaning round.)
            yield from _texts(value, components, seen)


def no_nul_in_schema(openapi: dict[str, Any]) -> dict[str, Any]:
    """`openapi` with `NO_NUL` on every text a request carries (path, query, body) that
    has no pattern or fixed values of its own (those hold no NUL already)."""
    components = openapi.get("components", {}).get("schemas", {})
    seen: set[str] = set()
    for operations in openapi.get("paths", {}).values():
        for operation in operations.values():
            schemas = [p.get("schema") for p in operation.get("parameters", [])]
            schemas += [c.get("schema") for c in operation.get("requestBody", {}).get("content", {}).values()]
            for text in _texts(schemas, components, seen):
                if not {"pattern", "enum", "const", "format"} & text.keys():
                    text["pattern"] = NO_NUL
    return openapi
