"""A finished online game's computer analysis: asked for once by anyone signed in,
computed in the worker pool, stored with the game and shown to everyone who opens it."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from fastapi import APIRouter, Request
from pydantic import BaseModel

from noughts.ai.levels import Level
from noughts.server.models import GUARDED, ReviewView, error_answers
from noughts.server.online.actions import ActionError
from noughts.server.online.clock import now_ms
from noughts.server.online.sessions import LoggedIn, online_of
from noughts.server.replay import replay
from noughts.server.thinking import Asker, Thinking

router = APIRouter(
    prefix="/api/online",
    tags=["online games"],
    responses=error_answers(401, 404, 409),
)

#: The reviewer of online games, and its time a position: an ultimate game of 60 plies
#: takes about half a minute.
LEVEL: Level = "max"
SECONDS = 0.5


class StoredAnalysis(BaseModel):
    """A game's stored analysis; null while nobody has asked for it (not an error: a
    page asks on every finished game it shows)."""

    review: ReviewView | None


@router.get("/games/{game_id}/analysis", response_model=StoredAnalysis)
async def stored_analysis(game_id: str, request: Request) -> StoredAnalysis:
    """The game's analysis, or null if nobody has asked for it yet."""
    online = online_of(request)
    await online.start()
    await online.play.game(game_id)
    data = await online.store.call(online.store.review, game_id)
    return StoredAnalysis(review=None if data is None else ReviewView.model_validate_json(data))


@router.post("/games/{game_id}/analysis", response_model=ReviewView, responses=GUARDED)
async def request_analysis(game_id: str, request: Request, user: LoggedIn) -> ReviewView:
    """Analyses a finished game (`max`, half a second a position) and stores the
    review, or answers the stored one. Two requests at once in one process share the
    work; across processes the first stored wins."""
    online = online_of(request)
    row = await online.play.game(game_id)
    if row.state != "over":
        raise ActionError("game-not-over", "a game is analysed once it is over")
    stored = await online.store.call(online.store.review, game_id)
    if stored is None:
        running: dict[str, asyncio.Task[Any]] = request.app.state.__dict__.setdefault("reviews_running", {})
        task = running.get(game_id)
        if task is None:
            pool: Thinking = request.app.state.thinking
            game = replay(row.spec, None, row.moves.split())
            # Shared by whoever asks meanwhile and stored for all: it goes on if its asker hangs up.
            asker = Asker(f"user {user.id}", signed_in=not user.guest)
            task = running[game_id] = asyncio.create_task(pool.review(game, LEVEL, SECONDS, asker))
            task.add_done_callback(lambda _: running.pop(game_id, None))
        data = await asyncio.shield(task)
        stored = await online.store.call(online.store.add_review, game_id, LEVEL, json.dumps(data), user.id, now_ms())
    return ReviewView.model_validate_json(stored)
