"""Quick pairing in two browser contexts: both press the same "play now" tile and land
in the same game, on the game page; the waiting one sees the pool until then, and the
lobby passes the accessibility audit. Screenshots: artifacts/screenshots/online-quick-*.png."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from online.people import unique
from online.test_browser import Visitor
from web.browsing import serious_violations

pytestmark = pytest.mark.timeout(180)


@pytest.fixture
def database_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'online.db'}"


def test_two_players_press_play_now_and_land_in_the_same_game(browser: Any, server: str) -> None:
    ann, bob = Visitor(browser, server), Visitor(browser, server)
    ann.sign_up(unique("ann"))
    bob.sign_up(unique("bob"))
    tile = ".quick-tile[data-spec='ultimate'][data-clock='3+2']"
    ann.page.goto(f"{server}/online#/")
    ann.page.click(tile)
    ann.page.wait_for_selector("#quick-status:has-text('Looking for an opponent')")
    assert serious_violations(ann.page) == []
    ann.shot("quick-waiting")
    bob.page.goto(f"{server}/online#/")
    bob.page.click(tile)
    for visitor in (ann, bob):
        visitor.page.wait_for_url("**#/game/*")
    assert ann.page.url.split("#/game/")[1] == bob.page.url.split("#/game/")[1]
    ann.page.wait_for_selector("#board")
    bob.page.wait_for_selector("#board")
    ann.shot("quick-paired")
    assert ann.errors == [] and bob.errors == []


def test_cancel_leaves_the_pool(browser: Any, server: str) -> None:
    ann = Visitor(browser, server)
    ann.sign_up(unique("ann"))
    ann.page.goto(f"{server}/online#/")
    ann.page.click(".quick-tile[data-spec='qubic']")
    ann.page.wait_for_selector("#quick-cancel")
    ann.page.click("#quick-cancel")
    ann.page.wait_for_selector("#quick-status:has-text('You left the pool')")
    answer = ann.page.request.get(f"{server}/api/online/pairing")
    assert answer.status == 404
    assert ann.errors == []
