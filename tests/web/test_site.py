"""The site around the boards: games that survive a reload, the lobby, the boards'
drawing (go boards, coordinates, the winning line, motion), the phone, and an
accessibility audit (axe-core in the page)."""

from __future__ import annotations

from typing import Any

import httpx2
import pytest

from server.online.people import Person
from web.browsing import DESKTOP, PHONE, SCREENSHOTS, Tab, plies, serious_violations, wait_for_ply

GOMOKU = "#/play?spec=mnk:m=15:n=15:k=5&mode=local"
#: A game page of each board kind, part-way (the last two finished: the winning line shows).
BOARD_PAGES = {
    "grid": "#/play?spec=classic&mode=local&moves=5,1,9",
    "go": GOMOKU + "&moves=h8,h9,i8",
    "ultimate": "#/play?spec=ultimate&mode=local&moves=55,51,15",
    "qubic": "#/play?spec=qubic&mode=local&moves=111,222",
    "gobblet": "#/play?spec=gobblet&mode=local&moves=L5,M1",
    "nine-board-won": "#/play?spec=nine-board&mode=local&moves=29,92,25,52,24,48,88,87,74,42,26",
    "classic-won": "#/play?spec=classic&mode=local&moves=1,4,2,5,3",
    "qubic-won": "#/play?spec=qubic&mode=local&moves=111,221,112,222,113,223,114",
}


def ready(tab: Tab, route: str) -> None:
    tab.open(route)
    tab.page.wait_for_selector(".board-box .cell")
    tab.page.wait_for_function("() => !document.querySelector('#status.thinking')")


def test_a_game_survives_reload_back_and_closing_the_tab(tab: Tab) -> None:
    page = tab.page
    ready(tab, "#/play?spec=mnk:m=4:n=4:k=4&mode=local")
    page.click('.cell[data-move="b2"]')
    wait_for_ply(tab, 1)
    page.click('.cell[data-move="c3"]')
    wait_for_ply(tab, 2)
    assert "moves=b2%2Cc3" in page.url and "game=" in page.url
    page.reload()
    wait_for_ply(tab, 2)
    assert page.locator(".cell.has-x").count() == 1 and page.locator(".cell.has-o").count() == 1
    # To the lobby, where the game waits under "continue your game" ...
    page.click("text=← All games")
    page.wait_for_selector("#continue")
    item = page.locator("#continue .continue-item").first
    assert "m,n,k-game" in item.inner_text() and "4×4, 4 in a row" in item.inner_text()
    assert "2 moves played" in item.inner_text() and "two players on this screen" in item.inner_text()
    mini = item.locator("svg.mini-board")
    assert mini.locator(".mini-cross").count() == 1 and mini.locator(".mini-ring").count() == 1
    # ... and back: the back button returns to the game as it was.
    page.go_back()
    wait_for_ply(tab, 2)
    page.go_forward()
    page.wait_for_selector("#continue")
    page.click("#continue .continue-link")
    wait_for_ply(tab, 2)
    # A finished game leaves the list.
    for i, move in enumerate(["a1", "d4", "b1", "d3", "c1", "d2", "d1"]):
        page.click(f'.cell[data-move="{move}"]')
        wait_for_ply(tab, i + 3)
    page.wait_for_selector("#result")
    page.click("text=← All games")
    page.wait_for_selector(".quick-tiles")
    assert page.locator("#continue").count() == 0
    tab.assert_clean()


def test_against_the_computer_the_address_keeps_level_and_side(tab: Tab) -> None:
    page = tab.page
    ready(tab, "#/play?spec=classic&mode=computer&level=easy&side=x")
    page.click('.cell[data-move="5"]')
    wait_for_ply(tab, 2)
    first = page.evaluate("JSON.parse(localStorage.getItem('noughts.games'))")
    page.keyboard.press("n")  # a new game (asked first): the sides swap, the computer opens
    page.keyboard.press("Enter")
    wait_for_ply(tab, 1)
    assert "level=easy" in page.url and "side=o" in page.url and "moves=" in page.url
    # the new game comes first in the saved list; the one before stays, to be continued
    saved = page.evaluate("JSON.parse(localStorage.getItem('noughts.games'))")
    assert len(first) == 1 and [g["id"] for g in saved[1:]] == [first[0]["id"]]
    assert saved[0]["id"] != first[0]["id"] and saved[0]["moves"] == 1
    page.reload()
    wait_for_ply(tab, 1)
    assert page.locator(".who-o").inner_text() == "O · You"
    tab.assert_clean()


@pytest.mark.parametrize(("size", "theme"), [("desktop", "light"), ("phone", "dark")])
def test_one_key_does_not_throw_a_game_away(make_tab: Any, size: str, theme: str) -> None:
    """`n` (or New game) on a game in progress asks first; Escape or ✗ keeps playing. Once
    left, the game stays under "continue your game", and Back returns to it as it was:
    the new game is a history entry of its own. A game with no move is left at once."""
    tab = make_tab(DESKTOP if size == "desktop" else PHONE, theme)
    page = tab.page
    ready(tab, "#/play?spec=classic&mode=local")
    page.click('.cell[data-move="5"]')
    wait_for_ply(tab, 1)
    page.click('.cell[data-move="1"]')
    wait_for_ply(tab, 2)
    before = page.url
    depth = page.evaluate("history.length")
    page.locator("body").click(position={"x": 5, "y": 300})
    page.keyboard.press("n")
    page.wait_for_selector("#new-game-question")
    assert page.evaluate("document.activeElement.id") == "new-game-confirm"
    assert plies(tab) == 2 and page.url == before
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.wait_for_timeout(400)  # the marks' pop-in; before axe, which replays the page's fade-in
    page.screenshot(path=str(SCREENSHOTS / f"new-game-asked-{size}-{theme}.png"), full_page=True)
    assert serious_violations(page) == []
    page.keyboard.press("Escape")  # no: the game goes on
    assert page.locator("#new-game-question").count() == 0
    assert page.evaluate("document.activeElement.id") == "new-game"
    page.click("#new-game")
    page.click("#new-game-cancel")  # no, again
    assert page.locator("#new-game-question").count() == 0 and plies(tab) == 2
    page.keyboard.press("n")
    page.keyboard.press("Enter")  # yes
    wait_for_ply(tab, 0)
    assert page.locator(".who-x").inner_text() == "X · Player 2"
    assert page.url != before and page.evaluate("history.length") == depth + 1
    saved = page.evaluate("JSON.parse(localStorage.getItem('noughts.games'))")
    assert [g["moves"] for g in saved] == [2]  # the game left, kept; the new one has no move yet
    page.go_back()
    wait_for_ply(tab, 2)
    assert page.url == before
    assert page.locator(".cell.has-x").count() == 1 and page.locator(".cell.has-o").count() == 1
    page.go_forward()
    wait_for_ply(tab, 0)
    # No move yet: nothing to lose, so nothing is asked.
    fresh = page.url
    page.keyboard.press("n")
    page.wait_for_function("url => location.href !== url", arg=fresh)
    assert page.locator("#new-game-question").count() == 0
    tab.assert_clean()


def test_the_form_says_what_is_wrong_and_the_labels_say_what_they_are(tab: Tab) -> None:
    page = tab.page
    requests: list[str] = []
    page.on("request", lambda r: "/api/new" in r.url and requests.append(r.url))
    tab.open("#/")
    page.select_option("#custom-game", "mnk")
    assert "qubic" not in page.locator('[data-option="n"]').inner_text()
    page.check("#opt-forget")
    assert page.locator('label[for="opt-keep"]').inner_text() == "marks kept per player"
    assert " keep " not in page.locator('[data-option="forget"]').inner_text()
    page.fill("#opt-m", "")
    page.click("#start")
    error = page.locator("#opt-m-error")
    assert error.is_visible() and "whole number from 3 to 15" in error.inner_text()
    assert page.locator("#opt-m").get_attribute("aria-invalid") == "true"
    assert page.evaluate("location.hash") == "#/" and requests == []
    page.click('[data-preset="Gomoku 15×15"]')  # the preset fills m, n and k
    assert [page.input_value(f"#opt-{name}") for name in "mnk"] == ["15", "15", "5"]
    page.fill("#opt-keep", "5")  # in Forget mode five in a row needs five marks kept
    page.click("#start")
    page.wait_for_selector(".grid-board.go")
    assert page.locator(".game-head .chip").inner_text() == "15×15, 5 in a row · Forget mode, 5 marks"
    ready(tab, "#/play?spec=classic:forget=true&mode=local")
    assert page.locator(".game-head .chip").inner_text() == "Forget mode, 3 marks"
    tab.assert_clean()


def test_keys_after_a_click_on_blank_space_draw_no_ring_round_the_page(tab: Tab) -> None:
    page = tab.page
    ready(tab, BOARD_PAGES["grid"])
    page.mouse.click(5, 400)
    page.keyboard.press("[")
    page.keyboard.press("u")
    wait_for_ply(tab, 2)
    assert page.evaluate("getComputedStyle(document.getElementById('view')).outlineStyle") == "none"
    tab.assert_clean()


def test_boards_show_the_coordinates_of_their_notation(make_tab: Any) -> None:
    tab = make_tab(PHONE)
    page = tab.page
    ready(tab, GOMOKU + "&moves=h8")
    assert page.locator(".grid-board.go .go-lines .star").count() == 5
    assert page.locator(".coords-cols span").all_inner_texts() == [chr(97 + c) for c in range(15)]
    assert page.locator(".coords-rows span").all_inner_texts() == [str(r) for r in range(1, 16)]
    # the column letter and row number beside a stone name its move (h8: 8th column, 8th row)
    stone = page.locator('.cell[data-cell="112"] .stone').bounding_box()
    letter = page.locator(".coords-cols span").nth(7).bounding_box()
    number = page.locator(".coords-rows span").nth(7).bounding_box()
    assert abs((stone["x"] + stone["width"] / 2) - (letter["x"] + letter["width"] / 2)) < 2
    assert abs((stone["y"] + stone["height"] / 2) - (number["y"] + number["height"] / 2)) < 2
    # big enough to tap on a phone (WCAG 2.2: 24 px)
    cell = page.locator('.cell[data-cell="0"]').bounding_box()
    assert cell["width"] >= 24 and cell["height"] >= 24
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    # qubic: layer, row, column; each layer numbers its rows and columns
    ready(tab, BOARD_PAGES["qubic"])
    assert page.locator(".layer-cols").nth(1).locator("span").all_inner_texts() == ["1", "2", "3", "4"]
    assert page.locator(".layer-rows").nth(1).locator("span").all_inner_texts() == ["1", "2", "3", "4"]
    assert page.locator('.layer[data-layer="1"] .cell.has-o').get_attribute("aria-label") == "222: O"
    # boards whose notation numbers the cells 1-9 show the numbers
    for route in (BOARD_PAGES["grid"], BOARD_PAGES["gobblet"]):
        ready(tab, route)
        assert page.locator(".cell .cell-name").all_inner_texts() == [str(n) for n in range(1, 10)]
    tab.assert_clean()


@pytest.mark.parametrize(
    "name",
    # classic in make test; the other boards with the exhaustive checks (make test-slow)
    [
        "classic-won",
        pytest.param("nine-board-won", marks=pytest.mark.slow),
        pytest.param("qubic-won", marks=pytest.mark.slow),
    ],
)
def test_the_winning_line_is_drawn_and_the_banner_leaves_it_in_view(tab: Tab, name: str) -> None:
    page = tab.page
    ready(tab, BOARD_PAGES[name])
    page.wait_for_selector("#result")
    line = page.locator(".win-line line")
    assert line.count() == 1
    banner = page.locator("#result").bounding_box()
    board = page.locator(".board-box").bounding_box()
    overlap_x = min(banner["x"] + banner["width"], board["x"] + board["width"]) - max(banner["x"], board["x"])
    overlap_y = min(banner["y"] + banner["height"], board["y"] + board["height"]) - max(banner["y"], board["y"])
    assert overlap_x <= 0 or overlap_y <= 0, "the result banner covers the board"
    if name == "nine-board-won":
        # the winning board's marks are drawn at full strength, the others faded
        assert page.locator(".local.win").count() == 1
        opacity = page.evaluate(
            "[...document.querySelectorAll('.local.win .cell.win')].map(c => getComputedStyle(c).opacity)"
        )
        assert opacity == ["1", "1", "1"]
    tab.assert_clean()


@pytest.mark.slow  # a detail of a page make test covers; with the exhaustive checks (make test-slow)
def test_placed_marks_animate_unless_less_motion_is_asked(make_tab: Any) -> None:
    for motion in ("no-preference", "reduce"):
        tab = make_tab(DESKTOP)
        page = tab.page
        page.emulate_media(reduced_motion=motion)
        ready(tab, "#/play?spec=gobblet&mode=local")
        page.click('.hand-x .hand-slot[data-size="3"]')
        page.click('.gobblet-grid .cell[data-cell="4"]')
        wait_for_ply(tab, 1)
        slid = page.locator('.gobblet-grid .cell[data-cell="4"] .figure').get_attribute("data-slide")
        tab.open("#/play?spec=classic&mode=local")
        page.click('.cell[data-move="5"]')
        wait_for_ply(tab, 1)
        mark = page.locator('.cell[data-cell="4"] .mark')
        if motion == "reduce":
            assert slid is None and "enter" not in (mark.get_attribute("class") or "")
        else:
            assert slid == "hand" and "enter" in (mark.get_attribute("class") or "")
            assert (
                page.evaluate(
                    "getComputedStyle(document.querySelector('.cell[data-cell=\"4\"] .mark line')).animationName"
                )
                == "draw"
            )
        tab.assert_clean()


def test_on_a_phone_the_board_and_the_turn_fit_the_first_screen(make_tab: Any) -> None:
    tab = make_tab(PHONE, "dark")
    page = tab.page
    for name, route in BOARD_PAGES.items():
        ready(tab, route)
        header = page.locator(".topbar").bounding_box()
        assert header["height"] < 60, "the header wrapped"
        status = page.locator("#status").bounding_box()
        board = page.locator(".board-box [role=group]").first.bounding_box()
        assert status["y"] + status["height"] <= PHONE["height"], name
        assert board["y"] + board["height"] <= PHONE["height"], f"{name}: the board runs off the screen"
        assert page.evaluate("window.scrollY") == 0
    tab.assert_clean()


def test_the_lobby_starts_common_games_in_one_click(tab: Tab, server_url: str) -> None:
    # someone waits online for an opponent: the lobby lists the room, a click from joining
    with httpx2.Client(base_url=server_url) as someone:
        someone.post("/api/online/guest").raise_for_status()
        room = someone.post("/api/online/rooms", json={"spec": "qubic", "minutes": 5, "increment": 3})
        room.raise_for_status()
    page = tab.page
    tab.open("#/")
    page.wait_for_selector(".quick-tiles")
    assert page.locator('[data-quick="online"]').get_attribute("href") == "#/lobby"
    seek = page.locator(f'#seeks [data-room="{room.json()["game"]["id"]}"]')
    assert "Qubic" in seek.inner_text() and "5+3" in seek.inner_text()
    assert seek.locator("a").get_attribute("href") == f"#/game/{room.json()['game']['id']}"
    page.click('.level-chip[data-level="hard"]')
    page.click('[data-quick="mnk:m=15:n=15:k=5"]')
    page.wait_for_selector(".grid-board.go")
    assert "level=hard" in page.url and "mode=computer" in page.url
    assert page.locator(".who-o").inner_text() == "White · Computer (hard)"  # gomoku: black and white
    # every game has a tile, once, with a picture of its own
    tab.open("#/")
    tiles = page.locator(".quick-tiles .tile:not(.tile-online)")
    arts = tiles.locator(".tile-art svg").evaluate_all("els => els.map(e => e.getAttribute('aria-label'))")
    assert len(set(arts)) == len(arts) == 8  # m,n,k is not tic-tac-toe, nine-board not ultimate, matryoshka not gobblet
    tab.assert_clean()


def test_the_home_page_shows_games_being_played_on_small_boards_that_follow_them(tab: Tab, server_url: str) -> None:
    """Two people play online: the home page shows their game as a small board with its
    marks and the last move ringed, a click from watching, and the board follows the
    game's next move without a reload."""
    ann, bob = Person(server_url).guest(), Person(server_url).guest()
    game_id = ann.room("classic")
    bob.join(game_id)
    first = ann.socket(game_id)
    assert first.move("5")["type"] == "ack"
    page = tab.page
    tab.open("#/")
    card = page.locator(f'#live-games [data-live="{game_id}"]')
    card.wait_for()
    assert card.locator(".mini-cross").count() == 1 and card.locator(".mini-ring").count() == 0
    assert card.locator(".mini-last").count() == 1
    assert card.locator("a").get_attribute("href") == f"#/game/{game_id}"
    assert f"{bob.name}" in card.inner_text() and "O to move" in (card.locator("a").get_attribute("aria-label") or "")
    second = bob.socket(game_id)
    assert second.move("1")["type"] == "ack"
    # the next poll (every 4 s) draws bob's mark
    rings = f"#live-games [data-live='{game_id}'] .mini-ring"
    page.wait_for_function(f'() => document.querySelectorAll("{rings}").length === 1', timeout=10_000)
    tab.assert_clean()
    # the online lobby's list of games being played shows the same small board
    page.goto(server_url + "/#/lobby")
    # The one app keeps the document: wait for the lobby's own list (the home page's
    # has the same id and may still be on screen for a moment).
    page.wait_for_selector("#players-online")
    watched = page.locator(f'.live-room[data-live="{game_id}"]')
    watched.wait_for()
    assert watched.locator("svg.mini-board .mini-ring").count() == 1
    ann.close()
    bob.close()


@pytest.mark.parametrize("theme", ["light", pytest.param("dark", marks=pytest.mark.slow)])
def test_no_serious_accessibility_violations(make_tab: Any, theme: str) -> None:
    """axe-core (vendored, tests/web/vendor) over the home page and a game page of each
    board kind: no serious or critical violation (the dark theme in the slow run)."""
    found: dict[str, list[str]] = {}
    tab = make_tab(DESKTOP, theme)
    for name, route in {"home": "#/", **BOARD_PAGES}.items():
        if route == "#/":
            tab.open(route)
            tab.page.wait_for_selector(".quick-tiles")
        else:
            ready(tab, route)
        violations = serious_violations(tab.page)
        if violations:
            found[name] = violations
    tab.assert_clean()
    assert not found, found


def test_forget_mode_on_a_go_board_fades_the_stone_that_goes(tab: Tab) -> None:
    page = tab.page
    ready(tab, "#/play?spec=mnk:m=7:n=7:k=4:forget=true:keep=4&mode=local&moves=a1,g7,a2,g6,a3,g5,c1")
    fading = page.locator(".grid-board.go .cell.vanishing")
    assert fading.evaluate_all("els => els.map(e => e.dataset.move || e.getAttribute('aria-label'))") == ["a1: Black"]
    assert fading.get_attribute("title") == "Black's oldest stone: vanishes on Black's next move in this board"
    assert float(page.evaluate("getComputedStyle(document.querySelector('.cell.vanishing .stone')).opacity")) < 1
    tab.assert_clean()
