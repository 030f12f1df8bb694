"""Connect Four's exact values for the perfect player: the shipped opening book, then
Pons's solver (`noughts.games.connect4.solver`) under the move's deadline.

The solver handles four in a row on boards with m * (n + 1) <= 63 (its 64-bit board).
What it proves within the time is exact ("x wins in 11", "draw"); a column not proved
when the clock runs out is left unknown (`Kind.UNKNOWN`), and `ExactOrSearch` (the
`max` level) then answers with its search, whose values are estimates. On 7x6 the
book holds every position max meets in its first plies (``tools/connect4_book``),
where one solve takes longer than a move may; past it the solver answers: positions of
8 stones and more took 0.0-0.8 s (2026-12-02, ``bench/connect4_solver.py --by-depth``).

The solver's module (numpy, numba) is imported where it is used: `capabilities` asks
`applies` of every game, on a bare install without numpy too.
"""

from __future__ import annotations

import time
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeGuard

from noughts.ai.base import Analysis, Kind, Limits, MoveInfo, Value, require_moves
from noughts.core import Game, InvalidOptionError, State
from noughts.games.connect4.rules import ConnectFour, ConnectFourState

if TYPE_CHECKING:
    from noughts.games.connect4.solver import OpeningBook

__all__ = ["BOOK", "analyze", "applies", "book", "decide"]

#: The shipped book of 7x6 (``tools/connect4_book/build.py``); absent until one is built.
BOOK = Path(__file__).resolve().parents[1] / "games" / "connect4" / "book-7x6.npz"


def applies(game: Game[Any, Any]) -> TypeGuard[ConnectFour]:
    """Whether the solver plays `game`: Connect Four, four in a row, a board its 64-bit
    layout holds, and numba installed (the ``kernels`` extra)."""
    if not isinstance(game, ConnectFour) or game.k != 4 or game.m * (game.n + 1) > 63:
        return False
    from noughts.kernels import available  # import no numba

    return available()


@cache
def book(m: int, n: int) -> OpeningBook | None:
    """The shipped book of the m x n board, None where none ships."""
    if (m, n) != (7, 6) or not BOOK.exists():
        return None
    from noughts.games.connect4.solver import OpeningBook

    return OpeningBook.read(BOOK)


def _masks(state: State[Any]) -> tuple[ConnectFour, int, int]:
    if not isinstance(state, ConnectFourState) or not applies(state.game):
        raise InvalidOptionError(f"the Connect Four solver does not play {state.game.spec}")
    game = state.game
    assert isinstance(game, ConnectFour)
    return game, state.x, state.o


def value(score: int, stones: int, m: int, n: int) -> Value:
    """A solver's score for the mover of a position of `stones` stones, as a `Value`."""
    from noughts.games.connect4 import solver

    plies = solver.plies_to_end(score, stones, m, n)
    if plies is None:
        return Value.draw()
    return Value.win(plies) if score > 0 else Value.loss(plies)


def _deadline(limits: Limits, started: float) -> float | None:
    return None if limits.time is None else max(limits.time - (time.perf_counter() - started), 0.0)


def decide(state: State[Any], name: str, limits: Limits = Limits()) -> Analysis:
    """The best column only, with its exact value: the book's, else the solver's within
    `limits.time`; the move unknown (a legal column, centre first) when time ran out."""
    from noughts.games.connect4 import solver

    moves = require_moves(state)
    game, x, o = _masks(state)
    solver.prepare(game.m, game.n)  # compile and allocate before the clock
    started = time.perf_counter()
    stones = (x | o).bit_count()
    opening = book(game.m, game.n)
    found = opening.move(x, o) if opening is not None else None
    if found is None:
        found = solver.best_move(x, o, game.m, game.n, deadline=_deadline(limits, started))
    if found is None:
        move = min(moves, key=lambda col: abs(2 * col - (game.m - 1)))
        info = MoveInfo(move, state.move_text(move), Value(Kind.UNKNOWN))
    else:
        col, score = found
        info = MoveInfo(col, state.move_text(col), value(score, stones, game.m, game.n))
    return Analysis(name, [info], [info.text], None, 0, time.perf_counter() - started)


def analyze(state: State[Any], name: str, limits: Limits = Limits()) -> Analysis:
    """Every column's exact value as far as `limits.time` goes (the book's best column
    first, then the solver's), best first; those not proved in time are unknown."""
    from noughts.games.connect4 import solver

    moves = require_moves(state)
    game, x, o = _masks(state)
    solver.prepare(game.m, game.n)
    started = time.perf_counter()
    stones = (x | o).bit_count()
    scores: dict[int, int] = {}
    opening = book(game.m, game.n)
    found = opening.move(x, o) if opening is not None else None
    if found is not None:
        scores[found[0]] = found[1]
    for col, score in enumerate(solver.column_scores(x, o, game.m, game.n, deadline=_deadline(limits, started))):
        if score is not None:
            scores[col] = score
    infos = [
        MoveInfo(
            col,
            state.move_text(col),
            value(scores[col], stones, game.m, game.n) if col in scores else Value(Kind.UNKNOWN),
        )
        for col in moves
    ]
    # Known values best first (sorted is stable: equal columns stay in column order).
    infos.sort(key=lambda info: (info.value.kind is not Kind.UNKNOWN, info.value.sort_key()), reverse=True)
    return Analysis(name, infos, [infos[0].text], None, 0, time.perf_counter() - started)
