"""Games the page was not written for: Connect Four on the grid (a click anywhere in a
column drops a mark to its bottom), and a game from outside the package, named in
NOUGHTS_GAMES, whose board nothing draws (its diagram and its moves as buttons), played
against the computer and listed on the rules page. Screenshots, desktop light and phone
dark: artifacts/screenshots/new-game-*.png."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from web.browsing import DESKTOP, PHONE, SCREENSHOTS, Tab, axe_violations, wait_for_ply
from web.conftest import _tab, serve

pytestmark = pytest.mark.integration

TESTS = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def plugged_in_server() -> Iterator[str]:
    """`noughts serve` with the toy game of tests/toy_game.py named in its environment,
    as a contributor's game from outside the package would be."""
    tests = str(TESTS)
    yield from serve(
        {"NOUGHTS_GAMES": "toy_game:Strip", "PYTHONPATH": os.pathsep.join([tests, os.environ.get("PYTHONPATH", "")])}
    )


@pytest.mark.parametrize(("viewport", "theme"), [(DESKTOP, "light"), (PHONE, "dark")])
def test_connect_four_drops_a_mark_from_any_cell_of_its_column(
    make_tab: Any, viewport: dict[str, int], theme: str
) -> None:
    tab: Tab = make_tab(viewport, theme)
    tab.open("#/play?spec=connect4&mode=computer&level=easy&side=x")
    wait_for_ply(tab, 0)
    page = tab.page
    assert page.locator(".coords-cols").inner_text().split() == [str(c) for c in range(1, 8)]
    page.click('.cell[data-cell="3"]')  # the top of column 4: the mark falls to its bottom
    wait_for_ply(tab, 2)
    assert page.locator('.cell[data-cell="38"]').get_attribute("class").split().count("has-x") == 1
    assert page.locator(".cell.has-x").count() == 1 and page.locator(".cell.has-o").count() == 1
    assert page.locator('.cell[data-cell="3"]').get_attribute("data-move") == "4"
    name = "desktop-light" if viewport is DESKTOP else "phone-dark"
    page.screenshot(path=str(SCREENSHOTS / f"new-game-connect4-{name}.png"))
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    assert axe_violations(page) == []
    tab.assert_clean()


def test_a_game_nothing_draws_plays_as_its_diagram_and_its_moves(browser: Any, plugged_in_server: str) -> None:
    for viewport, theme in ((DESKTOP, "light"), (PHONE, "dark")):
        gen = _tab(browser, plugged_in_server, viewport, theme)
        tab = next(gen)
        page = tab.page
        tab.open("#/play?spec=strip&mode=computer&level=max&side=x")
        wait_for_ply(tab, 0)
        assert page.locator(".text-board .diagram").inner_text() == "a b c d e\n. . . . ."
        page.click('.text-move[data-move="c"]')
        wait_for_ply(tab, 2)
        assert "X" in page.locator(".text-board .diagram").inner_text()
        name = "desktop-light" if viewport is DESKTOP else "phone-dark"
        page.screenshot(path=str(SCREENSHOTS / f"new-game-strip-{name}.png"))
        assert axe_violations(page) == []
        tab.open("#/rules")
        page.wait_for_selector("#rules-strip")
        assert "two of yours side by side win" in page.locator("#rules-strip").inner_text()
        tab.assert_clean()
        gen.close()
