"""Puzzles in a real browser: one solved by clicking, the defender answering from the
stored line; a wrong move refuted on the board, then a retry; a streak counted; the
page audited (axe) and photographed on a desktop and a phone."""

from __future__ import annotations

import secrets
from typing import Any

import httpx2
import pytest

from web.browsing import DESKTOP, PHONE, SCREENSHOTS, Tab, serious_violations


def _puzzle(server_url: str, long: bool = True) -> dict[str, Any]:
    """A shipped ultimate puzzle (its cells are buttons with the move's text), of more
    than one move of the solver's when `long`."""
    run = httpx2.get(f"{server_url}/api/puzzles/streak", params={"spec": "ultimate", "seed": 7}).json()
    return next(p for p in run["puzzles"] if (len(p["solution"]) >= 3) == long)


def test_a_puzzle_is_solved_by_clicking(tab: Tab, server_url: str) -> None:
    puzzle = _puzzle(server_url)
    tab.open(f"#/puzzles?id={puzzle['id']}")
    page = tab.page
    page.wait_for_selector(f"#puzzle-info[data-id='{puzzle['id']}']")
    assert "find the winning move" in page.locator("#feedback").inner_text()
    for ply in range(0, len(puzzle["solution"]), 2):
        page.click(f".cell[data-move='{puzzle['solution'][ply]}']")
        if ply + 1 < len(puzzle["solution"]):
            page.wait_for_selector("#good-move")
            # The reply shows, and the board takes the solver's next move.
            page.wait_for_selector(f".cell[data-move='{puzzle['solution'][ply + 2]}']")
    page.wait_for_selector("#solved")
    assert "Solved!" in page.locator("#feedback").inner_text()
    assert page.locator("#next").is_visible()
    assert "Sign in" in page.locator("#sign-in-note").inner_text()  # a visitor: no rating
    page.screenshot(path=str(SCREENSHOTS / "puzzle-solved.png"))
    tab.assert_clean()


def test_the_puzzles_rating_shows_once_it_is_solved_or_failed(tab: Tab, server_url: str) -> None:
    """As lichess ("Rating: hidden"): how hard a puzzle is would be a hint while solving it."""
    page = tab.page
    short, long = _puzzle(server_url, long=False), _puzzle(server_url)
    for puzzle, finish in ((short, f".cell[data-move='{short['solution'][0]}']"), (long, "#solution")):
        tab.open(f"#/puzzles?id={puzzle['id']}")
        page.wait_for_selector(f"#puzzle-info[data-id='{puzzle['id']}']")
        assert page.locator("#puzzle-difficulty").inner_text() == "rating: hidden until you solve or fail it"
        assert f"rating {puzzle['rating']}" not in page.locator("#puzzle-info").inner_text()
        page.click(finish)  # solved at once, or failed by looking at the solution
        page.wait_for_selector(f"#puzzle-difficulty:has-text('rating {puzzle['rating']} · ')")
    tab.assert_clean()


def test_a_wrong_move_is_refuted_on_the_board_then_retried(tab: Tab, server_url: str) -> None:
    puzzle = _puzzle(server_url)
    tab.open(f"#/puzzles?id={puzzle['id']}")
    page = tab.page
    page.wait_for_selector(f"#puzzle-info[data-id='{puzzle['id']}']")
    playable = page.eval_on_selector_all(".cell.playable[data-move]", "cells => cells.map(c => c.dataset.move)")
    wrong = next(move for move in playable if move != puzzle["solution"][0])
    page.click(f".cell[data-move='{wrong}']")
    page.wait_for_selector("#wrong-move")
    assert f"rating {puzzle['rating']}" in page.locator("#puzzle-difficulty").inner_text()  # failed: shown
    said = page.locator("#wrong-move").inner_text()
    assert f"{wrong} is not the move" in said
    # The refutation is played on the board: the defender's move is the last one now.
    page.wait_for_function("() => !document.querySelector('.cell.playable')")
    assert page.locator(".cell.last").count() >= 1
    assert serious_violations(page) == []  # the desktop page, with its verdict shown
    page.click("#retry")
    page.wait_for_selector(f".cell.playable[data-move='{wrong}']")
    page.click(f".cell[data-move='{puzzle['solution'][0]}']")
    page.wait_for_selector("#good-move, #solved")
    tab.assert_clean()


def test_a_puzzle_solved_after_a_wrong_move_says_so_and_not_with_help(tab: Tab, server_url: str) -> None:
    # Issue 56: it said "Solved, with help." where no hint was shown.
    puzzle = _puzzle(server_url, long=False)
    tab.open(f"#/puzzles?id={puzzle['id']}")
    page = tab.page
    page.wait_for_selector(f"#puzzle-info[data-id='{puzzle['id']}']")
    playable = page.eval_on_selector_all(".cell.playable[data-move]", "cells => cells.map(c => c.dataset.move)")
    page.click(f".cell[data-move='{next(m for m in playable if m != puzzle['solution'][0])}']")
    page.wait_for_selector("#wrong-move")
    page.click("#retry")
    page.click(f".cell[data-move='{puzzle['solution'][0]}']")
    page.wait_for_selector("#solved")
    said = page.locator("#solved").inner_text()
    assert said.startswith("✓ Solved, after 1 wrong move. It counts as failed: as on lichess"), said
    tab.assert_clean()


@pytest.mark.slow  # a detail of a page make test covers; with the exhaustive checks (make test-slow)
def test_a_streak_counts_solved_puzzles(tab: Tab, server_url: str) -> None:
    tab.open("#/puzzles?mode=streak&spec=ultimate")
    page = tab.page
    page.wait_for_selector("#puzzle-info[data-id]")
    assert page.locator("#streak-score").inner_text() == "0"
    puzzle_id = page.locator("#puzzle-info").get_attribute("data-id")
    solution = httpx2.get(f"{server_url}/api/puzzles/{puzzle_id}").json()["solution"]
    for ply in range(0, len(solution), 2):
        page.click(f".cell[data-move='{solution[ply]}']")
        if ply + 2 < len(solution):
            page.wait_for_selector(f".cell[data-move='{solution[ply + 2]}']")
    page.wait_for_selector("#solved")
    assert page.locator("#streak-score").inner_text() == "1"
    page.click("#next")
    page.wait_for_function("id => document.querySelector('#puzzle-info').dataset.id !== id", arg=puzzle_id)
    assert page.locator("#streak-score").inner_text() == "1"
    tab.assert_clean()


# Light in make test; dark (the same page, other colours) in make test-slow.
@pytest.mark.parametrize("theme", ["light", pytest.param("dark", marks=pytest.mark.slow)])
def test_the_puzzle_page_passes_the_audit_on_a_phone(make_tab: Any, server_url: str, theme: str) -> None:
    tab = make_tab(PHONE, theme)
    puzzle = _puzzle(server_url)
    tab.open(f"#/puzzles?id={puzzle['id']}")
    page = tab.page
    page.wait_for_selector("#puzzle-info[data-id]")
    # The board and whose turn it is on the first screen.
    board = page.locator(".board-box").bounding_box()
    assert board is not None and board["y"] + board["height"] <= PHONE["height"]
    assert page.locator("#status").is_visible()
    page.screenshot(path=str(SCREENSHOTS / f"puzzle-phone-{theme}.png"))
    assert serious_violations(page) == []
    tab.assert_clean()


def test_a_signed_in_solver_sees_the_rating_move(tab: Tab, server_url: str) -> None:
    page = tab.page
    name = f"solver{secrets.token_hex(3)}"
    answer = page.request.post(f"{server_url}/api/online/signup", data={"name": name, "password": "correct horse"})
    assert answer.status == 201, answer.text()
    puzzle = _puzzle(server_url, long=False)  # one move: its answer is the solution's first
    tab.open(f"#/puzzles?id={puzzle['id']}")
    page.wait_for_selector("#my-puzzle-rating")
    assert page.locator("#my-puzzle-rating").inner_text() == "1500?"  # provisional
    page.click(f".cell[data-move='{puzzle['solution'][0]}']")
    page.wait_for_selector("#solved")
    page.wait_for_selector("#rating-change")
    assert page.locator("#rating-change").inner_text().strip().startswith("+")
    assert int(page.locator("#my-puzzle-rating").inner_text().rstrip("?")) > 1500
    page.wait_for_selector(f".puzzle-history a.solved[href*='id={puzzle['id']}']")
    tab.assert_clean()


def test_a_puzzle_opens_with_the_move_that_led_to_it(tab: Tab, server_url: str) -> None:
    """As lichess opens a puzzle: the position before it, then the opponent's move played
    and marked as the last move, and said in words."""
    run = httpx2.get(f"{server_url}/api/puzzles/streak", params={"spec": "ultimate", "seed": 7}).json()
    puzzle = next(p for p in run["puzzles"] if p["last_move"])
    tab.open(f"#/puzzles?id={puzzle['id']}")
    page = tab.page
    page.wait_for_selector(f"#puzzle-info[data-id='{puzzle['id']}']")
    defender = "O" if puzzle["position"].split()[1] == "x" else "X"  # the position's side to move solves
    assert page.locator("#puzzle-last-move").inner_text() == f"{defender} played {puzzle['last_move']}."
    page.wait_for_selector(".cell.playable")
    assert page.locator(".cell.last").get_attribute("title") == puzzle["last_move"]
    # The puzzle is played from its own position: the solution's first move is legal.
    page.click(f".cell[data-move='{puzzle['solution'][0]}']")
    page.wait_for_selector("#good-move, #solved")
    tab.assert_clean()


def test_on_a_phone_the_page_does_not_jump_when_the_puzzle_comes(make_tab: Any) -> None:
    """The board's square is kept while the puzzle loads, so the panel under it stays
    where it is (Lighthouse counted a layout shift of 0.51 there on a phone)."""
    tab: Tab = make_tab(PHONE)
    tab.open("#/puzzles")
    page = tab.page
    page.wait_for_selector("#puzzle-info[data-id]")
    shift = page.evaluate(
        """() => new Promise(done => {
            let total = 0;
            new PerformanceObserver(list => {
                for (const entry of list.getEntries()) if (!entry.hadRecentInput) total += entry.value;
            }).observe({ type: "layout-shift", buffered: true });
            setTimeout(() => done(total), 300);
        })"""
    )
    assert shift < 0.1, shift
    tab.assert_clean()


@pytest.mark.parametrize(("size", "theme"), [("desktop", "light"), ("phone", "dark")])
def test_the_themes_offered_are_the_chosen_games_with_its_counts(
    make_tab: Any, server_url: str, size: str, theme: str
) -> None:
    """Choosing Ultimate lists Ultimate's themes with Ultimate's counts (not every game's,
    which offered "tempo (317)" and then had no puzzle), and a theme chosen from the list
    gives an Ultimate puzzle of it."""
    tab = make_tab(DESKTOP if size == "desktop" else PHONE, theme)
    page = tab.page
    tab.open("#/puzzles")
    page.wait_for_selector("#puzzle-info[data-id]")
    page.wait_for_selector("#filter-theme option:nth-child(2)", state="attached")
    page.select_option("#filter-game", "ultimate")
    page.wait_for_function("() => location.hash.includes('spec=ultimate')")
    own = httpx2.get(f"{server_url}/api/puzzles", params={"spec": "ultimate"}).json()["themes"]
    every = {t["theme"]: t["count"] for t in httpx2.get(f"{server_url}/api/puzzles").json()["themes"]}
    wanted = ["every theme", *(f"{t['theme']} ({t['count']})" for t in own)]
    assert wanted[1:] != [f"{t} ({n})" for t, n in every.items()]
    page.wait_for_function(
        "wanted => JSON.stringify([...document.querySelectorAll('#filter-theme option')].map(o => o.textContent))"
        " === JSON.stringify(wanted)",
        arg=wanted,
    )
    # The theme that is most common in all the games, as Ultimate counts it.
    common = max(own, key=lambda t: every[t["theme"]])
    assert common["count"] < every[common["theme"]]
    page.select_option("#filter-theme", common["theme"])
    page.wait_for_function("() => location.hash.includes('theme=')")
    page.wait_for_selector("#puzzle-info[data-id]")
    assert page.locator("#no-puzzle").count() == 0
    shown = page.locator("#puzzle-info").get_attribute("data-id")
    puzzle = httpx2.get(f"{server_url}/api/puzzles/{shown}").json()
    assert puzzle["spec"] == "ultimate" and common["theme"] in puzzle["themes"]
    assert page.locator("#filter-theme").input_value() == common["theme"]
    assert page.evaluate("document.scrollingElement.scrollWidth - innerWidth") <= 0
    page.wait_for_timeout(400)  # the page's fade-in; before axe, which replays it
    page.screenshot(path=str(SCREENSHOTS / f"puzzle-themes-{size}-{theme}.png"), full_page=True)
    assert serious_violations(page) == []
    tab.assert_clean()


def test_the_next_puzzle_comes_by_itself_at_the_difficulty_chosen_and_the_dashboard_counts_it(
    tab: Tab, server_url: str
) -> None:
    page = tab.page
    answer = page.request.post(
        f"{server_url}/api/online/signup", data={"name": f"dash{secrets.token_hex(3)}", "password": "correct horse"}
    )
    assert answer.status == 201, answer.text()
    puzzle = _puzzle(server_url, long=False)
    tab.open(f"#/puzzles?id={puzzle['id']}")
    page.wait_for_selector("#puzzle-auto-next")
    page.check("#puzzle-auto-next")
    with page.expect_request(lambda r: "/api/puzzles/next" in r.url) as chosen:
        page.select_option("#puzzle-difficulty-choice", "harder")  # before a move: a puzzle of that difficulty now
    assert "difficulty=harder" in chosen.value.url
    page.reload()  # the address still names the puzzle
    page.wait_for_selector(f"#puzzle-info[data-id='{puzzle['id']}']")
    assert page.locator("#puzzle-auto-next").is_checked()  # a preference: kept
    with page.expect_request(lambda r: "/api/puzzles/next" in r.url and "difficulty=harder" in r.url):
        page.click(f".cell[data-move='{puzzle['solution'][0]}']")
        page.wait_for_selector("#solved")
    page.wait_for_function(f"document.querySelector('#puzzle-info')?.dataset.id !== '{puzzle['id']}'")
    page.click("#mode-dashboard")
    page.wait_for_selector("#dashboard-total")
    assert page.locator("#dashboard-total").inner_text().startswith("you solved 1 of 1 (100%), +")
    assert page.locator("#dashboard-games tbody tr").inner_text().startswith(puzzle["title"])
    assert page.locator("#dashboard-themes tbody tr").count() == len(puzzle["themes"])
    assert serious_violations(page) == []
    tab.assert_clean()
