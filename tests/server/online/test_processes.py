"""Real server processes: killed with SIGKILL mid-game and restarted; two processes
sharing one game through PostgreSQL and Redis."""

from __future__ import annotations

import json
import os
import secrets
import signal
from pathlib import Path
from typing import Any

import pytest
from websockets.sync.client import connect

from noughts.registry import parse_spec
from server.online.people import GameSocket, Person
from server.online.servers import serving
from server.online.test_faults import drain
from server.online.test_play import alternate

pytestmark = pytest.mark.timeout(120)


@pytest.mark.slow  # make test-slow, for make test's 6 minutes
def test_kill_9_loses_no_acknowledged_move(tmp_path: Path) -> None:
    database = f"sqlite:///{tmp_path / 'noughts.db'}"
    state = parse_spec("ultimate").initial()
    moves = []
    for i in range(8):
        texts = state.legal_move_texts()
        moves.append(texts[(7 * i) % len(texts)])
        state = state.play_text(moves[-1])
    with serving(database) as (process, base):
        ann, bob = Person(base).guest(), Person(base).guest()
        game_id = ann.room("ultimate")
        bob.join(game_id)
        a, b = ann.socket(game_id), bob.socket(game_id)
        alternate(a, b, *moves[:5])
        acknowledged = list(a.state["moves"])
        # One more move is on its way when the server dies: it may or may not have
        # been committed, but it was not acknowledged.
        b.send({"type": "move", "move": moves[5], "ply": 5, "id": "in-flight"})
        os.kill(process.pid, signal.SIGKILL)
        process.wait(10)
        assert drain(b)[1] != 1000  # the socket broke, it was not closed politely
    with serving(database) as (_, base):
        # The same people, their cookies still good: they reconnect and carry on.
        ann.base = bob.base = base
        ann.http.base_url = bob.http.base_url = base
        a, b = ann.socket(game_id), bob.socket(game_id)
        restored = a.state["moves"]
        assert restored in (acknowledged, [*acknowledged, moves[5]])
        assert a.state["state"] == "playing" and a.state["ply"] == len(restored)
        alternate(a, b, *moves[len(restored) : 8])
        assert b.state["moves"] == moves[:8]
        ann.close()
        bob.close()


@pytest.mark.slow  # two servers and Redis; test_realtime.py carries events between processes through Redis
def test_two_processes_share_a_game_through_redis(postgres_url: str, redis_url: str) -> None:
    prefix = f"noughts-test-{secrets.token_hex(4)}:"
    with serving(postgres_url, redis_url, prefix) as (_, one), serving(postgres_url, redis_url, prefix) as (_, two):
        assert one != two
        ann, bob = Person(one).guest(), Person(two).guest()
        with connect(two.replace("http", "ws", 1) + "/api/online/lobby/ws") as lobby:
            json.loads(lobby.recv(timeout=5))
            game_id = ann.room("classic")
            # The lobby of process two hears of the room made on process one.
            rooms = json.loads(lobby.recv(timeout=5))["rooms"]
            assert any(r["id"] == game_id for r in rooms)
        a = ann.socket(game_id)
        bob.join(game_id)  # through process two
        assert a.event("start")["game"]["o"]["name"] == bob.name  # heard through Redis
        b = bob.socket(game_id)
        watcher = Person(two).socket(game_id)
        alternate(a, b, "5", "1", "9", "3", "2", "7", "8")
        assert (a.state["result"], b.state["result"]) == ("x-wins", "x-wins")
        assert [watcher.event("move")["ply"] for _ in range(7)] == list(range(1, 8))

        # One player on both processes sends two moves for the same ply at once.
        game_id = ann.room("classic")
        bob.join(game_id)
        there = Person(two)
        there.http.cookies.update(ann.http.cookies)
        x1, x2 = ann.socket(game_id), there.socket(game_id)
        x1.send({"type": "move", "move": "5", "ply": 0, "id": "one"})
        x2.send({"type": "move", "move": "1", "ply": 0, "id": "two"})
        first, second = _answer(x1, "one"), _answer(x2, "two")
        assert sorted([first["type"], second["type"]]) == ["ack", "error"]
        assert (first if first["type"] == "error" else second)["error"] == "stale-ply"
        x1.send({"type": "resync"})
        assert len(x1.expect("state")["game"]["moves"]) == 1
        for person in (ann, bob, there):
            person.close()


def _answer(sock: GameSocket, ref: str) -> dict[str, Any]:
    """The ack or error answering the message `ref`."""
    while True:
        message = sock.receive()
        if message["type"] in ("ack", "error") and message.get("id") == ref:
            return message
