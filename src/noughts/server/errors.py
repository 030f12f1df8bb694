"""Every error answer has one JSON shape, `ErrorBody`: a stable word, a message a
player can act on, and the request field at fault."""

from __future__ import annotations

from collections.abc import Mapping

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException

from noughts.server.guards import TOO_LARGE
from noughts.server.models import ErrorBody
from noughts.server.replay import RequestError
from noughts.server.thinking import ThinkingError


def _answer(
    status: int, error: str, message: str, field: str | None = None, headers: Mapping[str, str] | None = None
) -> JSONResponse:
    body = ErrorBody(error=error, message=message, field=field).model_dump()
    return JSONResponse(body, status_code=status, headers=headers)


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

    @app.exception_handler(ThinkingError)
    async def too_slow(request: Request, exc: ThinkingError) -> JSONResponse:
        return _answer(503, "computer-unavailable", str(exc))

    @app.exception_handler(HTTPException)
    async def http_error(request: Request, exc: HTTPException) -> JSONResponse:
        word = {404: "not-found", 405: "method-not-allowed", 413: "too-large"}.get(exc.status_code, "http-error")
        message = str(exc.detail)
        if exc.status_code == 413:
            message = TOO_LARGE  # FastAPI's limit cut a body streamed without a length
        # The exception's headers (a 405's Allow, a 401's WWW-Authenticate) are part of the answer.
        return _answer(exc.status_code, word, message, headers=exc.headers)
