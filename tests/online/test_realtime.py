"""The fan-out backends: in-process, and Redis with its channel prefix."""

from __future__ import annotations

import asyncio
import secrets

from noughts.server.online.realtime import Fanout, InProcessFanout, RedisFanout


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
