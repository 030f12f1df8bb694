"""The game-independent face of the kernels: legal moves, make-move, random playouts
and perft for every game number, and the bridge to and from the readable states.

>>> from noughts import parse_spec
>>> state = parse_spec("ultimate").initial().play_text("53")
>>> code = game_code(state.game)
>>> moves = np.empty(MAX_MOVES, dtype=np.int64)
>>> n = legal(code, encode(state), moves)
>>> [state.game.move_text(int(m)) for m in moves[:n]]
['31', '32', '33', '34', '35', '36', '37', '38', '39']
"""

from __future__ import annotations

from typing import Any, cast

import numpy as np
import numpy.typing as npt

from noughts.core import Game, InvalidOptionError, Player, State
from noughts.games.qubic import QubicState
from noughts.games.ultimate import NINE_BOARD, Ultimate, UltimateState
from noughts.kernels import SUPPORTED, boards, cube, supports
from noughts.kernels.jit import kernel, kernel_uncounted
from noughts.kernels.layout import (
    DRAW,
    FORCED,
    FULL,
    MAX_MOVES,
    QUBIC,
    RESULT,
    SIZE,
    TURN,
    ULTIMATE,
    ULTIMATE_TIEBREAK,
    WON,
    Int,
)
from noughts.kernels.layout import NINE_BOARD as NINE_BOARD_CODE

__all__ = [
    "MAX_MOVES",
    "encode",
    "game_code",
    "guided_playout",
    "legal",
    "perft",
    "play",
    "playout",
    "result_text",
    "winning_move",
]


def game_code(game: Game[Any, Any]) -> int:
    """The kernels' number for `game`; InvalidOptionError for a game they do not play."""
    if not supports(game):
        raise InvalidOptionError(f"the compiled players play {SUPPORTED}, not {game.spec}")
    if game.variant.board == "ultimate":  # `supports` let ultimate's boards and qubic's cube through
        boards = cast(Ultimate, game)
        if boards.rule == NINE_BOARD:
            return NINE_BOARD_CODE
        return ULTIMATE_TIEBREAK if boards.tiebreak == "boards" else ULTIMATE
    return QUBIC


def encode(state: State[Any]) -> npt.NDArray[np.int64]:
    """The kernel array of a readable state of a supported game."""
    st = np.zeros(SIZE, dtype=np.int64)
    st[TURN] = 0 if state.turn is Player.X else 1
    outcome = state.outcome
    if outcome is not None:
        st[RESULT] = DRAW if outcome.winner is None else (1 if outcome.winner is Player.X else 2)
    board = state.game.variant.board
    if board == "qubic":
        cells = cast(QubicState, state)
        st[0], st[1] = cube.signed(cells.x), cube.signed(cells.o)
    elif board == "ultimate":
        boards = cast(UltimateState, state)
        for b in range(9):
            st[b] = boards.x >> (9 * b) & 511
            st[9 + b] = boards.o >> (9 * b) & 511
        st[WON], st[WON + 1], st[FULL], st[FORCED] = boards.won_x, boards.won_o, boards.drawn, boards.forced
    else:
        raise InvalidOptionError(f"the compiled players play {SUPPORTED}, not {state.game.spec}")
    return st


def result_text(st: npt.NDArray[np.int64]) -> str:
    """The status word of a kernel position, as `State.status`."""
    return ("ongoing", "x-wins", "o-wins", "draw")[int(st[RESULT])]


@kernel_uncounted
def legal(game: int, st: npt.NDArray[np.int64], out: npt.NDArray[np.int64]) -> int:
    """Write the legal moves, ascending, into `out` (MAX_MOVES long); their number."""
    if game == QUBIC:
        return cube.legal(st, out)
    return boards.legal(game, st, out)


@kernel_uncounted
def count(game: int, st: npt.NDArray[np.int64]) -> int:
    """The number of legal moves."""
    if game == QUBIC:
        return cube.count(st)
    return boards.count(game, st)


@kernel_uncounted
def play(game: int, st: npt.NDArray[np.int64], move: Int) -> None:
    """Play a legal move in place."""
    if game == QUBIC:
        cube.play(st, move)
    else:
        boards.play(game, st, move)


@kernel
def playout(game: int, st: npt.NDArray[np.int64], rng: npt.NDArray[np.uint64]) -> int:
    """Play random moves on `st` (in place) to the end; the RESULT code."""
    if game == QUBIC:
        return cube.playout(st, rng)
    return boards.playout(game, st, rng)


@kernel
def guided_playout(game: int, st: npt.NDArray[np.int64], rng: npt.NDArray[np.uint64]) -> int:
    """`playout` that takes a move winning the game and avoids moves letting the
    opponent win it next (`boards.guided_playout`); in qubic a random playout."""
    if game == QUBIC:
        return cube.playout(st, rng)
    return boards.guided_playout(game, st, rng)


@kernel_uncounted
def winning_move(game: int, st: npt.NDArray[np.int64]) -> int:
    """A move that wins the game at once for the player to move, or -1."""
    if game == QUBIC:
        return cube.winning_move(st)
    return boards.winning_move(game, st)


@kernel
def perft_kernel(game: int, st: npt.NDArray[np.int64], depth: int) -> int:
    """Move paths of exactly `depth` plies (games that end earlier count 0).

    Depth first with an explicit stack: numba's on-disk cache breaks recursive
    functions (numba issue 6061), and the last ply is only counted, not played."""
    if depth == 0:
        return 1
    stack = np.empty((depth, SIZE), dtype=np.int64)
    moves = np.empty((depth, MAX_MOVES), dtype=np.int64)
    counts = np.zeros(depth, dtype=np.int64)
    next_move = np.zeros(depth, dtype=np.int64)
    stack[0] = st
    if depth == 1:
        return count(game, st)
    counts[0] = legal(game, st, moves[0])
    total = 0
    ply = 0
    while ply >= 0:
        if next_move[ply] == counts[ply]:
            ply -= 1
            continue
        child = stack[ply + 1]
        for i in range(SIZE):  # not a slice copy: see negamax._descend
            child[i] = stack[ply, i]
        play(game, child, moves[ply, next_move[ply]])
        next_move[ply] += 1
        if ply + 2 == depth:
            total += count(game, child)
        else:
            ply += 1
            counts[ply] = legal(game, child, moves[ply])
            next_move[ply] = 0
    return total


def perft(state: State[Any], depth: int) -> int:
    """`noughts.perft.perft` on the kernels, for a supported game."""
    if depth < 0:
        raise InvalidOptionError("depth must be at least 0")
    return int(perft_kernel(game_code(state.game), encode(state), depth))
