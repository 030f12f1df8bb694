"""The worker pool's request: one `ThinkJob`, built once from the replayed game and
sent whole to a worker process."""

from __future__ import annotations

import asyncio
import logging
import pickle
import secrets
import threading
import time
from collections.abc import Iterator
from contextlib import AsyncExitStack, ExitStack, contextmanager
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from noughts.ai.base import Analysis, Limits
from noughts.ai.levels import as_level, level_player
from noughts.registry import parse_spec
from noughts.server import Settings, create_app, queue_thinking
from noughts.server.queue_thinking import QueueThinking
from noughts.server.replay import Replayed, replay
from noughts.server.thinking import (
    GONE_POLL,
    LANES,
    SERVER,
    Asker,
    AskerGoneError,
    Lane,
    LanedThinking,
    LaneFullError,
    ThinkingPool,
    ThinkJob,
    TooManyJobsError,
    think,
    thinking_time,
)

from support import SPECS, playout


@pytest.mark.parametrize("spec", SPECS)
def test_a_job_pickles_whole_in_every_game(spec: str) -> None:
    """The process pool pickles its work: a job comes back equal, its position too."""
    states = [state for state, _ in playout(spec, seed=3, max_plies=12)]
    for state in (states[0], states[-1]):
        job = ThinkJob(state, "hard", 0.5, 7, mistakes=False, every_move=True)
        again = pickle.loads(pickle.dumps(job))
        assert again == job
        assert again.state == state and again.state.game == parse_spec(spec)


@pytest.mark.parametrize("mistakes", [True, False])
def test_the_worker_plays_the_levels_own_move(mistakes: bool) -> None:
    """What a worker makes of a job is the core's level player on its position."""
    state = replay("classic", None, ["5", "1"]).state
    job = pickle.loads(pickle.dumps(ThinkJob(state, "easy", None, 11, mistakes=mistakes)))
    direct = level_player(state.game, "easy", 11, mistakes).decide(state, Limits())
    assert think(job).moves[0].text == direct.moves[0].text


def test_a_moves_time_counts_from_when_it_was_asked() -> None:
    """A move's time runs from the request: a job that waited gets what is left of its
    time (its level's own where it names none), never less than a quarter of it; a job
    nobody stamped (a review's position) gets its whole time."""
    state = replay("ultimate", None, ["55"]).state
    now = time.time()
    assert thinking_time(ThinkJob(state, "max", 1.0)) == 1.0
    assert thinking_time(ThinkJob(state, "max", None)) is None
    left = thinking_time(ThinkJob(state, "max", 1.0, asked=now - 0.4))
    assert left is not None and 0.6 - (time.time() - now) <= left <= 0.6
    assert thinking_time(ThinkJob(state, "max", 1.0, asked=now - 60)) == 0.25
    # max's own time in ultimate is 2 s (the level table's kmcts:time=2)
    own = thinking_time(ThinkJob(state, "max", None, asked=now - 1.5))
    assert own is not None and 0.4 <= own <= 0.5
    # Its 0.3 s left, well under the whole second (0.63 s seen in a test run at load 8:
    # the player's first search in a process loads its kernels within its time).
    searched = think(ThinkJob(state, "max", 1.0, asked=time.time() - 0.7))
    assert searched.time is not None and 0.2 <= searched.time <= 0.8


def test_every_move_asks_for_every_moves_value() -> None:
    state = replay("classic", None, ["5"]).state
    analysis = think(ThinkJob(state, "max", None, None, mistakes=False, every_move=True))
    assert sorted(info.text for info in analysis.moves) == sorted(state.game.move_text(m) for m in state.legal_moves())
    assert all(info.value.exact for info in analysis.moves)


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
    monkeypatch.setattr(queue_thinking, "LEASE_SECONDS", 0.6)
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


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    with TestClient(create_app(Settings(ai_workers=1))) as c:
        yield c


def test_a_visitor_beyond_their_quota_is_told_when_to_come_back(client: TestClient) -> None:
    """429 with Retry-After, for that lane only (a review is refused when it would start:
    to a request that waits for it, else to the next ask)."""
    pool: ThinkingPool = client.app.state.thinking  # type: ignore[attr-defined]
    review = {"spec": "classic", "moves": ["5", "1"], "level": "easy", "time": 0.123, "wait": 10}
    with ExitStack() as held:
        for _ in range(LANES[Lane.REVIEW].anonymous):  # the test client's address is "testclient"
            held.enter_context(holding(pool, Lane.REVIEW, Asker("address testclient")))
        answer = client.post("/api/review", json=review)
        assert answer.status_code == 429, answer.text
        assert answer.json()["error"] == "too-many-jobs"
        assert answer.headers["Retry-After"] == str(LANES[Lane.REVIEW].retry_after)
        assert (
            client.post("/api/computer", json={"spec": "classic", "moves": ["5"], "level": "easy"}).status_code == 200
        )
    assert client.post("/api/review", json=review).status_code == 200


def test_a_full_lane_answers_503_and_a_hint_is_in_the_lane_of_moves(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The analysis board's deeper looks wait in the analysis lane; a hint (a second at
    most) in the moves' lane, which is not full."""
    monkeypatch.setitem(LANES, Lane.ANALYSIS, replace(LANES[Lane.ANALYSIS], waiting=0))
    deeper = client.post("/api/analysis", json={"spec": "classic", "moves": ["5"], "level": "easy", "time": 2.5})
    assert deeper.status_code == 503, deeper.text
    assert deeper.json()["error"] == "computer-busy"
    assert deeper.headers["Retry-After"] == str(LANES[Lane.ANALYSIS].retry_after)
    hint = client.post("/api/analysis", json={"spec": "classic", "moves": ["5"], "level": "easy", "time": 1})
    assert hint.status_code == 200, hint.text


def test_a_dropped_puzzle_search_is_one_warning_line(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """After an online game, a full mining lane drops the search: one line saying why,
    no traceback (the server's log is not flooded)."""
    from noughts.server.routes.puzzles import mine_finished_game
    from server.online.test_actions import playing

    monkeypatch.setitem(LANES, Lane.MINING, replace(LANES[Lane.MINING], waiting=0))
    pool = ThinkingPool(workers=1)
    row = playing("1", "4", "2", "5", "3")
    with caplog.at_level(logging.WARNING):
        asyncio.run(mine_finished_game(pool, None, row))  # type: ignore[arg-type]  # no store: nothing is found
    assert [(r.levelno, r.exc_info) for r in caplog.records] == [(logging.WARNING, None)]
    assert f"game {row.id} dropped" in caplog.records[0].getMessage()
    assert "mining jobs waiting" in caplog.records[0].getMessage()


@pytest.mark.integration  # a real server: the client hangs up on its socket
def test_a_request_whose_client_hung_up_leaves_its_lane(tmp_path: Path) -> None:
    """An analysis asked while the only worker thinks waits in its lane; its client gives
    up and closes the connection: the analysis leaves the lane before it runs."""
    import httpx2
    import uvicorn

    app = create_app(Settings(database=f"sqlite:///{tmp_path / 'noughts.db'}", ai_workers=1))
    pool: ThinkingPool = app.state.thinking
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=0, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    try:
        while not server.started:
            time.sleep(0.01)
        base = f"http://127.0.0.1:{server.servers[0].sockets[0].getsockname()[1]}"
        think = {"spec": "qubic", "moves": ["111", "222", "333"], "level": "max", "time": 3}
        thinker = threading.Thread(target=lambda: httpx2.post(f"{base}/api/computer", json=think, timeout=60))
        thinker.start()
        time.sleep(1.0)  # the think has the worker
        deeper = {"spec": "classic", "moves": ["5", "1"], "level": "easy", "time": 2}
        with pytest.raises(httpx2.TimeoutException):
            httpx2.post(f"{base}/api/analysis", json=deeper, timeout=0.5)
        assert thinker.is_alive()  # the worker is still busy
        time.sleep(4 * GONE_POLL)
        assert not pool._waiting[Lane.ANALYSIS]
        thinker.join(60)
    finally:
        server.should_exit = True
        thread.join(10)


def test_a_short_review_does_not_wait_behind_a_long_ones_every_position() -> None:
    """One worker for reviews, a long review under way (each position thought about for
    0.2 s) and a short one asked meanwhile (0.01 s a position): once its first position has waited for the
    one running, the short review's positions run one after another (the worker time
    each asker took lately decides, not who came first), and the long one goes on.
    Before, the two took turns position by position."""
    pool = ThinkingPool(workers=1)
    done: list[str] = []
    long = replay("mnk:m=5:n=5:k=4", None, ["a1", "b2", "c3", "d4", "e5", "a5", "b4", "c2"])
    short = replay("mnk:m=5:n=5:k=4", None, ["c3", "b2", "d4"])

    async def review(asker: str, game: Replayed, seconds: float) -> None:
        await pool.review(game, as_level("medium"), seconds, Asker(asker), lambda _: done.append(asker))

    async def run() -> None:
        await pool.start()
        first = asyncio.ensure_future(review("long", long, 0.2))
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
