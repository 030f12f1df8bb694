"""Reviews kept: each computed once per (game, reviewer, time) and stored in the database
(SQLite and PostgreSQL), answered at once when asked again, their progress while they
are computed, and still there after the server restarts."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import pytest
from sqlalchemy import create_engine, text

from noughts.server.settings import Settings
from noughts.thinking.lanes import ThinkingError
from noughts.thinking.pool import ThinkingPool
from server.online.people import FAST, Person
from server.online.servers import in_thread
from server.online.test_analysis import analysis
from server.online.test_play import alternate, start

#: A page's game: a short ultimate game (8 positions to value) reviewed by `hard`. The
#: tests' PostgreSQL database is one per test process: each test reviews it at a time of
#: its own, which is another review.
GAME = {"spec": "ultimate", "moves": ["55", "51", "15", "59", "95", "53", "35"], "level": "hard", "time": 0.2}


@pytest.fixture
def reviews_computed(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The spec of each review sent to the worker pool, as it is sent (the servers of
    these tests run in this process)."""
    computed: list[str] = []
    review = ThinkingPool.review

    async def counted(self: ThinkingPool, game: Any, *args: Any, **kwargs: Any) -> dict[str, Any]:
        computed.append(game.game.spec)
        return await review(self, game, *args, **kwargs)

    monkeypatch.setattr(ThinkingPool, "review", counted)
    return computed


def reviewed(
    person: Person, body: dict[str, Any], seconds: float = 60.0
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """`body`'s review by POST /api/review, then GET at the address its progress gives,
    and each progress seen on the way."""
    answer = person.http.post("/api/review", json=body)
    progress: list[dict[str, Any]] = []
    deadline = time.monotonic() + seconds
    while answer.status_code == 202 and time.monotonic() < deadline:
        progress.append(answer.json())
        time.sleep(0.05)
        answer = person.http.get(answer.headers["Location"])
    assert answer.status_code == 200, answer.text
    return answer.json(), progress


def kept_rows(database_url: str, query: str, **values: object) -> int:
    """How many rows `SELECT count(*) FROM {query}` finds."""
    engine = create_engine(database_url)
    try:
        with engine.connect() as c:
            return int(c.execute(text(f"SELECT count(*) FROM {query}"), values).scalar_one())
    finally:
        engine.dispose()


def test_a_page_review_asked_twice_is_computed_once(
    people: Callable[[], Person], reviews_computed: list[str], database_url: str
) -> None:
    ann, bob = people(), people()
    first, progress = reviewed(ann, GAME)
    assert progress, "the first ask answers at once, with the review's progress"
    assert all(p["status"] == "computing" and p["total"] == 8 and 0 <= p["done"] <= 8 for p in progress)
    assert [p["done"] for p in progress] == sorted(p["done"] for p in progress)
    assert [m["move"] for m in first["moves"]] == GAME["moves"]

    # Asked again, by someone else: the kept review, at once (no wait asked for).
    again = bob.http.post("/api/review", json=GAME)
    assert again.status_code == 200 and again.json() == first
    assert reviews_computed == ["ultimate"]
    assert kept_rows(database_url, "kept_reviews WHERE seconds = :s", s=GAME["time"]) == 1

    # Another time is another review.
    other, _ = reviewed(ann, {**GAME, "time": 0.1})
    assert [m["move"] for m in other["moves"]] == GAME["moves"]
    assert reviews_computed == ["ultimate", "ultimate"]
    assert kept_rows(database_url, "kept_reviews WHERE seconds IN (:a, :b)", a=GAME["time"], b=0.1) == 2


def test_two_asking_at_once_share_one_computation(people: Callable[[], Person], reviews_computed: list[str]) -> None:
    ann, bob = people(), people()
    game = {**GAME, "time": 0.15}
    first = ann.http.post("/api/review", json=game)
    second = bob.http.post("/api/review", json=game)
    assert (first.status_code, second.status_code) == (202, 202)
    assert first.json()["key"] == second.json()["key"]
    review, _ = reviewed(bob, game)
    assert reviews_computed == ["ultimate"]
    assert ann.http.get(first.headers["Location"]).json() == review


def test_a_review_never_asked_for_is_not_found(people: Callable[[], Person]) -> None:
    answer = people().http.get("/api/review/" + "0" * 64)
    assert answer.status_code == 404 and answer.json()["error"] == "no-such-review"


def test_a_finished_online_game_is_reviewed_without_anyone_asking(
    people: Callable[[], Person], reviews_computed: list[str], database_url: str
) -> None:
    *_, game_id, a, b = start(people)
    alternate(a, b, "5", "1", "3", "7", "2", "4")
    # Nobody asks: the review is stored when the game's end has been handled.
    deadline = time.monotonic() + 60
    while kept_rows(database_url, "reviews WHERE game_id = :id", id=game_id) == 0 and time.monotonic() < deadline:
        time.sleep(0.1)
    assert reviews_computed == ["classic"]
    spectator = people()
    review = analysis(spectator, game_id)
    assert [m["class"] for m in review["moves"]] == ["best", "best", "best", "best", "blunder", "best"]
    assert reviews_computed == ["classic"]


@pytest.fixture
def restartable(sqlite_url: str) -> Callable[[], Any]:
    """Starts the app on the same database, again and again (one at a time)."""
    settings = Settings(database=sqlite_url, ai_workers=1, online=FAST)
    return lambda: in_thread(settings)


def test_a_review_survives_a_restart(restartable: Callable[[], Any], reviews_computed: list[str]) -> None:
    with restartable() as address:
        person = Person(address)
        first, _ = reviewed(person, GAME)
        person.close()
    with restartable() as address:
        person = Person(address)
        again = person.http.post("/api/review", json=GAME)
        person.close()
    assert again.status_code == 200 and again.json() == first
    assert reviews_computed == ["ultimate"]


def test_a_failed_review_is_told_once_then_computed_anew(
    people: Callable[[], Person], monkeypatch: pytest.MonkeyPatch
) -> None:
    review = ThinkingPool.review
    calls: list[int] = []

    async def failing_once(self: ThinkingPool, *args: Any, **kwargs: Any) -> dict[str, Any]:
        calls.append(1)
        if len(calls) == 1:
            raise ThinkingError("the review did not finish within 1 seconds")
        return await review(self, *args, **kwargs)

    monkeypatch.setattr(ThinkingPool, "review", failing_once)
    person = people()
    game = {**GAME, "time": 0.05}
    first = person.http.post("/api/review", json=game)
    assert first.status_code == 202
    deadline = time.monotonic() + 30
    told = person.http.get(first.headers["Location"])
    while told.status_code == 202 and time.monotonic() < deadline:
        time.sleep(0.05)
        told = person.http.get(first.headers["Location"])
    assert told.status_code == 503 and "did not finish" in told.json()["message"]
    # Told once: asked again, it is computed anew.
    again, _ = reviewed(person, game)
    assert [m["move"] for m in again["moves"]] == GAME["moves"]
    assert len(calls) == 2
