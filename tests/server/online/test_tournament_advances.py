"""A tournament's advances in one process: asks that come while one runs share the next,
so that a big arena's games ending by the dozen each second do not queue an advance each
on the tournament's row; and an ask is never answered by an advance that started before
it (a join returns only once an advance has seen the player)."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

from noughts.competition.clock import now_ms
from noughts.server.online.service import Online
from noughts.server.online.storage.store import UserRow
from server.online.people import FAST, unique

T = TypeVar("T")


def _with_online(database_url: str, body: Callable[[Online], Awaitable[T]]) -> T:
    async def run() -> T:
        online = Online(database_url, None, FAST)
        await online.start()
        try:
            return await body(online)
        finally:
            await online.stop()

    return asyncio.run(run())


async def _players(online: Online, n: int) -> list[UserRow]:
    made = []
    for _ in range(n):
        name = unique("adv")
        made.append(await online.store.call(online.store.create_user, name, name, None, False, now_ms()))
    return made


def _counting(online: Online, gate: threading.Event | None = None) -> list[float]:
    """Counts the advances (the time each began); with `gate`, each waits for it first."""
    began: list[float] = []
    advance = online.tournaments.book.advance

    def counted(*args: Any, **kwargs: Any) -> Any:
        began.append(now_ms())
        if gate is not None:
            gate.wait(10)
        return advance(*args, **kwargs)

    online.tournaments.book.advance = counted  # type: ignore[method-assign]
    return began


def test_asks_share_the_next_advance_and_none_is_answered_by_an_earlier_one(database_url: str) -> None:
    async def body(online: Online) -> None:
        (creator,) = await _players(online, 1)
        t = await online.tournaments.create(creator, "arena", "asks", "classic", False, None, 0, 60, None, 0)
        gate = threading.Event()
        began = _counting(online, gate)
        # Twenty asks at once: one advance for all of them.
        first = [asyncio.create_task(online.tournaments.advance(t.id)) for _ in range(20)]
        while not began:
            await asyncio.sleep(0.01)
        # Asked while that advance runs (held at the gate): not answered by it.
        later = [asyncio.create_task(online.tournaments.advance(t.id, changed=False)) for _ in range(5)]
        await asyncio.sleep(0.2)
        assert not any(task.done() for task in first + later)
        gate.set()
        await asyncio.gather(*first)
        await asyncio.gather(*later)
        assert len(began) == 2  # the twenty asks' advance, then the five's

    _with_online(database_url, body)


def test_twelve_joins_at_once_pair_everyone_once_with_fewer_advances(database_url: str) -> None:
    async def body(online: Online) -> tuple[list[float], list[tuple[str, bool, str | None]]]:
        players = await _players(online, 12)
        t = await online.tournaments.create(players[0], "arena", "rush", "classic", False, None, 0, 60, None, 0)
        began = _counting(online)
        await asyncio.gather(*(online.tournaments.join(t.id, p) for p in players))
        seen = [await online.store.call(online.tournaments.book.mine, t.id, p.id) for p in players]
        return began, seen

    began, seen = _with_online(database_url, body)
    games = [game for _, _, game in seen]
    assert all(state == "running" and joined for state, joined, _ in seen)
    assert None not in games and all(games.count(g) == 2 for g in games)  # six games, each player in one
    assert len(began) < 12
