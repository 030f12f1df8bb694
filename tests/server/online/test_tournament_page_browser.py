"""A finished tournament's page, as its players read it afterwards: a finished arena (a
player on fire) and a finished Swiss, each with its standings and its games, at a
phone's size and a desktop's, light and dark. Nothing scrolls sideways on the phone;
on the desktop the panel stands beside the standings (not below them, the right column
empty); the results are words (who won, Buchholz, Sonneborn-Berger), not codes; the
on-fire mark is drawn, not an emoji; axe finds nothing serious.
Screenshots: artifacts/screenshots/online-tournament-finished-*.png."""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Iterator
from dataclasses import dataclass, replace
from typing import Any

import pytest

from noughts.server import Settings
from server.online.people import FAST, Person, unique
from web.browsing import DESKTOP, PHONE, SCREENSHOTS, serious_violations

pytestmark = pytest.mark.timeout(240)

ROOT = "/api/online/tournaments"


@pytest.fixture
def database_url(sqlite_url: str) -> str:
    return sqlite_url


@pytest.fixture
def app_settings(database_url: str) -> Settings:
    # A quick sweep: the arena ends within a moment of its time being up.
    return Settings(database=database_url, ai_workers=1, online=replace(FAST, tournament_sweep=0.2))


def _show(person: Person, tid: str) -> dict[str, Any]:
    shown: dict[str, Any] = person.http.get(f"{ROOT}/{tid}").json()
    return shown


def _until(person: Person, tid: str, check: Any, what: str) -> dict[str, Any]:
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        shown = _show(person, tid)
        if check(shown):
            return shown
        time.sleep(0.1)
    raise AssertionError(f"the tournament never got there ({what}): {shown}")


def _playing(shown: dict[str, Any]) -> list[dict[str, Any]]:
    return [g for g in shown["games"] if g["state"] == "playing" and g["o"] is not None]


@dataclass(frozen=True)
class Finished:
    arena: str
    swiss: str
    champion: str  # the arena's winner, on fire


@pytest.fixture
def finished(server: str, database_url: str) -> Iterator[Finished]:
    # The longest name there is, and short ones: the phone's table has to hold both.
    ann = Person(server).sign_up(unique("a-name-twenty-"))
    others = [Person(server).sign_up() for _ in range(3)]
    everyone = [ann, *others]
    by_name = {p.name: p for p in everyone}

    made = {"kind": "arena", "name": unique("Finished arena "), "spec": "classic", "duration": 30, "starts_in": 0}
    arena = ann.http.post(ROOT, json=made).json()["id"]
    for person in everyone[:3]:
        assert person.http.post(f"{ROOT}/{arena}/join").status_code == 200

    # Ann wins every game she plays (two in a row: on fire); in the others', x wins.
    def resign(game: dict[str, Any]) -> None:
        loser = game["x"] if game["o"] == ann.name else game["o"]
        by_name[loser].socket(game["game_id"]).act("resign")

    for ended in range(1, 5):
        resign(_playing(_until(ann, arena, _playing, "a game being played"))[0])
        _until(ann, arena, lambda s, n=ended: sum(g["state"] == "over" for g in s["games"]) >= n, "the game over")
    # Time is up (as if 30 minutes had passed): the game being played, if any, still counts.
    db = sqlite3.connect(database_url.removeprefix("sqlite:///"))
    with db:
        db.execute("UPDATE tournaments SET ends_at = ? WHERE id = ?", (int(time.time() * 1000) - 1000, arena))
    db.close()
    resigned: set[str] = set()

    def over(shown: dict[str, Any]) -> bool:
        for game in _playing(shown):
            if game["game_id"] not in resigned:
                resigned.add(game["game_id"])
                resign(game)
        return bool(shown["state"] == "finished")

    _until(ann, arena, over, "finished")

    swiss = ann.http.post(
        ROOT, json={"kind": "swiss", "name": unique("Finished Swiss "), "spec": "classic", "rounds": 2, "starts_in": 60}
    ).json()["id"]
    for person in everyone:
        assert person.http.post(f"{ROOT}/{swiss}/join").status_code == 200
    shown = ann.http.post(f"{ROOT}/{swiss}/start").json()
    for number in (1, 2):
        shown = _until(ann, swiss, lambda s, n=number: s["round"] == n and _playing(s), f"round {number}")
        for i, game in enumerate(g for g in _playing(shown) if g["round"] == number):
            x, o = by_name[game["x"]].socket(game["game_id"]), by_name[game["o"]].socket(game["game_id"])
            if i == 1 and number == 2:  # a draw among the results
                x.act("draw-offer")
                o.act("draw-accept")
            else:
                o.act("resign")
    _until(ann, swiss, lambda s: s["state"] == "finished", "finished")
    assert ann.name is not None
    yield Finished(arena, swiss, ann.name)
    for person in everyone:
        person.close()


@pytest.mark.parametrize(
    ("size", "viewport", "theme"),
    [
        pytest.param("phone", PHONE, "light", id="phone-light"),
        pytest.param("desktop", DESKTOP, "dark", id="desktop-dark"),
        pytest.param("phone", PHONE, "dark", id="phone-dark", marks=pytest.mark.slow),
        pytest.param("desktop", DESKTOP, "light", id="desktop-light", marks=pytest.mark.slow),
    ],
)
def test_a_finished_tournament_fits_the_screen_and_says_its_results_in_words(
    browser: Any, server: str, finished: Finished, size: str, viewport: dict[str, int], theme: str
) -> None:
    context = browser.new_context(viewport=viewport, color_scheme=theme, service_workers="block")
    context.set_default_timeout(15_000)
    page = context.new_page()
    errors: list[str] = []
    page.on("console", lambda m: m.type == "error" and errors.append(m.text))
    page.on("pageerror", lambda e: errors.append(str(e)))
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    for kind, tid in (("arena", finished.arena), ("swiss", finished.swiss)):
        page.goto(f"{server}/#/tournament/{tid}")
        page.wait_for_selector("#standings tbody tr")
        page.wait_for_selector("#tournament-games li a")
        page.wait_for_timeout(300)  # the page's fade-in
        assert page.locator("#tournament-status").inner_text() == "Finished: the final standings"
        wide = page.evaluate("document.scrollingElement.scrollWidth - innerWidth")
        assert wide <= 0, f"the {kind} page is {wide} px wider than the {size} screen"
        table = page.locator("#standings").bounding_box()
        panel = page.locator(".tournament-side").bounding_box()
        assert table is not None and panel is not None
        if size == "desktop":
            # Beside the standings, its top level with the page's title, not below the table.
            assert panel["x"] >= table["x"] + table["width"], (table, panel)
            assert panel["y"] < table["y"], (table, panel)
        else:
            assert panel["y"] >= table["y"] + table["height"], (table, panel)
            # The whole table in view: no column cut off behind a scroll.
            box = page.locator("#standings").evaluate("t => t.parentElement.scrollWidth - t.parentElement.clientWidth")
            assert box <= 0, f"the {kind} standings scroll sideways by {box} px"
        headers = page.locator("#standings thead th").all_inner_texts()
        games = page.locator("#tournament-games").inner_text()
        assert "x-wins" not in games and "o-wins" not in games, games
        assert " won" in games, games
        if kind == "swiss":
            assert headers[-2:] == ["Buchholz", "Sonneborn-Berger"], headers
            assert "draw" in games
        else:
            assert headers[-2:] == ["Performance", "Points"], headers
            champion = page.locator("#standings tbody tr").first
            assert finished.champion in champion.inner_text()
            # The on-fire mark is a drawing with its meaning in words, not an emoji.
            fire = champion.locator(".on-fire")
            assert fire.count() == 1 and fire.locator("svg path").count() == 2
            assert "on fire" in (fire.get_attribute("aria-label") or "")
            assert "🔥" not in page.locator("#standings").inner_text()
        assert "Tie-break" not in page.locator("main").inner_text()
        # Before axe, which turns motion off and on again: the page's fade-in plays anew.
        page.screenshot(path=str(SCREENSHOTS / f"online-tournament-finished-{kind}-{size}-{theme}.png"), full_page=True)
        assert serious_violations(page) == []
    assert errors == []
    context.close()
