"""The computer's thinking, in a pool of worker processes.

A search holds its CPU for up to the level's time limit; run in the server's process it
would stall every other request. So each request is one `ThinkJob`, built where the
request arrives from the game replayed there (once: the position is a small value that
pickles), and sent whole to a worker process, which builds the level's player there
(kept per game and level, so that solved tables and caches are built once per worker)
and sends the analysis back. The event loop only awaits the future.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import threading
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, replace
from time import sleep
from typing import Any

from noughts.ai.base import AIPlayer, Analysis, Limits
from noughts.ai.levels import Level, level_player
from noughts.core import Game, InvalidOptionError, State
from noughts.server.replay import Replayed
from noughts.study.puzzles import Judged

#: Added to the thinking time before a request gives up on its worker: players stop on
#: their own budget, and a table build or a cold worker may take some seconds more.
GRACE_SECONDS = 30.0
#: Added once more where max must first build its game's exact table (no cache file
#: yet): the biggest (4x4, 3x5, 2x8) take seconds in the compiled kernel, but half a
#: minute of CPU without numba, several on a busy machine (`noughts.ai.solve`), and an
#: answer waits for the table rather than guessing.
TABLE_BUILD_SECONDS = 180.0

#: Players kept per (game, level, seed) in each worker; bounded, since seeds come from
#: requests.
_players: dict[tuple[Game[Any, Any], str, int | None, bool], AIPlayer] = {}
_MAX_PLAYERS = 64


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


def think(job: ThinkJob) -> Analysis:
    """Runs in a worker: `job`'s analysis.

    The request was validated by the server already; errors here still surface as the
    core's exceptions, which pickle back to the caller."""
    state = job.state
    key = (state.game, job.level, job.seed, job.mistakes)
    player = _players.get(key)
    if player is None:
        if len(_players) >= _MAX_PLAYERS:
            _players.clear()
        player = _players[key] = level_player(state.game, job.level, job.seed, job.mistakes)
    limits = Limits(time=job.time)
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

    key = (game, "prover", None, False)
    player = _players.get(key)
    if player is None:
        try:
            found = prover(game)
        except InvalidOptionError:
            return None
        if len(_players) >= _MAX_PLAYERS:
            _players.clear()
        player = _players[key] = found
    return player


def mine_position(state: State[Any], time: float, source: str) -> dict[str, Any] | None:
    """Runs in a worker: the puzzle at `state`, as JSON, if it is one
    (`noughts.study.puzzles.puzzle_at`)."""
    from noughts.study.puzzles import puzzle_at

    player = _prover_for(state.game)
    if player is None or state.is_over:
        return None
    found = puzzle_at(state, player, Limits(time=time), source)
    return None if found is None else found.to_json()


def _warm_up() -> None:
    """Imports the players in a new worker before its first request needs them."""
    import noughts.ai  # noqa: F401


def _start_worker(server_pid: int, warm_kernels: bool) -> None:
    """Runs first in every worker: a watchdog, then the warm-up (with the compiled
    players' kernels, compiled or loaded from numba's cache, when asked)."""
    threading.Thread(target=_exit_with_the_server, args=(server_pid,), daemon=True).start()
    _warm_up()
    if warm_kernels:
        from noughts.ai.compiled import prepare

        prepare()


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


class ThinkingError(Exception):
    """A worker did not answer within the thinking time and its grace, or died."""


class ThinkingPool:
    """A process pool for `think`, started lazily and shut down with the app; no request
    thinks longer than `max_think` seconds (None: as asked)."""

    def __init__(self, workers: int | None = None, warm_kernels: bool = False, max_think: float | None = None) -> None:
        self.workers = workers or max(1, min(4, os.cpu_count() or 1))
        self.warm_kernels = warm_kernels
        self.max_think = max_think
        self._executor: ProcessPoolExecutor | None = None

    def start(self) -> None:
        """Starts every worker now (each warms up at once) rather than on first use."""
        pool = self._pool()
        for _ in range(self.workers):
            pool.submit(_warm_up)  # a no-op task each, so that every worker process starts

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

    async def analyze(self, job: ThinkJob, late: str = "the computer did not answer") -> Analysis:
        """`job`'s analysis (`think`), its time capped at the pool's `max_think`; a
        ThinkingError that says `late` if it takes longer than that and a grace."""
        if job.time is not None:
            job = replace(job, time=self._capped(job.time))
        budget = (job.time if job.time is not None else 10.0) + GRACE_SECONDS + _table_build(job.state.game, job.level)
        answer: Analysis = await self._run((think, job), budget, late)
        return answer

    async def review(
        self, game: Replayed, level: Level, time: float, progress: Callable[[int], None] | None = None
    ) -> dict[str, Any]:
        """`level`'s review of `game` (`noughts.study.review`) as JSON: each position
        analysed in a worker, `time` seconds each, one task after another, so that the
        computer's moves in other games take their turns in the pool meanwhile;
        `progress` hears how many of the game's positions are done after each."""
        from noughts.ai.levels import level_spec
        from noughts.study.review import review_from_analyses

        analyses: list[Analysis | None] = []
        for state in game.states:
            job = ThinkJob(state, level, time, mistakes=False, every_move=True)
            analyses.append(None if state.is_over else await self.analyze(job, "the review did not finish"))
            if progress is not None:
                progress(len(analyses))
        name = f"{level} ({level_spec(game.game, level)})"
        return review_from_analyses(list(game.states), game.moves, analyses, name).to_json()

    async def judge(self, puzzle: dict[str, Any], played: list[str], time: float) -> Judged:
        """A puzzle solver's move judged in a worker (`judge_puzzle`)."""
        answer: Judged = await self._run((judge_puzzle, puzzle, played, time), time + GRACE_SECONDS, "no judgement")
        return answer

    async def mine_game(self, game: Replayed, time: float, source: str, last: int) -> list[dict[str, Any]]:
        """The puzzles among the positions before `game`'s last `last` moves
        (`mine_position`), one position a task, so that computer moves in other games
        take their turns."""
        found = []
        for state in game.states[-1 - last : -1]:
            work = (mine_position, state, time, source)
            puzzle = await self._run(work, time * 4 + GRACE_SECONDS, "the puzzle search did not finish")
            if puzzle is not None:
                found.append(puzzle)
        return found

    def _capped(self, time: float) -> float:
        return time if self.max_think is None else min(time, self.max_think)

    async def _run(self, work: tuple[Any, ...], budget: float, late: str) -> Any:
        """`work` (a function and its arguments) in a worker, within `budget` seconds."""
        loop = asyncio.get_running_loop()
        future = loop.run_in_executor(self._pool(), *work)
        try:
            return await asyncio.wait_for(future, budget)
        except TimeoutError:
            raise ThinkingError(f"{late} within {budget:.0f} seconds") from None
        except BrokenProcessPool:
            # A worker died (killed, out of memory): the next request gets a new pool.
            self.shutdown()
            raise ThinkingError("the computer's worker process stopped; try again") from None

    def shutdown(self) -> None:
        if self._executor is not None:
            self._executor.shutdown(wait=False, cancel_futures=True)
            self._executor = None
