"""The perfect Connect Four solver: the exact score of any position of gravity four in a
row on a board of m columns and n rows with m * (n + 1) <= 63 (7x6 is the game).

The method is Pascal Pons's (github.com/PascalPons/connect4, explained on his blog
"Solving Connect 4: how to build a perfect AI"): a bitboard of n + 1 bits a column,
negamax with alpha-beta on Pons's score, the moves that do not lose at once only
(anticipation: a forced block is played, a cell below the opponent's winning cell is not),
moves tried in the order of the threats they make (centre first among equals), a
transposition table of bounds, and the exact score found by a sequence of null-window
searches that halve the score's interval. Written from the algorithm, in numba.

**The score** (Pons's), for the side to move: 0 for a draw; for a win
``1 + e // 2``, where e is the number of cells still empty once the winner has put
down the winning stone; a loss is minus the winner's score. Larger is sooner: on 7x6,
a win with the winner's s-th stone scores ``22 - s``. `plies_to_end` turns a score
back into the number of plies until the winning stone.

Positions use the project's convention: `x` and `o` are int bitmasks over the cells in
reading order, bit ``row * m + col``, row 0 the *top* row, so a column fills from row
n - 1 upward. X moves first (X is to move when both have as many stones). A move is a
column index 0..m-1.

>>> solve(0, 0, 4, 4)  # the empty 4x4 board: a draw
0

On 4x4, x has three in the last column and o three in the one beside it: x wins at
once in column 4 (score 5: 16 - 7 = 9 cells stay empty), draws by blocking in column 3,
and loses with its fifth stone anywhere else:

>>> column_scores(0b1000_1000_1000_0000, 0b0100_0100_0100_0000, 4, 4)
[-5, -5, 0, 5]

The transposition table (about 84 MB) is allocated once per process on the first call
and kept between calls, as Pons's program keeps it between the positions it reads; it
is emptied when the board size changes. Numba (the ``kernels`` extra) compiles the
search; without it the module still imports and every call raises
`noughts.core.MissingExtraError`.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache, cached_property
from typing import Any, Final, TypeVar, cast

import numpy as np

from noughts.core import InvalidOptionError, InvalidPositionError, MissingExtraError

__all__ = [
    "OpeningBook",
    "best_move",
    "clear_table",
    "column_scores",
    "plies_to_end",
    "position_key",
    "prepare",
    "solve",
]

_numba: Any
try:
    import numba as _numba
except ModuleNotFoundError as missing:  # the kernels extra is optional
    _numba = None
    _MISSING: ModuleNotFoundError | None = missing
else:
    _MISSING = None

F = TypeVar("F", bound=Callable[..., Any])


def _kernel(fn: F) -> F:
    # The conventions of noughts.kernels.jit (which this layer may not import).
    if _numba is None:
        return fn
    return cast(F, _numba.njit(cache=True, nogil=True)(fn))


#: log2 of the table's slots, as Pons's Solver.hpp (2**24 slots, the next prime above).
TABLE_LOG2: Final = 24
#: Nodes a kernel call visits before it hands back to Python to look at the clock
#: (a few milliseconds of search).
SLICE_NODES: Final = 1 << 16

# The control block of a resumable search (`_negamax`): its fields' indices.
_SP, _NODES, _RESULT, _DONE = 0, 1, 2, 3
# A stack frame's fields.
_CUR, _MASK, _ALPHA, _BETA, _NB, _KEY, _NMOVES = 0, 1, 2, 3, 4, 5, 6
_FIELDS = 7


# -- bitboard kernels (Pons's layout: bit col * (n + 1) + h, h = 0 the bottom cell) --


def _winning_cells_of(pos: int, mask: int, h: int, board: int) -> int:
    """The empty cells (played or not) where one more stone of `pos` makes four."""
    h1 = h + 1
    h2 = h + 2
    r = (pos << 1) & (pos << 2) & (pos << 3)
    p = (pos << h1) & (pos << 2 * h1)
    r |= p & (pos << 3 * h1)
    r |= p & (pos >> h1)
    p = (pos >> h1) & (pos >> 2 * h1)
    r |= p & (pos << h1)
    r |= p & (pos >> 3 * h1)
    p = (pos << h) & (pos << 2 * h)
    r |= p & (pos << 3 * h)
    r |= p & (pos >> h)
    p = (pos >> h) & (pos >> 2 * h)
    r |= p & (pos << h)
    r |= p & (pos >> 3 * h)
    p = (pos << h2) & (pos << 2 * h2)
    r |= p & (pos << 3 * h2)
    r |= p & (pos >> h2)
    p = (pos >> h2) & (pos >> 2 * h2)
    r |= p & (pos << h2)
    r |= p & (pos >> 3 * h2)
    return r & (board ^ mask)


# Python runs the same function on ints for the few checks outside the search.
_winning_cells = _kernel(_winning_cells_of)


@_kernel
def _popcount(v: int) -> int:
    c = 0
    while v:
        v &= v - 1
        c += 1
    return c


@_kernel
def _negamax(
    ctl: np.ndarray,
    frames: np.ndarray,
    moves: np.ndarray,
    scores: np.ndarray,
    keys: np.ndarray,
    values: np.ndarray,
    order: np.ndarray,
    h: int,
    cells: int,
    bottom: int,
    board: int,
    budget: int,
) -> None:
    """Negamax with alpha-beta from the frame ``ctl[_SP]`` holds, on an explicit stack
    (numba's disk cache cannot hold a recursive function, numba issue 6061), for at
    most `budget` more nodes. Sets ``ctl[_DONE]`` and ``ctl[_RESULT]`` when the root's
    value is known; otherwise the stack stays as it is and a later call goes on.

    The root must be a position where the mover cannot win at once (as Pons's
    negamax); every child the search makes keeps that true. Table values: 0 empty,
    ``bound + 64`` an upper bound, ``bound - 64`` a lower bound."""
    size = keys.shape[0]
    m = order.shape[0]
    sp = ctl[_SP]
    nodes = ctl[_NODES]
    stop = nodes + budget
    entering = True
    val = 0
    while True:
        if entering:
            if nodes >= stop:
                ctl[_SP] = sp
                ctl[_NODES] = nodes
                return
            nodes += 1
            cur = frames[sp, _CUR]
            mask = frames[sp, _MASK]
            alpha = frames[sp, _ALPHA]
            beta = frames[sp, _BETA]
            nb = frames[sp, _NB]
            possible = (mask + bottom) & board
            opp_win = _winning_cells(cur ^ mask, mask, h, board)
            forced = possible & opp_win
            if forced:
                # Two threats to block: lost at the opponent's next stone.
                possible = 0 if forced & (forced - 1) else forced
            possible &= ~(opp_win >> 1)
            entering = False
            if possible == 0:
                val = -((cells - nb) // 2)
            elif nb >= cells - 2:
                val = 0
            else:
                lo = -((cells - 2 - nb) // 2)
                hi = (cells - 1 - nb) // 2
                if alpha < lo:
                    alpha = lo
                if beta > hi:
                    beta = hi
                key = cur + mask
                slot = key % size
                check = key // size
                if alpha < beta and keys[slot] == check:
                    stored = values[slot]
                    if stored < 0 and alpha < stored + 64:
                        alpha = stored + 64
                    elif stored > 0 and beta > stored - 64:
                        beta = stored - 64
                if alpha >= beta:
                    val = alpha
                else:
                    # Moves sorted by the threats they make, the last one first; equal
                    # scores keep the column order (centre first), as Pons's MoveSorter.
                    count = 0
                    for i in range(m - 1, -1, -1):
                        col = order[i]
                        move = possible & (((1 << h) - 1) << (col * (h + 1)))
                        if move:
                            sc = _popcount(_winning_cells(cur | move, mask, h, board))
                            j = count
                            while j > 0 and scores[sp, j - 1] > sc:
                                moves[sp, j] = moves[sp, j - 1]
                                scores[sp, j] = scores[sp, j - 1]
                                j -= 1
                            moves[sp, j] = move
                            scores[sp, j] = sc
                            count += 1
                    frames[sp, _ALPHA] = alpha
                    frames[sp, _BETA] = beta
                    frames[sp, _KEY] = key
                    count -= 1
                    frames[sp, _NMOVES] = count
                    move = moves[sp, count]
                    frames[sp + 1, _CUR] = cur ^ mask
                    frames[sp + 1, _MASK] = mask | move
                    frames[sp + 1, _ALPHA] = -beta
                    frames[sp + 1, _BETA] = -alpha
                    frames[sp + 1, _NB] = nb + 1
                    sp += 1
                    entering = True
        else:
            # `val` is frame sp's value: hand it to its parent.
            if sp == 0:
                ctl[_SP] = 0
                ctl[_NODES] = nodes
                ctl[_RESULT] = val
                ctl[_DONE] = 1
                return
            sp -= 1
            score = -val
            alpha = frames[sp, _ALPHA]
            beta = frames[sp, _BETA]
            key = frames[sp, _KEY]
            if score >= beta:
                slot = key % size
                keys[slot] = key // size
                values[slot] = score - 64
                val = score
                continue
            if score > alpha:
                alpha = score
                frames[sp, _ALPHA] = alpha
            count = frames[sp, _NMOVES]
            if count == 0:
                slot = key % size
                keys[slot] = key // size
                values[slot] = alpha + 64
                val = alpha
                continue
            count -= 1
            frames[sp, _NMOVES] = count
            move = moves[sp, count]
            cur = frames[sp, _CUR]
            mask = frames[sp, _MASK]
            frames[sp + 1, _CUR] = cur ^ mask
            frames[sp + 1, _MASK] = mask | move
            frames[sp + 1, _ALPHA] = -beta
            frames[sp + 1, _BETA] = -alpha
            frames[sp + 1, _NB] = frames[sp, _NB] + 1
            sp += 1
            entering = True


# -- the Python side: boards, checks, the table, the null-window loop --


def prepare(m: int = 7, n: int = 6) -> None:
    """Load the compiled search (from numba's cache, else compile it: seconds) and
    allocate the table for the m x n board, so that the first timed call does not pay
    for them."""
    _need_numba()
    solve(0, 0, 4, 4)
    table = _table()
    with _LOCK:
        table.arrays(_board(m, n, 4))


def clear_table() -> None:
    """Empty the transposition table (its memory stays allocated): the next call starts
    cold, as a measurement wants. Never needed for correct answers."""
    with _LOCK:
        if _TABLE is not None:
            _TABLE.values.fill(0)


def _next_prime(n: int) -> int:
    while any(n % d == 0 for d in range(2, int(n**0.5) + 1)):
        n += 1
    return n


@dataclass(frozen=True)
class _Board:
    """One board size in Pons's layout: the masks the kernels need."""

    m: int
    n: int

    @cached_property
    def cells(self) -> int:
        return self.m * self.n

    @cached_property
    def bottom(self) -> int:
        return sum(1 << (c * (self.n + 1)) for c in range(self.m))

    @cached_property
    def board(self) -> int:
        return self.bottom * ((1 << self.n) - 1)

    def column(self, col: int) -> int:
        return ((1 << self.n) - 1) << (col * (self.n + 1))

    def order(self) -> np.ndarray:
        """Columns from the centre outward, as Pons's Solver: 3 2 4 1 5 0 6 on 7."""
        half = self.m // 2
        cols = [half + ((i + 1) // 2 if i % 2 == 0 else -((i + 1) // 2)) for i in range(self.m)]
        return np.array(cols, dtype=np.int64)

    def to_pons(self, stones: int) -> int:
        """The project's reading-order bitmask in Pons's column layout."""
        out = 0
        m, n = self.m, self.n
        while stones:
            low = stones & -stones
            cell = low.bit_length() - 1
            row, col = divmod(cell, m)
            out |= 1 << (col * (n + 1) + (n - 1 - row))
            stones ^= low
        return out


@cache
def _board(m: int, n: int, k: int) -> _Board:
    if k != 4:
        raise InvalidOptionError(f"the Connect Four solver plays four in a row only, not k={k}")
    if m < 1 or n < 1 or m * (n + 1) > 63:
        raise InvalidOptionError(f"the Connect Four solver needs m * (n + 1) <= 63 (its 64-bit board), not {m}x{n}")
    return _Board(m, n)


class _Table:
    """The process's transposition table, allocated on first use."""

    def __init__(self) -> None:
        self.size = _next_prime(1 << TABLE_LOG2)
        self.keys: dict[bool, np.ndarray] = {}
        self.values = _touched(np.zeros(self.size, dtype=np.int8))
        self.board: _Board | None = None

    def arrays(self, board: _Board) -> tuple[np.ndarray, np.ndarray]:
        # A slot keeps key // size: with key % size (its slot) that names the key
        # exactly, so 32 bits are enough while keys stay below size * 2**32, that is
        # on boards of at most 56 bits (7x6 has 49); larger boards keep 64-bit keys.
        wide = board.m * (board.n + 1) > TABLE_LOG2 + 32
        if board != self.board:
            self.values.fill(0)
            self.board = board
        if wide not in self.keys:
            self.keys[wide] = _touched(np.zeros(self.size, dtype=np.int64 if wide else np.uint32))
        return self.keys[wide], self.values


def _touched(array: np.ndarray) -> np.ndarray:
    # np.zeros maps its pages lazily, and the search's scattered writes would take the
    # page faults: 40 late 7x6 positions took 11 ms each that way, 0.4 ms with the pages
    # written here first (2026-12-02, bench/connect4_solver.py's positions at 32 stones).
    array.fill(0)
    return array


#: Held by whoever reads or writes the table (`_Search.window`: one slice at a time).
_LOCK = threading.Lock()
_TABLE: _Table | None = None


def _table() -> _Table:
    global _TABLE
    with _LOCK:
        if _TABLE is None:
            _TABLE = _Table()
        return _TABLE


class _Position:
    """A checked position in Pons's layout, the mover's stones in `cur`."""

    def __init__(self, x: int, o: int, board: _Board) -> None:
        m, n = board.m, board.n
        full = (1 << (m * n)) - 1
        if x < 0 or o < 0 or (x | o) & ~full:
            raise InvalidPositionError(f"stones outside the {m}x{n} board")
        if x & o:
            raise InvalidPositionError("a cell holds both an x and an o")
        nx, no = x.bit_count(), o.bit_count()
        if nx - no not in (0, 1):
            raise InvalidPositionError(f"{nx} x and {no} o: x moves first, turn about")
        px, po = board.to_pons(x), board.to_pons(o)
        mask = px | po
        for col in range(m):
            column = mask & board.column(col)
            height = column.bit_count()
            if column != ((1 << height) - 1) << (col * (n + 1)):
                raise InvalidPositionError(f"a stone floats in column {col + 1}")
        h, b = n, board.board
        for stones, name in ((px, "x"), (po, "o")):
            if _has_four(stones, h):
                raise InvalidPositionError(f"{name} already has four in a row: the game is over")
        self.board = board
        self.stones = nx + no
        x_to_move = nx == no
        self.cur = px if x_to_move else po
        self.mask = mask
        self._b = b

    def can_play(self, col: int) -> bool:
        top = 1 << (self.board.n - 1 + col * (self.board.n + 1))
        return not self.mask & top

    def move(self, col: int) -> int:
        return (self.mask + (1 << (col * (self.board.n + 1)))) & self.board.column(col)

    def wins_with(self, col: int) -> bool:
        cells = _winning_cells_py(self.cur, self.mask, self.board)
        return bool(cells & self.move(col))

    def can_win_next(self) -> bool:
        possible = (self.mask + self.board.bottom) & self._b
        return bool(_winning_cells_py(self.cur, self.mask, self.board) & possible)

    def play(self, col: int) -> _Position:
        child = object.__new__(_Position)
        child.board = self.board
        child.stones = self.stones + 1
        child.cur = self.cur ^ self.mask
        child.mask = self.mask | self.move(col)
        child._b = self._b
        return child


def _has_four(stones: int, h: int) -> bool:
    for shift in (1, h, h + 1, h + 2):
        pair = stones & (stones >> shift)
        if pair & (pair >> 2 * shift):
            return True
    return False


def _winning_cells_py(pos: int, mask: int, board: _Board) -> int:
    return _winning_cells_of(pos, mask, board.n, board.board)


class _Search:
    """A resumable negamax for one position and one window, sliced by the clock."""

    def __init__(self, pos: _Position, table: _Table) -> None:
        board = pos.board
        self.pos = pos
        self.board = board
        self.table = table
        depth = board.cells - pos.stones + 2
        self.ctl = np.zeros(4, dtype=np.int64)
        self.frames = np.zeros((depth, _FIELDS), dtype=np.int64)
        self.moves = np.zeros((depth, board.m), dtype=np.int64)
        self.scores = np.zeros((depth, board.m), dtype=np.int64)
        self.order = board.order()
        self.nodes = 0

    def window(self, alpha: int, beta: int, deadline_at: float | None) -> int | None:
        ctl, frames = self.ctl, self.frames
        ctl[:] = 0
        ctl[_NODES] = self.nodes
        frames[0, _CUR] = self.pos.cur
        frames[0, _MASK] = self.pos.mask
        frames[0, _ALPHA] = alpha
        frames[0, _BETA] = beta
        frames[0, _NB] = self.pos.stones
        b = self.board
        budget = SLICE_NODES
        while True:
            # One slice at a time holds the table: threads' slices take turns (the
            # kernel lets go of the GIL, and a slot written by two at once could pair one
            # key with another's bound). Between slices the table may gain others'
            # entries, true bounds all, or be emptied for another board: both keep the
            # search exact, as its stack holds nothing from the table.
            wait = -1.0 if deadline_at is None else max(0.0, deadline_at - time.perf_counter())
            if not _LOCK.acquire(timeout=wait):
                return None
            try:
                keys, values = self.table.arrays(b)
                _negamax(
                    ctl, frames, self.moves, self.scores, keys, values, self.order,
                    b.n, b.cells, b.bottom, b.board, budget,
                )  # fmt: skip
            finally:
                _LOCK.release()
            if ctl[_DONE]:
                self.nodes = int(ctl[_NODES])
                return int(ctl[_RESULT])
            if deadline_at is not None and time.perf_counter() >= deadline_at:
                self.nodes = int(ctl[_NODES])
                return None


def _need_numba() -> None:
    if _MISSING is not None:
        raise MissingExtraError("the Connect Four solver", _MISSING, "kernels")


def _solve(pos: _Position, deadline_at: float | None, weak: bool = False) -> int | None:
    cells = pos.board.cells
    nb = pos.stones
    if pos.can_win_next():
        return (cells + 1 - nb) // 2
    if nb >= cells:
        return 0
    lo = -((cells - nb) // 2)
    hi = (cells + 1 - nb) // 2
    if weak:
        lo, hi = max(lo, -1), min(hi, 1)
    search = _Search(pos, _table())
    while lo < hi:
        # Pons's probe: the middle, pulled toward 0 so that the first tests ask "win or
        # not" and "loss or not", whose trees are the smallest.
        med = lo + (hi - lo) // 2
        if med <= 0 and _ctrunc(lo) < med:
            med = _ctrunc(lo)
        elif med >= 0 and hi // 2 > med:
            med = hi // 2
        r = search.window(med, med + 1, deadline_at)
        if r is None:
            return None
        if r <= med:
            hi = r
        else:
            lo = r
    return lo


def _ctrunc(v: int) -> int:
    """v / 2 rounded toward zero, as C's division (Pons's loop is written with it)."""
    return -((-v) // 2) if v < 0 else v // 2


def _deadline_at(deadline: float | None) -> float | None:
    return None if deadline is None else time.perf_counter() + deadline


def solve(
    x: int, o: int, m: int = 7, n: int = 6, *, k: int = 4, deadline: float | None = None, weak: bool = False
) -> int | None:
    """The score of the position for the side to move (see the module's docstring), or
    None when `deadline` (seconds) ran out first; `weak` asks only for its sign (1 a
    win, 0 a draw, -1 a loss), a smaller search. Refuses a position that already holds
    a four, or that gravity and the turn order cannot make (`InvalidPositionError`),
    and a board or k it cannot solve (`InvalidOptionError`).

    >>> solve(0, 0, 5, 4)        # 5x4 from the empty board: a draw
    0
    """
    _need_numba()
    pos = _Position(x, o, _board(m, n, k))
    return _sign(_solve(pos, _deadline_at(deadline), weak), weak)


def _sign(score: int | None, weak: bool) -> int | None:
    if score is None or not weak:
        return score
    return (score > 0) - (score < 0)


def column_scores(
    x: int, o: int, m: int = 7, n: int = 6, *, k: int = 4, deadline: float | None = None, weak: bool = False
) -> list[int | None]:
    """Each column's score for the side to move: the score of the position after the
    move, seen by the mover (None for a full column, and for every column not finished
    when `deadline` seconds ran out); with `weak`, only the scores' signs. Checks as
    `solve`."""
    _need_numba()
    pos = _Position(x, o, _board(m, n, k))
    deadline_at = _deadline_at(deadline)
    out: list[int | None] = [None] * m
    cells = pos.board.cells
    for col in pos.board.order():
        col = int(col)
        if not pos.can_play(col):
            continue
        if pos.wins_with(col):
            out[col] = _sign((cells + 1 - pos.stones) // 2, weak)
            continue
        score = _sign(_solve(pos.play(col), deadline_at, weak), weak)
        if score is None:
            break
        out[col] = -score
    return out


def best_move(
    x: int, o: int, m: int = 7, n: int = 6, *, k: int = 4, deadline: float | None = None
) -> tuple[int, int] | None:
    """A best column for the side to move and the position's score, or None when
    `deadline` seconds ran out: the position is solved, then each column in Pons's order
    (centre first) is asked only whether it reaches that score, a null-window search,
    until one does. Cheaper than `column_scores`, which finds every column's score.
    Checks as `solve`; a full board has no move (`InvalidPositionError`).

    >>> best_move(0b1000_1000_1000_0000, 0b0100_0100_0100_0000, 4, 4)
    (3, 5)
    """
    _need_numba()
    pos = _Position(x, o, _board(m, n, k))
    if pos.stones == pos.board.cells:
        raise InvalidPositionError("the board is full: there is no move")
    deadline_at = _deadline_at(deadline)
    playable = [int(col) for col in pos.board.order() if pos.can_play(int(col))]
    for col in playable:
        if pos.wins_with(col):
            return col, (pos.board.cells + 1 - pos.stones) // 2
    score = _solve(pos, deadline_at)
    if score is None:
        return None
    cells = pos.board.cells
    for col in playable:
        child = pos.play(col)
        if child.stones == cells:
            value = 0
        elif child.can_win_next():
            value = -((cells + 1 - child.stones) // 2)
        else:
            # The mover reaches `score` exactly when the child is worth at most -score.
            r = _Search(child, _table()).window(-score, -score + 1, deadline_at)
            if r is None:
                return None
            value = score if r <= -score else score - 1
        if value == score:
            return col, score
    raise RuntimeError(f"no column reaches the score {score}: the solver is wrong")


def position_key(x: int, o: int, m: int = 7, n: int = 6) -> tuple[int, bool]:
    """The position's key, the same for its mirror image, and whether it is the mirror's:
    Pons's key (the mover's stones plus every stone, in his layout; unique, as the stone
    count says who moves) of whichever of the two is smaller. An opening book stores its
    columns for the keyed side: a column c of a mirrored position is m - 1 - c here."""
    board = _board(m, n, 4)
    pos = _Position(x, o, board)
    mirror = _Position(_mirror(x, m, n), _mirror(o, m, n), board)
    key, mirror_key = pos.cur + pos.mask, mirror.cur + mirror.mask
    return (mirror_key, True) if mirror_key < key else (key, False)


def _mirror(stones: int, m: int, n: int) -> int:
    out = 0
    for cell in range(m * n):
        if stones >> cell & 1:
            row, col = divmod(cell, m)
            out |= 1 << (row * m + m - 1 - col)
    return out


@dataclass(frozen=True)
class OpeningBook:
    """Best columns of positions, looked up by `position_key`: what `tools/connect4_book`
    builds for the first plies, where one `best_move` takes longer than a move may.

    Stored as ``.npz``: the board, `keys` sorted (uint64), and beside each key the best
    `columns` (uint8, for the keyed side) and the position's `scores` (int8)."""

    m: int
    n: int
    keys: np.ndarray
    columns: np.ndarray
    scores: np.ndarray

    @classmethod
    def from_entries(cls, m: int, n: int, entries: dict[int, tuple[int, int]]) -> OpeningBook:
        keys = np.array(sorted(entries), dtype=np.uint64)
        columns = np.array([entries[int(k)][0] for k in keys], dtype=np.uint8)
        scores = np.array([entries[int(k)][1] for k in keys], dtype=np.int8)
        return cls(m, n, keys, columns, scores)

    @classmethod
    def read(cls, path: str | os.PathLike[str]) -> OpeningBook:
        with np.load(path) as data:
            m, n = (int(v) for v in data["board"])
            return cls(m, n, data["keys"], data["columns"], data["scores"])

    def write(self, path: str | os.PathLike[str]) -> None:
        np.savez_compressed(
            path, board=np.array([self.m, self.n]), keys=self.keys, columns=self.columns, scores=self.scores
        )

    def __len__(self) -> int:
        return len(self.keys)

    def move(self, x: int, o: int) -> tuple[int, int] | None:
        """(best column, score) of the position, None when the book does not hold it."""
        key, mirrored = position_key(x, o, self.m, self.n)
        at = int(np.searchsorted(self.keys, np.uint64(key)))
        if at == len(self.keys) or int(self.keys[at]) != key:
            return None
        col = int(self.columns[at])
        return (self.m - 1 - col if mirrored else col), int(self.scores[at])


def plies_to_end(score: int, stones: int, m: int = 7, n: int = 6) -> int | None:
    """How many plies from a position with `stones` stones until the winner's winning
    stone under perfect play, given its `score` for the mover (None for a draw). The
    mover wins on an odd count, loses on an even one.

    >>> plies_to_end(22 - 4, 6)    # 7x6, six stones down: the mover's fourth stone wins
    1
    >>> plies_to_end(-(22 - 5), 6)  # the opponent's fifth stone
    4
    """
    if score == 0:
        return None
    cells = m * n
    # The winner's score is 1 + e // 2 (e: cells empty after the win): e is one of two
    # numbers, and only one gives the winner's parity (the mover's stones land on odd plies).
    want = 1 if score > 0 else 0
    for e in (2 * (abs(score) - 1), 2 * (abs(score) - 1) + 1):
        plies = cells - e - stones
        if plies > 0 and plies % 2 == want:
            return plies
    raise ValueError(f"score {score} is not possible with {stones} stones on {m}x{n}")
