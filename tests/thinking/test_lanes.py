"""The lanes: the most urgent job first, a worker kept for moves, the askers' quotas (in
the server's pool and shared on the queue), jobs dropped when their asker has gone, and
reviews sharing the review lane fairly."""

from __future__ import annotations

import asyncio
import secrets
import time
from collections.abc import Iterator
from contextlib import AsyncExitStack, contextmanager
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from noughts.ai.base import Analysis, Limits
from noughts.ai.levels import as_level, level_player
from noughts.server.replay import Replayed, replay
from noughts.thinking import queue
from noughts.thinking.jobs import ThinkJob
from noughts.thinking.lanes import (
    LANES,
    SERVER,
    Asker,
    AskerGoneError,
    Lane,
    LanedThinking,
    LaneFullError,
    TooManyJobsError,
)
from noughts.thinking.pool import ThinkingPool
from noughts.thinking.queue import QueueThinking

from support import playout


def test_a_job_reaches_a_worker_process() -> None:
    """Through a real worker process (spawned, so the job crosses a pipe)."""
    pool = ThinkingPool(workers=1)
    state = replay("mnk:m=7:n=7:k=4", None, ["d4"]).state

    async def ask() -> Analysis:
        return await pool.analyze(ThinkJob(state, "medium", seed=5), Lane.MOVE, SERVER)

    try:
        analysis = asyncio.run(ask())
    finally:
        pool.shutdown()
    assert analysis.moves[0].text == level_player(state.game, "medium", 5).decide(state, Limits()).moves[0].text


def _in_order(pool: ThinkingPool, jobs: list[tuple[Lane, tuple[Any, ...]]]) -> list[Any]:
    """Every job of `jobs` queued at once in `pool`, in the order given; their answers."""

    async def run() -> list[Any]:
        return list(await asyncio.gather(*(pool._run(lane, SERVER, work, 30, "late") for lane, work in jobs)))

    return asyncio.run(run())


def test_the_most_urgent_lane_starts_first() -> None:
    """One worker, busy: the jobs queued behind it start most urgent lane first, each
    lane first come first served, whatever order they came in."""
    pool = ThinkingPool(workers=1)
    try:
        _in_order(pool, [(Lane.MOVE, (time.time,))])  # the worker is up
        lanes = [Lane.MINING, Lane.REVIEW, Lane.MINING, Lane.ANALYSIS, Lane.REVIEW, Lane.MOVE]
        started = _in_order(pool, [(Lane.MINING, (time.sleep, 0.3)), *((lane, (time.time,)) for lane in lanes)])[1:]
    finally:
        pool.shutdown()
    by_start = [lane for _, _, lane in sorted(zip(started, range(len(lanes)), lanes, strict=True))]
    assert by_start == [Lane.MOVE, Lane.ANALYSIS, Lane.REVIEW, Lane.REVIEW, Lane.MINING, Lane.MINING]


def test_a_move_never_waits_behind_reviews_and_mining() -> None:
    """Two workers, reviews and mining queued by the dozen: one worker is kept for moves,
    so a move starts at once (first come first served, it waited for them all)."""
    pool = ThinkingPool(workers=2)

    async def run() -> float:
        await pool.start()
        low = [pool._run(lane, SERVER, (time.sleep, 0.5), 30, "late") for lane in (Lane.REVIEW, Lane.MINING) * 6]
        background = asyncio.gather(*low)
        await asyncio.sleep(0.2)
        asked = time.monotonic()
        await pool._run(Lane.MOVE, SERVER, (time.time,), 30, "late")
        waited = time.monotonic() - asked
        await background
        return waited

    try:
        waited = asyncio.run(run())
    finally:
        pool.shutdown()
    assert waited < 0.4  # a single low job would hold it 0.5 s; all of them 3 s


@contextmanager
def holding(pool: LanedThinking, lane: Lane, asker: Asker) -> Iterator[None]:
    """One of `asker`'s jobs of `lane` held from outside the app's event loop (the
    embedded pool counts them in its process, with no loop of its own)."""
    rules = LANES[lane]
    held = asyncio.run(pool._take(lane, asker.key, rules.signed_in if asker.signed_in else rules.anonymous))
    assert held is not None
    try:
        yield
    finally:
        asyncio.run(pool._give_back(lane, asker.key, held))


async def _quotas_hold(pool: LanedThinking, other: LanedThinking) -> None:
    """The quota claims, `other` being the same thinkers seen from another server
    process (or `pool` itself)."""
    visitor, user = Asker("address 10.0.0.1"), Asker("user 7", signed_in=True)
    rules = LANES[Lane.REVIEW]
    async with AsyncExitStack() as held:
        for i in range(rules.anonymous):
            await held.enter_async_context((pool, other)[i % 2]._holding(Lane.REVIEW, visitor))
        for each in (pool, other):
            with pytest.raises(TooManyJobsError) as refused:
                await held.enter_async_context(each._holding(Lane.REVIEW, visitor))
            assert refused.value.retry_after == rules.retry_after
        await held.enter_async_context(pool._holding(Lane.ANALYSIS, visitor))  # another lane's quota
        await held.enter_async_context(pool._holding(Lane.REVIEW, Asker("address 10.0.0.2")))  # another visitor's
        for i in range(rules.signed_in):
            await held.enter_async_context((pool, other)[i % 2]._holding(Lane.REVIEW, user))
        with pytest.raises(TooManyJobsError):
            await held.enter_async_context(other._holding(Lane.REVIEW, user))
        for _ in range(3 * rules.signed_in):
            await held.enter_async_context(pool._holding(Lane.REVIEW, SERVER))
    async with other._holding(Lane.REVIEW, visitor):  # given back when done
        pass
    assert rules.anonymous < rules.signed_in


def test_a_visitor_holds_at_most_their_quota_of_a_lane() -> None:
    """Anonymous visitors have the smallest quota, signed-in users more, and the server's
    own work none; a refusal says when to try again."""
    pool = ThinkingPool(workers=1)
    asyncio.run(_quotas_hold(pool, pool))


@pytest.mark.integration
def test_the_queues_quotas_are_shared_by_every_server_process(redis_url: str) -> None:
    """With workers on Redis the quotas are the deployment's: a visitor holds theirs
    whichever server process each request reaches."""
    prefix = f"noughts-test-{secrets.token_hex(4)}:"
    one, two = QueueThinking(redis_url, prefix), QueueThinking(redis_url, prefix)
    try:
        asyncio.run(_quotas_hold(one, two))
    finally:
        one.shutdown()
        two.shutdown()


@pytest.mark.integration
def test_a_dead_servers_quota_leases_run_out(redis_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A server process that dies holding a visitor's jobs stops renewing their leases:
    the quota comes back once they run out, not never."""
    monkeypatch.setattr(queue, "LEASE_SECONDS", 0.6)
    prefix = f"noughts-test-{secrets.token_hex(4)}:"
    visitor, allowed = Asker("address 10.0.0.9"), LANES[Lane.REVIEW].anonymous

    async def scenario() -> None:
        dying, other = QueueThinking(redis_url, prefix), QueueThinking(redis_url, prefix)
        held = [dying._holding(Lane.REVIEW, visitor) for _ in range(allowed)]  # never given back
        for each in held:
            await each.__aenter__()
        await asyncio.sleep(0.5)  # renewed while its process lives
        with pytest.raises(TooManyJobsError):
            await other._holding(Lane.REVIEW, visitor).__aenter__()
        dying.shutdown()  # as if it died: nothing renews its leases
        await asyncio.sleep(0.7)
        async with other._holding(Lane.REVIEW, visitor):
            pass
        other.shutdown()

    asyncio.run(scenario())


def test_a_full_lane_refuses_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(LANES, Lane.MINING, replace(LANES[Lane.MINING], waiting=1))
    pool = ThinkingPool(workers=1)

    async def run() -> None:
        busy = asyncio.ensure_future(pool._run(Lane.MINING, SERVER, (time.sleep, 0.5), 30, "late"))
        await asyncio.sleep(0)
        waiting = asyncio.ensure_future(pool._run(Lane.MINING, SERVER, (time.time,), 30, "late"))
        await asyncio.sleep(0)
        with pytest.raises(LaneFullError) as refused:
            await pool._run(Lane.MINING, SERVER, (time.time,), 30, "late")
        assert refused.value.retry_after == LANES[Lane.MINING].retry_after
        await pool._run(Lane.MOVE, SERVER, (time.time,), 30, "late")  # another lane is not full
        await asyncio.gather(busy, waiting)

    try:
        asyncio.run(run())
    finally:
        pool.shutdown()


def test_a_queued_job_whose_asker_has_gone_is_dropped(tmp_path: Path) -> None:
    """The asker hangs up while their job waits: it never runs."""
    pool = ThinkingPool(workers=1)
    trace = tmp_path / "ran"

    async def hung_up() -> bool:
        return True

    async def run() -> None:
        busy = asyncio.ensure_future(pool._run(Lane.MOVE, SERVER, (time.sleep, 1.0), 30, "late"))
        await asyncio.sleep(0)
        asked = time.monotonic()
        with pytest.raises(AskerGoneError):
            await pool._run(Lane.MOVE, Asker("address 10.0.0.1", gone=hung_up), (trace.touch,), 30, "late")
        assert time.monotonic() - asked < 0.9  # dropped while the worker was still busy
        await busy
        await pool._run(Lane.MOVE, SERVER, (time.time,), 30, "late")  # the worker is free again

    try:
        asyncio.run(run())
    finally:
        pool.shutdown()
    assert not trace.exists()


def test_a_review_stops_after_the_position_its_asker_left_during() -> None:
    pool = ThinkingPool(workers=1)
    game = replay("classic", None, ["5", "1", "9", "3", "7"])
    asked = 0

    async def gone() -> bool:
        nonlocal asked
        asked += 1
        return asked > 1  # still there for the first position, gone after it

    async def run() -> None:
        await pool.start()  # no wait in the queue: the asker is asked between positions only
        with pytest.raises(AskerGoneError):
            await pool.review(game, "easy", 0.1, Asker("address 10.0.0.1", gone=gone))

    try:
        asyncio.run(run())
    finally:
        pool.shutdown()
    assert asked == 2  # before the first position and before the second: it stopped there


def _game(spec: str, seed: int, plies: int) -> Replayed:
    steps = playout(spec, seed, plies)
    return replay(spec, None, [state.game.move_text(move) for state, move in steps if move is not None])


def test_bot_moves_keep_their_pace_while_reviews_and_mining_run() -> None:
    """Six reviews of ultimate and the puzzle search of a dozen games keep a worker busy;
    a house bot's moves, each asked when the last is answered, come within a second
    (first come first served, each waited for the positions queued before it: seconds)."""
    pool = ThinkingPool(workers=2)
    bot_state = replay("classic", None, ["5"]).state

    async def run() -> list[float]:
        await pool.start()
        reviews = [pool.review(_game("ultimate", seed, 12), "hard", 0.5, SERVER) for seed in range(6)]
        mining = [pool.mine_game(_game("classic", seed, 7), 0.3, "test", 6) for seed in range(12)]
        background = asyncio.gather(*reviews, *mining)
        await asyncio.sleep(1.0)
        waits = []
        for _ in range(10):
            asked = time.monotonic()
            await pool.analyze(ThinkJob(bot_state, "easy"), Lane.MOVE, SERVER)
            waits.append(time.monotonic() - asked)
        assert not background.done()  # the moves were asked while the other work went on
        background.cancel()
        return waits

    try:
        waits = asyncio.run(run())
    finally:
        pool.shutdown()
    assert max(waits) < 1.0, waits


def test_a_short_review_does_not_wait_behind_a_long_ones_every_position() -> None:
    """One worker for reviews, a long review under way (each position thought about for
    0.3 s) and a short one asked meanwhile (0.01 s a position): once its first position has waited for the
    one running, the short review's positions run one after another (the worker time
    each asker took lately decides, not who came first), and the long one goes on.
    Before, the two took turns position by position."""
    pool = ThinkingPool(workers=1)
    done: list[str] = []
    # Ultimate at hard: its search spends the time it is given. (5x5 at medium was over in
    # milliseconds whatever the budget, and on a busy machine two of the short review's
    # positions then cost more worker time than the long one's head start.)
    long = replay("ultimate", None, ["55", "51", "15", "59", "95", "52", "25", "58"])
    short = replay("ultimate", None, ["55", "51", "15"])

    async def review(asker: str, game: Replayed, seconds: float) -> None:
        await pool.review(game, as_level("hard"), seconds, Asker(asker), lambda _: done.append(asker))

    async def run() -> None:
        await pool.start()
        first = asyncio.ensure_future(review("long", long, 0.3))
        # The long one's head start (three positions) is more worker time than the short
        # one's four positions take, however busy the machine: it is the share that counts.
        while done.count("long") < 3:
            await asyncio.sleep(0.01)
        await asyncio.gather(review("short", short, 0.01), first)

    try:
        asyncio.run(run())
    finally:
        pool.shutdown()
    begun = done.index("short")
    assert done[begun : begun + 4] == ["short"] * 4, done  # its four positions
    assert done.count("long") == 9
