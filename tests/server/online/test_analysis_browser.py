"""Online play in the browser (Debian's Chromium): asking for a finished game's
analysis from the game's page and the profile's list, onto the analysis board; and a
live game on a phone."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from noughts.server.online.sessions import COOKIE
from server.online.people import Person, unique
from server.online.test_browser import Visitor
from server.online.test_play import alternate, start
from web.browsing import DESKTOP, PHONE, SCREENSHOTS, serious_violations

pytestmark = pytest.mark.timeout(180)


@pytest.fixture
def database_url(sqlite_url: str) -> str:
    return sqlite_url


def test_request_analysis_in_the_browser_from_the_game_and_the_profile(
    browser: Any, server: str, people: Callable[[], Person]
) -> None:
    """A finished game's page shows its analysis, computed when it ended without anyone
    asking, and opens it on the analysis board; the player's profile asks for it."""
    ann, _, game_id, a, b = start(people)
    alternate(a, b, "5", "1", "3", "7", "2", "4")
    visitor = Visitor(browser, server)
    visitor.sign_up(unique("cat"))
    page = visitor.page
    page.goto(f"{server}/#/game/{game_id}")
    page.click("#stored-analysis a:has-text('Open the analysis')", timeout=60_000)
    page.wait_for_selector(".tree-move.class-blunder[data-path='5,1,3,7,2']", timeout=60_000)
    assert "online=" + game_id in page.url
    assert "1 blunder" in page.locator("#review").inner_text()
    # The profile's list: the button opens the stored review at once.
    page.goto(f"{server}/#/u/{ann.name}")
    page.click(f"[data-analysis='{game_id}']")
    page.wait_for_selector(".tree-move.class-blunder")
    # Opened by its id alone, the board fetches the game's moves and the stored review.
    page.goto(f"{server}/#/analysis?online={game_id}")
    page.wait_for_selector(".tree-move.class-blunder[data-path='5,1,3,7,2']")
    # Learn from your mistakes: a spectator from a side's, x's player (ann) from their own.
    assert page.locator("#learn-x").inner_text() == "Learn from X's mistakes (1)"
    assert visitor.errors == []
    visitor.context.close()
    context = browser.new_context(viewport=DESKTOP)
    context.add_cookies([{"name": COOKIE, "value": ann.http.cookies[COOKIE], "url": server}])
    own = context.new_page()
    own.goto(f"{server}/#/analysis?online={game_id}")
    own.wait_for_selector("#learn-x:has-text('Learn from your mistakes (1)')")
    context.close()


# Six seconds of review on one worker under a browser: make test-slow. make test keeps the
# background review itself (test_analysis.py::test_a_finished_game_is_analysed_once_and_
# shown_to_everyone) and a review's progress in the page (tests/web/test_study.py).
@pytest.mark.slow
def test_a_finished_games_page_shows_the_analysis_progress_then_the_analysis(
    browser: Any, server: str, people: Callable[[], Person]
) -> None:
    """Nobody asks: an ultimate game resigned after ten moves is reviewed (`max`, half a
    second a position, eleven positions, on the test server's one worker) while a
    spectator's page shows how far it has got, then its accuracies."""
    *_, game_id, a, b = start(people, "ultimate")
    alternate(a, b, "55", "51", "15", "59", "95", "53", "35", "58", "85", "57")
    assert a.act("resign")["kind"] == "resign"
    visitor = Visitor(browser, server)
    page = visitor.page
    page.goto(f"{server}/#/game/{game_id}")
    page.wait_for_selector("#analysis-progress:has-text('of 11 positions done')")
    page.wait_for_selector("#stored-analysis:has-text('accuracy X')", timeout=120_000)
    assert page.locator("#analysis-progress").count() == 0
    assert visitor.errors == []
    visitor.context.close()


def test_on_a_phone_the_online_header_is_one_row_and_board_turn_and_clocks_fit(
    browser: Any, server: str, people: Callable[[], Person]
) -> None:
    ann, bob = people().guest(), people().guest()
    game_id = ann.room("ultimate", minutes=5, increment=3)
    bob.join(game_id)
    context = browser.new_context(viewport=PHONE, service_workers="block")
    context.add_cookies([{"name": COOKIE, "value": ann.http.cookies[COOKIE], "url": server}])
    page = context.new_page()
    page.goto(f"{server}/#/game/{game_id}")
    page.wait_for_selector("#status:has-text('Your move')")
    tops = page.locator(".topbar > :visible, .account > :visible").evaluate_all(
        "els => els.map(e => Math.round(e.getBoundingClientRect().top + e.getBoundingClientRect().height / 2))"
    )
    assert max(tops) - min(tops) <= 4, tops  # one row: every item's middle on one line
    for selector in ("#board", "#status", "[data-clock='x']", "[data-clock='o']"):
        box = page.locator(selector).first.bounding_box()
        assert box is not None and box["y"] + box["height"] <= PHONE["height"], selector
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / "online-game-phone.png"))
    context.close()
    # A visitor (not signed in): the header keeps one row too, nothing wider than the phone.
    visitor = browser.new_context(viewport=PHONE, service_workers="block")
    page = visitor.new_page()
    page.goto(f"{server}/#/lobby")
    page.wait_for_selector("#login-link")
    tops = page.locator(".topbar > :visible, .account > :visible").evaluate_all(
        "els => els.map(e => Math.round(e.getBoundingClientRect().top + e.getBoundingClientRect().height / 2))"
    )
    assert max(tops) - min(tops) <= 4, tops
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    assert page.locator("#login-link").evaluate("e => e.getBoundingClientRect().height") < 40  # not wrapped
    visitor.close()


# Light in make test; dark (the same pages, other colours) in make test-slow, for make
# test's 6 minutes.
@pytest.mark.parametrize("theme", ["light", pytest.param("dark", marks=pytest.mark.slow)])
def test_the_online_pages_have_no_serious_accessibility_violation(
    browser: Any, server: str, people: Callable[[], Person], theme: str
) -> None:
    """axe-core in the page over the lobby, the forms, a live game, a finished game with
    its analysis button, a profile and the leaderboard."""
    ann, bob = people().guest(), people().guest()
    live = ann.room("classic", minutes=3, increment=2)
    bob.join(live)
    _, _, over, a, b = start(people)
    alternate(a, b, "5", "1", "9", "3", "2", "7", "8")
    context = browser.new_context(viewport=DESKTOP, color_scheme=theme, service_workers="block")
    context.add_cookies([{"name": COOKIE, "value": ann.http.cookies[COOKIE], "url": server}])
    page = context.new_page()
    found = {}
    for route, ready in [
        ("#/", "#seeks, .room-list, .lobby"),
        ("#/login", "#name"),
        (f"#/game/{live}", "#status"),
        # The finished game's analysis in whichever state it is: asked for, computing, stored.
        (f"#/game/{over}", f"[data-analysis='{over}'], #analysis-progress, #stored-analysis"),
        (f"#/u/{ann.name}", "#history, h1"),
        ("#/leaderboard", "h1"),
    ]:
        page.goto(f"{server}/online{route}")
        page.wait_for_selector(ready)
        page.wait_for_timeout(300)  # the page's fade-in
        violations = serious_violations(page)
        if violations:
            found[route] = violations
    context.close()
    assert not found, found


@pytest.mark.slow  # a detail of a page make test covers; with the exhaustive checks (make test-slow)
def test_an_ultimate_game_ended_by_resignation_frames_no_board_in_the_game_or_its_replay(
    browser: Any, server: str, people: Callable[[], Person]
) -> None:
    _, _, game_id, a, b = start(people, "ultimate")
    alternate(a, b, "55", "51")
    assert a.act("resign")["type"] == "ack"
    context = browser.new_context(viewport=DESKTOP, service_workers="block")
    page = context.new_page()
    page.goto(f"{server}/#/game/{game_id}")
    page.wait_for_selector("#result")
    page.wait_for_selector(".local")
    assert page.locator(".local.playable").count() == 0
    page.goto(f"{server}/#/replay/{game_id}")
    page.wait_for_selector("#replay-label:has-text('after 2.')")
    assert page.locator(".local.playable").count() == 0
    page.click("text=◀")  # one move back: the game went on there, its board is framed
    page.wait_for_selector("#replay-label:has-text('after 1.')")
    assert page.locator(".local.playable").count() == 1
    context.close()
