"""Two people in two browser contexts (Debian's Chromium through Playwright): both sign
up, one creates a rated room, the other joins by its invite link, they play to the end,
both see the result, and the leaderboard changes. Screenshots go to
artifacts/screenshots/online-*.png."""

from __future__ import annotations

from typing import Any

import pytest

from server.online.people import PASSWORD, unique
from web.browsing import DESKTOP, SCREENSHOTS

pytestmark = pytest.mark.timeout(180)


@pytest.fixture
def database_url(sqlite_url: str) -> str:
    return sqlite_url


class Visitor:
    """One person: a browser context of their own (own cookies), console errors kept."""

    def __init__(self, browser: Any, base: str) -> None:
        self.context = browser.new_context(viewport=DESKTOP, service_workers="block")
        self.context.set_default_timeout(15_000)
        self.page = self.context.new_page()
        self.base = base
        self.errors: list[str] = []
        self.page.on("console", lambda m: m.type == "error" and self.errors.append(m.text))
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))

    def shot(self, name: str) -> None:
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        self.page.wait_for_timeout(400)  # the page's fade-in
        self.page.screenshot(path=str(SCREENSHOTS / f"online-{name}.png"), full_page=True)

    def sign_up(self, name: str) -> None:
        self.page.goto(f"{self.base}/#/signup")
        self.page.fill("#name", name)
        self.page.fill("#password", PASSWORD)
        self.page.click("#submit")
        self.page.wait_for_selector(f"#me:has-text('{name}')")

    def play(self, move: str) -> None:
        self.page.wait_for_selector("#status:has-text('Your move')")
        self.page.click(f"#board [data-move='{move}']")


def test_two_people_play_a_rated_game_in_the_browser(browser: Any, server: str) -> None:
    ann, bob = Visitor(browser, server), Visitor(browser, server)
    ann_name, bob_name = unique("ann"), unique("bob")

    # A mistake first: each gets its own message next to its field.
    ann.page.goto(f"{server}/#/signup")
    ann.page.fill("#name", "a b")
    ann.page.fill("#password", PASSWORD)
    ann.page.click("#submit")
    ann.page.wait_for_selector("#name-error:has-text('letters')")
    ann.page.fill("#name", ann_name)
    ann.page.fill("#password", "short")
    ann.page.click("#submit")
    ann.page.wait_for_selector("#password-error:has-text('too short')")
    assert ann.page.inner_text("#name-error") == ""
    ann.shot("signup-error")
    ann.sign_up(ann_name)
    bob.sign_up(bob_name)

    bob.page.goto(f"{server}/#/leaderboard?game=classic")
    bob.page.wait_for_selector("h1:has-text('Leaderboard')")
    before = bob.page.inner_text("main")
    assert ann_name not in before

    # Ann creates a rated room and waits; Bob opens the invite link.
    ann.page.goto(f"{server}/#/lobby")
    ann.page.wait_for_selector("#create-room")
    ann.page.select_option("#room-game", "classic")
    ann.page.check("#room-rated")
    ann.shot("lobby")
    ann.page.click("#create")
    invite = ann.page.wait_for_selector("#invite-link").get_attribute("value")
    assert invite is not None and "/#/game/" in invite
    ann.shot("waiting")
    bob.page.goto(invite)
    bob.page.wait_for_selector(f"#invitation:has-text('{ann_name} invites you')")
    bob.shot("invitation")
    bob.page.click("#join")
    # Ann's waiting screen turns into the board by itself.
    ann.page.wait_for_selector("#board [data-move='5']")
    assert ann.page.inner_text("#seat-x").startswith(ann_name) or ann_name in ann.page.inner_text("#seat-x")

    for who, move in [(ann, "5"), (bob, "1"), (ann, "9"), (bob, "3"), (ann, "2"), (bob, "7")]:
        who.play(move)
    bob.page.wait_for_selector(f"#status:has-text('{ann_name} to move')")
    bob.shot("playing")
    ann.play("8")  # 2-5-8

    for person in (ann, bob):
        person.page.wait_for_selector(f"#result:has-text('{ann_name} wins')")
    ann.shot("result-winner")
    bob.shot("result-loser")
    assert "(+" in ann.page.inner_text("#seat-x") and "(-" in ann.page.inner_text("#seat-o")

    # Both ratings are provisional after one game: the leaderboard shows them when asked.
    bob.page.goto(f"{server}/#/leaderboard?game=classic&provisional=1")
    bob.page.wait_for_selector(f"#leaderboard:has-text('{ann_name}')")
    rows = bob.page.locator("#leaderboard tbody tr").all_inner_texts()
    names = [row.split("\t")[1] for row in rows]
    assert names.index(ann_name) < names.index(bob_name)
    bob.shot("leaderboard")

    # The profile lists the game with its replay.
    ann.page.goto(f"{server}/#/u/{ann_name}")
    ann.page.wait_for_selector("#history a:has-text('Replay')")
    ann.page.click("#history a:has-text('Replay')")
    ann.page.wait_for_selector("#replay-label:has-text('after 7. 8')")
    ann.shot("replay")
    # Chromium logs each refused request as a console error: ann's two mistakes.
    assert ann.errors == ["Failed to load resource: the server responded with a status of 400 (Bad Request)"] * 2
    assert bob.errors == []
    for person in (ann, bob):
        person.context.close()


def test_a_guest_joins_by_invite_link_and_plays_at_once(browser: Any, server: str) -> None:
    """The browser review's items: the clock's fields show only with the clock ticked,
    the waiting room shows the clock, a guest who joins by the invite link can move
    without reloading, offers read as sentences, the profile names the winner, and the
    sound switch is off at first and remembered."""
    ann, guest = Visitor(browser, server), Visitor(browser, server)
    ann_name = unique("ann")
    ann.sign_up(ann_name)
    ann.page.goto(f"{server}/#/lobby")
    ann.page.wait_for_selector("#create-room")
    assert not ann.page.is_visible("#room-minutes")
    ann.page.check("#room-clock")
    ann.page.fill("#room-minutes", "3")
    ann.page.fill("#room-increment", "2")
    ann.page.click("#create")
    ann.page.wait_for_selector("#waiting:has-text('3+2 clock')")
    invite = ann.page.wait_for_selector("#invite-link").get_attribute("value")
    assert invite is not None

    guest.page.goto(invite)
    guest.page.wait_for_selector("#invitation:has-text('3+2 clock')")
    guest.page.click("#join")
    guest.page.wait_for_selector("#me:has-text('guest-')")
    guest_name = guest.page.inner_text("#me").removesuffix(" (guest)")
    ann.play("5")
    guest.play("1")  # no reload: the page's socket knows the new guest
    ann.page.wait_for_selector("#moves li:nth-child(2)")

    ann.page.click("[data-action='draw-offer']")
    ann.page.click("[data-action='draw-offer-confirm']")  # asked once more, as on lichess
    guest.page.wait_for_selector(f"#toast:has-text('{ann_name} offers a draw')")
    guest.page.wait_for_selector(f"#offer-draw:has-text('{ann_name} offers a draw')")
    guest.page.click("#offer-draw [data-action='draw-decline']")
    ann.page.wait_for_selector(f"#toast:has-text('{guest_name} declines the draw')")
    guest.page.click("[data-action='resign']")
    guest.page.click("[data-action='resign-confirm']")
    ann.page.wait_for_selector(f"#result:has-text('{ann_name} wins by resignation')")

    ann.page.goto(f"{server}/#/u/{ann_name}")
    ann.page.wait_for_selector(f"#history:has-text('{ann_name} wins by resignation')")

    assert ann.page.inner_text("#sound-toggle") == "Sound off"
    ann.page.click("#sound-toggle")
    ann.page.reload()
    ann.page.wait_for_selector("#sound-toggle:has-text('Sound on')")
    assert guest.page.inner_text("#sound-toggle") == "Sound off"  # another browser's choice
    assert ann.errors == [] and guest.errors == []
    for person in (ann, guest):
        person.context.close()


#: Counts the tones the page starts (Web Audio oscillators, by frequency): the sound
#: effects are synthesized, so this is what a player hears.
TONES = """
window.__tones = [];
const create = AudioContext.prototype.createOscillator;
AudioContext.prototype.createOscillator = function () {
  const osc = create.call(this);
  const set = osc.frequency.setValueAtTime.bind(osc.frequency);
  osc.frequency.setValueAtTime = (value, when) => { window.__tones.push(Math.round(value)); return set(value, when); };
  return osc;
};
"""


@pytest.mark.slow  # a whole game in two browsers; the offline page's sound is tested in tests/web/test_play.py
def test_sound_online_plays_each_move_and_the_end_for_whoever_turned_it_on(browser: Any, server: str) -> None:
    """As offline: a tone for each move (x's and o's differ), and the winner's and the
    loser's phrases at the end, for the player who turned sound on; silence for the one
    who left it off (the default)."""
    ann, bob = Visitor(browser, server), Visitor(browser, server)
    for person in (ann, bob):
        person.page.add_init_script(TONES)
    ann.sign_up(unique("ann"))
    bob.sign_up(unique("bob"))
    ann.page.click("#sound-toggle")
    ann.page.wait_for_selector("#sound-toggle:has-text('Sound on')")
    ann.page.goto(f"{ann.base}/#/lobby")
    ann.page.wait_for_selector("#create-room")
    ann.page.select_option("#room-game", "classic")
    ann.page.click("#create")
    invite = ann.page.wait_for_selector("#invite-link").get_attribute("value")
    assert invite is not None
    bob.page.goto(invite)
    bob.page.click("#join")
    ann.page.wait_for_selector("#board [data-move='5']")
    for who, move in [(ann, "5"), (bob, "1"), (ann, "9"), (bob, "3"), (ann, "2"), (bob, "7"), (ann, "8")]:
        who.play(move)
    ann.page.wait_for_selector("#result")
    ann.page.wait_for_function("() => window.__tones.includes(1047)")  # the win's last note
    heard = ann.page.evaluate("window.__tones")
    assert heard.count(660) == 4 and heard.count(440) == 3  # x's four moves, o's three
    assert [t for t in heard if t in (523, 659, 784, 1047)] == [523, 659, 784, 1047]
    bob.page.wait_for_selector("#result")
    assert bob.page.evaluate("window.__tones") == []  # sound off: nothing
    bob.page.click("#sound-toggle")  # on for bob now, for the rematch or the next game
    assert ann.errors == [] and bob.errors == []
    for person in (ann, bob):
        person.context.close()
