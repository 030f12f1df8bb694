"""The served app under load it must survive: the computer thinks in worker processes,
so a long think does not hold up anyone else's request."""

from __future__ import annotations

import threading
import time

import httpx


def test_a_long_think_does_not_block_other_requests(server_url: str) -> None:
    finished = threading.Event()
    answers: list[httpx.Response] = []

    def think() -> None:
        body = {"spec": "qubic", "moves": [], "level": "max", "time": 3}  # a search bound by time only
        answers.append(httpx.post(f"{server_url}/api/computer", json=body, timeout=60))
        finished.set()

    thinker = threading.Thread(target=think)
    thinker.start()
    time.sleep(1)  # let the think reach the server first
    try:
        # While the computer thinks, moves and the catalogue are answered.
        for _ in range(2):
            assert httpx.post(f"{server_url}/api/play", json={"spec": "classic", "move": "5"}).status_code == 200
            assert httpx.get(f"{server_url}/api/games").status_code == 200
        assert not finished.is_set(), "the quick requests waited for the think"
    finally:
        thinker.join(60)
    assert answers[0].status_code == 200 and answers[0].json()["game"]["ply"] == 1
