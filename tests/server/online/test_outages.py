"""Redis going away under a running server: play goes on within the process, nothing
raises, and when Redis is back the sockets close (1012) so that their clients reconnect
and load what they missed."""

from __future__ import annotations

import json
import logging
import secrets
from dataclasses import replace
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from noughts.server import Settings
from noughts.server.online.sessions import COOKIE
from server.online.people import FAST, Person
from server.online.servers import Cuttable, in_thread, private_redis
from server.online.test_faults import drain
from server.online.test_play import alternate, start

pytestmark = pytest.mark.timeout(120)


def test_a_server_rides_out_a_redis_outage(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    with private_redis() as redis, caplog.at_level(logging.WARNING):
        online = replace(FAST, redis_prefix=f"noughts-test-{secrets.token_hex(4)}:")
        database = f"sqlite:///{tmp_path / 'online.db'}"
        settings = Settings(database=database, ai_workers=1, redis=redis.url, online=online)
        with in_thread(settings) as base:
            ann, bob, game_id, a, b = start(lambda: Person(base))
            alternate(a, b, "5")

            redis.stop()
            alternate(a, b, "1", "9")  # acknowledged and heard within this process
            wrong = bob.http.post("/api/online/login", json={"name": ann.name, "password": "wrong one"})
            assert wrong.json()["error"] == "wrong-credentials"  # the brake works alone meanwhile
            redis.start()
            assert drain(a)[1] == drain(b)[1] == 1012  # told to reconnect

            a, b = ann.socket(game_id), bob.socket(game_id)
            assert b.state["moves"] == ["5", "1", "9"] and b.state["away"] == {"x": None, "o": None}
            alternate(a, b, "3")  # through Redis again
            for person in (ann, bob):
                person.close()
    records = [r for r in caplog.records if r.name.startswith("noughts")]
    assert all(r.exc_info is None and r.levelno == logging.WARNING for r in records), records
    lines = [r.getMessage() for r in records]
    assert any("is unreachable" in line for line in lines) and any("answers again" in line for line in lines)


def test_while_the_database_is_away_requests_get_503_and_sockets_an_error_frame(
    postgres_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    """PostgreSQL out of reach (its link cut) under a running server: an HTTP request
    is answered 503 `database-unavailable` with Retry-After, a move on an open socket an
    error frame (the socket stays open), a socket opened meanwhile the error then close
    code 1013 (try again later); the log says it in a line, no traceback. Once the link
    is mended, play goes on where it was."""
    url = urlsplit(postgres_url)
    link = Cuttable((url.hostname or "127.0.0.1", url.port or 5432))
    link.mend()
    behind = urlunsplit(url._replace(netloc=f"{url.username}@127.0.0.1:{link.port}"))
    try:
        with caplog.at_level(logging.WARNING), in_thread(Settings(database=behind, ai_workers=1, online=FAST)) as base:
            ann, bob, game_id, a, b = start(lambda: Person(base))
            b.expect("chat-backlog")  # its handler past the reads of opening (else cut mid-way)
            alternate(a, b, "5")

            link.cut()
            answer = ann.http.get(f"/api/online/games/{game_id}")
            assert answer.status_code == 503, answer.text
            assert answer.json()["error"] == "database-unavailable" and answer.headers["Retry-After"] == "5"
            refused = b.move("1")
            assert refused["type"] == "error" and refused["error"] == "database-unavailable"
            b.send({"type": "ping", "id": "still"})
            assert b.expect("pong")["id"] == "still"  # the socket is still open
            assert _opened_meanwhile(bob, game_id) == (["database-unavailable"], 1013)

            link.mend()
            assert b.move("1")["type"] == "ack"
            assert a.event("move")["move"] == "1"
            for person in (ann, bob):
                person.close()
    finally:
        link.cut()
    noughts = [r for r in caplog.records if r.name.startswith(("noughts", "uvicorn"))]
    assert all(r.exc_info is None and r.levelno == logging.WARNING for r in noughts), noughts
    assert any("database cannot be reached" in r.getMessage() for r in noughts)


def _opened_meanwhile(person: Person, game_id: str) -> tuple[list[str], int | None]:
    """The errors a socket opened now gets, and the code it is closed with."""
    url = person.base.replace("http", "ws", 1) + f"/api/online/games/{game_id}/ws"
    errors = []
    with connect(url, additional_headers={"Cookie": f"{COOKIE}={person.http.cookies.get(COOKIE)}"}) as ws:
        try:
            while True:
                message = json.loads(ws.recv(timeout=30))
                if message["type"] == "error":
                    errors.append(message["error"])
        except ConnectionClosed as closed:
            return errors, closed.rcvd.code if closed.rcvd else None
