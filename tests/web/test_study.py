"""Study in a real browser: a finished game's review, the analysis board with its
variations shared by link, the engine's lines and the exact values of solved games."""

from __future__ import annotations

import re
from urllib.parse import parse_qs, urlsplit

import pytest

from web.browsing import DESKTOP, PHONE, SCREENSHOTS, Tab, axe_violations, serious_violations

FINISHED = "#/play?spec=classic&mode=local&moves=5,1,3,7,2,4"


def _query(url: str) -> dict[str, list[str]]:
    return parse_qs(urlsplit(urlsplit(url).fragment).query)


def test_a_finished_game_is_reviewed_with_its_blunder_the_better_move_and_a_retry(tab: Tab) -> None:
    tab.open(FINISHED)
    page = tab.page
    page.click("#review-game")
    page.wait_for_selector("#review .graph-box")
    blunder = page.locator(".tree-move[data-path='5,1,3,7,2']")
    assert "class-blunder" in (blunder.get_attribute("class") or "")
    assert blunder.inner_text().endswith("2??")
    assert page.locator(".tree-move.class-blunder").count() == 1
    assert page.locator("#review").inner_text().count("1 blunder") == 1
    blunder.click()
    note = page.locator("#review-note")
    note.wait_for()
    assert "X 2??: blunder." in note.inner_text()
    assert "Better: 4" in note.inner_text()
    retry = _query(page.locator("#retry").get_attribute("href") or "")
    assert retry["moves"] == ["5,1,3,7"] and retry["side"] == ["x"] and retry["mode"] == ["computer"]
    # The better line, played from the position before the blunder: a variation.
    note.locator(".line-move").nth(1).click()
    page.wait_for_selector(".variation .tree-move.current[data-path='5,1,3,7,4,6']")
    page.locator(".tree-move[data-path='5,1,3,7,2']").click()
    page.click("#show-better")
    # The position before the blunder, as lichess shows a better move: the better move
    # ringed, the blunder ringed with its "??", an arrow from one to the other; not the
    # engine's hint outline, and the note stays.
    page.wait_for_selector(".tree-move.current[data-path='5,1,3,7']")
    page.wait_for_selector(".move-marks .move-best[data-move='4']")
    assert page.locator(".move-marks .move-played[data-move='2']").count() == 1
    assert page.locator(".move-marks .move-glyph").text_content() == "??"
    assert page.locator(".move-marks [data-mark='arrow']").count() == 1
    assert page.locator(".cell.hint").count() == 0
    assert "X 2??: blunder." in page.locator("#review-note").inner_text()
    # The graph: a point is a position; a click there goes there (6 plies across it).
    graph = page.locator(".eval-graph")
    # Measured in the page once the graph is drawn: the review panel is drawn again as the
    # position's analysis arrives, and a measure between two drawings found no element, or
    # one not laid out yet (0 x 0, under a loaded suite).
    size = page.wait_for_function(
        """() => {
            const box = document.querySelector('.eval-graph')?.getBoundingClientRect();
            return box && box.width > 0 && box.height > 0 ? [box.width, box.height] : null;
        }"""
    )
    width, height = size.json_value()
    graph.click(position={"x": width * 2 / 6, "y": height / 2})
    page.wait_for_selector(".tree-move.current[data-path='5,1']")
    # ... and the keyboard: the focused point moves with the arrows.
    page.focus(".graph-key[data-ply='2']")
    page.keyboard.press("ArrowRight")
    page.wait_for_selector(".tree-move.current[data-path='5,1,3']")
    tab.assert_clean()


def test_a_variation_is_kept_and_shared_by_link(tab: Tab, browser: object, server_url: str) -> None:
    tab.open("#/analysis?spec=classic")
    page = tab.page
    page.click(".cell[data-move='5']")
    page.wait_for_selector(".tree-move.current[data-path='5']")
    page.click(".cell[data-move='1']")
    page.wait_for_selector(".tree-move.current[data-path='5,1']")
    page.click("#back")
    page.wait_for_selector(".tree-move.current[data-path='5']")
    page.click(".cell[data-move='2']")
    page.wait_for_selector(".variation .tree-move.current[data-path='5,2']")
    query = _query(page.url)
    assert query["tree"] == ["5,1(2)"] and query["at"] == ["5,2"]
    assert page.locator("#share-link").input_value() == page.url
    # Another tab, the link: the same tree, the same position.
    shared = page.context.new_page()
    shared.goto(page.url)
    shared.wait_for_selector(".variation .tree-move.current[data-path='5,2']")
    assert shared.locator(".tree-move[data-path='5,1']").count() == 1
    assert shared.locator(".cell.has-o").count() == 1
    # Make the variation the main line, then delete it.
    shared.click("#promote")
    shared.wait_for_function("() => location.hash.includes('tree=5%2C2%281%29')")
    shared.click("#delete")
    shared.wait_for_selector(".tree-move.current[data-path='5']")
    assert shared.locator(".tree-move[data-path='5,2']").count() == 0
    shared.close()
    tab.assert_clean()


def test_the_exact_values_of_a_solved_game_beside_the_board(tab: Tab) -> None:
    tab.open("#/analysis?spec=classic&tree=5")
    page = tab.page
    page.wait_for_selector("#tablebase:not([hidden]) .exact-move")
    moves = page.locator("#tablebase .exact-move")
    assert moves.count() == 8
    values = {moves.nth(i).get_attribute("data-move"): moves.nth(i).inner_text() for i in range(8)}
    assert all(values[corner].endswith("draw") for corner in "1379")
    assert all("loss in" in values[edge] for edge in "2468")
    assert page.locator("#verdict").inner_text() == "A draw with best play"
    page.click("#tablebase .exact-move[data-move='2']")
    page.wait_for_selector(".tree-move.current[data-path='5,2']")
    page.wait_for_function("() => document.querySelector('#verdict')?.textContent.startsWith('X wins in')")
    tab.assert_clean()


def test_gobblets_opening_is_exact_before_its_table_is_built(tab: Tab) -> None:
    """The test server's cache folder has no gobblet table: what ships (the opening book's
    move and the strategy after it) proves x's win in 13 through `L1` and plays it to the
    end, so the verdict and that move's line are exact; the other first moves, which
    nothing shipped can play out, are estimates, and the panel of every move's exact value stays hidden (issue 56:
    no exact claim the computer cannot keep)."""
    tab.open("#/analysis?spec=gobblet")
    page = tab.page
    # Distances in the winner's own moves, as players count them: 13 plies are 7 of x's moves.
    page.wait_for_function("() => document.querySelector('#verdict')?.textContent === 'X wins in 7 moves'")
    proven = page.locator(".engine-line .line-value.value-win")
    page.wait_for_selector(".engine-line .line-value.value-win")
    assert proven.count() == 1 and proven.inner_text() == "win in 7 moves"  # L1's line, first
    assert page.locator("#tablebase").is_hidden()
    tab.assert_clean()


def test_qubics_proof_is_shown_as_a_bound_not_a_distance(tab: Tab) -> None:
    """The shipped proof wins for x from the start in at most 64 plies, not in 64: the
    verdict and the proof move's line say "at most", with a tooltip saying why."""
    tab.open("#/analysis?spec=qubic")
    page = tab.page
    # The server's thinking process may still be loading the compiled engine (a minute
    # on a busy machine) when this test comes first.
    page.wait_for_function(
        "() => document.querySelector('#verdict')?.textContent.startsWith('X wins')", timeout=120_000
    )
    assert page.locator("#verdict").inner_text() == "X wins in at most 32 moves"
    first = page.locator("#engine-lines li .line-value").first
    assert first.inner_text() == "win in at most 32 moves"
    assert "value-bound" in (first.get_attribute("class") or "")
    assert "quicker win may exist" in (first.get_attribute("title") or "")
    tab.assert_clean()


def test_the_hint_in_a_solved_game_lists_every_moves_exact_value(tab: Tab) -> None:
    tab.open("#/play?spec=classic&mode=local&moves=5")
    page = tab.page
    page.wait_for_selector(".cell.playable")
    page.click("#hint")
    page.wait_for_selector(".hint-moves.exact-values li")
    assert page.locator(".hint-moves li").count() == 8
    assert "draw" in page.locator(".hint-moves").inner_text()
    tab.assert_clean()


def test_the_engine_shows_its_top_lines_as_chances(tab: Tab) -> None:
    tab.open("#/analysis?spec=ultimate&tree=55")
    page = tab.page
    page.wait_for_selector("#engine-lines li:nth-child(3) .line-move")
    lines = page.locator("#engine-lines li")
    assert lines.count() == 3
    first = lines.nth(0).inner_text()
    assert "%" in first and "55" not in first.split()[:1]
    verdict = page.locator("#verdict").inner_text()
    assert verdict.startswith("O to move: ") and verdict.endswith("(an estimate) · the strongest level (max)")
    # The first move of the second line, played from the panel: read and clicked in one
    # step, since the engine's deepening redraws the lines meanwhile (under load, between
    # a read and a click, the second line can become another move).
    second = page.evaluate(
        """() => {
            const move = document.querySelectorAll('#engine-lines li')[1].querySelector('.line-move');
            move.click();
            return move.textContent.trim();
        }"""
    )
    page.wait_for_selector(f".tree-move.current[data-path='55,{second}']")
    tab.assert_clean()


def test_a_pasted_record_opens_on_the_board(tab: Tab) -> None:
    tab.open("#/analysis?spec=classic")
    page = tab.page
    page.wait_for_selector(".cell.playable")
    page.click(".load summary")
    page.fill("#load-text", '[Game "mnk"]\n[Options "m=4 n=4 k=3"]\n[Result "ongoing"]\n\n1. 6 11 *\n')
    page.click("#load")
    page.wait_for_selector(".tree-move.current[data-path='6,11']")
    assert _query(page.url)["spec"] == ["mnk:m=4:n=4:k=3"]
    assert page.locator(".cell").count() == 16
    page.fill("#load-text", '[Game "classic"]\n\n1. 5 5 *\n')
    page.click("#load")
    page.wait_for_selector("#toast.error")
    assert page.locator(".cell").count() == 16  # nothing changed
    tab.assert_clean(refused=1)


@pytest.mark.parametrize(("size", "theme"), [("desktop", "light"), ("phone", "dark")])
def test_the_analysis_board_chooses_its_game_from_the_catalogue(make_tab: object, size: str, theme: str) -> None:
    """The header's Analysis opens tic-tac-toe with a choice of game beside the title:
    every game of the server's catalogue, once, as the home page lists them; another
    one opens its board, and Back returns to the one before."""
    tab = make_tab(DESKTOP if size == "desktop" else PHONE, theme)  # type: ignore[operator]
    page = tab.page
    tab.open("#/")
    page.wait_for_selector(".quick-tiles")
    if size == "phone":
        page.click("#menu-toggle")
    page.click("#nav-analysis")
    page.wait_for_selector(".cell.playable")
    picker = page.locator("#analysis-game")
    catalogue = page.evaluate("fetch('/api/games').then(r => r.json()).then(c => c.games.map(g => [g.key, g.title]))")
    options = picker.locator("option").evaluate_all("os => os.map(o => [o.value, o.textContent])")
    assert options == catalogue and len(options) >= 8
    assert picker.input_value() == "classic"
    assert page.locator("label[for='analysis-game']").inner_text().startswith("Game")
    assert page.evaluate("document.scrollingElement.scrollWidth - innerWidth") <= 0
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.wait_for_timeout(400)  # the page's fade-in; before axe, which replays it
    page.screenshot(path=str(SCREENSHOTS / f"analysis-picker-{size}-{theme}.png"), full_page=True)
    assert serious_violations(page) == []
    page.locator(".cell[data-move='5']").click()
    page.wait_for_selector(".tree-move.current[data-path='5']")
    picker.select_option("ultimate")
    page.wait_for_selector(".local .cell.playable")
    assert _query(page.url)["spec"] == ["ultimate"]
    assert page.locator("h1").inner_text() == "Analysis · Ultimate tic-tac-toe"
    assert page.locator("#analysis-game").input_value() == "ultimate"
    page.go_back()  # the tic-tac-toe analysis as it was
    page.wait_for_selector(".tree-move.current[data-path='5']")
    assert page.locator("#analysis-game").input_value() == "classic"
    # A record of another game loaded here: the choice follows it.
    page.click(".load summary")
    page.fill("#load-text", '[Game "connect4"]\n\n1. 4 4 *\n')
    page.click("#load")
    page.wait_for_function("() => document.querySelector('#analysis-game').value === 'connect4'")
    tab.assert_clean()


def test_a_review_shows_its_progress_then_the_review(tab: Tab) -> None:
    """The review is computed on the server while the page asks how far it has got (a
    line of its own: a review kept by another test would be there at once)."""
    moves = "55,51,15,59,95,53,35,58,85,57,75,19"
    tab.open(f"#/analysis?spec=ultimate&tree={moves}&review=1")
    page = tab.page
    status = page.locator("#review-status")
    page.wait_for_function(
        "() => /^Computing: \\d+ of 13 positions done/.test(document.querySelector('#review-status')?.textContent)"
    )
    assert page.locator("#review-progress").get_attribute("max") == "13"
    page.wait_for_selector("#review .graph-box", timeout=120_000)
    assert status.count() == 0 and page.locator("#review-progress").count() == 0
    assert page.locator("#review .review-side").count() == 2
    # Opened again: the kept review, without computing.
    tab.open(f"#/analysis?spec=ultimate&tree={moves}&at=55&review=1")
    page.wait_for_selector("#review .graph-box", timeout=5_000)
    tab.assert_clean()


# Pictures to look at, made by make test-slow (CI keeps them); tests/web/test_pages.py
# takes the pages' screenshots in make test.
@pytest.mark.slow
@pytest.mark.parametrize(("size", "theme"), [(DESKTOP, "light"), (PHONE, "dark")])
def test_screenshots_of_the_reviewed_analysis_board(make_tab: object, size: dict[str, int], theme: str) -> None:
    tab = make_tab(size, theme)  # type: ignore[operator]
    tab.open("#/analysis?spec=ultimate&tree=55,51,15,59,95,53,35,58&at=55,51,15&review=1")
    tab.page.wait_for_selector("#review .graph-box")
    tab.page.wait_for_selector("#engine-lines li")
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    name = f"analysis-{'phone' if size == PHONE else 'desktop'}-{theme}.png"
    tab.page.screenshot(path=str(SCREENSHOTS / name), full_page=True)
    assert (SCREENSHOTS / name).stat().st_size > 10_000
    tab.assert_clean()


# The proof's bound on the analysis board, to look at: desktop and phone, light and dark.
@pytest.mark.slow
@pytest.mark.parametrize("size", [DESKTOP, PHONE])
@pytest.mark.parametrize("theme", ["light", "dark"])
def test_screenshots_of_a_bound_on_the_analysis_board(make_tab: object, size: dict[str, int], theme: str) -> None:
    tab = make_tab(size, theme)  # type: ignore[operator]
    tab.open("#/analysis?spec=qubic&tree=111,222")
    tab.page.wait_for_function(
        "() => document.querySelector('#verdict')?.textContent.includes('at most')", timeout=120_000
    )
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    name = f"analysis-bound-{'phone' if size == PHONE else 'desktop'}-{theme}.png"
    tab.page.screenshot(path=str(SCREENSHOTS / name), full_page=True)
    assert (SCREENSHOTS / name).stat().st_size > 10_000
    tab.assert_clean()


# Light in make test; dark (the same page, other colours) in make test-slow.
@pytest.mark.parametrize("theme", ["light", pytest.param("dark", marks=pytest.mark.slow)])
def test_the_analysis_board_has_no_serious_accessibility_violation(make_tab: object, theme: str) -> None:
    """axe-core in the page over the reviewed board with its engine lines and the exact
    values of a solved game."""
    tab = make_tab(DESKTOP, theme)  # type: ignore[operator]
    found = {}
    for route, ready in [
        ("#/analysis?spec=classic&tree=5,1,3,7,2,4&at=5,1,3,7,2&review=1", "#review-note"),
        ("#/analysis?spec=classic&tree=5", "#tablebase .exact-move"),
        ("#/analysis?spec=ultimate&tree=55,51", "#engine-lines li"),
    ]:
        tab.open(route)
        tab.page.wait_for_selector(ready)
        violations = serious_violations(tab.page)
        if violations:
            found[route] = violations
    assert not found, found


def test_retry_from_a_set_up_position_keeps_it(tab: Tab) -> None:
    """A game from a set-up position (what "Retry from here" opens when the analysed
    game did not start from the usual one) is played from it and survives a reload."""
    tab.open("#/play?spec=classic&mode=local&start=x.o%2F...%2F...%20x&moves=5")
    page = tab.page
    page.wait_for_selector(".cell.has-x[data-cell='4']")
    assert (page.locator(".cell.has-x").count(), page.locator(".cell.has-o").count()) == (2, 1)
    page.reload()
    page.wait_for_selector(".cell.has-x[data-cell='4']")
    assert (page.locator(".cell.has-x").count(), page.locator(".cell.has-o").count()) == (2, 1)
    assert _query(page.url)["start"] == ["x.o/.../... x"]
    tab.assert_clean()


@pytest.mark.parametrize("theme", ["light", pytest.param("dark", marks=pytest.mark.slow)])
def test_the_analysis_board_with_variations_has_no_accessibility_violation(make_tab: object, theme: str) -> None:
    """With variations entered, the move tree is a list of items whose variations are
    lists inside items: axe finds nothing, of any impact, on the whole page."""
    tab = make_tab(DESKTOP, theme)  # type: ignore[operator]
    tab.open("#/analysis?spec=classic&tree=5,1(2,3(9,8)),3,7&at=5,2,3")
    page = tab.page
    page.wait_for_selector(".variation .variation .tree-move[data-path='5,2,9']")
    page.wait_for_selector("#tablebase .exact-move")
    assert axe_violations(page) == []
    tab.assert_clean()


def test_deepening_never_replaces_the_board_under_the_pointer(tab: Tab) -> None:
    """The engine's lines arrive four times as it deepens; the board is redrawn each time
    in place, so a cell found before is the cell clicked after."""
    tab.open("#/analysis?spec=ultimate&tree=55")
    page = tab.page
    page.wait_for_selector(".cell.playable")
    page.evaluate(
        """() => {
            window.removedCells = 0;
            new MutationObserver((records) => {
                for (const r of records)
                    for (const n of r.removedNodes)
                        if (n.nodeType === 1 && (n.matches('.cell') || n.querySelector('.cell'))) window.removedCells++;
            }).observe(document.querySelector('.board-box'), {childList: true, subtree: true});
        }"""
    )
    answers: list[str] = []
    page.on("response", lambda r: r.url.endswith("/api/analysis") and answers.append(r.url))
    cell = page.locator(".cell.playable").first.element_handle()
    move = cell.get_attribute("data-move")
    for _ in range(600):  # the engine answers three more times as it deepens
        if len(answers) >= 3:
            break
        page.wait_for_timeout(100)
    assert len(answers) >= 3
    page.wait_for_timeout(200)  # the last answer drawn
    assert page.evaluate("() => window.removedCells") == 0
    assert cell.evaluate("e => e.isConnected")
    cell.click()
    page.wait_for_selector(f".tree-move.current[data-path='55,{move}']")
    tab.assert_clean()


@pytest.mark.slow  # a detail of a page make test covers; with the exhaustive checks (make test-slow)
def test_engine_and_review_details_stay_behind_a_toggle(tab: Tab) -> None:
    """Players read levels and plain words; the engine's settings, nodes and the
    reviewer's name are there for who opens "Details"."""
    tab.open("#/analysis?spec=ultimate&tree=55,51,15,59,95,53,35,58&at=55,51,15&review=1")
    page = tab.page
    page.wait_for_selector("#review .graph-box", timeout=120_000)
    page.wait_for_selector("#engine-lines li")
    visible = page.locator("body").evaluate(
        "e => { const c = e.cloneNode(true); c.querySelectorAll('details, script').forEach(d => d.remove());"
        " return c.textContent; }"
    )
    for jargon in (r"kmcts", r"alphabeta", r"\bnodes\b", r"\bply\b", r"\bplies\b", r"by max"):
        assert not re.search(jargon, visible), jargon
    page.click("#review .engine-details summary")
    assert page.locator("#review .engine-details p").inner_text().startswith("Reviewed by max (")
    page.click(".engine .engine-details summary")
    assert "nodes" in page.locator("#engine-info").inner_text()
    tab.assert_clean()


def test_the_gomoku_analysis_board_fits_a_phone(make_tab: object) -> None:
    """Gomoku's analysis board on a phone: named Gomoku, its sides Black and White, and
    nothing wider than the screen (the panel's widest row once pushed the board past it)."""
    tab = make_tab(PHONE, "dark")  # type: ignore[operator]
    tab.open("#/analysis?spec=mnk:m=15:n=15:k=5&tree=h8,g7,i9")
    page = tab.page
    page.wait_for_selector("#engine-lines li")
    assert page.locator(".game-head h1").inner_text() == "Analysis · Gomoku"
    assert page.locator("#status").inner_text() == "White to move · move 4"
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    tab.assert_clean()


def test_learn_from_your_mistakes_then_continue_from_here(tab: Tab) -> None:
    """The reviewed game's one blunder (x's 2, where 4 draws): the board goes back before
    it with the engine out of sight, a move no better is refused and stays off the tree,
    the better one is accepted and kept, and the summary counts it; then the position
    is played on against the computer at the level and side chosen."""
    tab.open("#/analysis?spec=classic&tree=5,1,3,7,2,4&review=1&side=x")
    page = tab.page
    page.click("#learn-x")
    page.wait_for_selector(".tree-move.current[data-path='5,1,3,7']")
    assert serious_violations(page) == []
    assert "X played 2, a blunder. Find a better move for X." in page.locator("#lesson-task").inner_text()
    assert page.locator("#lesson-counter").inner_text() == "Mistake 1 of 1"
    assert not page.locator("#engine-lines").is_visible() and not page.locator("#review").is_visible()
    page.click(".cell[data-move='9']")
    page.wait_for_selector("#lesson-feedback:has-text('no better')")
    assert page.locator(".tree-move[data-path='5,1,3,7,9']").count() == 0
    page.click(".cell[data-move='4']")
    page.wait_for_selector("#lesson-feedback:has-text('Well done: 4 is the best move (draw)')")
    page.wait_for_selector(".variation .tree-move.current[data-path='5,1,3,7,4']")
    page.click("#lesson-next")
    assert page.locator("#lesson-summary").inner_text() == "You found 1 of 1 better move (0 shown, 0 skipped)."
    assert serious_violations(page) == []
    page.click("#lesson-close")
    page.locator("#continue summary").click()
    page.select_option("#continue-level", "easy")
    page.select_option("#continue-side", "o")
    link = _query(page.locator("#continue-computer").get_attribute("href") or "")
    assert (link["moves"], link["side"], link["level"], link["mode"]) == (["5,1,3,7,4"], ["o"], ["easy"], ["computer"])
    page.click("#continue-computer")
    page.wait_for_selector(".cell.has-x[data-cell='4']")
    tab.assert_clean()


def test_the_board_editor_sets_up_a_position_the_parser_checks_then_analyses_it(tab: Tab) -> None:
    """Marks put down by clicking (Forget mode: their ages in the order put down), the
    game's own parser's message while the position is not one, then the analysis board
    and a game against the computer from it."""
    tab.open("#/editor?spec=classic:forget=true")
    page = tab.page
    page.wait_for_selector(".editor-cell[data-cell='8']")
    page.click(".editor-cell[data-cell='4']")
    page.wait_for_selector("#editor-verdict.error")
    assert "x moves first" in page.locator("#editor-verdict").inner_text()
    assert page.locator("#editor-analyse").get_attribute("aria-disabled") == "true"
    page.click("#piece-o")
    page.click(".editor-cell[data-cell='0']")
    page.click("#piece-x")
    page.click(".editor-cell[data-cell='8']")
    assert page.locator("#editor-text").input_value() == "o../.x./..x x x=5,9 o=1"
    assert page.locator(".editor-cell[data-cell='8']").get_attribute("aria-label") == "9: X, age 2"
    page.select_option("#editor-turn", "o")
    page.wait_for_selector("#editor-verdict:has-text('A legal position, O to move.')")
    assert serious_violations(page) == []
    play = _query(page.locator("#editor-play").get_attribute("href") or "")
    assert (play["start"], play["side"], play["mode"]) == (["o../.x./..x o x=5,9 o=1"], ["o"], ["computer"])
    page.click("#editor-analyse")
    page.wait_for_selector("#status:has-text('O to move')")
    assert _query(page.url)["start"] == ["o../.x./..x o x=5,9 o=1"]
    assert page.locator(".cell.has-x").count() == 2
    tab.assert_clean(refused=1)  # the one position the parser refused
