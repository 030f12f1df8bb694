"""Tournaments in the browser: from the lobby's link, a player creates an arena with the
form, lands on its page, joins, and a second player, who sees it in the lobby, joining
from the list starts their game: both are sent to it at once (the first by the
tournament's socket), and the page shows the standings and the way back to the game;
the pages pass the accessibility audit. Screenshots: artifacts/screenshots/online-tournament-*.png."""

from __future__ import annotations

from typing import Any

import pytest

from server.online.people import unique
from server.online.test_browser import Visitor
from web.browsing import serious_violations

pytestmark = pytest.mark.timeout(180)


@pytest.fixture
def database_url(sqlite_url: str) -> str:
    return sqlite_url


def test_create_join_and_play_an_arena(browser: Any, server: str) -> None:
    ann, bob = Visitor(browser, server), Visitor(browser, server)
    ann_name = unique("ann")
    ann.sign_up(ann_name)
    news: list[str] = []  # what ann's page hears on the tournament's socket
    ann.page.on(
        "websocket",
        lambda ws: "/tournaments/" in ws.url and ws.on("framereceived", lambda frame: news.append(str(frame))),
    )
    bob.sign_up(unique("bob"))
    ann.page.goto(f"{server}/#/lobby")
    ann.page.click("#lobby-tournaments")
    ann.page.wait_for_selector("#create-tournament")
    assert serious_violations(ann.page) == []
    name = unique("Arena ")
    ann.page.fill("#tournament-name", name)
    ann.page.select_option("#tournament-game", "classic")
    ann.page.fill("#tournament-starts-in", "0")
    ann.page.click("#create-tournament-button")
    ann.page.wait_for_url("**#/tournament/*")
    ann.page.click("#tournament-join")
    ann.page.wait_for_selector("#standings")

    # The lobby lists it among the running ones; so does the tournaments page.
    bob.page.goto(f"{server}/#/lobby")
    bob.page.reload()  # bob's lobby dates from his sign-up
    bob.page.wait_for_selector(f"#lobby-tournament-list li:has-text('{name}')")
    bob.page.goto(f"{server}/#/tournaments")
    bob.page.wait_for_selector(f"#running-tournaments li:has-text('{name}')")
    bob.shot("tournament-list")
    bob.page.click(f"#running-tournaments li:has-text('{name}') a")
    bob.page.click("#tournament-join")
    # Both are sent to their game at once: bob by his join's answer, ann by the news on
    # the tournament's socket (her page's poll, with the socket open, is 30 s away).
    bob.page.wait_for_url("**#/game/*")
    ann.page.wait_for_url("**#/game/*", timeout=5_000)
    game_id = ann.page.url.split("#/game/")[1]
    assert game_id == bob.page.url.split("#/game/")[1]
    assert any(game_id in frame and ann_name in frame for frame in news), news
    ann.page.wait_for_selector("#board")
    # Back on the tournament's page: the standings, and a way back to the game.
    ann.page.go_back()
    ann.page.wait_for_selector("#tournament-my-game")
    assert ann.page.locator("#standings tbody tr").count() == 2
    assert serious_violations(ann.page) == []
    ann.shot("tournament-playing")
    ann.page.click("#tournament-my-game")
    ann.page.wait_for_selector("#board")
    assert ann.errors == [] and bob.errors == []
