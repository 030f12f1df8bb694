"""The page: the site at / (its scripts and styles are the static files under /static),
its texts in each language at /i18n/LANG.json, and /online, where online play used to
be, sent there. Not in the API's schema."""

from __future__ import annotations

from functools import cache
from pathlib import Path

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, JSONResponse, RedirectResponse

from noughts import i18n
from noughts.server.errors import language_of

router = APIRouter(include_in_schema=False)


@cache
def _page(path: Path) -> str:
    return path.read_text(encoding="utf-8")


@router.get("/")
def home(request: Request) -> HTMLResponse:
    # The language the browser asks for first (Accept-Language), until the player picks
    # one in the menu: the page loads that language's texts and sets <html lang> again.
    html = _page(request.app.state.settings.web_dir / "index.html")
    html = html.replace('<html lang="en">', f'<html lang="{language_of(request)}">', 1)
    # no-cache: the browser asks again each time, so a new release's page is seen at once.
    return HTMLResponse(html, headers={"Cache-Control": "no-cache", "Vary": "Accept-Language"})


@router.get("/i18n/{language}.json")
def catalogue(language: str) -> JSONResponse:
    """The page's texts in `language` (English: none, the page's own), and the languages
    offered for the menu."""
    if language not in i18n.LANGUAGES and language != i18n.PSEUDO:
        return JSONResponse(
            {"error": "unknown-language", "message": f"no language {language[:40]!r}", "field": "language"},
            status_code=404,
        )
    body = {"language": language, "languages": dict(i18n.LANGUAGES), "messages": i18n.browser_catalogue(language)}
    return JSONResponse(body, headers={"Cache-Control": "no-cache"})


@router.get("/online")
def online() -> RedirectResponse:
    """Old links (/online#/game/ID, /online#/u/NAME) to the same page on the site: the
    browser keeps the address's #part through a redirect that names none, and the page
    reads `from=online` to send the old lobby (#/) to its place (#/lobby)."""
    return RedirectResponse("/?from=online", status_code=301)
