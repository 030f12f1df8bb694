"""Presence that survives a server killed with SIGKILL: a player who never comes back
is away, so that their opponent can claim the game; a player still connected (to
another process, with Redis) is not."""

from __future__ import annotations

import asyncio
import os
import secrets
import signal
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
import redis

from noughts.server.online import actions
from noughts.server.online.actions import GameRow
from noughts.server.online.presence import RedisPresence
from noughts.server.online.storage.store import Store
from online.people import FAST, GameSocket, Person, unique
from online.servers import serving
from online.test_actions import open_row
from online.test_play import alternate

pytestmark = pytest.mark.timeout(120)

#: A short grace, and processes that find a dead one quickly.
FAST_PRESENCE = {"NOUGHTS_DISCONNECT_GRACE": "1", "NOUGHTS_PRESENCE_TTL": "1.5"}


def claim_when_allowed(sock: GameSocket) -> dict[str, Any]:
    """Claims the game as soon as the grace is over; the ack."""
    for _ in range(100):
        answer = sock.act("claim")
        if answer.get("error") != "too-early":
            assert answer["type"] == "ack", answer
            return answer
        time.sleep(0.1)
    raise AssertionError("the grace never ended")


def test_alone_after_kill_9_a_player_who_never_comes_back_is_away(tmp_path: Path) -> None:
    database = f"sqlite:///{tmp_path / 'noughts.db'}"
    with serving(database, env=FAST_PRESENCE) as (process, base):
        ann, bob = Person(base).guest(), Person(base).guest()
        game_id = ann.room("classic")  # ann plays X
        bob.join(game_id)
        a, b = ann.socket(game_id), bob.socket(game_id)
        alternate(a, b, "5", "1")
        assert b.act("claim")["error"] == "opponent-here"
        os.kill(process.pid, signal.SIGKILL)
        process.wait(10)
    with serving(database, env=FAST_PRESENCE) as (_, base):
        bob.base = base
        bob.http.base_url = base
        b = bob.socket(game_id)  # only bob comes back
        assert b.state["away"]["x"] is not None and b.state["away"]["o"] is None
        assert claim_when_allowed(b)["kind"] == "claim"
        assert (b.state["state"], b.state["result"], b.state["termination"]) == ("over", "o-wins", "abandoned")
    for person in (ann, bob):
        person.close()


def test_with_redis_one_process_killed_and_restarted(postgres_url: str, redis_url: str) -> None:
    prefix = f"noughts-test-{secrets.token_hex(4)}:"
    with (
        serving(postgres_url, redis_url, prefix, FAST_PRESENCE) as (first, one),
        serving(postgres_url, redis_url, prefix, FAST_PRESENCE) as (_, two),
    ):
        ann, bob = Person(one).guest(), Person(two).guest()
        game_id = ann.room("classic")
        bob.join(game_id)
        a, b = ann.socket(game_id), bob.socket(game_id)
        alternate(a, b, "5", "1")
        assert b.act("claim")["error"] == "opponent-here"
        os.kill(first.pid, signal.SIGKILL)
        first.wait(10)
        # The killed process comes back (the same deployment, a new process) while
        # bob stays on the other one; ann never comes back.
        with serving(postgres_url, redis_url, prefix, FAST_PRESENCE) as (_, again):
            away = b.expect("presence", timeout=30)["away"]
            assert away["x"] is not None and away["o"] is None  # bob is not taken for away
            watcher = Person(again).socket(game_id)
            assert watcher.state["away"]["o"] is None
            assert claim_when_allowed(b)["kind"] == "claim"
            assert (b.state["result"], b.state["termination"]) == ("o-wins", "abandoned")
            assert watcher.event("claim")["game"]["result"] == "o-wins"
    for person in (ann, bob):
        person.close()


def test_redis_presence_buries_the_dead_and_comes_back_from_being_buried(sqlite_url: str, redis_url: str) -> None:
    """Two processes' presence over one store, in one test: the players only a dead
    process held are marked away; a process whose Redis lost everything registers its
    players again and marks them back."""
    store = Store(sqlite_url)
    store.migrate()
    ann = store.create_user(unique("a"), unique("a"), None, True, 1)
    bob = store.create_user(unique("b"), unique("b"), None, True, 1)
    row = open_row(ann.id)
    store.add_game(row)
    store.apply(row.id, lambda r: actions.join(r, bob.id, True, 1, coin="x"))  # ann is X
    config = replace(FAST, redis_prefix=f"noughts-test-{secrets.token_hex(4)}:", presence_ttl=0.6)
    changed: list[GameRow] = []

    async def publish(row: GameRow) -> None:
        changed.append(row)

    def away() -> dict[str, int | None]:
        game = store.game(row.id)
        return {"x": game.x_left_at, "o": game.o_left_at}

    async def until(condition: Callable[[], bool]) -> None:
        for _ in range(500):
            if condition():
                return
            await asyncio.sleep(0.02)
        raise AssertionError("the condition did not come true")

    async def run() -> None:
        first = RedisPresence(redis_url, store, config, publish)
        await first.start()  # nobody else alive: everybody away, as a lone server
        assert away()["x"] is not None and away()["o"] is not None
        second = RedisPresence(redis_url, store, config, publish)
        await second.start()
        # ann's socket is on the first process, bob's on the second (the service clears
        # `left_at` after `here`).
        await first.here(row.id, ann.id)
        await second.here(row.id, bob.id)
        for side in ("x", "o"):
            store.set_left(row.id, side, None)

        assert first._task is not None
        first._task.cancel()  # the first process dies: no more beats, nothing cleaned up
        await until(lambda: away()["x"] is not None)
        assert away()["o"] is None and [(r.x_left_at is not None, r.o_left_at) for r in changed] == [(True, None)]

        # Redis loses everything (restarted without persistence): the second process
        # beats into an empty Redis, registers bob again and keeps him here.
        store.set_left(row.id, "o", 12345)  # as if a sweep had taken it for dead meanwhile
        client = redis.Redis.from_url(redis_url)
        for key in client.scan_iter(config.redis_prefix + "*"):
            client.delete(key)
        await until(lambda: away()["o"] is None)
        assert client.sismember(f"{config.redis_prefix}at:{row.id}:{bob.id}", second.id)
        await second.close()
        await first._redis.aclose()
        for key in client.scan_iter(config.redis_prefix + "*"):  # what the dead one left
            client.delete(key)
        client.close()

    try:
        asyncio.run(run())
    finally:
        store.close()
