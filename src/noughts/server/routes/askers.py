"""Who asks the computer to think (`noughts.thinking.lanes.Asker`): a signed-in user by
their account, anyone else (a visitor, a guest) by their address, with the quota of the
anonymous. Their HTTP connection says whether they still wait."""

from __future__ import annotations

from fastapi import Request

from noughts.server.online.sessions import COOKIE, current_user
from noughts.server.online.storage.store import UserRow
from noughts.thinking.lanes import Asker


async def asker_of(request: Request) -> Asker:
    """The asker of `request`: their account if signed in (a guest's is not: guests cost
    nothing to make), else their address."""
    user = await current_user(request) if request.cookies.get(COOKIE) else None
    return asker_as(request, user)


def asker_as(request: Request, user: UserRow | None) -> Asker:
    """The asker of `request`, already known to be `user` (None: a visitor)."""
    if user is not None and not user.guest:
        return Asker(f"user {user.id}", signed_in=True, gone=request.is_disconnected)
    address = request.client.host if request.client is not None else "unknown"
    return Asker(f"address {address}", gone=request.is_disconnected)
