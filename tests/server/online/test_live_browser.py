"""A live game's page in Chromium, where a comparison with lichess found it short (issue
44): resigning and offering a draw are asked once more, the players' ratings stand beside
their names while they play, the tab's title says when it is your move, and a
tournament's game leads back to its tournament. axe-core finds no serious violation on
the page with a question asked, on a desktop and on phones, light or dark. Screenshots go
to artifacts/screenshots/online-live-*.png."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from server.online.people import Person, unique
from server.online.test_play import alternate, start
from server.online.test_social_browser import page_of
from web.browsing import PHONE, SCREENSHOTS, serious_violations

pytestmark = [pytest.mark.timeout(180), pytest.mark.integration]

#: The page's selectors of the actions asked once more.
RESIGN, DRAW = "[data-action='resign']", "[data-action='draw-offer']"


@pytest.fixture
def database_url(sqlite_url: str) -> str:
    return sqlite_url


def focused_action(page: Any) -> str | None:
    action: str | None = page.evaluate("() => document.activeElement?.dataset.action ?? null")
    return action


def test_resign_and_a_draw_offer_are_asked_once_more(browser: Any, server: str, people: Callable[[], Person]) -> None:
    ann, _, game_id, _, b = start(people)
    with page_of(browser, server, ann) as page:
        page.goto(f"{server}/#/game/{game_id}")
        page.click(DRAW)
        # The button turns into its question, the focus on its confirm, named for a screen reader.
        question = page.get_by_role("group", name="Offer a draw?")
        question.wait_for()
        assert page.locator(DRAW).count() == 0 and focused_action(page) == "draw-offer-confirm"
        assert page.get_attribute("[data-action='draw-offer-confirm']", "aria-label") == "Yes, offer a draw"
        page.click("[data-action='draw-offer-cancel']")
        page.wait_for_selector(DRAW)
        # Cancelled, nothing was sent: bob's next event is ann's move (an offer would come first).
        page.click("#board [data-move='5']")
        assert b.expect("event")["kind"] == "move"

        # Left alone, the question goes back to the button after about three seconds.
        page.click(RESIGN)
        page.wait_for_selector("[data-action='resign-confirm']")
        page.wait_for_timeout(2000)
        assert page.locator(RESIGN).count() == 0  # not yet
        page.wait_for_selector(RESIGN, timeout=3000)
        assert b.move("1")["type"] == "ack"  # ann never resigned: the game goes on

        page.click(DRAW)
        page.click("[data-action='draw-offer-confirm']")
        b.expect("event", kind="draw-offer")
        page.wait_for_selector("#side-panel:has-text('You offered a draw.')")

        # From the keyboard: Enter asks, Escape takes it back to the button, Enter twice resigns.
        page.focus(RESIGN)
        page.keyboard.press("Enter")
        page.wait_for_selector("[data-action='resign-confirm']:focus")
        page.keyboard.press("Escape")
        page.wait_for_selector(f"{RESIGN}:focus")
        page.keyboard.press("Enter")
        page.wait_for_selector("[data-action='resign-confirm']:focus")
        page.keyboard.press("Enter")
        page.wait_for_selector("#result:has-text('wins by resignation')")
        assert b.expect("event", kind="resign")["game"]["result"] == "o-wins"


def test_the_ratings_stand_beside_the_names_during_and_after_a_game(
    browser: Any, server: str, people: Callable[[], Person]
) -> None:
    _, bob, game_id, a, b = start(people, rated=True)
    with page_of(browser, server, bob) as page:
        page.goto(f"{server}/#/game/{game_id}")
        # New players: a provisional 1500, marked "?" as the profile and the leaderboard mark it.
        for mark in ("x", "o"):
            rating = page.locator(f"#seat-{mark} .rating")
            assert rating.inner_text().strip() == "1500?"
            assert "provisional" in (rating.get_attribute("title") or "")
        alternate(a, b, "1", "4", "2", "5", "3")
        # After the game: the new rating and the change, as before.
        page.wait_for_selector("#seat-x .rating:has-text('(+')")
        assert "(-" in page.inner_text("#seat-o .rating")
        assert page.locator("#tournament-link").count() == 0  # a game of its own


def test_the_tab_says_when_it_is_your_move(browser: Any, server: str, people: Callable[[], Person]) -> None:
    ann, bob, game_id, a, _ = start(people)
    yours = f"● Your move · {a.state['title']} · Online · Noughts"
    normal = f"{a.state['title']} · Online · Noughts"
    url = f"{server}/#/game/{game_id}"
    with (
        page_of(browser, server, ann) as ann_page,
        page_of(browser, server, bob) as bob_page,
        page_of(browser, server, people().sign_up()) as watching,
    ):
        for page in (ann_page, bob_page, watching):
            page.goto(url)
            page.wait_for_selector("#status:not(:empty)")
        assert (ann_page.title(), bob_page.title(), watching.title()) == (yours, normal, normal)
        ann_page.click("#board [data-move='5']")
        bob_page.wait_for_function("t => document.title === t", arg=yours)
        assert ann_page.title() == normal and watching.title() == normal
        bob_page.click("#board [data-move='1']")
        ann_page.wait_for_function("t => document.title === t", arg=yours)
        ann_page.click("[data-action='resign']")
        ann_page.click("[data-action='resign-confirm']")
        bob_page.wait_for_selector("#result")
        assert bob_page.title() == normal  # over: nobody's move


def test_a_tournament_game_leads_back_to_its_tournament(
    browser: Any, server: str, people: Callable[[], Person]
) -> None:
    ann, bob = people().sign_up(), people().sign_up()
    created = ann.http.post(
        "/api/online/tournaments",
        json={"kind": "arena", "name": unique("Arena "), "spec": "classic", "duration": 30, "starts_in": 0},
    )
    tid = created.json()["id"]
    for person in (ann, bob):
        person.http.post(f"/api/online/tournaments/{tid}/join")
    game_id = ann.http.get(f"/api/online/tournaments/{tid}").json()["my_game"]
    with page_of(browser, server, ann) as page:
        page.goto(f"{server}/#/game/{game_id}")
        link = page.wait_for_selector("#tournament-link:has-text('Back to the tournament')")
        assert link.get_attribute("href") == f"#/tournament/{tid}"
        ann.socket(game_id).act("resign")
        # After the game too, first thing below the result: its players are paired again there.
        page.wait_for_selector("#result + #tournament-link")
        page.click("#tournament-link")
        page.wait_for_selector("#standings")
        assert page.url.endswith(f"#/tournament/{tid}")


#: A laptop's screen, a phone's and the narrowest phone the site is made for.
SIZES = {"desktop": {"width": 1280, "height": 800}, "phone": PHONE, "narrow": {"width": 360, "height": 740}}


@pytest.mark.slow  # the online pages' audit runs in make test (test_analysis_browser.py); this one asks to resign
@pytest.mark.parametrize("theme", ["light", "dark"])
def test_the_page_asking_to_resign_is_accessible_and_fits(
    browser: Any, server: str, people: Callable[[], Person], theme: str
) -> None:
    """The page with the ratings shown and the question asked: no serious violation, and
    on a phone nothing wider than the screen; each size's screenshot is kept."""
    ann, _, game_id, a, b = start(people, rated=True, minutes=3, increment=2)
    alternate(a, b, "5", "1")
    found = {}
    for size, viewport in SIZES.items():
        with page_of(browser, server, ann, viewport, theme) as page:
            page.goto(f"{server}/#/game/{game_id}")
            # Asked from the keyboard: the question stays while axe reads the page.
            page.focus(RESIGN)
            page.keyboard.press("Enter")
            page.wait_for_selector("[data-action='resign-confirm']:focus")
            page.wait_for_selector("#seat-o .rating")
            SCREENSHOTS.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(SCREENSHOTS / f"online-live-resign-{size}-{theme}.png"), full_page=True)
            violations = serious_violations(page)
            if violations:
                found[size] = violations
            wide = page.evaluate(
                "w => [...document.querySelectorAll('#view *')].filter(e => e.getBoundingClientRect().right > w + 0.5)"
                ".map(e => e.tagName + '.' + e.className)",
                viewport["width"],
            )
            assert wide == [], (size, wide)
    assert not found, found
