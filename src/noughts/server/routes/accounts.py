"""Sign up, log in, log out, play as a guest, and who am I."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Request, Response

from noughts.server.models import GUARDED, error_answers
from noughts.server.online.schemas import Credentials, LanguageChoice, Me, MeAnswer
from noughts.server.online.sessions import (
    COOKIE,
    DEVICE_COOKIE,
    LoggedIn,
    clear_cookie,
    current_user,
    online_of,
    set_cookie,
    set_device_cookie,
)
from noughts.server.online.storage.store import UserRow

router = APIRouter(
    prefix="/api/online",
    tags=["accounts"],
    responses=error_answers(400, 401, 409, 429),
)


def _address(request: Request) -> str:
    """The client's address: the connection's, or the trusted proxy's word for it
    (`noughts serve --forwarded-allow-ips`)."""
    return request.client.host if request.client else "?"


def _me(user: UserRow, language: str | None = None) -> MeAnswer:
    return MeAnswer(user=Me(name=user.name, guest=user.guest, language=language))


@router.post("/signup", status_code=201, response_model=MeAnswer, responses=GUARDED)
async def sign_up(body: Credentials, request: Request, response: Response) -> MeAnswer:
    """A new account, logged in. Errors: name-length, name-malformed, name-reserved,
    name-taken (409), password-short, password-long; too-many-attempts (429, with
    Retry-After) after many accounts from one address."""
    online = online_of(request)
    await online.start()
    user, token, device = await online.accounts.sign_up(
        body.name, body.password, _address(request), request.cookies.get(DEVICE_COOKIE)
    )
    set_cookie(request, response, token, online.config.session_days)
    set_device_cookie(request, response, device, online.config.known_login_days)
    return _me(user)


@router.post("/login", response_model=MeAnswer, responses=GUARDED)
async def log_in(body: Credentials, request: Request, response: Response) -> MeAnswer:
    """Logs in. Errors: wrong-credentials (401); too-many-attempts (429, with
    Retry-After) after repeated failures (from a browser or an address the account
    logged in from before, only that place's own failures count)."""
    online = online_of(request)
    await online.start()
    cookies = request.cookies
    user, token, device = await online.accounts.log_in(
        body.name, body.password, _address(request), cookies.get(DEVICE_COOKIE), cookies.get(COOKIE)
    )
    set_cookie(request, response, token, online.config.session_days)
    set_device_cookie(request, response, device, online.config.known_login_days)
    return _me(user)


@router.post("/guest", status_code=201, response_model=MeAnswer, responses=GUARDED)
async def guest(request: Request, response: Response) -> MeAnswer:
    """Plays as a guest (casual games only) under a name like guest-3fa2c1. Errors:
    too-many-attempts (429, with Retry-After) after many guests from one address."""
    online = online_of(request)
    await online.start()
    user, token = await online.accounts.guest(_address(request))
    set_cookie(request, response, token, online.config.session_days)
    return _me(user)


@router.post("/logout", status_code=204, responses=GUARDED)
async def log_out(request: Request, response: Response) -> None:
    token = request.cookies.get(COOKIE)
    if token:
        await online_of(request).accounts.log_out(token)
    clear_cookie(response)


@router.get("/me", response_model=MeAnswer)
async def me(request: Request, user: Annotated[UserRow | None, Depends(current_user)]) -> MeAnswer:
    """Who is logged in (null: nobody), and the language they chose."""
    if user is None:
        return MeAnswer(user=None)
    return _me(user, await online_of(request).accounts.language(user))


@router.put("/me/language", response_model=MeAnswer, responses=GUARDED)
async def choose_language(body: LanguageChoice, request: Request, user: LoggedIn) -> MeAnswer:
    """Keeps the language chosen in the page's menu on the account, for the page on any
    browser it logs in from. Errors: unknown-language; not-logged-in (401)."""
    await online_of(request).accounts.set_language(user, body.language)
    return _me(user, body.language)
