"""Jobs wait in lanes (`Lane`: moves, analyses, reviews, puzzle mining), each asker
(`Asker`) holding a bounded number; the routes and the app call the thinkers through
`Thinking`, which the server's own pool (`noughts.thinking.pool`) and a task queue's
workers (`noughts.thinking.queue`) implement, both on `LanedThinking`.
"""

from __future__ import annotations

import asyncio
from collections import Counter, deque
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass, replace
from enum import IntEnum
from typing import Any, Protocol

from noughts.ai.base import Analysis
from noughts.ai.levels import Level
from noughts.core import Game, State
from noughts.study.puzzles import Judged
from noughts.thinking.jobs import ThinkJob, judge_puzzle, mine_position, think

#: Added to the thinking time before a request gives up on its worker: players stop on
#: their own budget, and a table build or a cold worker may take some seconds more.
GRACE_SECONDS = 30.0
#: Added once more where max must first build its game's exact table (no cache file
#: yet): the biggest (4x4, 3x5, 2x8) take seconds in the compiled kernel, but half a
#: minute of CPU without numba, several on a busy machine (`noughts.ai.solve`), and an
#: answer waits for the table rather than guessing.
TABLE_BUILD_SECONDS = 180.0


def _table_build(game: Game[Any, Any], level: Level) -> float:
    """The extra seconds a request of `level` may need to build the game's table first."""
    from noughts.ai.capabilities import capabilities
    from noughts.ai.solve import is_cached

    if level != "max":
        return 0.0
    return TABLE_BUILD_SECONDS if capabilities(game).table == "first use" and not is_cached(game) else 0.0


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
        """`work` (a function of `noughts.thinking.jobs` and its arguments) run by a
        thinker once its lane's turn comes; a ThinkingError saying `late` if it takes
        more than `budget` seconds from its start there."""
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


#: Review positions queued beyond the one being thought about.
REVIEW_AHEAD = 1
#: Seconds between looks at whether a queued job's asker has gone.
GONE_POLL = 0.25


async def asker_gone(asker: Asker) -> bool:
    """Whether `asker` has stopped waiting."""
    return asker.gone is not None and await asker.gone()
