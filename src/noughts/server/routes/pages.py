"""The pages: the home page at / and online play's at /online (their scripts and styles
are the static files under /static). Not in the API's schema."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import FileResponse

router = APIRouter(include_in_schema=False)


def _page(request: Request, *path: str) -> FileResponse:
    # no-cache: the browser asks again each time, so a new release's page is seen at once.
    return FileResponse(request.app.state.settings.web_dir.joinpath(*path), headers={"Cache-Control": "no-cache"})


@router.get("/")
def home(request: Request) -> FileResponse:
    return _page(request, "index.html")


@router.get("/online")
def online(request: Request) -> FileResponse:
    return _page(request, "online.html")
