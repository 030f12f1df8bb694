"""Rooms and games: create, list, join, close, look at, export."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, Request
from fastapi.responses import JSONResponse, PlainTextResponse, Response

from noughts.server.models import GUARDED, error_answers
from noughts.server.online.schemas import RoomAnswer, RoomList, RoomRequest
from noughts.server.online.sessions import LoggedIn, current_user, online_of
from noughts.server.online.snapshots import record
from noughts.server.online.storage.store import UserRow

router = APIRouter(
    prefix="/api/online",
    tags=["online games"],
    responses=error_answers(400, 401, 403, 404, 409),
)


def invite_path(game_id: str) -> str:
    return f"/#/game/{game_id}"


@router.post("/rooms", status_code=201, response_model=RoomAnswer, responses=GUARDED)
async def create_room(body: RoomRequest, request: Request, user: LoggedIn) -> RoomAnswer:
    """Opens a room; the creator waits for an opponent on the game's socket."""
    online = online_of(request)
    row = await online.rooms.create(
        user, body.spec, body.rated, body.side, body.private, body.minutes, body.increment, body.days
    )
    return RoomAnswer(game=await online.play.snapshot(row), invite=invite_path(row.id))


@router.get("/rooms", response_model=RoomList)
async def rooms(request: Request) -> RoomList:
    """The open rooms of the lobby (newest first) and the games being played, each with
    its position as the small boards draw it (`board`, `turn`, `last_move`)."""
    online = online_of(request)
    await online.start()
    open_rows = await online.store.call(online.store.open_rooms)
    live_rows = await online.store.call(online.store.live_games)
    play = online.play
    return RoomList(
        rooms=await play.summaries(open_rows),
        live=await play.summaries(live_rows, boards=True),
        online=online.live.online,
    )


@router.get("/games/{game_id}")
async def game(game_id: str, request: Request) -> JSONResponse:
    """A game's whole public state (what the socket's "state" message holds)."""
    online = online_of(request)
    await online.start()
    return JSONResponse(await online.play.snapshot(await online.play.game(game_id)))


@router.post("/games/{game_id}/join", responses=GUARDED)
async def join(game_id: str, request: Request, user: LoggedIn) -> JSONResponse:
    """Takes the free seat of an open room: the game starts."""
    online = online_of(request)
    change = await online.rooms.join(game_id, user)
    return JSONResponse(await online.play.snapshot(change.row))


@router.delete("/games/{game_id}", status_code=204, responses=GUARDED)
async def close_room(game_id: str, request: Request, user: LoggedIn) -> Response:
    """Closes an open room (its creator only)."""
    await online_of(request).rooms.cancel(game_id, user)
    return Response(status_code=204)


#: The record's two forms, as /openapi.json declares them (the text one is the default).
_RECORD_FORMS: dict[int | str, dict[str, Any]] = {
    200: {
        "description": "the record: its text (format=text), or its JSON (format=json)",
        "content": {"text/plain": {"schema": {"type": "string"}}, "application/json": {"schema": {"type": "object"}}},
    }
}


@router.get("/games/{game_id}/record", response_model=None, responses=_RECORD_FORMS)
async def export(game_id: str, request: Request, format: Literal["text", "json"] = "text") -> Response:
    """The game as a game record (see README), to save or import elsewhere."""
    online = online_of(request)
    await online.start()
    row = await online.play.game(game_id)
    users = await online.store.call(online.store.users, {i for i in (row.x_id, row.o_id) if i is not None})
    rec = record(row, users)
    headers = {
        "Content-Disposition": f'attachment; filename="noughts-{game_id}.{"json" if format == "json" else "txt"}"'
    }
    if format == "json":
        return Response(rec.to_json_text(), media_type="application/json", headers=headers)
    return PlainTextResponse(rec.to_text(), headers=headers)


@router.get("/me/turns")
async def turns(request: Request, user: Annotated[UserRow | None, Depends(current_user)]) -> JSONResponse:
    """The signed-in player's games in play where it is their move (correspondence games
    above all), the longest waiting first, each with its `deadline` (null: no clock);
    none for a visitor. The home page lists them."""
    if user is None:
        return JSONResponse({"games": []})
    online = online_of(request)
    rows = await online.store.call(online.store.turns_of, user.id)
    games = await online.play.summaries(rows)
    return JSONResponse({"games": [{**g, "deadline": r.deadline()} for g, r in zip(games, rows, strict=True)]})
