"""The settings panel (issue 57, lichess's display settings the model): reached from the
header's gear, each choice applied at once to every board and kept in the browser:
coordinates on or off, the boards' colours, the effects' volume, zen mode (nothing but
the board on a game page, left by its button or the key z). axe-core finds no serious
violation with the panel open, nor on a board of each colour, light and dark."""

from __future__ import annotations

from typing import Any

import pytest

from web.browsing import PHONE, Tab, serious_violations

pytestmark = pytest.mark.integration

GAME = "#/play?spec=classic&mode=local"


def cell_colour(tab: Tab) -> str:
    colour: str = tab.page.evaluate("getComputedStyle(document.querySelector('#view .cell')).backgroundColor")
    return colour


def test_the_settings_change_the_boards_and_are_kept(tab: Tab) -> None:
    page = tab.page
    tab.open(GAME)
    page.wait_for_selector("#view .cell .cell-name")
    classic = cell_colour(tab)
    page.click("#settings-toggle")
    dialog = page.get_by_role("dialog", name="Settings")
    dialog.wait_for()
    assert serious_violations(page) == []
    page.uncheck("#show-coords")
    assert page.locator("#view .cell .cell-name").first.is_hidden()
    page.select_option("#board-theme", "wood")
    assert cell_colour(tab) != classic
    page.fill("#volume", "20")
    page.click("#settings-close")
    assert dialog.count() == 0
    # Kept: a new visit draws the board the same way.
    page.reload()
    page.wait_for_selector("#view .cell")
    assert page.locator("#view .cell .cell-name").first.is_hidden()
    assert cell_colour(tab) != classic
    prefs = page.evaluate("JSON.parse(localStorage.getItem('noughts.prefs'))")
    assert (prefs["coords"], prefs["boardTheme"], prefs["volume"]) == (False, "wood", 0.2)
    tab.assert_clean()


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_each_board_colour_keeps_its_contrast(make_tab: Any, theme: str) -> None:
    tab = make_tab(PHONE, theme)
    tab.open(GAME)
    tab.page.wait_for_selector("#view .cell .cell-name")
    for board in ("classic", "wood", "ocean", "meadow"):
        tab.page.evaluate("b => (document.documentElement.dataset.board = b)", board)
        assert serious_violations(tab.page) == [], board


def test_zen_mode_leaves_only_the_board_and_is_left_by_its_button_or_z(tab: Tab) -> None:
    page = tab.page
    tab.open(GAME)
    page.wait_for_selector("#view .cell")
    page.click("#settings-toggle")
    page.check("#zen-on")
    page.click("#settings-close")
    assert page.locator(".topbar").is_hidden() and page.locator(".game-page > .panel").is_hidden()
    assert page.locator("#view .board-box").is_visible()
    page.click("#zen-exit")
    assert page.locator(".topbar").is_visible() and page.locator("#zen-exit").is_hidden()
    # The key z goes in and out, as on lichess, but not while typing a move.
    page.keyboard.press("z")
    assert page.locator(".topbar").is_hidden()
    page.keyboard.press("z")
    assert page.locator(".topbar").is_visible()
    page.fill("#move-input", "z")
    assert page.locator(".topbar").is_visible()
    # Not on a page that is not a game: the header stays.
    page.keyboard.press("Escape")
    page.evaluate("document.activeElement.blur()")
    page.keyboard.press("z")
    tab.open("#/rules")
    page.wait_for_selector(".rules-page")
    assert page.locator(".topbar").is_visible() and page.locator("#zen-exit").is_hidden()
    tab.assert_clean()
