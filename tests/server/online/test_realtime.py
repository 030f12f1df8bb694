"""The fan-out backends: in-process, and Redis with its channel prefix; Redis away at
the start and in the middle of a run."""

from __future__ import annotations

import asyncio
import logging
import secrets
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from noughts.competition.clock import now_ms
from noughts.server.online.bus import Bus, Paused
from noughts.server.online.realtime import RECONNECT, Fanout, InProcessFanout, RedisFanout
from noughts.thinking.broker import RedisUnreachableError
from server.online.servers import PrivateRedis, private_redis


async def _exchange(sender: Fanout, receiver: Fanout) -> list[str]:
    got: list[str] = []
    await receiver.subscribe("game:1", got.append)
    await asyncio.sleep(0.1)  # Redis: the subscription is registered
    await sender.publish("game:1", "one")
    await sender.publish("game:2", "not for us")
    for _ in range(100):
        if got:
            break
        await asyncio.sleep(0.02)
    await receiver.unsubscribe("game:1", got.append)
    await sender.publish("game:1", "after unsubscribing")
    await asyncio.sleep(0.1)
    return got


def test_in_process_delivers_to_listeners_of_the_channel_only() -> None:
    fanout = InProcessFanout()
    assert asyncio.run(_exchange(fanout, fanout)) == ["one"]


def test_redis_carries_events_between_processes_within_a_prefix(redis_url: str) -> None:
    async def run() -> tuple[list[str], list[str]]:
        prefix = f"noughts-test-{secrets.token_hex(4)}:"
        one, two, stranger = (
            RedisFanout(redis_url, prefix),
            RedisFanout(redis_url, prefix),
            RedisFanout(redis_url, "x" + prefix),
        )
        for fanout in (one, two, stranger):
            await fanout.start()
        overheard: list[str] = []
        await stranger.subscribe("game:1", overheard.append)
        try:
            return await _exchange(one, two), overheard
        finally:
            for fanout in (one, two, stranger):
                await fanout.close()

    got, overheard = asyncio.run(run())
    assert got == ["one"] and overheard == []


async def _until(condition: Callable[[], bool], seconds: float = 20) -> None:
    for _ in range(int(seconds / 0.02)):
        if condition():
            return
        await asyncio.sleep(0.02)
    raise AssertionError("the condition did not come true")


def test_redis_unreachable_at_start_is_one_clear_error() -> None:
    async def run() -> None:
        fanout = RedisFanout("redis://:secret@127.0.0.1:1/0")
        with pytest.raises(RedisUnreachableError, match=r"^cannot reach Redis at redis://:\*\*\*@127.0.0.1:1/0: "):
            await fanout.start()

    asyncio.run(run())


def test_noughts_serve_refuses_to_start_without_its_redis(tmp_path: Path) -> None:
    command = [sys.executable, "-m", "noughts.cli", "serve", "--port", "0", "--redis", "redis://127.0.0.1:1"]
    database = f"sqlite:///{tmp_path / 'noughts.db'}"
    done = subprocess.run([*command, "--database", database], capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.splitlines() == [
        "noughts serve: not starting: cannot reach Redis at redis://127.0.0.1:1: "
        "Error 111 connecting to 127.0.0.1:1. Connection refused."
    ]


def test_redis_going_away_and_coming_back(caplog: pytest.LogCaptureFixture) -> None:
    """Each process's listeners keep hearing what it publishes; nothing raises; when Redis
    is back every listener is told to reconnect, and events cross again; the outage is
    told as a pause of the clocks."""
    paused: list[tuple[int, int]] = []

    async def run(redis: PrivateRedis) -> None:
        prefix = f"noughts-test-{secrets.token_hex(4)}:"
        bus = Bus()
        bus.subscribe(Paused, lambda event: paused.append((event.start, event.end)))
        one, two = RedisFanout(redis.url, prefix, bus), RedisFanout(redis.url, prefix)
        heard_one: list[str] = []
        heard_two: list[str] = []
        for fanout in (one, two):
            await fanout.start()
        try:
            await one.subscribe("game:1", heard_one.append)
            await two.subscribe("game:1", heard_two.append)
            await one.publish("game:1", "before")
            await _until(lambda: heard_two == ["before"] and heard_one == ["before"])

            redis.stop()
            stopped = now_ms()
            await one.publish("game:1", "during")  # no exception: heard here only
            assert heard_one[-1] == "during" and heard_two == ["before"]
            late: list[str] = []
            await two.subscribe("game:2", late.append)  # no exception either
            await asyncio.sleep(0.3)
            redis.start()
            await _until(lambda: RECONNECT in heard_one and RECONNECT in heard_two)
            assert len(paused) == 1 and stopped <= paused[0][0] and paused[0][1] - paused[0][0] >= 300
            await _until(lambda: one._up and two._up)
            await one.publish("game:2", "after")  # subscribed on the way back
            await two.publish("game:1", "after")
            await _until(lambda: late == [RECONNECT, "after"] and heard_one[-1] == "after" == heard_two[-1])
        finally:
            for fanout in (one, two):
                await fanout.close()

    with private_redis() as redis, caplog.at_level(logging.WARNING):
        asyncio.run(run(redis))
    lines = [r.getMessage() for r in caplog.records if r.name == "noughts.server.online.realtime"]
    assert all(r.exc_info is None for r in caplog.records)  # lines, no tracebacks
    assert sum("is unreachable" in line for line in lines) == 2  # once per fan-out
    assert sum("answers again" in line for line in lines) == 2
