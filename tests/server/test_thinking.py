"""The server's answers when the computer is busy: 429 beyond a visitor's quota, 503
when a lane is full, one warning line when a puzzle search is dropped, and a request
whose client hung up leaving its lane."""

from __future__ import annotations

import asyncio
import logging
import threading
import time
from collections.abc import Iterator
from contextlib import ExitStack
from dataclasses import replace
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from noughts.server import Settings, create_app
from noughts.thinking.lanes import GONE_POLL, LANES, Asker, Lane
from noughts.thinking.pool import ThinkingPool
from thinking.test_lanes import holding


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    with TestClient(create_app(Settings(ai_workers=1))) as c:
        yield c


def test_a_visitor_beyond_their_quota_is_told_when_to_come_back(client: TestClient) -> None:
    """429 with Retry-After, for that lane only (a review is refused when it would start:
    to a request that waits for it, else to the next ask)."""
    pool: ThinkingPool = client.app.state.thinking  # type: ignore[attr-defined]
    review = {"spec": "classic", "moves": ["5", "1"], "level": "easy", "time": 0.123, "wait": 10}
    with ExitStack() as held:
        for _ in range(LANES[Lane.REVIEW].anonymous):  # the test client's address is "testclient"
            held.enter_context(holding(pool, Lane.REVIEW, Asker("address testclient")))
        answer = client.post("/api/review", json=review)
        assert answer.status_code == 429, answer.text
        assert answer.json()["error"] == "too-many-jobs"
        assert answer.headers["Retry-After"] == str(LANES[Lane.REVIEW].retry_after)
        assert (
            client.post("/api/computer", json={"spec": "classic", "moves": ["5"], "level": "easy"}).status_code == 200
        )
    assert client.post("/api/review", json=review).status_code == 200


def test_a_full_lane_answers_503_and_a_hint_is_in_the_lane_of_moves(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The analysis board's deeper looks wait in the analysis lane; a hint (a second at
    most) in the moves' lane, which is not full."""
    monkeypatch.setitem(LANES, Lane.ANALYSIS, replace(LANES[Lane.ANALYSIS], waiting=0))
    deeper = client.post("/api/analysis", json={"spec": "classic", "moves": ["5"], "level": "easy", "time": 2.5})
    assert deeper.status_code == 503, deeper.text
    assert deeper.json()["error"] == "computer-busy"
    assert deeper.headers["Retry-After"] == str(LANES[Lane.ANALYSIS].retry_after)
    hint = client.post("/api/analysis", json={"spec": "classic", "moves": ["5"], "level": "easy", "time": 1})
    assert hint.status_code == 200, hint.text


def test_a_dropped_puzzle_search_is_one_warning_line(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """After an online game, a full mining lane drops the search: one line saying why,
    no traceback (the server's log is not flooded)."""
    from noughts.server.routes.puzzles import mine_finished_game
    from server.online.test_actions import playing

    monkeypatch.setitem(LANES, Lane.MINING, replace(LANES[Lane.MINING], waiting=0))
    pool = ThinkingPool(workers=1)
    row = playing("1", "4", "2", "5", "3")
    with caplog.at_level(logging.WARNING):
        asyncio.run(mine_finished_game(pool, None, row))  # type: ignore[arg-type]  # no store: nothing is found
    assert [(r.levelno, r.exc_info) for r in caplog.records] == [(logging.WARNING, None)]
    assert f"game {row.id} dropped" in caplog.records[0].getMessage()
    assert "mining jobs waiting" in caplog.records[0].getMessage()


@pytest.mark.integration  # a real server: the client hangs up on its socket
def test_a_request_whose_client_hung_up_leaves_its_lane(tmp_path: Path) -> None:
    """An analysis asked while the only worker thinks waits in its lane; its client gives
    up and closes the connection: the analysis leaves the lane before it runs."""
    import httpx2
    import uvicorn

    app = create_app(Settings(database=f"sqlite:///{tmp_path / 'noughts.db'}", ai_workers=1))
    pool: ThinkingPool = app.state.thinking
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=0, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    try:
        while not server.started:
            time.sleep(0.01)
        base = f"http://127.0.0.1:{server.servers[0].sockets[0].getsockname()[1]}"
        think = {"spec": "qubic", "moves": ["111", "222", "333"], "level": "max", "time": 3}
        thinker = threading.Thread(target=lambda: httpx2.post(f"{base}/api/computer", json=think, timeout=60))
        thinker.start()
        time.sleep(1.0)  # the think has the worker
        deeper = {"spec": "classic", "moves": ["5", "1"], "level": "easy", "time": 2}
        with pytest.raises(httpx2.TimeoutException):
            httpx2.post(f"{base}/api/analysis", json=deeper, timeout=0.5)
        assert thinker.is_alive()  # the worker is still busy
        time.sleep(4 * GONE_POLL)
        assert not pool._waiting[Lane.ANALYSIS]
        thinker.join(60)
    finally:
        server.should_exit = True
        thread.join(10)
