"""The page: the site at / (its scripts and styles are the static files under /static),
and /online, where online play used to be, sent there. Not in the API's schema."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import FileResponse, RedirectResponse

router = APIRouter(include_in_schema=False)


@router.get("/")
def home(request: Request) -> FileResponse:
    # no-cache: the browser asks again each time, so a new release's page is seen at once.
    return FileResponse(request.app.state.settings.web_dir / "index.html", headers={"Cache-Control": "no-cache"})


@router.get("/online")
def online() -> RedirectResponse:
    """Old links (/online#/game/ID, /online#/u/NAME) to the same page on the site: the
    browser keeps the address's #part through a redirect that names none, and the page
    reads `from=online` to send the old lobby (#/) to its place (#/lobby)."""
    return RedirectResponse("/?from=online", status_code=301)
