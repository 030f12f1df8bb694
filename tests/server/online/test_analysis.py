"""A finished online game's analysis: computed once when the game ends, stored with the
game, shown to everyone who opens it; refused while the game goes on."""

from __future__ import annotations

import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

from server.online.people import Person
from server.online.test_play import alternate, start


def test_a_finished_game_is_analysed_once_and_shown_to_everyone(people: Callable[[], Person]) -> None:
    ann, bob, game_id, a, b = start(people)
    path = f"/api/online/games/{game_id}/analysis"
    early = bob.http.post(path)
    assert early.status_code == 409 and early.json()["error"] == "game-not-over"
    assert ann.http.get(path).json() == {"review": None, "progress": None}
    alternate(a, b, "5", "1", "3", "7", "2", "4")  # x's 2 lets o win at 4
    assert ann.http.get(f"/api/online/games/{game_id}").json()["state"] == "over"

    # Reviewed when it ended: two players asking at once get the same review.
    review = analysis(ann, game_id)
    with ThreadPoolExecutor(2) as pool:
        answers = list(pool.map(lambda person: person.http.post(path, timeout=60), [ann, bob]))
    assert [r.status_code for r in answers] == [200, 200]
    assert answers[0].json() == answers[1].json() == review
    assert [m["class"] for m in review["moves"]] == ["best", "best", "best", "best", "blunder", "best"]
    assert review["moves"][4]["best"] == "4"
    assert review["reviewer"] == "max (perfect)"

    # Stored: a spectator sees it, without signing in.
    spectator = people()
    shown = spectator.http.get(path)
    assert shown.status_code == 200 and shown.json() == {"review": review, "progress": None}


def analysis(person: Person, game_id: str, seconds: float = 60.0) -> dict[str, Any]:
    """The game's review, once computed (its progress is asked for every tenth of a second)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        answer = person.http.get(f"/api/online/games/{game_id}/analysis").json()
        if answer["review"] is not None:
            review: dict[str, Any] = answer["review"]
            return review
        assert answer["progress"] is not None, "a finished game's review is under way"
        time.sleep(0.1)
    raise AssertionError(f"no review of {game_id} within {seconds} s")


def test_asking_needs_a_session_and_a_game(people: Callable[[], Person]) -> None:
    nobody = people()
    assert nobody.http.post("/api/online/games/nosuchgame/analysis").status_code == 401
    someone = people().guest()
    answer = someone.http.post("/api/online/games/nosuchgame/analysis")
    assert answer.status_code == 404 and answer.json()["error"] == "no-such-game"
    assert someone.http.get("/api/online/games/nosuchgame/analysis").status_code == 404


@pytest.mark.slow  # seconds of review on one worker: make test-slow (make test's 6 minutes)
def test_a_review_takes_turns_with_the_computers_moves(people: Callable[[], Person]) -> None:
    """One worker (the test server's): a review of eleven positions at half a second
    each, and a computer move asked for while it runs, is answered before the review
    ends: the review asks the pool one position at a time."""
    person = people()
    moves = ["55", "51", "15", "59", "95", "53", "35", "58", "85", "57"]
    finished: dict[str, float] = {}

    def post(name: str, path: str, body: dict[str, object]) -> int:
        status = person.http.post(path, json=body, timeout=120).status_code
        finished[name] = time.monotonic()
        return status

    with ThreadPoolExecutor(2) as pool:
        body = {"spec": "ultimate", "moves": moves, "time": 0.5, "wait": 30}
        review = pool.submit(post, "review", "/api/review", body)
        time.sleep(1.0)  # the review is under way
        move = pool.submit(post, "move", "/api/computer", {"spec": "ultimate", "moves": moves, "level": "hard"})
        assert (review.result(), move.result()) == (200, 200)
    assert finished["move"] < finished["review"]
