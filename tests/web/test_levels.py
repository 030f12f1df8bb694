"""The page's computer levels are the catalogue's (GET /api/games), never a list of its own."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from noughts.ai.levels import LEVELS
from web.browsing import Tab, wait_for_ply

WEB = Path(__file__).resolve().parents[2] / "src" / "noughts" / "web"

#: The level names' words where the page means something else by them.
NOT_LEVELS = {
    ("js/boards/gobblet.js", "medium"): "a figure's size",
    ("js/online/tournaments.js", "medium"): "a date's style",
}


def test_the_page_writes_no_level_name() -> None:
    """No script or page of the front end spells a level's name: which levels there
    are, which is the default and which the strongest, all come from the catalogue."""
    found = []
    for path in sorted(WEB.rglob("*")):
        if path.suffix not in (".js", ".html"):
            continue
        name = path.relative_to(WEB).as_posix()
        text = path.read_text(encoding="utf-8")
        for level in LEVELS:
            if (name, level) not in NOT_LEVELS and re.search(rf"[\"'`]{level}[\"'`]", text):
                found.append(f"{name}: {level}")
    assert not found


def test_the_level_choices_are_the_catalogues(tab: Tab) -> None:
    """With a catalogue of other levels (two of them, the default the second), the lobby
    offers exactly those, a level the catalogue lacks falls back to its default, and a
    hint asks the strongest (the last) of them."""
    page = tab.page

    def catalogue(route: Any) -> None:
        data = route.fetch().json()
        data["levels"] = [level for level in data["levels"] if level["name"] in ("medium", "hard")]
        data["default_level"] = "hard"
        route.fulfill(json=data)

    page.route("**/api/games", catalogue)
    tab.open("#/")
    page.wait_for_selector(".level-chip")
    chips = page.locator(".level-chip").evaluate_all("els => els.map(e => e.dataset.level)")
    assert chips == ["medium", "hard"]
    assert page.locator('.level-chip[aria-checked="true"]').get_attribute("data-level") == "hard"
    assert "level=hard" in (page.locator('[data-quick="classic"]').get_attribute("href") or "")
    options = page.locator("#level option").evaluate_all("els => els.map(e => e.value)")
    assert options == ["medium", "hard"]

    tab.open("#/play?spec=classic&mode=computer&level=max&side=x")
    wait_for_ply(tab, 0)
    assert page.locator(".who-o").inner_text() == "O · Computer (hard)"
    with page.expect_request("**/api/analysis") as asked:
        page.click("#hint")
    assert json.loads(asked.value.post_data or "{}")["level"] == "hard"
    page.wait_for_selector(".cell.hint")
    tab.assert_clean()
