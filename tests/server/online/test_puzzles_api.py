"""The puzzle routes over HTTP on a real server (SQLite and PostgreSQL): choosing,
solving move by move (the stored line at once, other moves judged by the prover),
attempts counted once, the profile, streaks and the daily puzzle."""

from __future__ import annotations

import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from sqlalchemy import insert

from noughts.registry import parse_spec
from noughts.server.online.storage.puzzles import PuzzleBook
from noughts.server.online.storage.store import Store
from noughts.server.online.storage.tables import PuzzleDaily
from noughts.study.answer_keys import answer_key
from noughts.study.puzzles import Puzzle, mine, shipped
from server.online.people import Person
from server.online.shared import database_url, server
from server.online.test_play import alternate, start

NOW = 1_800_000_000_000

# One server for the module (server/online/shared.py): each test with people of its own.
__all__ = ["database_url", "server"]  # fixtures


@pytest.fixture
def puzzles(database_url: str, server: str) -> list[Puzzle]:
    """Classic puzzles (proved by its exact table) added to the server's database."""
    found = list(mine(parse_spec("classic"), 4, seed=11))
    store = Store(database_url)
    PuzzleBook(store).add(found, NOW)
    store.close()
    return found


def _long(found: list[Puzzle]) -> Puzzle:
    """A puzzle of more than one move of the solver's."""
    return next(p for p in found if len(p.solution) >= 3)


def test_a_visitor_solves_a_puzzle_move_by_move(people: Callable[[], Person], puzzles: list[Puzzle]) -> None:
    visitor = people()
    catalogue = visitor.http.get("/api/puzzles").json()
    assert any(g["spec"] == "classic" and g["count"] >= 1 for g in catalogue["games"])
    assert catalogue["themes"] and catalogue["total"] >= len(puzzles)
    chosen = visitor.http.get("/api/puzzles/next", params={"spec": "classic"}).json()
    assert chosen["spec"] == "classic" and chosen["title"]
    puzzle = _long(puzzles)
    shown = visitor.http.get(f"/api/puzzles/{puzzle.id}").json()
    assert shown["solution"] == puzzle.solution and shown["position"] == puzzle.position

    played: list[str] = []
    for ply in range(0, len(puzzle.solution), 2):
        played.append(puzzle.solution[ply])
        answer = visitor.http.post(f"/api/puzzles/{puzzle.id}/check", json={"moves": played}).json()
        assert answer["correct"]
        last = ply + 1 >= len(puzzle.solution)
        assert answer["solved"] == last
        assert answer["reply"] == (None if last else puzzle.solution[ply + 1])
        if answer["reply"]:
            played.append(answer["reply"])


def test_a_wrong_move_is_refuted_and_bad_moves_refused(people: Callable[[], Person], puzzles: list[Puzzle]) -> None:
    visitor = people()
    puzzle = puzzles[0]
    state = parse_spec(puzzle.spec).parse_position(puzzle.position)
    wrong = next(state.move_text(m) for m in state.legal_moves() if state.move_text(m) != puzzle.solution[0])
    answer = visitor.http.post(f"/api/puzzles/{puzzle.id}/check", json={"moves": [wrong]})
    assert answer.status_code == 200, answer.text
    refuted = answer.json()
    assert not refuted["correct"] and not refuted["solved"]
    if not state.play_text(wrong).is_over:
        assert refuted["reply"] and refuted["refutation"][0] == refuted["reply"] and refuted["verdict"]

    occupied = next(
        str(cell) for cell in range(1, 10) if str(cell) not in {state.move_text(m) for m in state.legal_moves()}
    )
    bad = visitor.http.post(f"/api/puzzles/{puzzle.id}/check", json={"moves": [occupied]})
    assert bad.status_code == 400 and bad.json()["field"] == "moves[0]"
    two = visitor.http.post(f"/api/puzzles/{puzzle.id}/check", json={"moves": puzzle.solution[:2]})
    assert two.status_code == 409 and two.json()["error"] == "not-your-turn"
    assert visitor.http.get("/api/puzzles/zzzzzzzz").status_code == 404
    assert visitor.http.post("/api/puzzles/zzzzzzzz/check", json={"moves": ["5"]}).json()["error"] == "no-such-puzzle"
    assert visitor.http.get("/api/puzzles/next", params={"theme": "no such theme"}).json()["error"] == "no-puzzle-left"


def test_gobblet_puzzles_are_offered_and_judged_without_the_table(people: Callable[[], Person]) -> None:
    """The test server has no gobblet table (its cache folder is the tests'): the shipped
    answer keys judge a move off the stored line, so its puzzles are offered too."""
    visitor = people()
    catalogue = visitor.http.get("/api/puzzles").json()
    assert any(g["spec"] == "gobblet" and g["count"] >= 30 for g in catalogue["games"])
    puzzle = next(p for p in shipped() if p.spec == "gobblet" and p.plies >= 3)
    state = parse_spec(puzzle.spec).parse_position(puzzle.position)
    wrong = next(state.move_text(m) for m in state.legal_moves() if state.move_text(m) != puzzle.solution[0])
    refuted = visitor.http.post(f"/api/puzzles/{puzzle.id}/check", json={"moves": [wrong]}).json()
    assert not refuted["correct"] and refuted["verdict"]
    if not state.play_text(wrong).is_over:  # the refutation to play on the board, from the key
        assert refuted["refutation"] and refuted["reply"] == refuted["refutation"][0]
    offered = visitor.http.get("/api/puzzles/next", params={"spec": "gobblet"}).json()
    assert offered["spec"] == "gobblet"
    run = visitor.http.get("/api/puzzles/streak", params={"spec": "gobblet", "seed": 1}).json()
    assert run["puzzles"] and all(p["spec"] == "gobblet" for p in run["puzzles"])
    after = state.play_text(puzzle.solution[0])
    other = next(m for m in after.legal_moves() if after.move_text(m) != puzzle.solution[1])
    third = after.play(other).legal_moves()[0]
    moves = [puzzle.solution[0], after.move_text(other), after.play(other).move_text(third)]
    strayed = visitor.http.post(f"/api/puzzles/{puzzle.id}/check", json={"moves": moves})
    assert strayed.status_code == 409 and strayed.json()["error"] == "not-the-reply"


def test_a_gobblet_daily_puzzle_is_judged_without_the_table(people: Callable[[], Person], database_url: str) -> None:
    """The test server has no gobblet table: when the day's puzzle is a gobblet one (as
    the first to ask may have drawn it: set here), it is offered, and moves off its
    stored line are judged from its answer key, a wrong one and another winning one."""
    if not database_url.startswith("sqlite"):
        pytest.skip("on PostgreSQL the tests share one database, and the day's puzzle with it")
    puzzle, other = next(
        (p, m)
        for p in shipped()
        if p.spec == "gobblet" and p.plies >= 3
        for m, entry in (answer_key(p) or {}).get(p.solution[0], {}).get("next", {}).items()
        if "value" not in entry and m != p.solution[2]
    )
    now = datetime.now(UTC)
    store = Store(database_url)
    with store.engine.begin() as c:
        for day in (now, now + timedelta(days=1)):  # midnight may pass meanwhile
            c.execute(insert(PuzzleDaily).values(day=day.strftime("%Y-%m-%d"), puzzle_id=puzzle.id))
    store.close()
    visitor = people()
    daily = visitor.http.get("/api/puzzles/daily").json()["puzzle"]
    assert (daily["id"], daily["spec"]) == (puzzle.id, "gobblet")
    state = parse_spec(puzzle.spec).parse_position(puzzle.position)
    wrong = next(state.move_text(m) for m in state.legal_moves() if state.move_text(m) != puzzle.solution[0])
    refuted = visitor.http.post(f"/api/puzzles/{puzzle.id}/check", json={"moves": [wrong]})
    assert refuted.status_code == 200, refuted.text
    assert not refuted.json()["correct"] and refuted.json()["verdict"]
    moves = [*puzzle.solution[:2], other]
    accepted = visitor.http.post(f"/api/puzzles/{puzzle.id}/check", json={"moves": moves})
    assert accepted.status_code == 200, accepted.text
    assert accepted.json()["correct"]


@pytest.mark.both_databases
def test_attempts_count_once_and_make_a_history(people: Callable[[], Person], puzzles: list[Puzzle]) -> None:
    visitor = people()
    puzzle = puzzles[0]
    assert visitor.http.post(f"/api/puzzles/{puzzle.id}/attempt", json={"solved": True}).status_code == 401
    assert visitor.http.get("/api/puzzles/me").status_code == 401
    ann = people().sign_up()
    before = ann.http.get(f"/api/puzzles/{puzzle.id}").json()
    first = ann.http.post(f"/api/puzzles/{puzzle.id}/attempt", json={"solved": True}).json()
    assert first["first"] and first["rating_before"] == 1500 and first["rating_after"] > 1500
    assert first["puzzle_rating_before"] == before["rating"] and first["puzzle_rating_after"] < before["rating"]
    again = ann.http.post(f"/api/puzzles/{puzzle.id}/attempt", json={"solved": False}).json()
    assert not again["first"] and again["solved"] and again["rating_after"] == first["rating_after"]
    profile: dict[str, Any] = ann.http.get("/api/puzzles/me").json()
    assert profile["rating"]["rating"] == first["rating_after"] and profile["rating"]["provisional"]
    assert (profile["rating"]["attempts"], profile["rating"]["solved"]) == (1, 1)
    assert [h["puzzle"]["id"] for h in profile["history"]] == [puzzle.id]
    # The next puzzle is never one already tried.
    for _ in range(5):
        assert ann.http.get("/api/puzzles/next", params={"spec": "classic"}).json().get("id") != puzzle.id


def test_streaks_and_the_daily_puzzle(people: Callable[[], Person], puzzles: list[Puzzle]) -> None:
    ann, bob = people().sign_up(), people()
    run = ann.http.get("/api/puzzles/streak", params={"spec": "classic", "seed": 5}).json()
    ratings = [p["rating"] for p in run["puzzles"]]
    assert run["seed"] == 5 and ratings == sorted(ratings) and len(ratings) >= 2
    assert ann.http.post("/api/puzzles/streak", json={"score": 3}).json() == {"best_streak": 3}
    assert ann.http.post("/api/puzzles/streak", json={"score": 1}).json() == {"best_streak": 3}
    assert ann.http.post("/api/puzzles/streak", json={"score": -1}).status_code == 422
    assert bob.http.post("/api/puzzles/streak", json={"score": 1}).status_code == 401
    assert ann.http.get("/api/puzzles/me").json()["rating"]["best_streak"] == 3
    daily = ann.http.get("/api/puzzles/daily").json()
    assert daily == bob.http.get("/api/puzzles/daily").json()
    assert len(daily["day"]) == 10 and daily["puzzle"]["id"]


def test_a_finished_games_puzzles_are_offered_to_its_players(people: Callable[[], Person]) -> None:
    ann, bob, game_id, a, b = start(people)
    moves = ["2", "9", "8", "4", "1", "3", "5"]  # x wins; the positions after 2 plies, 3 and 6 are puzzles
    alternate(a, b, *moves)
    found: list[dict[str, Any]] = []
    deadline = time.monotonic() + 60
    while not found and time.monotonic() < deadline:
        time.sleep(0.3)  # the search runs in the worker pool after the game's end
        found = bob.http.get("/api/puzzles/yours").json()
    assert found, "no puzzle was found in the game"
    assert all(p["origin_game"] == game_id for p in found)
    states = [parse_spec("classic").initial()]
    for move in moves:
        states.append(states[-1].play_text(move))
    assert {p["position"] for p in found} == {states[ply].to_text() for ply in (2, 3, 6)}
    assert ann.http.get("/api/puzzles/yours").json() == found  # both players'
    assert people().http.get("/api/puzzles/yours").status_code == 401
    # Tried, it is no longer offered.
    bob.http.post(f"/api/puzzles/{found[0]['id']}/attempt", json={"solved": True})
    assert found[0]["id"] not in {p["id"] for p in bob.http.get("/api/puzzles/yours").json()}


def test_game_titles_name_the_board_not_the_spec() -> None:
    """Lists (puzzle filters, lobbies, profiles) read "Gomoku 15×15", not the spec's
    options; Forget mode is named; other games keep their name and options."""
    from noughts.registry import title

    assert title("mnk:m=15:n=15:k=5") == "Gomoku 15×15"
    assert title("mnk:m=7:n=7:k=4") == "m,n,k-game 7×7, 4 in a row"
    assert title("ultimate:forget=true") == "Ultimate tic-tac-toe, Forget mode"
    assert title("gobblet:sizes=2") == "Gobblet Gobblers (sizes=2)"


def test_a_private_games_puzzles_do_not_name_it(people: Callable[[], Person]) -> None:
    """Puzzles found in a private game are everyone's, but name no game (a private game
    is reachable through its invite link only); its players still find them as theirs."""
    ann, bob, game_id, a, b = start(people, private=True)
    # The game above mirrored (puzzles after 2, 3 and 6 plies): positions of its own, since
    # a puzzle is stored once, with the game it was first found in.
    alternate(a, b, "2", "7", "8", "6", "3", "1", "5")
    found: list[dict[str, Any]] = []
    deadline = time.monotonic() + 60
    while not found and time.monotonic() < deadline:
        time.sleep(0.3)
        found = bob.http.get("/api/puzzles/yours").json()
    assert len(found) == 3, "no puzzle was found in the game"
    stranger = people()
    for puzzle in found:
        for shown in (puzzle, stranger.http.get(f"/api/puzzles/{puzzle['id']}").json()):
            assert shown["origin_game"] is None and game_id not in shown["source"]
    assert {p["id"] for p in ann.http.get("/api/puzzles/yours").json()} == {p["id"] for p in found}


def test_the_themes_are_the_chosen_games_with_its_own_counts(people: Callable[[], Person]) -> None:
    """`GET /api/puzzles?spec=` counts the themes in that game's puzzles: Ultimate's
    filter offers Ultimate's themes with Ultimate's counts, and each one it offers has a
    puzzle to give (the page offered every game's "tempo (317)" and then found none)."""
    visitor = people()
    everything = visitor.http.get("/api/puzzles").json()
    answer = visitor.http.get("/api/puzzles", params={"spec": "ultimate"})
    assert answer.status_code == 200, answer.text
    ultimate = answer.json()
    assert ultimate["games"] == everything["games"] and ultimate["total"] == everything["total"]
    expected: dict[str, int] = {}
    for puzzle in shipped():
        if puzzle.spec == "ultimate":
            for theme in puzzle.themes:
                expected[theme] = expected.get(theme, 0) + 1
    assert {t["theme"]: t["count"] for t in ultimate["themes"]} == expected
    overall = {t["theme"]: t["count"] for t in everything["themes"]}
    assert any(overall[theme] > count for theme, count in expected.items())  # not every game's counts
    for theme in expected:
        chosen = visitor.http.get("/api/puzzles/next", params={"spec": "ultimate", "theme": theme})
        assert chosen.status_code == 200, (theme, chosen.text)
        assert chosen.json()["spec"] == "ultimate" and theme in chosen.json()["themes"]
    # A game with no puzzles has no themes.
    assert visitor.http.get("/api/puzzles", params={"spec": "mnk:m=7:n=7:k=4"}).json()["themes"] == []


def test_the_dashboard_tallies_a_players_attempts_by_game_and_theme(
    people: Callable[[], Person], puzzles: list[Puzzle]
) -> None:
    visitor, ann = people(), people().sign_up()
    assert visitor.http.get("/api/puzzles/dashboard").status_code == 401
    empty = ann.http.get("/api/puzzles/dashboard").json()
    assert (empty["days"], empty["total"], empty["games"], empty["themes"]) == (
        30,
        {"attempts": 0, "solved": 0, "rating_change": 0},
        [],
        [],
    )
    won = ann.http.post(f"/api/puzzles/{puzzles[0].id}/attempt", json={"solved": True}).json()
    lost = ann.http.post(f"/api/puzzles/{puzzles[1].id}/attempt", json={"solved": False}).json()
    change = won["rating_after"] - won["rating_before"] + lost["rating_after"] - lost["rating_before"]
    board = ann.http.get("/api/puzzles/dashboard", params={"days": 7}).json()
    assert board["total"]["attempts"] == 2 and board["total"]["solved"] == 1
    assert abs(board["total"]["rating_change"] - change) <= 1  # each attempt's rounded apart
    assert [(g["spec"], g["title"], g["attempts"], g["solved"]) for g in board["games"]] == [
        ("classic", "Tic-tac-toe", 2, 1)
    ]
    expected: dict[str, list[int]] = {}
    for puzzle, solved in ((puzzles[0], 1), (puzzles[1], 0)):
        for theme in puzzle.themes:
            expected.setdefault(theme, [0, 0])
            expected[theme] = [expected[theme][0] + 1, expected[theme][1] + solved]
    assert {t["theme"]: [t["attempts"], t["solved"]] for t in board["themes"]} == expected
    assert board["rating"]["attempts"] == 2
    for days in (0, 366, "week"):
        refused = ann.http.get("/api/puzzles/dashboard", params={"days": days})
        assert refused.status_code == 422 and refused.json()["field"] == "query.days"


def test_a_harder_puzzle_is_chosen_above_the_rating_and_an_easier_below(people: Callable[[], Person]) -> None:
    visitor = people()

    def chosen(difficulty: str) -> int:
        params = {"spec": "classic:forget=true", "rating": 1500, "difficulty": difficulty}
        answer = visitor.http.get("/api/puzzles/next", params=params)
        assert answer.status_code == 200, answer.text
        return int(answer.json()["rating"])

    assert chosen("easiest") < chosen("normal") < chosen("hardest")
    refused = visitor.http.get("/api/puzzles/next", params={"difficulty": "impossible"})
    assert refused.status_code == 422 and refused.json()["field"] == "query.difficulty"
