"""Every page in light and dark, on a desktop and on a phone: no console errors, nothing
wider than the screen, and a screenshot of each in artifacts/screenshots/ to look at."""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

import pytest

from noughts.registry import GAMES
from web.browsing import DESKTOP, PHONE, SCREENSHOTS, Tab

from support import playout

#: A game page per game (and forget mode), opened part-way so that marks, decided
#: boards, vanishing marks, stacks and a finished game all show.
GAME_PAGES = {
    "classic": ("classic", 5, "computer&level=max&side=o"),
    "classic-forget": ("classic:forget", 7, "local"),
    "mnk": ("mnk:m=15:n=15:k=5", 14, "local"),
    "nine-board": ("nine-board", 14, "local"),
    "ultimate": ("ultimate", 30, "local"),
    "ultimate-forget": ("ultimate:forget", 24, "local"),
    "qubic": ("qubic", 12, "local"),
    "matryoshka": ("matryoshka", 4, "local"),
    "gobblet": ("gobblet", 5, "local"),
    "connect4": ("connect4", 9, "local"),
    "classic-won": ("classic", 99, "local"),
}
OTHER_PAGES = {"home": "#/", "rules": "#/rules"}


def _route(spec: str, plies: int, mode: str) -> str:
    steps = playout(spec, seed=11)[:plies]
    moves = ",".join(state.move_text(move) for state, move in steps if move is not None)
    return f"#/play?spec={quote(spec)}&mode={mode}&moves={moves}"


def test_every_game_has_a_page() -> None:
    assert {spec.split(":")[0] for spec, _, _ in GAME_PAGES.values()} == set(GAMES)


@pytest.mark.parametrize(
    ("size", "viewport", "theme"),
    [
        # One size and theme in the default run; the other three pairings (about 30 s
        # of browser) in the slow one.
        ("phone", PHONE, "dark"),
        pytest.param("desktop", DESKTOP, "light", marks=pytest.mark.slow),
        pytest.param("desktop", DESKTOP, "dark", marks=pytest.mark.slow),
        pytest.param("phone", PHONE, "light", marks=pytest.mark.slow),
    ],
)
def test_pages_look_right(make_tab: Any, size: str, viewport: dict[str, int], theme: str) -> None:
    tab: Tab = make_tab(viewport, theme)
    page = tab.page
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    routes = {**OTHER_PAGES, **{name: _route(*entry) for name, entry in GAME_PAGES.items()}}
    for name, route in routes.items():
        tab.open(route)
        page.wait_for_selector(".board-box .cell, .home, .rules-page")
        if "/play" in route:
            page.wait_for_function("() => !document.querySelector('#status.thinking')")
        page.wait_for_timeout(350)  # the pop-in animations end
        assert page.evaluate("document.documentElement.dataset.theme") == theme
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= viewport["width"], f"{name} is {width}px wide on a {viewport['width']}px screen"
        page.screenshot(path=str(SCREENSHOTS / f"{name}-{size}-{theme}.png"), full_page=True)
    tab.assert_clean()
