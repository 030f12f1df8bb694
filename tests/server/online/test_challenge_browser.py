"""Two people in Chromium at once (two browser contexts): Ann follows Bob and challenges
him from his profile; Bob, on another page, sees the challenge at once and accepts it;
both land in the game. The bell counts the notification and marking it read clears it.
axe-core finds no serious violation on the profile with the dialog open, the incoming
challenge or the bell's list (a phone in the dark theme, a desktop in the light)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from server.online.people import Person
from server.online.test_social_browser import page_of
from web.browsing import PHONE, serious_violations

pytestmark = [pytest.mark.timeout(180), pytest.mark.integration]


@pytest.fixture
def database_url(sqlite_url: str) -> str:
    return sqlite_url


def test_a_challenge_from_a_profile_is_seen_at_once_accepted_and_both_play(
    browser: Any, server: str, people: Callable[[], Person]
) -> None:
    ann, bob = people().sign_up(), people().sign_up()
    with page_of(browser, server, ann) as a, page_of(browser, server, bob, PHONE, "dark") as b:
        b.goto(f"{server}/#/leaderboard")  # anywhere on the site
        b.wait_for_selector("#bell")
        a.goto(f"{server}/#/u/{bob.name}")
        a.click("#follow-button")
        a.wait_for_selector("#follow-button[aria-pressed='true']")
        a.click("#challenge-button")
        a.select_option("#challenge-game", "mnk")
        a.fill("#challenge-option-m", "5")
        a.fill("#challenge-option-n", "5")
        a.select_option("#challenge-clock", "3+2")
        a.select_option("#challenge-side", "x")
        assert serious_violations(a) == []
        a.click("#challenge-send")
        a.wait_for_selector(".challenge-card.outgoing")

        card = b.locator(".challenge-card").first
        card.wait_for()
        assert "challenges you" in card.inner_text() and "5×5" in card.inner_text()
        b.wait_for_selector("#bell-count:has-text('1')")
        assert serious_violations(b) == []
        card.get_by_role("button", name="Accept").click()
        for page in (a, b):
            page.wait_for_url("**/#/game/*")
            page.wait_for_selector("#board")
        assert a.url.split("#")[1] == b.url.split("#")[1]
        assert a.locator(".challenge-card").count() == 0

        # The challenge's notification was read by accepting it; a new one comes with a
        # rematch after the game, or here with Bob's offer: the bell is checked on Ann's.
        b.click("#bell")
        b.wait_for_selector(".bell-item")
        assert b.locator(".bell-item.unread").count() == 0
        assert serious_violations(b) == []
        a.goto(f"{server}/#/lobby")
        a.wait_for_selector(f"#following-list [data-player='{bob.name}']:has-text('playing now')")
        bob.http.put(f"/api/online/me/following/{ann.name}")
        note = bob.http.post("/api/online/challenges", json={"to": ann.name, "spec": "classic"})
        assert note.status_code == 201, note.text
        a.wait_for_selector("#bell-count:has-text('1')")
        a.click("#bell")
        a.wait_for_selector(".bell-item.unread")
        a.click("#bell-read-all")
        a.wait_for_selector("#bell-count", state="hidden")
        assert a.locator(".bell-item.unread").count() == 0
