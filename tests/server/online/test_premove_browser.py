"""A live game's premove and its move list in Chromium, two players at once (issue 57,
lichess the model): on the opponent's turn a click queues a move, marked on the board,
taken back by a second click, a right-click or Escape, sent by itself when the
opponent's move comes and dropped if that move took its cell; the moves are buttons
that show their position, stepped with the arrows, Home and End, and a move coming in
brings the live position back; a correspondence move waits for its confirmation. axe-core
finds no serious violation on each. Screenshots go to /tmp/playfeel-shots when it exists."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from server.online.people import Person
from server.online.test_play import start
from server.online.test_social_browser import page_of
from web.browsing import PHONE, serious_violations

pytestmark = [pytest.mark.timeout(180), pytest.mark.integration]

SHOTS = Path("/tmp/playfeel-shots")


@pytest.fixture
def database_url(sqlite_url: str) -> str:
    return sqlite_url


def marks(page: Any) -> int:
    """The marks the board shows."""
    return int(page.locator("#board .cell.has-x, #board .cell.has-o").count())


def test_a_premove_is_queued_cancelled_sent_and_dropped(
    browser: Any, server: str, people: Callable[[], Person]
) -> None:
    ann, _, game_id, _, b = start(people)
    with page_of(browser, server, ann) as page:
        page.goto(f"{server}/#/game/{game_id}")
        page.click("#board [data-move='5']")
        b.event("move")
        # Bob to move: a click queues ann's move, marked; a second click takes it back.
        page.click("#board [data-move='1']")
        page.wait_for_selector("#board .cell.premove[data-move='1']")
        assert "premove 1 (Esc cancels)" in page.inner_text("#status")
        if SHOTS.is_dir():
            page.screenshot(path=str(SHOTS / "premove-desktop-light.png"))
        page.click("#board [data-move='1']")
        page.wait_for_selector("#board .cell.premove", state="detached")
        page.click("#board [data-move='1']")
        page.click("#board", button="right")
        page.wait_for_selector("#board .cell.premove", state="detached")
        page.click("#board [data-move='1']")
        page.keyboard.press("Escape")
        page.wait_for_selector("#board .cell.premove", state="detached")
        # Bob takes the queued cell: the premove is dropped, and nothing was sent (bob's
        # next event is ann's move played by hand).
        page.click("#board [data-move='3']")
        assert b.move("3")["type"] == "ack"
        page.wait_for_selector("#toast:has-text('Premove 3 cancelled')")
        page.wait_for_selector("#status:has-text('Your move')")
        page.click("#board [data-move='1']")
        assert b.event("move")["move"] == "1"
        # Queued, then sent by itself the moment bob's move comes.
        page.click("#board [data-move='9']")
        page.wait_for_selector("#board .cell.premove[data-move='9']")
        assert b.move("2")["type"] == "ack"
        assert b.event("move")["move"] == "9"
        page.wait_for_function("() => document.querySelectorAll('#moves [data-ply]').length === 5")


def test_the_move_list_shows_each_position_and_comes_back_live(
    browser: Any, server: str, people: Callable[[], Person]
) -> None:
    _, bob, game_id, a, b = start(people)
    for mover, other, move in ((a, b, "5"), (b, a, "1"), (a, b, "9")):
        assert mover.move(move)["type"] == "ack"
        other.event("move")
    with page_of(browser, server, bob, viewport=PHONE) as page:
        page.goto(f"{server}/#/game/{game_id}")
        page.wait_for_selector("#moves [data-ply='3']")
        page.click("#moves [data-ply='1']")
        page.wait_for_selector("#browsing")
        assert marks(page) == 1 and page.get_attribute("#moves [data-ply='1']", "aria-current") == "step"
        # Looking back, the board plays nothing.
        assert page.locator("#board .cell.playable").count() == 0
        assert serious_violations(page) == []
        if SHOTS.is_dir():
            page.screenshot(path=str(SHOTS / "move-list-phone-light.png"), full_page=True)
        page.keyboard.press("ArrowRight")
        page.wait_for_function("() => document.querySelector('#moves [data-ply=\"2\"]').ariaCurrent === 'step'")
        assert marks(page) == 2
        page.keyboard.press("Home")
        page.wait_for_selector("#browsing:has-text('The start')")
        assert marks(page) == 0
        page.keyboard.press("End")
        page.wait_for_selector("#browsing", state="detached")
        assert marks(page) == 3 and page.locator("#board .cell.playable").count() == 6
        # A swipe from right to left on the board steps a move on from the start, one from
        # left to right steps back.
        page.click("#moves [data-ply='1']")
        page.wait_for_selector("#browsing:has-text('Move 1')")
        box = page.locator("#board").bounding_box()
        y = box["y"] + box["height"] / 2
        for start_x, end_x, shown in ((0.8, 0.2, "Move 2"), (0.2, 0.8, "Move 1")):
            page.mouse.move(box["x"] + box["width"] * start_x, y)
            page.mouse.down()
            page.mouse.move(box["x"] + box["width"] * end_x, y, steps=4)
            page.mouse.up()
            page.wait_for_selector(f"#browsing:has-text('{shown}')")
        # A move coming in brings the live position back.
        assert b.move("3")["type"] == "ack"
        page.wait_for_selector("#browsing", state="detached")
        assert marks(page) == 4


def test_a_correspondence_move_is_confirmed_before_it_is_sent(
    browser: Any, server: str, people: Callable[[], Person]
) -> None:
    ann, _, game_id, _, b = start(people, days=3)
    with page_of(browser, server, ann) as page:
        page.goto(f"{server}/#/game/{game_id}")
        # Placed, marked, then taken back: nothing was sent.
        page.click("#board [data-move='5']")
        page.wait_for_selector("#board .cell.pending[data-move='5']")
        assert page.inner_text("#move-question") == "Play 5?"
        assert serious_violations(page) == []
        if SHOTS.is_dir():
            page.screenshot(path=str(SHOTS / "confirm-desktop-light.png"))
        page.click("[data-action='move-cancel']")
        page.wait_for_selector("#move-confirm", state="detached")
        page.click("#board [data-move='1']")
        page.click("[data-action='move-confirm']")
        assert b.event("move")["move"] == "1"
        # Turned off in the settings, a click plays at once.
        page.evaluate("() => localStorage.setItem('noughts.prefs', JSON.stringify({confirmCorrespondence: false}))")
        page.reload()
        assert b.move("5")["type"] == "ack"
        page.wait_for_selector("#status:has-text('Your move')")
        page.click("#board [data-move='9']")
        assert b.event("move")["move"] == "9"
        assert page.locator("#move-confirm").count() == 0
