"""The levels people choose from — easy, medium, hard, max — for every game.

Each level is a player spec (the same text the arena and the engine take) plus, for
``easy``, a seeded rate of deliberate mistakes. ``max`` is exact play wherever a
perfect player exists and the strongest search elsewhere. `level_player` builds one;
`level_spec` says what a level is for a game, for the record, and `level_row` why.

The mapping is data, `LEVEL_TABLE`: per level and kind of game the player spec, the
measured figure that justifies it and the command that measures it again
(``noughts arena GAME easy medium hard max`` plays the levels against each other,
bench/kernel_levels.py two levels of the compiled games); docs/strength.md shows the
same table. Where the first
player wins by force and the upper levels all convert that win (gobblet, nine-board,
qubic), one random opening ply leaves two levels to split their games by colour, so
there they are compared from three random plies (``--opening-plies 3``).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any, Literal, get_args

from noughts.ai.base import AIPlayer, Analysis, Kind, Limits, register_player, require_moves, seeded_player, split_spec
from noughts.ai.capabilities import capabilities
from noughts.core import Game, InvalidOptionError, State, closest, shown
from noughts.registry import parse_spec
from noughts.variant import Trait, placed_on_grid

__all__ = [
    "DEFAULT_LEVEL",
    "GAME_KINDS",
    "LEVELS",
    "LEVEL_CARDS",
    "LEVEL_TABLE",
    "ExactOrSearch",
    "FalliblePlayer",
    "Level",
    "LevelCard",
    "LevelRow",
    "as_level",
    "level_player",
    "level_row",
    "level_spec",
]

Level = Literal["easy", "medium", "hard", "max"]
"""A level's name: the only place the names are written. The terminal, the engine, the
server's schema (and through its catalogue, /api/games, the web page) take them from here."""
LEVELS: tuple[Level, ...] = get_args(Level)
"""The levels of the app, weakest first (`level_player`)."""
DEFAULT_LEVEL: Level = "medium"
"""The level a game against the computer starts at when nobody chose one."""


@dataclass(frozen=True)
class LevelCard:
    """A level as people meet it: what it does, in words, and where its house bot
    stands before it has played rated games (its players per game: `LEVEL_TABLE`)."""

    name: Level
    description: str
    """What the level does, as the level menus describe it."""
    house_rating: float
    """The rating its house bot starts from in a game it has not played rated games in
    (the levels' measured order, docs/strength.md; quick pairing's fill-in picks the bot
    nearest a player's rating by these until the Glicko ratings take over)."""

    @property
    def rows(self) -> tuple[LevelRow, ...]:
        """Its players per kind of game, each with the figure that justifies it."""
        return tuple(row for row in LEVEL_TABLE if row.level == self.name)


LEVEL_CARDS: dict[Level, LevelCard] = {
    card.name: card
    for card in (
        LevelCard("easy", "looks one move ahead and now and then misses something on purpose", 1000.0),
        LevelCard("medium", "looks two moves ahead", 1400.0),
        LevelCard("hard", "searches deeper: half a second, or three moves ahead in gobblet and on big boards", 1800.0),
        LevelCard("max", "perfect play where the game is solved, otherwise a three-second search", 2200.0),
    )
}
"""Every level's card, weakest first."""

#: easy's chance, per move, of ignoring its search and playing another move.
EASY_MISTAKES = 0.35
#: In the games max plays perfectly, a short search already plays (nearly) perfectly
#: too, so medium and hard differ from max by how often they slip: measured in
#: docs/strength.md, without these rates medium, hard and max only drew each other.
SOLVED_GAME_MISTAKES = {"medium": 0.2, "hard": 0.07}


def _exact_available(game: Game[Any, Any]) -> bool:
    """Where the perfect player is exact from the first call: a table built on first
    use, or (matryoshka) an exact search."""
    return capabilities(game).exact_at_once


def _compiled(game: Game[Any, Any]) -> bool:
    return capabilities(game).compiled


def _big(game: Any) -> bool:
    """A board of the m,n,k-game's kind of more than 16 cells."""
    return placed_on_grid(game) and game.cells > 16


def _big_plain(game: Any, k_min: int = 0, k_below: int = 99, cells_min: int = 0) -> bool:
    """A board of the m,n,k-game's kind of more than 16 cells without Forget mode, k and
    cells in range."""
    return _big(game) and Trait.FORGET not in game.traits and k_min <= game.k < k_below and game.cells >= cells_min


#: The kinds of game the table below tells apart, by the name its rows (and
#: docs/strength.md) use. A row applies to a game of its kind; the first row of a level
#: that applies wins, so a broad kind comes after the narrow ones it contains.
GAME_KINDS: dict[str, Callable[[Game[Any, Any]], bool]] = {
    "every game": lambda game: True,
    "solved": _exact_available,
    "connect4 solver": lambda game: capabilities(game).solver,
    "mnk over 16 cells": _big,
    "mnk up to 16 cells, Forget mode": lambda game: (
        placed_on_grid(game) and Trait.FORGET in game.traits and not _big(game)
    ),
    "gobblet": lambda game: Trait.SHIFTS in game.traits,
    "nine-board": lambda game: _compiled(game) and game.key == "nine-board",
    "ultimate": lambda game: _compiled(game) and game.key == "ultimate",
    "qubic 4x4x4": lambda game: _compiled(game) and game.key == "qubic",
    "ultimate, Forget mode": lambda game: game.key == "ultimate",
    "nine-board, Forget mode": lambda game: game.key == "nine-board",
    "mnk over 16 cells, k < 5": lambda game: _big_plain(game, k_below=5),
    "mnk over 16 cells, k >= 5": lambda game: _big_plain(game, k_min=5),
    "mnk over 16 cells, Forget mode": _big,
    "mnk from 100 cells": lambda game: _big_plain(game, cells_min=100),
    "mnk over 16 cells, below 100": _big_plain,
}


@dataclass(frozen=True)
class LevelRow:
    """One line of the level table: in games of `kind`, `level` is the player `spec`,
    because of the measured `evidence` (what beat what, by how much, over how many
    games; its date) that `command` reproduces."""

    level: str
    kind: str
    spec: str
    evidence: str = ""
    command: str = ""


_ARENA = ".venv/bin/noughts arena"
_PAIRS = ".venv/bin/python bench/kernel_levels.py"

#: Every level of every game: the first row of a level whose kind fits the game.
#: docs/strength.md shows this table (tests/ai/test_levels.py keeps the two equal).
LEVEL_TABLE: tuple[LevelRow, ...] = (
    LevelRow(
        "easy",
        "mnk over 16 cells",
        "alphabeta:depth=1:guard=true",
        "one ply, and 35% of its moves a random other one; with medium's guard, as one ply alone made its own "
        "four rather than block the opponent's, who then won; easy < medium 90%, +18 -2 (15x15, 20 games) and "
        "85%, +17 -3 (7x7, 20) (2026-12-02)",
        f"{_ARENA} mnk:m=15:n=15:k=5 easy medium --games 20 --seed 1 --jobs 1",
    ),
    LevelRow("easy", "every game", "alphabeta:depth=1", "one ply, and 35% of its moves a random other one"),
    LevelRow(
        "medium",
        "mnk over 16 cells",
        "alphabeta:depth=1:guard=true",
        "easy < medium 85% (7x7, 20 games) and 90% (15x15, 20) (2026-12-02); depth 2 beat a depth-3 hard only "
        "67.5% on 7x7 (40), and valuing every move at depth 2 takes 50,000 evaluations on 15x15 (2026-11-22)",
        f"{_ARENA} mnk:m=7:n=7:k=4 easy medium hard --games 20 --seed 1 --jobs 1",
    ),
    LevelRow("medium", "every game", "alphabeta:depth=2", "easy < medium 64-100% in every game (2026-11-22)"),
    LevelRow(
        "hard",
        "mnk up to 16 cells, Forget mode",
        "alphabeta:depth=4",
        "medium < hard 80% (classic:forget, 40 games); 0.5 s found the same forced wins (2026-11-22)",
        f"{_ARENA} classic:forget medium hard --games 40 --seed 1 --jobs 1",
    ),
    LevelRow(
        "hard",
        "gobblet",
        "alphabeta:depth=4",
        "medium < hard 70%, +27 =2 -11 (40 games), hard < max 72.5% (20), from 3 random plies; depth 3 beat "
        "medium only 56-65% (2026-11-22)",
        f"{_ARENA} gobblet medium alphabeta:depth=4 --games 40 --seed 2 --opening-plies 3 --jobs 1",
    ),
    LevelRow(
        "hard",
        "nine-board",
        "kmcts:iterations=7000",
        "x wins nearly every game, so hard must miss it now and then: max beats it 85.0%, +34 -6, and it beats "
        "medium 100% (40 games each, 3 random plies; at 0.25 s max beat it only 60-81%) (2026-11-22)",
        f"{_PAIRS} nine-board max hard --games 40 --opening-plies 3 --jobs 1 --seed 1",
    ),
    LevelRow(
        "hard",
        "ultimate",
        "kmcts:iterations=20000",
        "about 40 ms a move: max beats it 97.5%, +19 =1 -0, and it beats medium 100% (20 games each; at 0.25 s "
        "max beat it 72.5%) (2026-11-22)",
        f"{_PAIRS} ultimate max kmcts:iterations=20000 --games 20 --jobs 2 --seed 1",
    ),
    LevelRow(
        "hard",
        "qubic 4x4x4",
        "kalphabeta:depth=5:threats=false",
        "a depth, independent of the machine's load: max beats it 82.5%, +32 =2 -6, and it beats medium 92.5% "
        "(40 games each from 3 random plies; at 0.5 s it scored 40% against max) (2026-11-22)",
        f"{_PAIRS} qubic max hard --games 20 --opening-plies 3 --jobs 1 --seed S (S = 1, 2)",
    ),
    LevelRow(
        "hard",
        "ultimate, Forget mode",
        "mcts:time=1",
        "medium < hard 90% (10 games, 3 random plies); 300 iterations lost to medium (2026-11-22)",
        f"{_ARENA} ultimate:forget=true medium hard --games 10 --seed 1 --opening-plies 3 --jobs 2",
    ),
    LevelRow(
        "hard",
        "nine-board, Forget mode",
        "mcts:time=1",
        "medium < hard 100% (10 games, 3 random plies) (2026-11-22)",
        f"{_ARENA} nine-board:forget=true medium hard --games 10 --seed 1 --opening-plies 3 --jobs 2",
    ),
    LevelRow(
        "hard",
        "mnk over 16 cells, k < 5",
        "alphabeta:depth=2",
        "medium < hard 82.5% and hard < max 83.3% on 7x7 (40 and 60 games); depth 3 lost to max only 65%, and "
        "with the search for fours it beat max 60% (2026-11-22)",
        f"{_ARENA} mnk:m=7:n=7:k=4 medium hard --games 20 --seed 2 --jobs 1",
    ),
    LevelRow(
        "hard",
        "mnk over 16 cells, k >= 5",
        "alphabeta:depth=3:time=1:threats=true",
        "medium < hard 75% on 15x15 (40 games): the search for wins by fours is what lifts it over medium, "
        "without it the two split their games (2026-11-22)",
        f"{_ARENA} mnk:m=15:n=15:k=5 medium hard --games 20 --seed 2 --jobs 1",
    ),
    LevelRow(
        "hard",
        "mnk over 16 cells, Forget mode",
        "alphabeta:depth=3:time=1",
        "7x7, keep 6: medium < hard 90%, hard < max 70% (10 games) (2026-11-22)",
        f"{_ARENA} mnk:m=7:n=7:k=4:forget=true:keep=6 easy medium hard max --games 10 --seed 1 --jobs 1",
    ),
    LevelRow("hard", "every game", "alphabeta:time=0.5", "medium < hard 63% in classic (60 games) (2026-11-22)"),
    LevelRow(
        "max",
        "gobblet",
        "perfect",
        "exact play from the solved table (retrograde analysis, docs/strength.md) once `noughts solve gobblet` "
        "has built it; until then the opening book, then as x the shipped winning strategy (24 of 24 against hard "
        "from o's every reply, 2026-11-28) and as o the search alphabeta:time=3",
        ".venv/bin/noughts solve gobblet",
    ),
    LevelRow(
        "max",
        "connect4 solver",
        "perfect",
        "exact play: the shipped book of 7x6's first plies, then Pons's solver within 1 s; where it does not "
        "finish, the search alphabeta:time=3 (its values estimates); see docs/strength.md#connect-four-the-solver",
        ".venv/bin/python bench/connect4_solver.py --by-depth",
    ),
    LevelRow(
        "max",
        "solved",
        "perfect",
        "exact play from the solved table (matryoshka: its shipped book of the first 5 plies, then an exact search);"
        " hard < max 62-72% (2026-11-22)",
        f"{_ARENA} classic easy medium hard max --games 60 --seed 1",
    ),
    LevelRow(
        "max",
        "nine-board",
        "kmcts:time=2:contempt=0.25:endgame=51",
        "a draw costs a quarter of a loss, so max plays on for a win; hard < max 85.0% (40 games) (2026-11-22); "
        "from 51 empty cells the exact search, which proves all of 40 such positions, the slowest in 0.35 s, "
        "so the values are exact (2026-11-25)",
        f"{_PAIRS} nine-board max hard --games 40 --opening-plies 3 --jobs 1 --seed 1",
    ),
    LevelRow(
        "max",
        "ultimate",
        "kmcts:time=2:contempt=0.25:endgame=39:minimax=0.3",
        "against mcthouacbb/uttt, a C++ alpha-beta engine built from its public source, at 0.1 s a move "
        "(80 games from 2 random opening plies, one a side): 96.3%, +76 =2 -2, with implicit minimax on the "
        "learned evaluation, "
        "where without it 84.4%, +64 =7 -9, from the same openings (2026-11-29); a draw costs a quarter of a "
        "loss; from 39 empty cells the exact search, which proves 80% of such positions within 1 s, so the "
        "values are exact (2026-11-25)",
        f"{_ARENA} ultimate max --ugi uttt=/path/to/uttt --time 0.1 --games 80 --opening-plies 2 --jobs 1 --seed 9",
    ),
    LevelRow(
        "max",
        "qubic 4x4x4",
        "kalphabeta:time=3",
        "hard < max 82.5%, +32 =2 -6 (40 games from 3 random plies) (2026-11-22)",
        f"{_PAIRS} qubic max hard --games 20 --opening-plies 3 --jobs 1 --seed S (S = 1, 2)",
    ),
    LevelRow(
        "max",
        "ultimate, Forget mode",
        "alphabeta:time=3",
        "against hard from the same openings 87.5%, +17 =1 -2 (20 games), where mcts:time=3 scored 70% (2026-11-22)",
        f"{_ARENA} ultimate:forget=true hard alphabeta:time=3 --games 20 --seed 2 --opening-plies 3 --jobs 1",
    ),
    LevelRow(
        "max",
        "nine-board, Forget mode",
        "mcts:time=3",
        "hard < max 80%, +16 -4 (20 games, 3 random plies) (2026-11-22)",
        f"{_ARENA} nine-board:forget=true hard max --games 20 --seed 2 --opening-plies 3 --jobs 1",
    ),
    LevelRow(
        "max",
        "mnk from 100 cells",
        "alphabeta:time=3:threats=true:threes=true:near=2",
        "wins by fours and threes far beyond the horizon, and only the cells next to the marks (depth 4 instead "
        "of 2 on 15x15): hard < max 87.5% on 15x15 (40 games; 60% without near) (2026-11-22)",
        f"{_ARENA} mnk:m=15:n=15:k=5 hard max --games 20 --seed 2 --jobs 2",
    ),
    LevelRow(
        "max",
        "mnk over 16 cells, below 100",
        "alphabeta:time=3:threats=true:threes=true:blocks=true",
        "fours settle positions inside the search: hard < max 83.3% on 7x7 (60 games), 72.5% (40) without "
        "blocks (2026-11-22)",
        f"{_ARENA} mnk:m=7:n=7:k=4 hard max --games 20 --seed S --jobs 1 (S = 1, 2, 3)",
    ),
    LevelRow("max", "every game", "alphabeta:time=3", "the strongest search where no row above applies"),
)


def as_level(text: str) -> Level:
    """`text` as a level's name; InvalidOptionError, naming the levels, for any other text."""
    for level in LEVELS:
        if text == level:
            return level
    raise InvalidOptionError(f"unknown level {shown(text)}{closest(text, LEVELS)}; the levels are: {', '.join(LEVELS)}")


def level_row(game: Game[Any, Any], level: str) -> LevelRow:
    """The row of `LEVEL_TABLE` that says what `level` is in `game`, and why."""
    level = as_level(level)
    return next(row for row in LEVEL_TABLE if row.level == level and GAME_KINDS[row.kind](game))


def level_spec(game: Game[Any, Any], level: str) -> str:
    """The player a level stands for in `game`, as a player spec."""
    return level_row(game, level).spec


def level_time(game: Game[Any, Any], level: str) -> float | None:
    """The seconds `level` takes for a move in `game` when given no time (its spec's
    ``time=``); None where it has no time of its own (an exact table, a depth)."""
    seconds = split_spec(level_spec(game, level))[1].get("time")
    return None if seconds is None else float(seconds)


def level_player(game: Game[Any, Any] | str, level: str, seed: int | None = None, mistakes: bool = True) -> AIPlayer:
    """The player for `level` in `game` (a Game or its spec text, ``"classic"``); `seed`
    makes easy's mistakes and any random tie-breaks reproducible. ``mistakes=False``
    gives the level's search without its deliberate slips: the advisor behind a hint,
    which must never mislead on purpose."""
    game = parse_spec(game) if isinstance(game, str) else game
    spec = level_spec(game, level)
    player = seeded_player(spec, seed)
    if mistakes and level == "easy":
        return FalliblePlayer(player, EASY_MISTAKES, seed)
    if mistakes and level in SOLVED_GAME_MISTAKES and _exact_available(game):
        return FalliblePlayer(player, SOLVED_GAME_MISTAKES[level], seed)
    if spec == "perfect":
        fallback = seeded_player("alphabeta:time=3", seed)
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
        self.uses_kernels = inner.uses_kernels

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

    A solved table is built before the first answer (classic in milliseconds, 4x4 in
    seconds, `noughts.ai.solve`), so tables always answer exactly; the fallback
    decides where an exact search runs out of time (matryoshka) and where gobblet's
    table is not built yet, and its analysis carries its own name, so that a review or
    an analysis says that its values are estimates. Where the exact player proves a win
    and leaves other moves unvalued (gobblet's strategy for x), the win stays the answer
    and the search values the rest (`_merged`).
    """

    def __init__(self, exact: AIPlayer, fallback: AIPlayer, wait: float = 1.0) -> None:
        self.exact, self.fallback, self.wait = exact, fallback, wait
        self.name = exact.name
        self.uses_kernels = exact.uses_kernels or fallback.uses_kernels

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
            # A decision asks only for the best move (Connect Four's solver proves one
            # column far sooner than all of them).
            exact = self.exact.analyze if every_move else self.exact.decide
            analysis = exact(state, Limits(time=budget))
        except InvalidOptionError:
            analysis = None
        if analysis is not None and all(info.value.kind is not Kind.UNKNOWN for info in analysis.moves):
            return analysis
        # A proven win for the move to play is all a decision needs (gobblet's shipped
        # strategy for x values only its own move).
        proven_win = analysis is not None and analysis.moves[0].value.kind is Kind.WIN
        if analysis is not None and not every_move and proven_win:
            return analysis
        left = None if limits.time is None else max(limits.time - (time.perf_counter() - started), 0.05)
        limits = replace(limits, time=left) if left is not None else limits
        if not every_move:
            return self.fallback.decide(state, limits)
        searched = self.fallback.analyze(state, limits)
        if analysis is None or not proven_win:
            return searched
        return _merged(analysis, searched)


def _merged(exact: Analysis, searched: Analysis) -> Analysis:
    """`exact`'s proven values (its best a proven win: gobblet's strategy before its table),
    the search's values for the moves it left unvalued, best first: the proven win stays
    the answer, and a move the exact player could not value still gets an estimate. Named
    after both, so that no header calls the estimates exact."""
    proven = {info.move for info in exact.moves if info.value.kind is not Kind.UNKNOWN}
    infos = [info for info in exact.moves if info.move in proven]
    infos += [info for info in searched.moves if info.move not in proven]
    # sorted is stable: among equal values the proven ones stay first.
    infos.sort(key=lambda info: info.value.sort_key(), reverse=True)
    return replace(
        searched,
        player=f"{exact.player}+{searched.player}",
        moves=infos,
        pv=list(exact.pv) if infos[0].move == exact.best else [infos[0].text],
        time=exact.time + searched.time,
    )


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
