"""Redis going away under a running server: play goes on within the process, nothing
raises, and when Redis is back the sockets close (1012) so that their clients reconnect
and load what they missed."""

from __future__ import annotations

import logging
import secrets
from dataclasses import replace
from pathlib import Path

import pytest

from noughts.server import Settings
from server.online.people import FAST, Person
from server.online.servers import in_thread, private_redis
from server.online.test_faults import drain
from server.online.test_play import alternate

pytestmark = pytest.mark.timeout(120)


def test_a_server_rides_out_a_redis_outage(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    with private_redis() as redis, caplog.at_level(logging.WARNING):
        online = replace(FAST, redis_prefix=f"noughts-test-{secrets.token_hex(4)}:")
        database = f"sqlite:///{tmp_path / 'online.db'}"
        settings = Settings(database=database, ai_workers=1, redis=redis.url, online=online)
        with in_thread(settings) as base:
            ann, bob = Person(base).sign_up(), Person(base).sign_up()
            game_id = ann.room("classic")
            a = ann.socket(game_id)
            bob.join(game_id)
            a.event("start")
            b = bob.socket(game_id)
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
