"""The online service's events inside a process: handlers in order, failures contained."""

from __future__ import annotations

import asyncio
import logging

import pytest

from noughts.server.online.bus import Bus, ClockDue, TournamentStarted


def test_handlers_run_in_order_and_a_failure_stops_neither_the_others_nor_the_publisher(
    caplog: pytest.LogCaptureFixture,
) -> None:
    told: list[str] = []

    async def later(event: ClockDue) -> None:
        await asyncio.sleep(0)
        told.append(f"later {event.game_id}")

    def broken(event: ClockDue) -> None:
        raise RuntimeError("a handler's bug")

    async def run() -> None:
        bus = Bus()
        bus.subscribe(ClockDue, lambda event: told.append(f"first {event.game_id}"))
        bus.subscribe(ClockDue, broken)
        bus.subscribe(ClockDue, later)
        bus.subscribe(TournamentStarted, lambda event: told.append("never"))
        bus.publish(ClockDue("g1"))  # returns at once: the coroutine goes on as a task
        assert told == ["first g1"] and len(bus.tasks()) == 1
        await asyncio.gather(*bus.tasks())
        await bus.deliver(ClockDue("g2"))  # waits for each handler
        assert told == ["first g1", "later g1", "first g2", "later g2"]

    with caplog.at_level(logging.ERROR):
        asyncio.run(run())
    assert [r.getMessage() for r in caplog.records] == [
        "handling ClockDue(game_id='g1') failed",
        "handling ClockDue(game_id='g2') failed",
    ]
