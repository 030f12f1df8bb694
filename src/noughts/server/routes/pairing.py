"""Quick pairing: "play now" puts the player in a pool for a game and a clock; two
players whose ratings are close enough (the window widening while they wait) are paired
into a game that starts at once. The page asks every second or so; any request of
either player, to any server process, may make the pairing (`storage.pairing`)."""

from __future__ import annotations

from typing import Literal

from fastapi import APIRouter, Request, Response
from pydantic import Field

from noughts.competition.clock import now_ms
from noughts.registry import title
from noughts.server.models import GUARDED, RequestBody, Spec, error_answers
from noughts.server.online.actions import MissingError
from noughts.server.online.schemas import Increment, Minutes, _Model
from noughts.server.online.sessions import LoggedIn, online_of
from noughts.server.online.storage.pairing import SeekRow, window

router = APIRouter(
    prefix="/api/online/pairing",
    tags=["quick pairing"],
    responses=error_answers(400, 401, 403, 404, 422),
)


class SeekRequest(RequestBody):
    """The game and clock to be paired for. Strict, as a room's request."""

    spec: Spec
    rated: bool = False
    minutes: Minutes = None
    increment: Increment = 0
    bot_after: float | None = Field(
        None, ge=0, le=600, description="seconds to wait for a person before a bot of about your rating fills in; "
        "null: wait for a person"
    )  # fmt: skip


class SeekView(_Model):
    state: Literal["waiting", "paired"]
    game_id: str | None = Field(description="the game, once paired: it has started")
    spec: str
    title: str
    rated: bool
    minutes: float | None
    increment: float
    rating: int = Field(description="the rating the window is around")
    waited_ms: int
    window: int = Field(description="how far from `rating` an opponent may be now")
    waiting: int = Field(description="players waiting for the same game and clock, this one included")
    bot_after: float | None = Field(description="when a bot fills in (seconds of waiting), if it may")


async def _view(request: Request, seek: SeekRow) -> SeekView:
    online = online_of(request)
    now = now_ms()
    same = [
        s
        for s in await online.store.call(online.pairing.book.waiting, seek.spec)
        if (s.rated, s.clock_initial_ms, s.clock_increment_ms)
        == (seek.rated, seek.clock_initial_ms, seek.clock_increment_ms)
    ]
    return SeekView(
        state="waiting" if seek.game_id is None else "paired", game_id=seek.game_id, spec=seek.spec,
        title=title(seek.spec), rated=seek.rated,
        minutes=None if seek.clock_initial_ms is None else seek.clock_initial_ms / 60_000,
        increment=(seek.clock_increment_ms or 0) / 1000, rating=round(seek.rating), waited_ms=now - seek.joined_at,
        window=round(window(now - seek.joined_at)), waiting=len(same),
        bot_after=None if seek.bot_after_ms is None else seek.bot_after_ms / 1000,
    )  # fmt: skip


@router.post("", response_model=SeekView, status_code=201, responses=GUARDED)
async def play_now(body: SeekRequest, request: Request, user: LoggedIn) -> SeekView:
    """Joins the pool (replacing the player's earlier seek) and pairs at once if someone
    fits; with `bot_after`, a bot fills in after that long. While the player's paired
    game goes on, answers it (`paired`) and seeks nothing. 400 invalid-spec; 422 a
    clock outside the schema's bounds; 403 guest-rated."""
    pairing = online_of(request).pairing
    seek = await pairing.seek(user, body.spec, body.rated, body.minutes, body.increment, body.bot_after)
    return await _view(request, seek)


@router.get("", response_model=SeekView)
async def pairing(request: Request, user: LoggedIn) -> SeekView:
    """The player's seek, after trying to pair it again: `paired` with the game's id, or
    still `waiting`. 404 not-seeking when the player is not in the pool."""
    seek = await online_of(request).pairing.status(user)
    if seek is None:
        raise MissingError("not-seeking", "you are not waiting for a game: press play now first")
    return await _view(request, seek)


@router.delete("", status_code=204, responses={200: {"model": SeekView}, **GUARDED})
async def leave(request: Request, user: LoggedIn) -> Response:
    """Leaves the pool (204). Paired already: 200 with the game, which has started."""
    seek = await online_of(request).pairing.leave(user)
    if seek is None:
        return Response(status_code=204)
    view = await _view(request, seek)
    return Response(view.model_dump_json(), status_code=200, media_type="application/json")
