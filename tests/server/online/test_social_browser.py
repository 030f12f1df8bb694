"""The social pages in Chromium: a game's chat (players', spectators', a guest reading,
mute and report), the clocks beside the board, the spectators counted, the leaderboard's
filters and the profile's results, chart and games; axe-core finds no serious violation
on them, light or dark. Screenshots go to artifacts/screenshots/online-social-*.png."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest

from noughts.server import Settings
from noughts.server.online.sessions import COOKIE
from server.online.people import Person
from server.online.test_play import alternate, start
from server.online.test_profiles import DRAW, _rate
from web.browsing import DESKTOP, PHONE, SCREENSHOTS, serious_violations

pytestmark = [pytest.mark.timeout(180), pytest.mark.integration]


@pytest.fixture
def database_url(sqlite_url: str) -> str:
    return sqlite_url


@contextmanager
def page_of(
    browser: Any, server: str, person: Person | None, viewport: dict[str, int] = DESKTOP, theme: str = "light"
) -> Iterator[Any]:
    """A page in a browser context of `person`'s (their cookie), or a visitor's."""
    # No service worker: it would fetch the app's shell again in every context.
    context = browser.new_context(viewport=viewport, color_scheme=theme, service_workers="block")
    context.set_default_timeout(15_000)
    if person is not None:
        context.add_cookies([{"name": COOKIE, "value": person.http.cookies[COOKIE], "url": server}])
    errors: list[str] = []
    page = context.new_page()
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        yield page
    finally:
        context.close()
    assert not errors, errors


def shot(page: Any, name: str) -> None:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.wait_for_timeout(300)  # the page's fade-in
    page.screenshot(path=str(SCREENSHOTS / f"online-social-{name}.png"))


def write(page: Any, text: str) -> None:
    page.fill("#chat-input", text)
    page.press("#chat-input", "Enter")


# The channels, the guest's reading and the rate are test_chat.py's in make test; the
# page's own chat, with three browsers, in make test-slow.
@pytest.mark.slow
def test_players_and_spectators_chat_apart_and_a_guest_reads(
    browser: Any, server: str, people: Callable[[], Person]
) -> None:
    ann, bob, game_id, a, b = start(people, minutes=3, increment=2)
    alternate(a, b, "5")
    carol, guest = people().sign_up(), people().guest()
    url = f"{server}/#/game/{game_id}"
    with (
        page_of(browser, server, ann) as ann_page,
        page_of(browser, server, bob) as bob_page,
        page_of(browser, server, carol) as carol_page,
        page_of(browser, server, guest) as guest_page,
    ):
        for page in (ann_page, bob_page, carol_page, guest_page):
            page.goto(url)
            page.wait_for_selector("#chat-title")
        ann_page.wait_for_selector("#chat-title:has-text('Chat with your opponent')")
        carol_page.wait_for_selector('#chat-title:has-text("Spectators\' chat")')
        assert guest_page.is_hidden("#chat-form")
        assert "sign up" in guest_page.inner_text("#chat-note")

        write(ann_page, "good luck")
        bob_page.wait_for_selector(f"#chat-lines li[data-user='{ann.name}']:has-text('good luck')")
        write(carol_page, "what a centre move")
        guest_page.wait_for_selector("#chat-lines li:has-text('what a centre move')")
        # Neither crosses over while the game goes on: the last line each saw is its own channel's.
        ann_page.wait_for_timeout(500)
        assert "centre" not in ann_page.inner_text("#chat-lines")
        assert "good luck" not in carol_page.inner_text("#chat-lines")
        # Two spectators (carol and the guest) watch.
        ann_page.wait_for_selector("#spectators:has-text('2 spectators')")

        bob_page.click(f"#chat-lines li[data-user='{ann.name}'] button:has-text('report')")
        bob_page.wait_for_selector("#toast:has-text('Reported')")
        bob_page.click(f"#chat-lines li[data-user='{ann.name}'] button:has-text('mute')")
        bob_page.wait_for_selector(f"#chat-muted:has-text('{ann.name}')")
        assert bob_page.locator(f"#chat-lines li[data-user='{ann.name}']").count() == 0
        write(ann_page, "still there?")
        ann_page.wait_for_selector("#chat-lines li:has-text('still there?')")
        bob_page.wait_for_timeout(500)
        assert "still there" not in bob_page.inner_text("#chat-lines")
        write(bob_page, "yes")
        ann_page.wait_for_selector(f"#chat-lines li[data-user='{bob.name}']:has-text('yes')")


@pytest.mark.parametrize("viewport", [pytest.param(DESKTOP, marks=pytest.mark.slow), PHONE], ids=["desktop", "phone"])
def test_the_clocks_are_beside_the_board_and_in_view(
    browser: Any, server: str, people: Callable[[], Person], viewport: dict[str, int]
) -> None:
    """lichess's layout: on a desktop the clocks right of the board, the chat left of it;
    on a phone one clock above the board and one below, all in view without scrolling."""
    ann, _, game_id, a, b = start(people, minutes=3, increment=2)
    alternate(a, b, "5", "1")
    with page_of(browser, server, ann, viewport) as page:
        page.goto(f"{server}/#/game/{game_id}")
        page.wait_for_selector("[data-clock='o']")
        assert page.locator("h1").count() == 1 and ann.name in page.inner_text("h1")
        board = page.locator("#board").bounding_box()
        mine, theirs = (page.locator(f"[data-clock='{m}']").bounding_box() for m in ("x", "o"))
        chat = page.locator("#chat").bounding_box()
        assert board and mine and theirs and chat
        for clock in (mine, theirs):
            assert clock["y"] >= 0 and clock["y"] + clock["height"] <= viewport["height"]
        assert theirs["y"] < mine["y"]  # the opponent above, you below
        if viewport is DESKTOP:
            assert min(mine["x"], theirs["x"]) >= board["x"] + board["width"]
            assert chat["x"] + chat["width"] <= board["x"]
        else:
            assert theirs["y"] + theirs["height"] <= board["y"] + 1
            assert mine["y"] >= board["y"] + board["height"] - 1
            # The game's page fits the phone's width (the header is the site's own).
            wide = page.evaluate(
                "w => [...document.querySelectorAll('#view *')]"
                ".filter(e => e.getBoundingClientRect().right > w).length",
                PHONE["width"],
            )
            assert wide == 0


def test_the_leaderboard_ranks_settled_people_and_shows_the_others_when_asked(
    browser: Any, server: str, people: Callable[[], Person], app_settings: Settings
) -> None:
    settled, newcomer = people().sign_up(), people().sign_up()
    people().http.get("/api/online/bots")
    _rate(app_settings, {settled.name or "": (1700, 60), newcomer.name or "": (1900, 200), "noughts-max": (2100, 50)})
    with page_of(browser, server, settled) as page:
        page.goto(f"{server}/#/leaderboard?game=classic")
        page.wait_for_selector(f"#leaderboard:has-text('{settled.name}')")
        text = page.inner_text("#leaderboard")
        assert newcomer.name not in text and "noughts-max" not in text
        page.check("#leaderboard-provisional")
        page.wait_for_selector(f"#leaderboard:has-text('{newcomer.name}')")
        assert f"{newcomer.name}\t1900?" in page.inner_text("#leaderboard")
        page.check("#leaderboard-bots")
        page.wait_for_selector("#leaderboard:has-text('noughts-max')")
        assert "provisional=1" in page.url and "bots=1" in page.url
        page.uncheck("#leaderboard-provisional")
        page.wait_for_function(f"!document.querySelector('#leaderboard').innerText.includes('{newcomer.name}')")


def _history(people: Callable[[], Person]) -> tuple[Person, Person, str]:
    """ann wins a rated game, draws a casual one, loses a rated one, and a game goes on."""
    ann, bob, _, a, b = start(people, rated=True)
    alternate(a, b, "1", "4", "2", "5", "3")
    for spec_moves, rated, bob_first in ((DRAW, False, False), (("1", "4", "2", "5", "3"), True, True)):
        game_id = (bob if bob_first else ann).room("classic", rated=rated, side="x")
        first = (bob if bob_first else ann).socket(game_id)
        (ann if bob_first else bob).join(game_id)
        first.event("start")
        alternate(first, (ann if bob_first else bob).socket(game_id), *spec_moves)
    live = ann.room("classic", minutes=3, increment=2)
    bob.join(live)
    return ann, bob, live


def test_a_profile_shows_results_a_rating_chart_and_the_games(
    browser: Any, server: str, people: Callable[[], Person]
) -> None:
    ann, bob, _ = _history(people)
    with page_of(browser, server, bob) as page:
        page.goto(f"{server}/#/u/{ann.name}")
        page.wait_for_selector("#rating-chart polyline")
        row = page.inner_text("#ratings tbody tr").split("\t")
        assert row[0] == "Tic-tac-toe" and row[2:] == ["1", "1", "1"]
        assert len(page.get_attribute("#rating-chart polyline", "points").split()) == 2
        assert "Rating in Tic-tac-toe" in page.get_attribute("#rating-chart", "aria-label")
        outcomes = page.locator("#history .outcome strong").all_inner_texts()
        assert [o.strip() for o in outcomes] == ["Lost", "Drawn", "Won"]
        assert bob.name in page.inner_text("#history tbody tr:first-child")
        assert page.text_content("#games h2") == "Games (4)"
        # The replay has its heading, as the live game has (one h1 a page).
        page.click("#history a:has-text('Replay')")
        page.wait_for_selector("#replay-label")
        assert page.locator("h1").count() == 1 and "Tic-tac-toe" in page.inner_text("h1")


@pytest.mark.slow
@pytest.mark.parametrize("theme", ["light", "dark"])
def test_the_social_pages_have_no_serious_accessibility_violation(
    browser: Any, server: str, people: Callable[[], Person], theme: str
) -> None:
    """axe-core over a live game with chat, a profile with its chart, the leaderboard and
    the lobby, on a desktop and a phone; each page's screenshot is kept."""
    ann, bob, live = _history(people)
    people().http.get("/api/online/bots")
    found = {}
    # A laptop's 1280x800 (the desktop tests' 860 leaves more of the page in view).
    for viewport, size in (({"width": 1280, "height": 800}, "desktop"), (PHONE, "phone")):
        with page_of(browser, server, ann, viewport, theme) as page:
            page.goto(f"{server}/#/game/{live}")
            page.wait_for_selector("#chat-form")
            write(page, "good luck, have fun")
            page.wait_for_selector("#chat-lines li:has-text('good luck')")
            for route, ready, name in [
                (f"#/game/{live}", "#chat-lines li", "game"),
                (f"#/u/{ann.name}", "#rating-chart", "profile"),
                ("#/leaderboard?game=classic&provisional=1&bots=1", "#leaderboard", "leaderboard"),
                ("#/", "#players-online:has-text('players online')", "lobby"),
            ]:
                page.goto(f"{server}/online{route}")
                page.wait_for_selector(ready)
                page.evaluate("() => { document.activeElement?.blur(); window.scrollTo(0, 0); }")
                shot(page, f"{name}-{size}-{theme}")
                violations = serious_violations(page)
                if violations:
                    found[f"{route} {size}"] = violations
    assert bob.name
    assert not found, found
