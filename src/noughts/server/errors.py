"""Every error answer has one JSON shape, `ErrorBody`: a stable word, a message a
player can act on, and the request field at fault."""

from __future__ import annotations

from collections.abc import Mapping

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException
from starlette.routing import Match

from noughts import i18n
from noughts.server.guards import TOO_LARGE
from noughts.server.models import ErrorBody
from noughts.server.online.accounts import AccountError, TooManyAttemptsError
from noughts.server.online.actions import ActionError
from noughts.server.online.storage.db import DATABASE_AWAY, DATABASE_AWAY_ERRORS, database_away
from noughts.server.replay import RequestError
from noughts.thinking.lanes import ComputerBusyError, ThinkingError, TooManyJobsError


def _answer(
    status: int, error: str, message: str, field: str | None = None, headers: Mapping[str, str] | None = None
) -> JSONResponse:
    body = ErrorBody(error=error, message=message, field=field).model_dump()
    return JSONResponse(body, status_code=status, headers=headers)


def language_of(request: Request) -> str:
    """The asker's language: the page sends the one its player chose as Accept-Language,
    and a browser its own."""
    return i18n.negotiate(request.headers.get("accept-language"))


def said(request: Request, message: str) -> str:
    """A message for the player in their language, where the catalogue has it (the
    messages written whole, as most are; one with a value in it stays English)."""
    with i18n.speaking(language_of(request)):
        return i18n.gettext(message)


def _field(loc: tuple[int | str, ...]) -> str | None:
    """("body", "moves", 3) -> "moves[3]"."""
    parts = [p for p in loc if p != "body"]
    text = ""
    for p in parts:
        text += f"[{p}]" if isinstance(p, int) else (f".{p}" if text else str(p))
    return text or None


def install(app: FastAPI) -> None:
    """Adds the handlers that turn errors into `ErrorBody` answers."""

    @app.exception_handler(RequestError)
    async def rejected(request: Request, exc: RequestError) -> JSONResponse:
        return _answer(400, exc.kind, f"{exc.field}: {exc.message}", exc.field)

    @app.exception_handler(RequestValidationError)
    async def malformed(request: Request, exc: RequestValidationError) -> JSONResponse:
        errors = exc.errors()
        first = errors[0] if errors else {}
        field = _field(tuple(first.get("loc", ())))
        message = first.get("msg", "malformed request")
        if first.get("type") == "json_invalid":
            message, field = "the request body is not valid JSON", None
        elif first.get("type") == "missing" and field is None:
            message = "a JSON body is required"
        return _answer(422, "invalid-request", f"{field}: {message}" if field else message, field)

    @app.exception_handler(AccountError)
    async def account_error(request: Request, exc: AccountError) -> JSONResponse:
        headers = {"Retry-After": str(exc.wait)} if isinstance(exc, TooManyAttemptsError) else None
        return _answer(exc.status, exc.error, said(request, exc.message), exc.field, headers)

    @app.exception_handler(ActionError)
    async def action_error(request: Request, exc: ActionError) -> JSONResponse:
        return _answer(exc.status, exc.error, said(request, exc.message))

    @app.exception_handler(ThinkingError)
    async def too_slow(request: Request, exc: ThinkingError) -> JSONResponse:
        return _answer(503, "computer-unavailable", str(exc))

    @app.exception_handler(ComputerBusyError)
    async def busy(request: Request, exc: ComputerBusyError) -> JSONResponse:
        # Refused before any thinking: the asker's quota (429) or a full lane (503).
        status, word = (429, "too-many-jobs") if isinstance(exc, TooManyJobsError) else (503, "computer-busy")
        return _answer(status, word, str(exc), headers={"Retry-After": str(exc.retry_after)})

    async def database_unavailable(request: Request, exc: Exception) -> JSONResponse:
        # The database cannot be reached (PostgreSQL restarting, the network): nothing
        # was changed, the request may be sent again; the log says so once an outage.
        database_away(exc)
        return _answer(503, "database-unavailable", DATABASE_AWAY, headers={"Retry-After": "5"})

    for kind in DATABASE_AWAY_ERRORS:
        app.add_exception_handler(kind, database_unavailable)

    @app.exception_handler(HTTPException)
    async def http_error(request: Request, exc: HTTPException) -> JSONResponse:
        if exc.status_code == 400 and isinstance(exc.__cause__, ValueError):
            # FastAPI's "There was an error parsing the body": json.loads raised what is
            # not a JSONDecodeError (those are json_invalid, above): bytes that are not
            # UTF-8, or a number longer than Python reads (4,300 digits), refused unread.
            unicode = isinstance(exc.__cause__, UnicodeDecodeError)
            why = "is not UTF-8 text" if unicode else "holds a number of more than 4,300 digits"
            return _answer(422, "invalid-request", f"the request body {why}")
        word = {404: "not-found", 405: "method-not-allowed", 413: "too-large"}.get(exc.status_code, "http-error")
        message = str(exc.detail)
        headers = dict(exc.headers or {})
        if exc.status_code == 413:
            message = TOO_LARGE  # FastAPI's limit cut a body streamed without a length
        if exc.status_code == 405:
            # Starlette names the methods of the first route matching the path only; a path
            # served by several routes (GET and POST of /api/online/rooms) accepts them all.
            headers["Allow"] = ", ".join(allowed_methods(request))
            message = f"{request.method} is not allowed here: {headers['Allow']} is"
        # The exception's headers (a 401's WWW-Authenticate) are part of the answer.
        return _answer(exc.status_code, word, message, headers=headers or None)


#: The methods a route of the app may serve.
_METHODS = ("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE")


def allowed_methods(request: Request) -> list[str]:
    """Every method some route of the app serves at the request's path, in `_METHODS`'
    order: each asked of the routes as Starlette routes a request (`matches`)."""
    routes = request.app.router.routes
    return [
        method
        for method in _METHODS
        if any(route.matches({**request.scope, "method": method})[0] is Match.FULL for route in routes)
    ]
