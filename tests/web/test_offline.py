"""The site installed on a phone and the network gone (issue 57): the page links its web
app manifest (served as application/manifest+json, with PNG icons of the sizes it
names), its service worker keeps the app's shell, and with the browser offline the site
still opens and a game of tic-tac-toe on one screen is played to its end by the page's
own rules (js/offline.js), which answer as the server does."""

from __future__ import annotations

import json
import struct
from pathlib import Path
from typing import Any
from urllib.request import urlopen

import pytest

from web.browsing import PHONE

pytestmark = pytest.mark.integration

WEB = Path(__file__).resolve().parents[2] / "src" / "noughts" / "web"

#: The page's rules against the server's, position by position, over random games.
SAME_AS_SERVER = """async games => {
  const { offlineView } = await import("/static/js/offline.js");
  for (let g = 0; g < games; g++) {
    const moves = [];
    for (;;) {
      const mine = offlineView("classic", moves);
      const body = JSON.stringify({ spec: "classic", moves });
      const headers = { "Content-Type": "application/json" };
      const answer = await fetch("/api/new", { method: "POST", headers, body });
      const theirs = await answer.json();
      if (JSON.stringify(mine) !== JSON.stringify(theirs)) return { moves, mine, theirs };
      if (!mine.legal.length) break;
      moves.push(mine.legal[Math.floor(Math.random() * mine.legal.length)].text);
    }
  }
  return null;
}"""


def png_size(path: Path) -> tuple[int, int]:
    """A PNG's width and height, from its IHDR chunk."""
    width, height = struct.unpack(">II", path.read_bytes()[16:24])
    return width, height


def test_the_manifest_and_its_icons(server_url: str) -> None:
    with urlopen(f"{server_url}/static/manifest.webmanifest") as answer:
        assert answer.headers["Content-Type"] == "application/manifest+json"
        manifest = json.load(answer)
    assert manifest["start_url"] == "/" and manifest["display"] == "standalone"
    for icon in manifest["icons"]:
        path = WEB / icon["src"].removeprefix("/static/")
        assert path.is_file(), icon
        if icon["type"] == "image/png":
            width, height = (int(n) for n in icon["sizes"].split("x"))
            assert png_size(path) == (width, height), icon
    with urlopen(f"{server_url}/sw.js") as answer:
        assert answer.headers["Content-Type"].startswith("text/javascript")
        worker = answer.read().decode()
    # Every file the worker keeps is there: one missing fails its whole install.
    kept = json.loads(worker.removeprefix("const SHELL = ").split(";\n", 1)[0])
    assert {"/", "/api/games", "/static/js/offline.js", "/static/icons/icon-192.png"} <= set(kept)
    for address in kept:
        with urlopen(f"{server_url}{address}") as answer:
            assert answer.status == 200, address


def test_a_game_on_one_screen_is_played_offline(browser: Any, server_url: str) -> None:
    context = browser.new_context(viewport=PHONE)
    context.set_default_timeout(20_000)
    try:
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto(f"{server_url}/#/play?spec=classic&mode=local")
        page.wait_for_selector("#view .cell")
        assert page.evaluate(SAME_AS_SERVER, 30) is None
        # Kept once the worker has installed and controls the page.
        page.wait_for_function("navigator.serviceWorker.controller !== null")
        context.set_offline(True)
        page.reload()
        page.wait_for_selector("#view .cell")
        for move in ("5", "2", "1", "3", "9"):
            page.click(f"#view [data-move='{move}']")
            page.wait_for_selector(f"#view .cell.last[data-cell='{int(move) - 1}']")
        # 1-5-9: X wins, told by the page's rules with the server away.
        page.wait_for_selector(".result-banner:has-text('X')")
        assert page.locator("#view .cell.win").count() == 3
        assert errors == []
    finally:
        context.close()
