"""The web app: the API under /api (online play under /api/online, with its sockets),
its docs at /docs, the site at / (/online sent there). `create_app` builds it all: the routes
(`noughts.server.routes`, a module per area), the guards, the error answers, the
computer's worker pool and online play (`Online`), which starts with the app: its
start-up brings the database schema up to date and connects the fan-out (Redis when
`Settings.redis` is set)."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Awaitable
from contextlib import asynccontextmanager
from typing import Any

from fastapi import FastAPI
from fastapi.staticfiles import StaticFiles
from fastapi_offline import FastAPIOffline
from starlette.concurrency import run_in_threadpool

from noughts import __version__
from noughts.ai.base import Analysis, win_chance
from noughts.ai.levels import as_level
from noughts.server import errors
from noughts.server.guards import MAX_BODY, BodyLimit, JsonOnly, NoNulText, OriginGuard, no_nul_in_schema
from noughts.server.online.actions import OVER, GameRow
from noughts.server.online.bots import CannotThinkError
from noughts.server.online.bus import Changed
from noughts.server.online.config import default_database_url
from noughts.server.online.service import Online
from noughts.server.replay import replay
from noughts.server.reviews import Reviews
from noughts.server.routes import (
    accounts,
    analysis,
    bots,
    catalogue,
    computer,
    games,
    pages,
    pairing,
    play,
    players,
    puzzles,
    social,
    sockets,
    study,
    tournaments,
)
from noughts.server.settings import Settings
from noughts.thinking.jobs import ThinkJob
from noughts.thinking.lanes import SERVER, Lane, Thinking, ThinkingError
from noughts.thinking.pool import ThinkingPool


def create_app(settings: Settings | None = None) -> FastAPI:
    """A new app. The thinking pool starts with the first computer move (or with the
    app, when `settings.warm_kernels`) and stops with the app (run it under uvicorn, or
    use it as a context manager in tests).

    >>> create_app().title
    'Noughts'
    """
    settings = settings or Settings()
    pool = _thinking(settings)
    online = _online(settings, pool)
    reviews = Reviews(pool, online)

    async def finished(row: GameRow) -> None:
        reviews.game_ended(row)
        await puzzles.mine_finished_game(pool, online, row)

    def after(event: Changed) -> Awaitable[None] | None:
        # Every game played to its end is reviewed, in the background, then looked at for puzzles.
        row = event.change.row
        return finished(row) if event.change.finished and row.state == OVER else None

    online.bus.subscribe(Changed, after)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        say = settings.announce or (lambda _: None)
        if settings.warm_kernels:
            # Before the server answers anything: no request waits for a cold worker, nor
            # the first page for the catalogue's imports (a second and a half).
            say(f"starting {_thinkers(pool)} (each loads the fast engine) and reading the games' catalogue")
            await asyncio.gather(pool.start(), asyncio.to_thread(catalogue.catalogue))
        say("opening the database (its migrations, the house bots)")
        await online.start()
        say("building the pages' routes")
        await _first_use_now(app)
        try:
            yield
        finally:
            await reviews.stop()
            await online.stop()
        pool.shutdown()

    # FastAPIOffline serves the /docs and /redoc assets itself: FastAPI's own pages
    # load them from a CDN and stay blank on a machine without internet access.
    app = FastAPIOffline(
        title="Noughts",
        version=__version__,
        summary="Play the tic-tac-toe family against the computer or each other.",
        lifespan=lifespan,
    )
    app.state.settings = settings
    app.state.thinking = pool
    app.state.online = online
    app.state.reviews = reviews
    errors.install(app)
    # The origin check runs first: a foreign page's request is refused whatever it holds.
    app.add_middleware(NoNulText)
    app.add_middleware(BodyLimit)
    app.add_middleware(JsonOnly)
    app.add_middleware(OriginGuard)
    online_api = (accounts, games, players, social, analysis, puzzles, pairing, bots, tournaments)
    api = (*(m.router for m in online_api), bots.engines, *(m.router for m in (catalogue, play, computer, study)))
    # The body limit is set per router, not on the app: FastAPI's app-wide limit answers in plain text.
    for router in api:
        app.include_router(router, max_body_size=MAX_BODY)
    app.include_router(sockets.router)
    app.include_router(pages.router)

    made = app.openapi

    def openapi() -> dict[str, Any]:
        # What the guards refuse is part of what the server accepts (made once, then kept).
        if app.openapi_schema is None:
            app.openapi_schema = no_nul_in_schema(made())
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]  # FastAPI's documented way to extend it
    app.mount("/static", StaticFiles(directory=settings.web_dir), name="static")
    return app


async def _first_use_now(app: FastAPI) -> None:
    """Do now, before the address is printed, the work a server does on its first use.

    Left lazy, the first request pays it: 0.08 s on a quiet machine, over a second under
    load. FastAPI (0.137 and later) builds an included router's routes, with their pydantic
    models, on the first request that reaches them; walking the routes builds them all.
    anyio imports its asyncio backend on the first plain `def` endpoint run in a thread."""
    for route in app.router.routes:
        for _built in getattr(route, "effective_route_contexts", tuple)():
            pass
    await run_in_threadpool(lambda: None)


def _thinking(settings: Settings) -> Thinking:
    """Where the computer thinks: this server's worker processes, or `noughts worker`
    processes through Redis (`Settings.workers_on`)."""
    if settings.workers_on is None:
        return ThinkingPool(settings.ai_workers, warm_kernels=settings.warm_kernels, max_think=settings.max_think)
    from noughts.thinking.queue import QueueThinking

    return QueueThinking(settings.workers_on, settings.online.redis_prefix, max_think=settings.max_think)


async def _reached(asked: Awaitable[Analysis]) -> Analysis:
    """A bot's analysis; CannotThinkError when the computer does not give it (its
    workers or their Redis away, busy, late): the bots say so once, not each turn."""
    try:
        return await asked
    except ThinkingError as e:
        raise CannotThinkError(str(e)) from None


def _thinkers(pool: Thinking) -> str:
    workers = getattr(pool, "workers", None)
    return f"{workers} thinking worker{'s' if workers != 1 else ''}" if workers else "the thinking workers"


def _online(settings: Settings, pool: Thinking) -> Online:
    """Online play, its bots thinking in `pool`."""
    online = Online(settings.database or default_database_url(), settings.redis, settings.online)

    async def think(spec: str, moves: list[str], level: str, seconds: float | None) -> str:
        """A bot's move (seeded by nothing: bots vary)."""
        job = ThinkJob(replay(spec, None, moves).state, as_level(level), seconds, asked=time.time())
        analysis = await _reached(pool.analyze(job, Lane.MOVE, SERVER))
        return str(analysis.moves[0].text)

    async def assess(spec: str, moves: list[str], level: str, seconds: float) -> float | None:
        """How a bot sees the position (for a draw offer): its level's search without
        the deliberate slips, as the expected result for the player to move."""
        job = ThinkJob(replay(spec, None, moves).state, as_level(level), seconds, mistakes=False, asked=time.time())
        analysis = await _reached(pool.analyze(job, Lane.MOVE, SERVER))
        return win_chance(analysis.value, analysis.scale)

    online.bots.think, online.bots.assess = think, assess
    return online
