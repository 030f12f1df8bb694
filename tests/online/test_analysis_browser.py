"""Asking for a finished online game's analysis in the browser (Debian's Chromium):
from the game's page and from the profile's list, onto the analysis board."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from online.people import Person, unique
from online.test_browser import Visitor
from online.test_play import alternate, start

pytestmark = pytest.mark.timeout(180)


@pytest.fixture
def database_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'online.db'}"


def test_request_analysis_in_the_browser_from_the_game_and_the_profile(
    browser: Any, server: str, people: Callable[[], Person]
) -> None:
    """A spectator signed in asks for a finished game's analysis on its page and lands on
    the analysis board with the review; the player's profile offers the same button."""
    ann, _, game_id, a, b = start(people)
    alternate(a, b, "5", "1", "3", "7", "2", "4")
    visitor = Visitor(browser, server)
    visitor.sign_up(unique("cat"))
    page = visitor.page
    page.goto(f"{server}/online#/game/{game_id}")
    page.click(f"[data-analysis='{game_id}']")
    page.wait_for_selector(".tree-move.class-blunder[data-path='5,1,3,7,2']", timeout=60_000)
    assert "online=" + game_id in page.url
    assert "1 blunder" in page.locator("#review").inner_text()
    # Stored: whoever opens the game sees it on the game's page.
    page.goto(f"{server}/online#/game/{game_id}")
    page.wait_for_selector("#stored-analysis:has-text('accuracy X')")
    # The profile's list: the button opens the stored review at once.
    page.goto(f"{server}/online#/u/{ann.name}")
    page.click(f"[data-analysis='{game_id}']")
    page.wait_for_selector(".tree-move.class-blunder")
    # Opened by its id alone, the board fetches the game's moves and the stored review.
    page.goto(f"{server}/#/analysis?online={game_id}")
    page.wait_for_selector(".tree-move.class-blunder[data-path='5,1,3,7,2']")
    assert visitor.errors == []
    visitor.context.close()
