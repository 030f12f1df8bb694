"""The round-robin: every pair of entrants plays `games` games, colours alternating,
each seeded random opening played once with each colour, the games spread over a
pool of worker processes. Interrupting (Ctrl-C) keeps the games that finished."""

from __future__ import annotations

import itertools
import multiprocessing
import random
import signal
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from noughts.ai import Limits
from noughts.ai.evaluation import register_weights
from noughts.arena.entrants import Entrant, build_player
from noughts.core import Game
from noughts.match import ForfeitError, play_game, random_opening
from noughts.registry import parse_spec

__all__ = ["GameResult", "GameTask", "Tournament", "Variant", "run", "schedule"]


@dataclass(frozen=True)
class Variant:
    """An evaluator `base` with other `weights`, known to the players as `name`."""

    name: str
    base: str
    weights: tuple[tuple[str, float], ...]

    def register(self, game: Game[Any, Any]) -> None:
        register_weights(game, self.base, self.name, dict(self.weights))


@dataclass(frozen=True)
class GameTask:
    """One game to play: everything a worker needs, picklable."""

    index: int
    game: str  # the game spec
    x: Entrant
    o: Entrant
    opening: tuple[str, ...]  # move texts
    seed: int
    time: float | None  # seconds per move for every player, None: their own budgets
    #: Evaluators with other weights the players may name: (name, base evaluator, weights).
    variants: tuple[Variant, ...] = ()


@dataclass(frozen=True)
class GameResult:
    """A finished game: its record (text form) and, for a forfeit, why."""

    index: int
    x: str
    o: str
    result: str  # x-wins, o-wins or draw
    record: str
    seconds: float
    forfeit: str | None = None


@dataclass
class Tournament:
    """The games scheduled and those that finished (in the order they finished)."""

    game: str
    entrants: list[Entrant]
    tasks: list[GameTask]
    results: list[GameResult] = field(default_factory=list)
    interrupted: bool = False


def schedule(
    game_spec: str,
    entrants: list[Entrant],
    games: int,
    seed: int = 0,
    time: float | None = None,
    opening_plies: int = 1,
    variants: tuple[Variant, ...] = (),
) -> Tournament:
    """The games of a round-robin. Every pairing plays the same openings, each once
    with each colour (an odd `games` leaves the last opening played once)."""
    game = parse_spec(game_spec)
    rng = random.Random(seed)
    openings = [
        tuple(game.move_text(m) for m in random_opening(game, opening_plies, rng)) for _ in range((games + 1) // 2)
    ]
    tasks: list[GameTask] = []
    for a, b in itertools.combinations(entrants, 2):
        for i in range(games):
            x, o = (a, b) if i % 2 == 0 else (b, a)
            index = len(tasks)
            tasks.append(GameTask(index, game.spec, x, o, openings[i // 2], seed * 1_000_003 + index, time, variants))
    # Interleave the pairings, so that an interrupted run has some games of each.
    tasks.sort(key=lambda t: (t.index % games, t.index))
    return Tournament(game.spec, entrants, tasks)


def play(task: GameTask) -> GameResult:
    """Play one game (in a worker process: the players are built here, from specs)."""
    started = time.perf_counter()
    game = parse_spec(task.game)
    for variant in task.variants:
        variant.register(game)
    x = build_player(task.x, task.seed, task.time)
    o = build_player(task.o, task.seed + 1, task.time)
    state = game.initial()
    opening = []
    for text in task.opening:
        move = game.parse_move(text)
        opening.append(move)
        state = state.play(move)
    forfeits: list[ForfeitError] = []
    limits = Limits(time=task.time)
    record = play_game(game, x, o, limits, opening, (task.x.name, task.o.name), forfeits)
    return GameResult(
        task.index,
        task.x.name,
        task.o.name,
        record.result,
        record.to_text(),
        time.perf_counter() - started,
        str(forfeits[0]) if forfeits else None,
    )


def _quiet_worker() -> None:
    # Ctrl-C in a terminal reaches the whole process group: the parent decides what
    # happens (keep what finished), the workers must not die with a traceback each.
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def run(
    tournament: Tournament,
    jobs: int,
    on_result: Callable[[GameResult], None] = lambda result: None,
) -> Tournament:
    """Play the scheduled games on `jobs` worker processes, calling `on_result` as each
    one finishes. On KeyboardInterrupt the workers are stopped and the tournament
    keeps the games that finished (``interrupted`` is set); an error in a game (a
    player that does not play this game) stops the run and is raised."""
    context = multiprocessing.get_context("spawn")
    pool = context.Pool(max(1, jobs), initializer=_quiet_worker)
    try:
        for result in pool.imap_unordered(play, tournament.tasks):
            tournament.results.append(result)
            on_result(result)
        pool.close()
    except KeyboardInterrupt:
        tournament.interrupted = True
    finally:
        pool.terminate()
        pool.join()
    return tournament
