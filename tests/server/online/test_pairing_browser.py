"""Quick pairing in two browser contexts: both press the same "play now" tile and land
in the same game, on the game page; the waiting one sees the pool until then, and the
lobby passes the accessibility audit. Screenshots: artifacts/screenshots/online-quick-*.png."""

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


def test_two_players_press_play_now_and_land_in_the_same_game(browser: Any, server: str) -> None:
    ann, bob = Visitor(browser, server), Visitor(browser, server)
    ann.sign_up(unique("ann"))
    bob.sign_up(unique("bob"))
    tile = ".quick-tile[data-spec='ultimate'][data-clock='3+2']"
    ann.page.goto(f"{server}/#/lobby")
    ann.page.click(tile)
    ann.page.wait_for_selector("#quick-status:has-text('Looking for an opponent')")
    assert serious_violations(ann.page) == []
    ann.shot("quick-waiting")
    bob.page.goto(f"{server}/#/lobby")
    bob.page.click(tile)
    for visitor in (ann, bob):
        visitor.page.wait_for_url("**#/game/*")
    assert ann.page.url.split("#/game/")[1] == bob.page.url.split("#/game/")[1]
    ann.page.wait_for_selector("#board")
    bob.page.wait_for_selector("#board")
    ann.shot("quick-paired")
    assert ann.errors == [] and bob.errors == []


@pytest.mark.slow  # a detail of a page make test covers; with the exhaustive checks (make test-slow)
def test_cancel_leaves_the_pool(browser: Any, server: str) -> None:
    ann = Visitor(browser, server)
    ann.sign_up(unique("ann"))
    ann.page.goto(f"{server}/#/lobby")
    ann.page.click(".quick-tile[data-spec='qubic']")
    ann.page.wait_for_selector("#quick-cancel")
    ann.page.click("#quick-cancel")
    ann.page.wait_for_selector("#quick-status:has-text('You left the pool')")
    answer = ann.page.request.get(f"{server}/api/online/pairing")
    assert answer.status == 404
    assert ann.errors == []


def test_a_player_plays_a_bot_from_the_lobby_and_it_answers(browser: Any, server: str) -> None:
    """The lobby's "Play the computer": the game starts at once, the bot's seat carries
    the BOT mark, and the bot answers the player's move (from the worker pool)."""
    ann = Visitor(browser, server)
    ann.sign_up(unique("ann"))
    ann.page.goto(f"{server}/#/lobby")
    ann.page.wait_for_selector("#bot-name option[value='noughts-max']", state="attached")
    assert serious_violations(ann.page) == []
    ann.page.select_option("#bot-name", "noughts-max")
    ann.page.select_option("#bot-game", "classic")
    ann.page.select_option("#bot-side", "x")
    ann.page.click("#bot-play")
    ann.page.wait_for_url("**#/game/*")
    ann.page.wait_for_selector("#seat-o .bot-mark:has-text('BOT')")
    ann.play("5")
    ann.page.wait_for_selector("#moves li:nth-child(2)")  # the bot's answer
    ann.page.wait_for_selector("#status:has-text('Your move')")
    ann.shot("bot-game")
    assert ann.errors == []


@pytest.mark.slow  # a browser check beside the API's: make test-slow (make test's 6 minutes)
def test_a_player_makes_a_bot_account_and_sees_its_token_once(browser: Any, server: str) -> None:
    ann = Visitor(browser, server)
    name = unique("ann")
    ann.sign_up(name)
    ann.page.goto(f"{server}/#/u/{name}")
    ann.page.wait_for_selector("#your-bots:has-text('No bot yet')")
    bot = unique("eng")
    ann.page.fill("#new-bot-name", bot)
    ann.page.click("#new-bot button[type=submit]")
    token = ann.page.wait_for_selector("#bot-token-value").get_attribute("value")
    assert token and len(token) > 20
    ann.page.wait_for_selector(f"#own-bots a:has-text('{bot}')")
    assert serious_violations(ann.page) == []
    ann.shot("own-bots")
    ann.page.click("#own-bots button:has-text('New token')")
    ann.page.wait_for_function("old => document.querySelector('#bot-token-value')?.value !== old", arg=token)
    ann.page.fill("#new-bot-name", "a b")  # not a name: said beside the form
    ann.page.click("#new-bot button[type=submit]")
    ann.page.wait_for_selector("#new-bot-error:not(:empty)")
    ann.page.goto(f"{server}/#/u/{bot}")
    ann.page.wait_for_selector("h1 .bot-mark")
    ann.page.wait_for_selector("#bot-about:has-text('noughts bot')")
    assert ann.errors == ["Failed to load resource: the server responded with a status of 400 (Bad Request)"]


@pytest.mark.slow  # a browser check beside the API's: make test-slow (make test's 6 minutes)
def test_a_correspondence_game_is_listed_on_the_home_page_of_the_player_to_move(browser: Any, server: str) -> None:
    ann, bob = Visitor(browser, server), Visitor(browser, server)
    ann.sign_up(unique("ann"))
    bob.sign_up(unique("bob"))
    ann.page.goto(f"{server}/#/lobby")
    ann.page.check("#room-correspondence")
    assert ann.page.is_disabled("#room-clock")
    ann.page.select_option("#room-days", "3")
    ann.page.click("#create")
    ann.page.wait_for_selector("#waiting:has-text('3 days a move')")
    invite = ann.page.wait_for_selector("#invite-link").get_attribute("value")
    assert invite is not None
    bob.page.goto(invite)
    bob.page.click("#join")
    ann.play("5")
    # A correspondence move is placed, then confirmed (the players' setting, on by default).
    ann.page.click("[data-action='move-confirm']")
    bob.page.wait_for_selector("#status:has-text('Your move')")
    assert bob.page.inner_text("[data-clock='o']") in ("3d 0h", "2d 23h")
    bob.page.goto(f"{server}/#/")
    bob.page.wait_for_selector("#turns li:has-text('3 days a move')")
    assert serious_violations(bob.page) == []
    assert ann.errors == [] and bob.errors == []


@pytest.mark.slow  # a browser check beside the API's: make test-slow (make test's 6 minutes)
def test_a_bot_is_challenged_from_its_profile(browser: Any, server: str) -> None:
    ann = Visitor(browser, server)
    ann.sign_up(unique("ann"))
    ann.page.goto(f"{server}/#/u/noughts-easy")
    ann.page.wait_for_selector("h1 .bot-mark")
    ann.page.select_option("#bot-game", "classic")
    ann.page.select_option("#bot-side", "o")
    ann.page.click("#bot-play:has-text('Challenge')")
    ann.page.wait_for_url("**#/game/*")
    ann.page.wait_for_selector("#seat-x .bot-mark")
    ann.page.wait_for_selector("#moves li:nth-child(1)")  # the bot, as x, opened
    assert ann.errors == []


@pytest.mark.slow  # a browser check beside the API's: make test-slow (make test's 6 minutes)
def test_the_home_page_lists_the_tournaments_running_or_soon(browser: Any, server: str) -> None:
    ann = Visitor(browser, server)
    ann.sign_up(unique("ann"))
    made = ann.page.request.post(
        f"{server}/api/online/tournaments",
        data={"kind": "arena", "name": "Friday arena", "spec": "ultimate", "duration": 30, "starts_in": 10},
        headers={"Origin": server},
    )
    assert made.status == 201, made.text()
    ann.page.goto(f"{server}/#/")
    ann.page.wait_for_selector("#home-tournaments li:has-text('Friday arena')")
    ann.page.click("#home-tournaments a:has-text('Friday arena')")
    ann.page.wait_for_url("**/#/tournament/*")
    assert ann.errors == []
