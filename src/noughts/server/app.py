"""The web app: the API under /api, its docs at /docs, and the page at /."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from fastapi import FastAPI
from fastapi.responses import FileResponse
from fastapi.staticfiles import StaticFiles
from fastapi_offline import FastAPIOffline

from noughts import __version__
from noughts.server import errors
from noughts.server.guards import MAX_BODY, BodyLimit, JsonOnly, NoNulText, OriginGuard, no_nul_in_schema
from noughts.server.online import app as online
from noughts.server.routes import catalogue, computer, play, study
from noughts.server.settings import Settings
from noughts.server.thinking import ThinkingPool


def create_app(settings: Settings | None = None) -> FastAPI:
    """A new app. The thinking pool starts with the first computer move (or with the
    app, when `settings.warm_kernels`) and stops with the app (run it under uvicorn, or
    use it as a context manager in tests).

    >>> create_app().title
    'Noughts'
    """
    settings = settings or Settings()
    pool = ThinkingPool(settings.ai_workers, warm_kernels=settings.warm_kernels, max_think=settings.max_think)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        if settings.warm_kernels:
            pool.start()  # the workers warm up in the background; requests are served meanwhile
        yield
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
    errors.install(app)
    # The origin check runs first: a foreign page's request is refused whatever it holds.
    app.add_middleware(NoNulText)
    app.add_middleware(BodyLimit)
    app.add_middleware(JsonOnly)
    app.add_middleware(OriginGuard)
    online.install(app, settings)
    for module in (catalogue, play, computer, study):
        app.include_router(module.router, max_body_size=MAX_BODY)

    made = app.openapi

    def openapi() -> dict[str, Any]:
        # What the guards refuse is part of what the server accepts (made once, then kept).
        if app.openapi_schema is None:
            app.openapi_schema = no_nul_in_schema(made())
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]  # FastAPI's documented way to extend it
    index = settings.web_dir / "index.html"

    @app.get("/", include_in_schema=False)
    def page() -> FileResponse:
        return FileResponse(index, headers={"Cache-Control": "no-cache"})

    app.mount("/static", StaticFiles(directory=settings.web_dir), name="static")
    return app
