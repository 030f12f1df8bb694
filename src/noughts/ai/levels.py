"""The levels people choose from — easy, medium, hard, max — for every game.

Each level is a player spec (the same text the arena and the engine take) plus, for
``easy``, a seeded rate of deliberate mistakes. ``max`` is exact play wherever a
perfect player exists and the strongest search elsewhere. `level_player` builds one;
`level_spec` says what a level is for a game, for the record.

The mapping is measured, not guessed: ``noughts arena GAME easy medium hard max`` plays
each level against the others and docs/strength.md keeps the tables. Where the first
player wins by force and the upper levels all convert that win (gobblet, nine-board,
qubic), one random opening ply leaves two levels to split their games by colour, so
there they are compared from three random plies (``--opening-plies 3``).
"""

from __future__ import annotations

import concurrent.futures
import random
import time
from dataclasses import replace
from typing import Any

from noughts.ai.base import AIPlayer, Analysis, Kind, Limits, parse_player, register_player, require_moves
from noughts.core import Game, InvalidOptionError, State
from noughts.games.gobblet import Gobblet
from noughts.games.mnk import Mnk

__all__ = ["LEVELS", "ExactOrSearch", "FalliblePlayer", "level_player", "level_spec"]

LEVELS = ("easy", "medium", "hard", "max")

#: easy's chance, per move, of ignoring its search and playing another move.
EASY_MISTAKES = 0.35
#: In the games max plays perfectly, a short search already plays (nearly) perfectly
#: too, so medium and hard differ from max by how often they slip: measured in
#: docs/strength.md, without these rates medium, hard and max only drew each other.
SOLVED_GAME_MISTAKES = {"medium": 0.2, "hard": 0.07}


def _exact_available(game: Game[Any, Any]) -> bool:
    """Where the perfect player has a table (or, matryoshka, an exact search)."""
    if isinstance(game, Mnk):
        return (game.forget and game.m <= 3 and game.n <= 3) or (not game.forget and game.m <= 4 and game.n <= 4)
    return isinstance(game, Gobblet) and not game.moves


def _five_board(game: Game[Any, Any]) -> bool:
    return isinstance(game, Mnk) and game.cells > 16 and not game.forget and game.k >= 5


def level_spec(game: Game[Any, Any], level: str) -> str:
    """The player a level stands for in `game`, as a player spec."""
    if level not in LEVELS:
        raise InvalidOptionError(f"unknown level {level!r}; the levels are: {', '.join(LEVELS)}")
    key = game.key
    big_board = isinstance(game, Mnk) and game.cells > 16
    if level == "easy":
        return "alphabeta:depth=1"
    if level == "medium":
        if big_board:
            # One ply, without easy's slips, and never missing a block (`guard`):
            # depth 2 beat hard (then depth 3) only 67.5% on 7x7 (40 games), and valuing
            # every move (the server's analysis) at depth 2 takes 50,000 evaluations
            # on 15x15.
            return "alphabeta:depth=1:guard=true"
        return "alphabeta:depth=2"
    from noughts.kernels import supports

    compiled = supports(game)  # the compiled players: ultimate, nine-board, qubic 4x4x4
    if level == "hard":
        if isinstance(game, Mnk) and game.forget and not big_board:
            # 0.5 s already finds the forced wins of this short game. (On a big board
            # depth 4 without a time limit would take minutes: the rule below.)
            return "alphabeta:depth=4"
        if key == "gobblet":
            # Each ply is a clear step in gobblet: a depth, not a time (0.5 s reached
            # depth 3 or 4 depending on the load and split its games with max). Depth 3
            # beat medium's depth 2 only 56-65% (80 and 40 games); depth 4 beats it 70%
            # (40) and loses 72.5% to max (20), from 3 random plies, about 0.5 s a move.
            return "alphabeta:depth=4"
        if compiled and key == "nine-board":
            # X wins nearly every game whoever plays it, so hard must be weak enough to
            # miss it now and then: at 0.25 s max beat it 60-81%; 7,000 iterations (a
            # hundredth of a second) lose to max 85% and beat medium 100% (40 games each,
            # bench/kernel_levels.py, 3 random plies), independent of the machine's load.
            return "kmcts:iterations=7000"
        if compiled and key == "ultimate":
            # At 0.25 s max beat it 72.5% (20 games); 20,000 iterations (about 40 ms)
            # lose to max 97.5% and beat medium 100% (20 each, bench/kernel_levels.py).
            return "kmcts:iterations=20000"
        if compiled:
            # Qubic: 0.5 s found the same first-player wins as max's 3 s and scored 40%
            # against it over 48 games. Depth 5 without the threat search does not
            # depend on the machine's load; since forced blocks cost no depth it loses to max 82.5% (+32 =2 -6) and beats medium 92.5% (40
            # games each from 3 random plies, bench/kernel_levels.py).
            return "kalphabeta:depth=5:threats=false"
        if key in ("ultimate", "nine-board"):
            return "mcts:time=1"
        if isinstance(game, Mnk) and big_board and not game.forget and not _five_board(game):
            # 7x7 four in a row: max beat depth 3 only 65% (20 games; 77.5% over 40
            # before the evaluation got faster), and depth 3 with the search for fours
            # beat max 60%. Depth 2 beats medium's one ply 75% and loses to max 85%.
            return "alphabeta:depth=2"
        if big_board:
            # The time caps depth 3 on the biggest boards, where (five in a row) the
            # search for wins by fours makes it stronger than medium: without it the
            # two split their games. Forget mode (7x7, keep 6): medium < hard 90%,
            # hard < max 70% (10 games each).
            return "alphabeta:depth=3:time=1" + (":threats=true" if _five_board(game) else "")
        return "alphabeta:time=0.5"
    # max
    if _exact_available(game):
        return "perfect"
    if compiled and key in ("ultimate", "nine-board"):
        # Contempt: a draw costs a quarter of a loss, so max plays on for a win. Against
        # OpenSpiel's MCTSBot in ultimate (40 games, 1 s a move each) it scored 95.0%
        # (+38 =0 -2) with it, 80.0% (+25 =14 -1) without: most of what it dropped
        # were draws.
        return "kmcts:time=2:contempt=0.25"
    if compiled:
        return "kalphabeta:time=3"
    if key == "ultimate":
        # Forget mode (no kernels): against hard (mcts:time=1), 20 games from the same
        # openings, alpha-beta at 3 s scored 87.5% (+17 =1 -2) where
        # mcts:time=3 scored 70% (+12 =4 -4).
        return "alphabeta:time=3"
    if key == "nine-board":
        return "mcts:time=3"
    if isinstance(game, Mnk) and big_board and not game.forget:
        # Wins by fours and threes, for either side, far beyond the search's horizon:
        # without them max only split its games with hard on 7x7. On boards from 10x10
        # searching only next to the marks (near=2) took it from depth 2 to 4 on 15x15
        # and from 60% to 80% against hard (20 games each); on 7x7 it drops few cells
        # and scored 60% against hard (20) where max without it scored 77.5% (40).
        # Below that, fours settle positions inside the search (blocks): on 7x7 it took
        # max from 72.5% (40 games) to 83.3% (60) against hard; on 15x15, at
        # 1 s a move, the search with it scored 48% (+9 =1 -10) against the same without.
        if game.cells >= 100:
            return "alphabeta:time=3:threats=true:threes=true:near=2"
        return "alphabeta:time=3:threats=true:threes=true:blocks=true"
    return "alphabeta:time=3"


def level_player(game: Game[Any, Any], level: str, seed: int | None = None, mistakes: bool = True) -> AIPlayer:
    """The player for `level` in `game`; `seed` makes easy's mistakes and any random
    tie-breaks reproducible. ``mistakes=False`` gives the level's search without its
    deliberate slips: the advisor behind a hint, which must never mislead on purpose."""
    spec = level_spec(game, level)
    if seed is not None and not spec.startswith("perfect"):
        spec += f":seed={seed}"
    player = parse_player(spec)
    if mistakes and level == "easy":
        return FalliblePlayer(player, EASY_MISTAKES, seed)
    if mistakes and level in SOLVED_GAME_MISTAKES and _exact_available(game):
        return FalliblePlayer(player, SOLVED_GAME_MISTAKES[level], seed)
    if spec == "perfect":
        fallback = parse_player("alphabeta:time=3" + (f":seed={seed}" if seed is not None else ""))
        return ExactOrSearch(player, fallback)
    return player


class FalliblePlayer(AIPlayer):
    """Plays like `inner`, except that with probability `rate` it plays a random other
    legal move instead of the best one: it sometimes misses a win or a block, on purpose,
    so that a beginner can beat it. Seeded, so a game can be replayed."""

    def __init__(self, inner: AIPlayer, rate: float, seed: int | None = None) -> None:
        if not 0 <= rate <= 1:
            raise InvalidOptionError("the mistake rate is between 0 and 1")
        self.inner, self.rate, self.seed = inner, rate, seed
        self.rng = random.Random(seed)
        self.name = f"{inner.name}+mistakes"

    def reset(self) -> None:
        self.inner.reset()
        self.rng = random.Random(self.seed)

    def analyze(self, state: State[Any], limits: Limits = Limits()) -> Analysis:
        analysis = self.inner.analyze(state, limits)
        if len(analysis.moves) > 1 and self.rng.random() < self.rate:
            pick = self.rng.randrange(1, len(analysis.moves))
            moves = [analysis.moves[pick], *analysis.moves[:pick], *analysis.moves[pick + 1 :]]
            return replace(analysis, player=self.name, moves=moves, pv=[moves[0].text])
        return replace(analysis, player=self.name)


class ExactOrSearch(AIPlayer):
    """Exact play when the exact player answers in time, else the fallback search.

    Solved tables are built on first use (classic in milliseconds, 4x4 in about a
    minute) on a background thread; until a table is ready, and when an exact search
    runs out of time, the fallback decides, so the first move never waits for a build.
    """

    def __init__(self, exact: AIPlayer, fallback: AIPlayer, wait: float = 1.0) -> None:
        self.exact, self.fallback, self.wait = exact, fallback, wait
        self.name = exact.name

    def reset(self) -> None:
        self.exact.reset()
        self.fallback.reset()

    def analyze(self, state: State[Any], limits: Limits = Limits()) -> Analysis:
        return self._answer(state, limits, every_move=True)

    def decide(self, state: State[Any], limits: Limits = Limits()) -> Analysis:
        return self._answer(state, limits, every_move=False)

    def _answer(self, state: State[Any], limits: Limits, every_move: bool) -> Analysis:
        started = time.perf_counter()
        require_moves(state)
        budget = self.wait if limits.time is None else min(self.wait, limits.time / 2)
        try:
            analysis = self.exact.analyze(state, Limits(time=budget))
        except (InvalidOptionError, concurrent.futures.TimeoutError):
            analysis = None
        if analysis is not None and all(info.value.kind is not Kind.UNKNOWN for info in analysis.moves):
            return analysis
        left = None if limits.time is None else max(limits.time - (time.perf_counter() - started), 0.05)
        limits = replace(limits, time=left) if left is not None else limits
        return self.fallback.analyze(state, limits) if every_move else self.fallback.decide(state, limits)


def _level_factory(level: str) -> Any:
    class _LevelPlayer(AIPlayer):
        """A level as a registered player: the game is known only at the first move."""

        name = level

        def __init__(self, seed: int | None = None) -> None:
            self.seed = seed
            self._players: dict[Game[Any, Any], AIPlayer] = {}

        def _for(self, game: Game[Any, Any]) -> AIPlayer:
            if game not in self._players:
                self._players[game] = level_player(game, level, self.seed)
            return self._players[game]

        def reset(self) -> None:
            for player in self._players.values():
                player.reset()

        def analyze(self, state: State[Any], limits: Limits = Limits()) -> Analysis:
            return self._for(state.game).analyze(state, limits)

        def decide(self, state: State[Any], limits: Limits = Limits()) -> Analysis:
            return self._for(state.game).decide(state, limits)

    _LevelPlayer.__name__ = f"Level_{level}"
    return _LevelPlayer


for _level in LEVELS:
    register_player(_level, _level_factory(_level))
