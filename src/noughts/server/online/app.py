"""`install` adds online play to the web app: the routes under /api/online, the sockets, the page
at /online, and a start-up that brings the database schema up to date and connects
the fan-out (Redis when `Settings.redis` is set).
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import FileResponse, JSONResponse

from noughts.ai.base import win_chance
from noughts.ai.levels import as_level
from noughts.server.guards import MAX_BODY
from noughts.server.models import ErrorBody
from noughts.server.online import ws
from noughts.server.online.accounts import AccountError, TooManyAttemptsError
from noughts.server.online.actions import ActionError
from noughts.server.online.config import default_database_url
from noughts.server.online.routes import accounts, analysis, bots, games, pairing, players, puzzles, tournaments
from noughts.server.online.service import Online
from noughts.server.replay import replay
from noughts.server.settings import Settings
from noughts.server.thinking import ThinkJob

__all__ = ["install"]

#: HTTP status of each refused action; the rest are 409 (the game's state forbids it).
_STATUS = {"no-such-game": 404, "not-a-player": 403, "not-yours": 403, "invalid-spec": 400, "invalid-side": 400,
           "invalid-clock": 400, "guest-rated": 403, "own-room": 409, "no-such-puzzle": 404,
           "no-puzzle-left": 404, "not-seeking": 404, "no-such-bot": 404, "invalid-wait": 400,
           "not-invited": 403, "no-such-tournament": 404, "invalid-tournament": 400, "guest-tournament": 403,
           "too-many-tournaments": 429}  # fmt: skip


def install(app: FastAPI, settings: Settings) -> Online:
    """Adds online play to `app`."""
    online = Online(settings.database or default_database_url(), settings.redis, settings.online)
    app.state.online = online
    # Puzzles from every game that ends (the pool is the app's, set before this runs).
    online.on_finished = lambda row: puzzles.mine_finished_game(app.state.thinking, online, row)

    async def think(spec: str, moves: list[str], level: str, seconds: float | None) -> str:
        """A bot's move, from the app's worker pool (seeded by nothing: bots vary)."""
        analysis = await app.state.thinking.analyze(ThinkJob(replay(spec, None, moves).state, as_level(level), seconds))
        return str(analysis.moves[0].text)

    async def assess(spec: str, moves: list[str], level: str, seconds: float) -> float | None:
        """How a bot sees the position (for a draw offer): its level's search without
        the deliberate slips, as the expected result for the player to move."""
        job = ThinkJob(replay(spec, None, moves).state, as_level(level), seconds, mistakes=False)
        analysis = await app.state.thinking.analyze(job)
        return win_chance(analysis.value, analysis.scale)

    online.bots.think, online.bots.assess = think, assess
    for module in (accounts, games, players, analysis, puzzles, pairing, bots, tournaments):
        # Set per router, not on the app: FastAPI's app-wide limit answers in plain text.
        app.include_router(module.router, max_body_size=MAX_BODY)
    app.include_router(bots.engines, max_body_size=MAX_BODY)
    app.include_router(ws.router)

    @app.exception_handler(AccountError)
    async def account_error(request: Request, exc: AccountError) -> JSONResponse:
        headers = {"Retry-After": str(exc.wait)} if isinstance(exc, TooManyAttemptsError) else None
        body = ErrorBody(error=exc.error, message=exc.message, field=exc.field)
        return JSONResponse(body.model_dump(), status_code=exc.status, headers=headers)

    @app.exception_handler(ActionError)
    async def action_error(request: Request, exc: ActionError) -> JSONResponse:
        body = ErrorBody(error=exc.error, message=exc.message)
        return JSONResponse(body.model_dump(), status_code=_STATUS.get(exc.error, 409))

    page = settings.web_dir / "online" / "index.html"

    @app.get("/online", include_in_schema=False)
    def online_page() -> FileResponse:
        return FileResponse(page, headers={"Cache-Control": "no-cache"})

    previous = app.router.lifespan_context

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[Any]:
        async with previous(app) as state:
            await online.start()
            try:
                yield state
            finally:
                await online.stop()

    app.router.lifespan_context = lifespan
    return online
