"""The computer's thinking, in a pool of worker processes.

A search holds its CPU for up to the level's time limit; run in the server's process it
would stall every other request. So each request is one `ThinkJob`, built where the
request arrives from the game replayed there (once: the position is a small value that
pickles), and sent whole to a worker process, which builds the level's player there
(kept per game and level, so that solved tables and caches are built once per worker)
and sends the analysis back. The event loop only awaits the future.

Jobs wait in lanes (`Lane`: moves, analyses, reviews, puzzle mining), each asker
(`Asker`) holding a bounded number; the routes and the app call the pool through
`Thinking`, the interface another backend (a task queue's workers) implements too.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import signal
import threading
from collections import Counter, defaultdict, deque
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from contextlib import asynccontextmanager
from dataclasses import dataclass, replace
from enum import IntEnum
from functools import partial
from time import monotonic, sleep
from time import time as clock
from typing import Any, Protocol

from noughts.ai.base import AIPlayer, Analysis, Limits
from noughts.ai.levels import Level, level_player, level_time
from noughts.core import Game, InvalidOptionError, State
from noughts.study.puzzles import Judged

#: Added to the thinking time before a request gives up on its worker: players stop on
#: their own budget, and a table build or a cold worker may take some seconds more.
GRACE_SECONDS = 30.0
#: Added once more where max must first build its game's exact table (no cache file
#: yet): the biggest (4x4, 3x5, 2x8) take seconds in the compiled kernel, but half a
#: minute of CPU without numba, several on a busy machine (`noughts.ai.solve`), and an
#: answer waits for the table rather than guessing.
TABLE_BUILD_SECONDS = 180.0

#: The longest `ThinkingPool.start` waits for its workers to warm up: compiling the
#: kernels anew (numba's cache lost) takes a minute or two on a busy machine.
WARM_UP_SECONDS = 180.0

#: The least share of its time a move is thought about, however long its job waited
#: since it was asked (`ThinkJob.asked`): a queue backed up, or a worker machine's clock
#: set ahead, still gets a searched move, not a blind one.
LEAST_SHARE = 0.25

#: Players kept per (game, level, seed) in each worker thread (a player keeps its search
#: tables between calls, so two threads never share one: `noughts worker` thinks about
#: moves on several); bounded, since seeds come from requests.
_kept = threading.local()
_MAX_PLAYERS = 64


def _kept_player(key: tuple[Game[Any, Any], str, int | None, bool], make: Callable[[], AIPlayer]) -> AIPlayer:
    """This thread's player kept under `key`, made by `make` the first time."""
    players: dict[tuple[Game[Any, Any], str, int | None, bool], AIPlayer] | None = getattr(_kept, "players", None)
    if players is None:
        players = _kept.players = {}
    player = players.get(key)
    if player is None:
        if len(players) >= _MAX_PLAYERS:
            players.clear()
        player = players[key] = make()
    return player


@dataclass(frozen=True)
class ThinkJob:
    """A request to think: what `level` makes of `state`, within `time` seconds (None:
    the level's own limit), `seed` making its choices reproducible (None: any). The
    analysis is the one behind its move (`AIPlayer.decide`, as strong as the arena
    measured the level), or with `every_move` the value of every legal move
    (`AIPlayer.analyze`); `mistakes=False` leaves out the slips some levels make on
    purpose (a hint, a review, a bot weighing a draw offer).

    Built once where the request arrives, from the game replayed there, and sent whole
    to a worker process (it pickles)."""

    state: State[Any]
    level: Level
    time: float | None = None
    seed: int | None = None
    mistakes: bool = True
    every_move: bool = False
    asked: float | None = None
    """When someone asked for it (`time.time()`): the time since then, spent replaying,
    waiting in a lane and reaching a worker, is taken off the move's time, so that the
    answer comes within the time from the request (a bot's move within what its clock
    was charged). None: the whole time is thought (a review's positions)."""


def thinking_time(job: ThinkJob) -> float | None:
    """The seconds `job`'s search gets: its time (or its level's own) less the time
    since it was asked, at least `LEAST_SHARE` of it."""
    if job.asked is None:
        return job.time
    seconds = job.time if job.time is not None else level_time(job.state.game, job.level)
    if seconds is None:
        return None
    waited = max(0.0, clock() - job.asked)
    return max(seconds * LEAST_SHARE, seconds - waited)


def think(job: ThinkJob) -> Analysis:
    """Runs in a worker: `job`'s analysis.

    The request was validated by the server already; errors here still surface as the
    core's exceptions, which pickle back to the caller."""
    state = job.state
    key = (state.game, job.level, job.seed, job.mistakes)
    player = _kept_player(key, lambda: level_player(state.game, job.level, job.seed, job.mistakes))
    limits = Limits(time=thinking_time(job))
    return player.analyze(state, limits) if job.every_move else player.decide(state, limits)


def judge_puzzle(puzzle: dict[str, Any], played: list[str], time: float) -> Judged:
    """Runs in a worker: `noughts.study.puzzles.judge` with the game's prover (kept per
    game, like the levels' players). The route has read the puzzle's answer key first:
    a move that the key judges never comes here."""
    from noughts.registry import parse_spec
    from noughts.study.puzzles import Puzzle, judge

    found = Puzzle.from_json(puzzle)
    return judge(found, played, _prover_for(parse_spec(found.spec)), Limits(time=time))


def _prover_for(game: Game[Any, Any]) -> AIPlayer | None:
    """The game's exact prover, kept like the levels' players; None for a game without one."""
    from noughts.study.puzzles import prover

    try:
        return _kept_player((game, "prover", None, False), lambda: prover(game))
    except InvalidOptionError:
        return None


def mine_position(state: State[Any], time: float, source: str) -> dict[str, Any] | None:
    """Runs in a worker: the puzzle at `state`, as JSON, if it is one
    (`noughts.study.puzzles.puzzle_at`)."""
    from noughts.study.puzzles import puzzle_at

    player = _prover_for(state.game)
    if player is None or state.is_over:
        return None
    found = puzzle_at(state, player, Limits(time=time), source)
    return None if found is None else found.to_json()


def warm_up(kernels: bool) -> None:
    """Imports the players in a new worker before its first request needs them, and
    with `kernels` loads the compiled players' kernels (compiled or from numba's cache)."""
    import noughts.ai  # noqa: F401

    if kernels:
        from noughts.ai.compiled import prepare

        prepare()


def _start_worker(server_pid: int, warm_kernels: bool) -> None:
    """Runs first in every worker of the pool: a watchdog, then the warm-up."""
    # Ctrl-C reaches every process of the terminal's group: the server stops its pool,
    # and a worker that took the signal itself would print its own traceback.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    threading.Thread(target=_exit_with_the_server, args=(server_pid,), daemon=True).start()
    warm_up(warm_kernels)


def _exit_with_the_server(server_pid: int) -> None:
    # A server that is killed (kill -9, out of memory) cannot stop its pool, and idle
    # workers would wait on their queue forever: they leave once they are orphaned.
    while os.getppid() == server_pid:
        sleep(1.0)
    os._exit(0)


def _table_build(game: Game[Any, Any], level: Level) -> float:
    """The extra seconds a request of `level` may need to build the game's table first."""
    from noughts.ai.capabilities import capabilities
    from noughts.ai.solve import is_cached

    if level != "max":
        return 0.0
    return TABLE_BUILD_SECONDS if capabilities(game).table == "first use" and not is_cached(game) else 0.0


def _worker_ready(hold: float) -> int:
    """Runs in a worker once its start-up (`_start_worker`) is done: its process id,
    after holding the worker `hold` seconds so that the same round's other calls go to
    the other workers."""
    sleep(hold)
    return os.getpid()


class Lane(IntEnum):
    """What a job is for, most urgent first: the pool always starts the next job from
    the most urgent lane that has one waiting."""

    #: A move someone waits for: a house bot's (on its clock), a computer move, a hint.
    MOVE = 0
    #: The analysis board's deeper looks, a puzzle solver's move judged.
    ANALYSIS = 1
    #: A game's review, a position at a time.
    REVIEW = 2
    #: The puzzle search after an online game ends: nobody waits for it.
    MINING = 3


@dataclass(frozen=True)
class Asker:
    """Who a job is for: `key` names them for their quota (a user's id, else the
    visitor's address), `signed_in` gives the larger quota, and `gone` (when given)
    says whether they have stopped waiting (the HTTP client hung up): their queued
    jobs are then dropped, and a review stops after its current position."""

    key: str
    signed_in: bool = False
    gone: Callable[[], Awaitable[bool]] | None = None


#: The server's own work (house bots, draw offers, puzzle mining): no visitor's quota,
#: only the lanes' bounds.
SERVER = Asker("server", signed_in=True)


@dataclass(frozen=True)
class LaneRules:
    """A lane's bounds: the jobs one anonymous visitor or one signed-in user may hold
    in it at once (a review is one job however many positions it has), the jobs that
    may wait in it, and the seconds a refused asker is told to wait (Retry-After)."""

    anonymous: int
    signed_in: int
    waiting: int
    retry_after: int


LANES: dict[Lane, LaneRules] = {
    Lane.MOVE: LaneRules(anonymous=4, signed_in=8, waiting=1024, retry_after=1),
    Lane.ANALYSIS: LaneRules(anonymous=2, signed_in=4, waiting=128, retry_after=2),
    Lane.REVIEW: LaneRules(anonymous=1, signed_in=2, waiting=64, retry_after=10),
    Lane.MINING: LaneRules(anonymous=0, signed_in=0, waiting=256, retry_after=30),
}


class ThinkingError(Exception):
    """A worker did not answer within the thinking time and its grace, or died."""


class ComputerBusyError(ThinkingError):
    """The job was refused before it started; try again in `retry_after` seconds."""

    def __init__(self, message: str, retry_after: int) -> None:
        super().__init__(message)
        self.retry_after = retry_after


class TooManyJobsError(ComputerBusyError):
    """The asker holds as many jobs of the lane as their quota allows (HTTP 429)."""


class LaneFullError(ComputerBusyError):
    """As many jobs wait in the lane as it holds (HTTP 503)."""


class AskerGoneError(ThinkingError):
    """The asker stopped waiting (hung up) before their job was done: it was dropped."""


class PlayedGame(Protocol):
    """A game as played so far, what a review or the puzzle search reads of it: its game,
    its states from the start (one more than its moves) and its moves' texts. The
    server's replayed requests (`noughts.server.replay.Replayed`) are such games."""

    @property
    def game(self) -> Game[Any, Any]: ...

    @property
    def states(self) -> Sequence[State[Any]]: ...

    @property
    def moves(self) -> list[str]: ...


class Thinking(Protocol):
    """What the server asks of its thinkers, whatever runs them: `ThinkingPool` (worker
    processes of this server, the default) or a task queue's workers. Every call names
    who asks (`Asker`, for the quotas and to drop work nobody waits for); the lane is
    the caller's for `analyze` and implied by the others.
    Errors: `TooManyJobsError`, `LaneFullError` (refused at once), `AskerGoneError`,
    `ThinkingError` (late, or a worker died)."""

    async def start(self) -> None:
        """Returns once the thinkers can take work without a cold start."""

    async def analyze(self, job: ThinkJob, lane: Lane, asker: Asker, late: str = ...) -> Analysis:
        """`job`'s analysis (`think`)."""

    async def review(
        self,
        game: PlayedGame,
        level: Level,
        time: float,
        asker: Asker,
        progress: Callable[[int], None] | None = None,
    ) -> dict[str, Any]:
        """`level`'s review of `game` as JSON (lane REVIEW, a job a position), telling
        `progress` how many positions are done after each."""

    async def judge(self, puzzle: dict[str, Any], played: list[str], time: float, asker: Asker) -> Judged:
        """A puzzle solver's move judged (lane ANALYSIS)."""

    async def mine_game(self, game: PlayedGame, time: float, source: str, last: int) -> list[dict[str, Any]]:
        """The puzzles before `game`'s last `last` moves (lane MINING, the server's)."""

    def shutdown(self) -> None:
        """Stops the thinkers; work in progress is dropped."""


@dataclass(eq=False)
class _Queued:
    """A job waiting for a worker: `started` gets the executor's future once it has one."""

    lane: Lane
    work: tuple[Any, ...]
    loop: asyncio.AbstractEventLoop
    started: asyncio.Future[Future[Any]]
    asker: str = ""


class LanedThinking:
    """What every `Thinking` backend shares: the askers' quotas per lane, a review as a
    job a position, the puzzle judging and mining as jobs; a backend says how a job runs
    (`_run`). No job thinks longer than `max_think` seconds (None: as asked)."""

    def __init__(self, max_think: float | None = None) -> None:
        self.max_think = max_think
        # The jobs each asker holds per lane.
        self._held: Counter[tuple[Lane, str]] = Counter()

    async def start(self) -> None:
        """Returns once the thinkers can take work without a cold start."""
        raise NotImplementedError

    def shutdown(self) -> None:
        """Stops the thinkers; work in progress is dropped."""
        raise NotImplementedError

    async def _run(self, lane: Lane, asker: Asker, work: tuple[Any, ...], budget: float, late: str) -> Any:
        """`work` (a function of this module's and its arguments) run by a thinker once
        its lane's turn comes; a ThinkingError saying `late` if it takes more than
        `budget` seconds from its start there."""
        raise NotImplementedError

    async def analyze(
        self, job: ThinkJob, lane: Lane, asker: Asker, late: str = "the computer did not answer"
    ) -> Analysis:
        """`job`'s analysis (`think`), its time capped at the pool's `max_think`; a
        ThinkingError that says `late` if it takes longer than that and a grace once
        started."""
        async with self._holding(lane, asker):
            answer: Analysis = await self._analyze(job, lane, asker, late)
        return answer

    async def _analyze(self, job: ThinkJob, lane: Lane, asker: Asker, late: str) -> Analysis:
        if job.time is not None:
            job = replace(job, time=self._capped(job.time))
        budget = (job.time if job.time is not None else 10.0) + GRACE_SECONDS + _table_build(job.state.game, job.level)
        answer: Analysis = await self._run(lane, asker, (think, job), budget, late)
        return answer

    async def review(
        self,
        game: PlayedGame,
        level: Level,
        time: float,
        asker: Asker,
        progress: Callable[[int], None] | None = None,
    ) -> dict[str, Any]:
        """`level`'s review of `game` (`noughts.study.review`) as JSON: each position
        analysed in a worker, `time` seconds each, a job a position, so that more urgent
        work overtakes it between positions; `progress` hears how many of the game's
        positions are done after each. It stops (AskerGoneError) after the current
        position once its asker has gone."""
        from noughts.ai.levels import level_spec
        from noughts.study.review import review_from_analyses

        analyses: list[Analysis | None] = []
        # One position waits in the lane while the one before is thought about: when a
        # position ends, the review's next is there to be weighed against the others'
        # (ThinkingPool's fair share), and a free worker takes it at once.
        ahead: deque[asyncio.Future[Analysis] | None] = deque()

        def ask(state: State[Any]) -> asyncio.Future[Analysis] | None:
            if state.is_over:
                return None
            job = ThinkJob(state, level, time, mistakes=False, every_move=True)
            return asyncio.ensure_future(self._analyze(job, Lane.REVIEW, asker, "the review did not finish"))

        async with self._holding(Lane.REVIEW, asker):
            try:
                states = list(game.states)
                for index, state in enumerate(states):
                    if not state.is_over and await asker_gone(asker):
                        raise AskerGoneError("the review's asker has gone")
                    ahead.append(ask(state))
                    while ahead and (len(ahead) > REVIEW_AHEAD or index == len(states) - 1):
                        position = ahead.popleft()
                        analyses.append(None if position is None else await position)
                        if progress is not None:
                            progress(len(analyses))
            finally:
                for position in ahead:
                    if position is not None:
                        position.cancel()
        name = f"{level} ({level_spec(game.game, level)})"
        return review_from_analyses(list(game.states), game.moves, analyses, name).to_json()

    async def judge(self, puzzle: dict[str, Any], played: list[str], time: float, asker: Asker) -> Judged:
        """A puzzle solver's move judged in a worker (`judge_puzzle`)."""
        async with self._holding(Lane.ANALYSIS, asker):
            work = (judge_puzzle, puzzle, played, time)
            answer: Judged = await self._run(Lane.ANALYSIS, asker, work, time + GRACE_SECONDS, "no judgement")
        return answer

    async def mine_game(self, game: PlayedGame, time: float, source: str, last: int) -> list[dict[str, Any]]:
        """The puzzles among the positions before `game`'s last `last` moves
        (`mine_position`), one position a job in the lowest lane."""
        found = []
        for state in game.states[-1 - last : -1]:
            work = (mine_position, state, time, source)
            late = "the puzzle search did not finish"
            puzzle = await self._run(Lane.MINING, SERVER, work, time * 4 + GRACE_SECONDS, late)
            if puzzle is not None:
                found.append(puzzle)
        return found

    def _capped(self, time: float) -> float:
        return time if self.max_think is None else min(time, self.max_think)

    @asynccontextmanager
    async def _holding(self, lane: Lane, asker: Asker) -> AsyncIterator[None]:
        """Counts a job of `asker`'s in `lane` while it lasts; TooManyJobsError beyond
        their quota (the server's own work has none)."""
        if asker.key == SERVER.key:
            yield
            return
        rules = LANES[lane]
        allowed = rules.signed_in if asker.signed_in else rules.anonymous
        held = await self._take(lane, asker.key, allowed)
        if held is None:
            who = "you are" if asker.signed_in else "your address is"
            message = f"{who} already waiting for {allowed} {lane.name.lower()} job(s) of the computer; wait for them"
            raise TooManyJobsError(message, rules.retry_after)
        try:
            yield
        finally:
            await self._give_back(lane, asker.key, held)

    async def _take(self, lane: Lane, key: str, allowed: int) -> str | None:
        """One of the `allowed` jobs that asker `key` may hold in `lane`, or None if
        they hold them all; here, counted in this process."""
        if self._held[lane, key] >= allowed:
            return None
        self._held[lane, key] += 1
        return key

    async def _give_back(self, lane: Lane, key: str, held: str) -> None:
        """Gives back a job `_take` gave."""
        self._held[lane, key] -= 1
        if not self._held[lane, key]:
            del self._held[lane, key]


class ThinkingPool(LanedThinking):
    """`Thinking` in this server's worker processes (a process pool, started with the app
    or with the first job). No job thinks longer than `max_think` seconds (None: as
    asked).

    Jobs are not handed to the pool's executor as they come: they wait in their lane
    here, and a job starts only when a worker is free, from the most urgent lane that
    has one (the executor's own queue, first come first served, stays empty). One worker
    is kept for the MOVE lane (when there are two or more): reviews and mining never hold
    every worker, so a move starts at once however much other work waits."""

    def __init__(self, workers: int | None = None, warm_kernels: bool = False, max_think: float | None = None) -> None:
        super().__init__(max_think)
        self.workers = workers or max(1, min(4, os.cpu_count() or 1))
        self.warm_kernels = warm_kernels
        self._executor: ProcessPoolExecutor | None = None
        # The lanes and the jobs running (all, and those of the lanes below MOVE). The
        # executor's thread finishes jobs: the lock, reentrant since a job done already
        # when it is started finishes there and then.
        self._lock = threading.RLock()
        self._waiting: dict[Lane, deque[_Queued]] = {lane: deque() for lane in Lane}
        self._running: dict[Future[Any], Lane] = {}
        #: The review lane's share: the worker seconds each asker's review positions took
        #: lately, and when their last one ended (`_fairest`).
        self._spent: defaultdict[str, float] = defaultdict(float)
        self._seen: dict[str, float] = {}
        self._reviewing: dict[Future[Any], tuple[str, float]] = {}

    async def start(self) -> None:
        """Starts every worker and returns once each has warmed up (imported the players,
        and loaded the compiled kernels when `warm_kernels`), so that no request pays for
        a cold worker. Bounded: a worker that never answers leaves it to the first jobs."""
        pool = self._pool()
        loop = asyncio.get_running_loop()
        ready: set[int] = set()
        deadline = loop.time() + WARM_UP_SECONDS
        while len(ready) < self.workers and loop.time() < deadline:
            calls = [loop.run_in_executor(pool, _worker_ready, 0.05) for _ in range(self.workers)]
            ready.update(await asyncio.gather(*calls))

    def _pool(self) -> ProcessPoolExecutor:
        if self._executor is None:
            # spawn, not fork: the server runs threads (uvicorn, asyncio), and forking a
            # threaded process can copy a held lock into the child.
            self._executor = ProcessPoolExecutor(
                self.workers,
                mp_context=multiprocessing.get_context("spawn"),
                initializer=_start_worker,
                initargs=(os.getpid(), self.warm_kernels),
            )
        return self._executor

    async def _run(self, lane: Lane, asker: Asker, work: tuple[Any, ...], budget: float, late: str) -> Any:
        """`work` (a function and its arguments) in a worker once its lane's turn comes,
        within `budget` seconds of starting there."""
        future = await self._started(lane, asker, work)
        try:
            return await asyncio.wait_for(asyncio.wrap_future(future), budget)
        except TimeoutError:
            raise ThinkingError(f"{late} within {budget:.0f} seconds") from None
        except BrokenProcessPool:
            # A worker died (killed, out of memory): the next request gets a new pool.
            self.shutdown()
            raise ThinkingError("the computer's worker process stopped; try again") from None

    async def _started(self, lane: Lane, asker: Asker, work: tuple[Any, ...]) -> Future[Any]:
        """Queues `work` in `lane` and waits for its worker: the executor's future. The
        job is dropped if the caller is cancelled or the asker goes meanwhile."""
        loop = asyncio.get_running_loop()
        queued = _Queued(lane, work, loop, loop.create_future(), asker.key)
        with self._lock:
            if len(self._waiting[lane]) >= LANES[lane].waiting:
                message = f"the computer has {LANES[lane].waiting} {lane.name.lower()} jobs waiting already; try later"
                raise LaneFullError(message, LANES[lane].retry_after)
            self._waiting[lane].append(queued)
        self._dispatch()
        try:
            while True:
                done, _ = await asyncio.wait([queued.started], timeout=None if asker.gone is None else GONE_POLL)
                if done:
                    return queued.started.result()
                if await asker_gone(asker):
                    raise AskerGoneError("the job's asker has gone")
        except BaseException:
            with self._lock:
                if queued in self._waiting[lane]:
                    self._waiting[lane].remove(queued)
            if queued.started.done() and not queued.started.cancelled():
                queued.started.result().cancel()  # too late if it runs already: its answer is dropped
            raise

    def _dispatch(self) -> None:
        """Starts waiting jobs, most urgent lane first, while a worker is free for them."""
        with self._lock:
            while len(self._running) < self.workers:
                queued = self._next()
                if queued is None:
                    return
                future = self._pool().submit(*queued.work)
                self._running[future] = queued.lane
                if queued.lane is Lane.REVIEW:
                    self._reviewing[future] = (queued.asker, monotonic())
                future.add_done_callback(partial(self._finished, queued.loop))
                queued.loop.call_soon_threadsafe(_hand_over, queued.started, future)

    def _next(self) -> _Queued | None:
        """The next job to start: the first of the most urgent lane that may start one
        (the lanes below MOVE leave one worker free for moves)."""
        below_moves = sum(lane is not Lane.MOVE for lane in self._running.values())
        below_moves_allowed = below_moves < max(1, self.workers - 1)
        for lane in Lane:
            if self._waiting[lane] and (lane is Lane.MOVE or below_moves_allowed):
                return self._fairest(self._waiting[lane]) if lane is Lane.REVIEW else self._waiting[lane].popleft()
        return None

    def _fairest(self, waiting: deque[_Queued]) -> _Queued:
        """The review position to start: the one whose asker's positions took the least
        worker time lately (the first come among equals), so that a short review does
        not wait behind a long one's every position, and two long ones take turns."""
        chosen = min(waiting, key=lambda queued: self._spent[queued.asker])
        waiting.remove(chosen)
        return chosen

    def _finished(self, loop: asyncio.AbstractEventLoop, future: Future[Any]) -> None:
        # Called in the executor's own thread: the next job is started from the event loop.
        with self._lock:
            self._running.pop(future, None)
            reviewed = self._reviewing.pop(future, None)
            if reviewed is not None:
                asker, began = reviewed
                now = monotonic()
                self._spent[asker] += now - began
                self._seen[asker] = now
                for old in [a for a, seen in self._seen.items() if now - seen > REVIEW_MEMORY]:
                    del self._seen[old], self._spent[old]
        try:
            loop.call_soon_threadsafe(self._dispatch)
        except RuntimeError:  # that loop has closed (its asker's asyncio.run ended)
            self._dispatch()

    def shutdown(self) -> None:
        with self._lock:
            self._running.clear()  # their workers are gone with the executor
        if self._executor is not None:
            self._executor.shutdown(wait=False, cancel_futures=True)
            self._executor = None


#: Review positions queued beyond the one being thought about.
REVIEW_AHEAD = 1
#: Seconds after an asker's last review position that the review lane forgets the time
#: their positions took (`ThinkingPool._fairest`).
REVIEW_MEMORY = 120.0
#: Seconds between looks at whether a queued job's asker has gone.
GONE_POLL = 0.25


async def asker_gone(asker: Asker) -> bool:
    """Whether `asker` has stopped waiting."""
    return asker.gone is not None and await asker.gone()


def _hand_over(started: asyncio.Future[Future[Any]], future: Future[Any]) -> None:
    """In the asker's loop: the job has its worker (or, if its asker stopped waiting
    meanwhile, is cancelled when it has not started yet)."""
    if started.done():
        future.cancel()
    else:
        started.set_result(future)
