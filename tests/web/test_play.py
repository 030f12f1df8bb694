"""Playing in a real browser: clicks, drags and keys on the page, the server behind it."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

from noughts.registry import parse_spec
from web.browsing import Tab, plies, wait_for_ply

from support import playout

CLASSIC_VS_MAX = "#/play?spec=classic&mode=computer&level=max&side=x"


def click_against_computer(tab: Tab, selector: str) -> None:
    """Click a cell, then wait for the computer's answer (or the end of the game)."""
    before = plies(tab)
    tab.page.click(selector)
    tab.page.wait_for_function(
        "ply => document.querySelector('#result:not([hidden])') ||"
        " (document.querySelectorAll('#move-list [data-ply]').length >= ply + 3"
        " && !document.querySelector('#status.thinking'))",
        arg=before,
    )


@pytest.mark.slow  # the solved play itself is proved in tests/ai/test_solve.py; this is the page's whole game
def test_classic_against_max_never_loses(tab: Tab) -> None:
    """Two games against max by clicking: with the hint's moves it is a draw; with
    random clicks, max never lets the player win."""
    tab.open(CLASSIC_VS_MAX)
    page = tab.page
    wait_for_ply(tab, 0)
    # Game 1: you are x; click the hint's move every turn.
    while not page.locator("#result").is_visible():
        page.click("#hint")
        page.wait_for_selector(".cell.hint")
        # The strongest level's exact value, not the opponent's own estimate.
        assert page.locator("#eval-text").inner_text() == "A draw with best play · exact"
        click_against_computer(tab, ".cell.hint")
    assert page.locator("#result strong").inner_text() == "Draw"

    # Game 2: new game (you are o now, the computer opens); random clicks.
    rng = random.Random(7)
    page.click("#result >> text=New game")
    wait_for_ply(tab, 1)
    assert page.locator(".who-o").inner_text() == "O · You"
    while not page.locator("#result").is_visible():
        cells = page.locator(".cell.playable")
        click_against_computer(
            tab, f'.cell[data-cell="{cells.nth(rng.randrange(cells.count())).get_attribute("data-cell")}"]'
        )
    assert page.locator("#result strong").inner_text() in ("Draw", "The computer wins")
    tab.assert_clean()


def _x_wins(spec: str, longest: int) -> list[str]:
    """The moves of a seeded random game of `spec` that x wins within `longest` plies."""
    for seed in range(10_000):
        steps = playout(spec, seed)
        final = steps[-1][0]
        if final.status == "x-wins" and len(steps) - 1 <= longest:
            return [state.move_text(move) for state, move in steps[:-1]]
    raise AssertionError("no short x win found")


# A whole game to its win line, in make test-slow: ultimate's page takes moves in make test
# (test_nine_boards_show_each_cells_move_as_it_is_typed, the evaluation's test).
@pytest.mark.slow
def test_ultimate_on_one_screen_to_a_win(tab: Tab) -> None:
    moves = _x_wins("ultimate", 60)
    tab.open("#/play?spec=ultimate&mode=local")
    page = tab.page
    wait_for_ply(tab, 0)
    state = parse_spec("ultimate").initial()
    for i, move in enumerate(moves):
        # Exactly the boards the core allows are framed as playable.
        playable = sorted(
            int(b) for b in page.locator(".local.playable").evaluate_all("els => els.map(e => e.dataset.board)")
        )
        assert playable == state.playable_boards(), f"before move {i + 1}"
        page.click(f'.cell[data-move="{move}"]')
        state = state.play_text(move)
        wait_for_ply(tab, i + 1)
    assert page.locator("#result strong").inner_text() == "Player 1 (X) wins!"
    won = page.locator(".local.win").evaluate_all("els => els.map(e => Number(e.dataset.board))")
    assert len(won) == 3 and all(state.board_outcome(b).winner.value == "x" for b in won)  # type: ignore[union-attr]
    assert page.locator(".local.decided-x .big-mark").count() >= 3
    assert page.locator("#status").inner_text().startswith("Player 1 (X) wins")
    tab.assert_clean()


def test_gobblet_drag_a_figure_onto_a_smaller_one(tab: Tab) -> None:
    tab.open("#/play?spec=gobblet&mode=local")
    page = tab.page
    wait_for_ply(tab, 0)
    # x places a small figure on the centre by click-to-select.
    page.click('.hand-x .hand-slot[data-size="1"]')
    assert page.locator(".gobblet-grid .cell.target").count() == 9
    page.click('.gobblet-grid .cell[data-cell="4"]')
    wait_for_ply(tab, 1)
    # o drags a medium figure from hand onto x's small one.
    source = page.locator('.hand-o .hand-slot[data-size="2"]').first.bounding_box()
    target = page.locator('.gobblet-grid .cell[data-cell="4"]').bounding_box()
    page.mouse.move(source["x"] + source["width"] / 2, source["y"] + source["height"] / 2)
    page.mouse.down()
    page.mouse.move(target["x"] + 10, target["y"] + 10, steps=8)
    # While dragging, the legal targets are lit: every cell, the small figure's too.
    lit = page.locator(".gobblet-grid .cell.target").evaluate_all("els => els.map(e => Number(e.dataset.cell))")
    assert sorted(lit) == list(range(9))
    assert page.locator(".figure.ghost").count() == 1
    page.mouse.move(target["x"] + target["width"] / 2, target["y"] + target["height"] / 2, steps=4)
    page.mouse.up()
    wait_for_ply(tab, 2)
    assert page.locator('[data-ply="2"]').inner_text().endswith("M5")
    assert (
        page.locator('.gobblet-grid .cell[data-cell="4"]').get_attribute("aria-label")
        == "cell 5: X small under O medium"
    )
    assert page.locator(".hand-o .hand-slot").count() == 5

    # x's small figure cannot go over the medium: dragging it there is refused and
    # changes nothing (cell 5 is not lit while a small figure is dragged).
    source = page.locator('.hand-x .hand-slot[data-size="1"]').first.bounding_box()
    page.mouse.move(source["x"] + source["width"] / 2, source["y"] + source["height"] / 2)
    page.mouse.down()
    page.mouse.move(target["x"] + target["width"] / 2, target["y"] + target["height"] / 2, steps=8)
    assert "blocked" in (page.locator('.gobblet-grid .cell[data-cell="4"]').get_attribute("class") or "")
    page.mouse.up()
    assert plies(tab) == 2
    tab.assert_clean()


def test_keyboard_play_undo_review_and_typed_moves(tab: Tab) -> None:
    tab.open("#/play?spec=classic&mode=local")
    page = tab.page
    page.wait_for_selector(".cell.playable")
    page.locator('.cell[data-cell="0"]').focus()
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowDown")
    page.keyboard.press("Enter")  # the centre
    wait_for_ply(tab, 1)
    assert page.locator('.cell[data-cell="4"]').get_attribute("class").split().count("has-x") == 1  # type: ignore[union-attr]
    page.keyboard.press("/")
    page.keyboard.type("1")
    page.keyboard.press("Enter")
    wait_for_ply(tab, 2)
    page.locator("#move-input").fill("1")  # taken: an error, nothing changes
    page.keyboard.press("Enter")
    page.wait_for_selector("#toast.show.error")
    assert "taken" in page.locator("#toast").inner_text()
    assert plies(tab) == 2
    page.locator("body").click(position={"x": 5, "y": 300})
    page.keyboard.press("[")  # review the position after move 1
    assert page.locator(".review-bar").inner_text().startswith("Reviewing after move 1")
    assert page.locator('.cell[data-cell="0"] .mark').count() == 0
    page.keyboard.press("Escape")
    assert page.locator('.cell[data-cell="0"] .mark-o').count() == 1
    page.click('[data-ply="0"]')
    assert page.locator(".cell .mark").count() == 0
    page.click("text=Back to the game")
    page.keyboard.press("u")
    wait_for_ply(tab, 1)
    assert page.locator(".cell .mark").count() == 1
    page.keyboard.press("n")  # a new game (asked first: a move is played): player 2 has x now
    page.keyboard.press("Enter")
    wait_for_ply(tab, 0)
    assert page.locator(".who-x").inner_text() == "X · Player 2"
    tab.assert_clean(refused=1)  # the taken cell


def test_forget_mode_shows_the_mark_that_vanishes(tab: Tab) -> None:
    tab.open("#/play?spec=classic:forget&mode=local")
    page = tab.page
    for i, cell in enumerate(["1", "5", "9", "3", "7"]):
        page.click(f'.cell[data-move="{cell}"]')
        wait_for_ply(tab, i + 1)
    # o to move; x has three marks, so x's oldest (cell 1) goes on x's next move.
    assert page.locator(".cell.vanishing").evaluate_all("els => els.map(e => e.dataset.cell)") == ["0"]
    page.click('.cell[data-move="2"]')
    wait_for_ply(tab, 6)
    assert re.search(r"vanishing-next", page.locator('.cell[data-cell="0"]').get_attribute("class") or "")
    page.click('.cell[data-move="4"]')
    wait_for_ply(tab, 7)
    assert page.locator('.cell[data-cell="0"] .mark').count() == 0
    tab.assert_clean()


def test_qubic_cube_turns_and_takes_clicks(tab: Tab) -> None:
    tab.open("#/play?spec=qubic&mode=local")
    page = tab.page
    page.wait_for_selector(".cube-canvas")
    page.click('.cell[data-move="111"]')
    wait_for_ply(tab, 1)
    canvas = page.locator(".cube-canvas")
    before = canvas.screenshot()
    box: Any = canvas.bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()
    page.mouse.move(box["x"] + box["width"] / 2 + 80, box["y"] + box["height"] / 2 + 20, steps=6)
    page.mouse.up()
    assert canvas.screenshot() != before  # it turned
    assert plies(tab) == 1  # and a drag is not a move
    tab.assert_clean()


def test_settings_are_remembered(tab: Tab) -> None:
    """Sound and music are off until turned on; sound is one choice for the games
    against the computer and online play."""
    tab.open("#/")
    page = tab.page
    for switch in ("#music-toggle", "#sound-toggle"):
        assert page.locator(switch).get_attribute("aria-pressed") == "false"  # off by default
        page.click(switch)
    page.click("#theme-toggle")
    theme = page.evaluate("document.documentElement.dataset.theme")
    page.reload()
    assert page.locator("#music-toggle").get_attribute("aria-pressed") == "true"
    assert page.inner_text("#sound-toggle") == "Sound on"
    assert page.evaluate("document.documentElement.dataset.theme") == theme
    tab.open("#/lobby")
    page.wait_for_selector("#lobby-tournaments")
    assert page.inner_text("#sound-toggle") == "Sound on"
    page.click("#sound-toggle")
    page.go_back()
    page.wait_for_selector("#sound-toggle:has-text('Sound off')")
    page.click("#music-toggle")  # and off again
    tab.assert_clean()


def test_home_starts_the_chosen_game(tab: Tab) -> None:
    tab.open("#/")
    page = tab.page
    page.select_option("#custom-game", "mnk")
    page.fill("#opt-m", "4")
    page.fill("#opt-n", "4")
    page.fill("#opt-k", "4")
    page.check("input[value=local]")
    assert page.locator("a.online-entry").get_attribute("href") == "#/lobby"
    page.click("#start")
    page.wait_for_selector(".grid-board .cell")
    assert page.locator(".grid-board .cell").count() == 16
    assert "4×4, 4 in a row" in page.locator(".game-head").inner_text()
    tab.assert_clean()


def test_a_bad_spec_in_the_address_is_explained(tab: Tab) -> None:
    tab.open("#/play?spec=mnk:k=99&mode=local")
    tab.page.wait_for_selector("#error")
    assert "k must be between" in tab.page.locator("#error").inner_text()
    tab.assert_clean(refused=1)


GOMOKU = "#/play?spec=mnk:m=15:n=15:k=5&mode=local&moves=h8,g7"


def test_gomoku_is_named_and_drawn_as_gomoku_players_expect(tab: Tab) -> None:
    """The 15x15 five-in-a-row m,n,k-game is "Gomoku" (the server's name for the spec),
    with black and white stones, black first, and on its edges the labels its moves are
    written with (docs/notation.md: a1 is the top-left intersection)."""
    tab.open(GOMOKU)
    page = tab.page
    wait_for_ply(tab, 2)
    assert page.locator(".game-head h1").inner_text() == "Gomoku"
    colour = "e => getComputedStyle(e).backgroundImage"
    assert "rgb(29, 31, 34)" in page.locator(".cell[data-cell='112'] .stone-x").evaluate(colour)  # h8: black
    assert "rgb(250, 250, 247)" in page.locator(".cell[data-cell='96'] .stone-o").evaluate(colour)  # g7: white
    assert page.locator("#status").inner_text() == "Player 1's move (Black)"
    assert page.locator("[data-ply='1']").inner_text() == "1. Black h8"
    assert page.locator(".who-o").inner_text() == "White · Player 2"
    columns = page.locator(".coords-cols span").all_inner_texts()
    rows = page.locator(".coords-rows span").all_inner_texts()
    assert columns == [chr(ord("a") + c) for c in range(15)] and rows == [str(r) for r in range(1, 16)]
    # The labels are the move list's: a1 top left, b2 one step right and down.
    assert page.locator(".cell[data-row='0'][data-col='0']").get_attribute("data-move") == "a1"
    assert page.locator(".cell[data-row='1'][data-col='1']").get_attribute("data-move") == "b2"
    tab.assert_clean()


@pytest.mark.parametrize("spec", ["ultimate", "nine-board"])
def test_nine_boards_show_each_cells_move_as_it_is_typed(tab: Tab, spec: str) -> None:
    """Every empty cell of ultimate and nine-board shows its move text ("56": board 5,
    cell 6), the way moves are typed and listed."""
    tab.open(f"#/play?spec={spec}&mode=local&moves=55")
    page = tab.page
    wait_for_ply(tab, 1)
    names = page.evaluate(
        "() => [...document.querySelectorAll('.local .cell')]"
        ".map(c => [c.dataset.cell, c.querySelector('.cell-name')?.textContent ?? null])"
    )
    assert len(names) == 81
    for cell, name in names:
        board, square = divmod(int(cell), 9)
        assert name == (None if int(cell) == 40 else f"{board + 1}{square + 1}")  # 55 holds X
    page.click(".cell[data-cell='36']")  # shown as "51"
    wait_for_ply(tab, 2)
    assert page.locator("[data-ply='2']").inner_text() == "2. O 51"
    tab.assert_clean()


def test_the_evaluation_is_the_strongest_levels_never_the_opponents(tab: Tab) -> None:
    """Against a weakened level, its own estimate is not shown: no bar (not an even one)
    until a hint asks the strongest level, whose judgment is then labelled plainly."""
    tab.open("#/play?spec=ultimate&mode=computer&level=easy&side=o")
    page = tab.page
    wait_for_ply(tab, 1)
    assert page.locator(".eval-bar").is_hidden()
    assert page.locator("#eval-text").inner_text() == "No evaluation of this position yet: ask for a hint (h)"
    page.click("#hint")
    page.wait_for_selector(".eval-bar:not([hidden])")
    text = page.locator("#eval-text").inner_text()
    assert text.startswith("O to move: ") and text.endswith("(an estimate) · the strongest level (max)")
    # The engine's own words stay behind "Details".
    assert page.locator(".evaluation details.engine-details:not([open]) #eval-engine").count() == 1
    assert "mistakes" not in text and ":" not in text.split("·")[-1]
    tab.assert_clean()
