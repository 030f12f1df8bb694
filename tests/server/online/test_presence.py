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

from noughts.server import Settings
from noughts.server.online import actions
from noughts.server.online.actions import GameRow
from noughts.server.online.bus import Bus, PresenceChanged
from noughts.server.online.presence import RedisPresence
from noughts.server.online.storage.store import Store
from server.online.people import FAST, GameSocket, Person, unique
from server.online.servers import in_thread, serving
from server.online.test_actions import open_row
from server.online.test_play import alternate

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


@pytest.mark.slow  # a server killed and restarted: the default run keeps test_kill_9_loses_no_acknowledged_move
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


@pytest.mark.slow  # a server killed and restarted: the default run keeps test_kill_9_loses_no_acknowledged_move
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
    # A time to live the loaded CI machine keeps: with 0.6 s a beat delayed by the
    # store's calls on this one event loop let a live process be taken for dead.
    config = replace(FAST, redis_prefix=f"noughts-test-{secrets.token_hex(4)}:", presence_ttl=1.5)
    changed: list[GameRow] = []
    bus = Bus()
    bus.subscribe(PresenceChanged, lambda event: changed.append(event.row))

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
        first = RedisPresence(redis_url, store, config, bus)
        await first.start()  # nobody else alive: everybody away, as a lone server
        assert away()["x"] is not None and away()["o"] is not None
        second = RedisPresence(redis_url, store, config, bus)
        await second.start()
        # ann's socket is on the first process, bob's on the second (the service clears
        # `left_at` after `here`).
        await first.here(row.id, ann.id)
        await second.here(row.id, bob.id)
        for side in ("x", "o"):
            store.set_left(row.id, side, None)

        assert first._task is not None
        first._task.cancel()  # the first process dies: no more beats, nothing cleaned up
        # The store is written before the change is published: wait for both.
        await until(lambda: away()["x"] is not None and bool(changed))
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


#: Players who have not opened a game that started are away a moment after its start.
ARRIVING = replace(FAST, arrival_wait=0.3)


def test_a_creator_who_left_the_waiting_screen_is_away_once_the_game_starts(database_url: str) -> None:
    with in_thread(Settings(database=database_url, ai_workers=1, online=ARRIVING)) as base:
        ann, bob = Person(base).guest(), Person(base).guest()
        game_id = ann.room("classic", side="x")
        a = ann.socket(game_id)
        a.ws.close()  # ann gives up waiting: she had no side, nothing marked her away
        bob.join(game_id)
        b = bob.socket(game_id)
        # ann is marked away arrival_wait after the start: in the state bob's socket
        # opens with when opening it took longer than that (a loaded machine), else
        # by a presence message after it.
        away = b.state["away"] if b.state["away"]["x"] is not None else b.expect("presence")["away"]
        assert away["x"] is not None and away["o"] is None
        # Before the second move a claim aborts the game (nobody wins or loses rating).
        assert claim_when_allowed(b)["kind"] == "abort"
        assert b.state["state"] == "aborted"
        for person in (ann, bob):
            person.close()


def test_players_who_open_the_game_in_time_stay_present(database_url: str) -> None:
    with in_thread(Settings(database=database_url, ai_workers=1, online=ARRIVING)) as base:
        ann, bob = Person(base).guest(), Person(base).guest()
        game_id = ann.room("classic", side="x")
        a = ann.socket(game_id)
        bob.join(game_id)  # bob opens the game's page after the start, ann never left
        b = bob.socket(game_id)
        time.sleep(ARRIVING.arrival_wait + 0.5)
        assert b.act("claim")["error"] == "opponent-here"
        assert a.act("claim")["error"] == "opponent-here"
        assert a.state["away"] == b.state["away"] == {"x": None, "o": None}
        for person in (ann, bob):
            person.close()


def test_a_player_who_offered_a_rematch_and_left_is_away_in_the_rematch(sqlite_url: str) -> None:
    with in_thread(Settings(database=sqlite_url, ai_workers=1, online=ARRIVING)) as base:
        ann, bob = Person(base).guest(), Person(base).guest()
        game_id = ann.room("classic", side="x")
        a = ann.socket(game_id)
        bob.join(game_id)
        b = bob.socket(game_id)
        assert a.act("resign")["type"] == "ack"
        assert a.act("rematch-offer")["type"] == "ack"
        a.ws.close()
        assert b.act("rematch-accept")["type"] == "ack"
        rematch = b.state["rematch_id"]
        b2 = bob.socket(rematch)  # bob is X now, ann O
        assert b2.expect("presence")["away"]["o"] is not None
        assert claim_when_allowed(b2)["kind"] == "abort"
        for person in (ann, bob):
            person.close()


def test_with_redis_a_creator_waiting_on_another_process_stays_present(sqlite_url: str, redis_url: str) -> None:
    online = replace(ARRIVING, redis_prefix=f"noughts-test-{secrets.token_hex(4)}:")
    settings = Settings(database=sqlite_url, ai_workers=1, redis=redis_url, online=online)
    with in_thread(settings) as one, in_thread(settings) as two:
        ann, bob, cid = Person(one).guest(), Person(two).guest(), Person(two).guest()
        game_id = ann.room("classic", side="x")
        a = ann.socket(game_id)  # on the first process
        bob.join(game_id)  # through the second, where ann has no socket
        b = bob.socket(game_id)
        time.sleep(ARRIVING.arrival_wait + 0.5)
        assert b.act("claim")["error"] == "opponent-here"
        # And one who left the waiting screen is found away by the other process.
        other = cid.room("classic", side="o")
        cid.socket(other).ws.close()  # on the second process
        # The server sees the close when it sees it: on a loaded machine, after ann's
        # arrival wait. Wait for the second process to let go of cid in Redis.
        client = redis.Redis.from_url(redis_url)
        for _ in range(500):
            if not any(client.scan_iter(f"{online.redis_prefix}at:{other}:*")):
                break
            time.sleep(0.02)
        client.close()
        ann.join(other)  # through the first
        a2 = ann.socket(other)
        # cid is away once the arrival wait is over: in the state a2 read on opening when
        # that came first (a loaded machine), else in a presence event soon after.
        if a2.state["away"]["o"] is None:
            assert a2.expect("presence")["away"]["o"] is not None
        assert a.state["away"] == {"x": None, "o": None}
        for person in (ann, bob, cid):
            person.close()
