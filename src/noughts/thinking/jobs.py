"""What a thinker runs: a request to think (`ThinkJob`), built once where the request
arrives from the game replayed there (the position is a small value that pickles), and
sent whole to a worker, which builds the level's player there (kept per game and level,
so that solved tables and caches are built once per worker) and sends the analysis
back; and the puzzle judging and search, run the same way.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass
from time import time as clock
from typing import Any

from noughts.ai.base import AIPlayer, Analysis, Limits
from noughts.ai.levels import Level, level_player, level_time
from noughts.core import Game, InvalidOptionError, State
from noughts.study.puzzles import Judged

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
