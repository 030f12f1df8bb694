"""The page: the site at / (its scripts and styles are the static files under /static),
its service worker at /sw.js, its texts in each language at /i18n/LANG.json, and
/online, where online play used to be, sent there. Not in the API's schema."""

from __future__ import annotations

import hashlib
import json
from functools import cache
from pathlib import Path

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, JSONResponse, RedirectResponse, Response

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


#: The files of the app's shell the service worker keeps, under the web folder.
SHELL_FILES = ("css/*.css", "js/**/*.js", "icons/*.svg", "icons/*.png", "manifest.webmanifest")
#: The worker itself, served at the site's root so that its scope is the whole site.
WORKER = "js/sw.js"


def shell(web_dir: Path) -> tuple[list[str], str]:
    """The addresses the service worker keeps (the page, its files, the games'
    catalogue) and a version that changes with any of their contents."""
    files = sorted({path for pattern in SHELL_FILES for path in web_dir.glob(pattern) if path.is_file()})
    files = [path for path in files if path != web_dir / WORKER]
    digest = hashlib.sha256((web_dir / "index.html").read_bytes())
    for path in files:
        digest.update(path.relative_to(web_dir).as_posix().encode())
        digest.update(path.read_bytes())
    addresses = ["/", "/api/games", *(f"/static/{path.relative_to(web_dir).as_posix()}" for path in files)]
    return addresses, digest.hexdigest()[:16]


@router.get("/sw.js")
def service_worker(request: Request) -> Response:
    """js/sw.js with the shell's list and version written first. no-cache: the browser
    checks it at each visit, and a new release's files replace the kept ones."""
    web_dir: Path = request.app.state.settings.web_dir
    addresses, version = shell(web_dir)
    head = f"const SHELL = {json.dumps(addresses)};\nconst VERSION = {json.dumps(version)};\n"
    body = head + (web_dir / WORKER).read_text(encoding="utf-8")
    return Response(body, media_type="text/javascript", headers={"Cache-Control": "no-cache"})
