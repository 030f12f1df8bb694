"""Log-ins live in a cookie: HttpOnly (page scripts cannot read it) and SameSite=Lax
(other sites' forms and sockets do not carry it). The token is random; the database
keeps only its hash."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Request, Response

from noughts.server.online.accounts import AccountError
from noughts.server.online.service import Online
from noughts.server.online.storage.store import UserRow

COOKIE = "noughts_session"


def set_cookie(request: Request, response: Response, token: str, days: int) -> None:
    _set_private_cookie(request, response, COOKIE, token, days, "/")


#: The browser's device token (`accounts.new_device`): kept across log-outs, as it says
#: which browser this is, not who is logged in.
DEVICE_COOKIE = "noughts_device"


def set_device_cookie(request: Request, response: Response, token: str, days: int) -> None:
    _set_private_cookie(request, response, DEVICE_COOKIE, token, days, "/api/online/")


def _set_private_cookie(request: Request, response: Response, name: str, token: str, days: int, path: str) -> None:
    """A cookie no page script reads (HttpOnly), that other sites' requests do not carry
    (SameSite=Lax) and that travels only over https where the page came over it."""
    response.set_cookie(
        name,
        token,
        max_age=days * 86_400,
        path=path,
        httponly=True,
        samesite="lax",
        secure=request.url.scheme == "https",
    )


def clear_cookie(response: Response) -> None:
    response.delete_cookie(COOKIE, path="/", httponly=True, samesite="lax")


def online_of(request: Request) -> Online:
    online: Online = request.app.state.online
    return online


async def current_user(request: Request) -> UserRow | None:
    """The logged-in user (or guest), None for a visitor."""
    online = online_of(request)
    await online.start()
    return await online.accounts.user_for(request.cookies.get(COOKIE))


async def require_user(request: Request) -> UserRow:
    user = await current_user(request)
    if user is None:
        raise AccountError("not-logged-in", "log in, sign up or play as a guest first", None, 401)
    return user


#: A route's parameter for the logged-in user (401 for a visitor).
LoggedIn = Annotated[UserRow, Depends(require_user)]
#: A route's parameter for the logged-in user, or None for a visitor.
MaybeUser = Annotated[UserRow | None, Depends(current_user)]
