"""Bitboard kernels for Qubic, 4x4x4: each side's cells are the 64 bits of an int64
(cell 63 is the sign bit, so masks are compared for equality, never for order)."""

from __future__ import annotations

from collections.abc import Callable
from typing import cast

import numpy as np
import numpy.typing as npt
from numba.cpython.unsafe.numbers import trailing_zeros as _trailing_zeros

from noughts.games.geometry import line_masks, masks_through
from noughts.kernels.jit import kernel, kernel_uncounted
from noughts.kernels.layout import DRAW, RESULT, TURN, Int
from noughts.kernels.rng import next_bits, scaled

__all__ = [
    "CELLS",
    "LINES",
    "LINES_AT",
    "THROUGH",
    "THROUGH_COUNT",
    "legal",
    "play",
    "playout",
    "popcount",
    "signed",
    "winning_move",
]

CELLS = 64
_SHAPE = (4, 4, 4)


def signed(mask: int) -> int:
    """A 64-bit mask as the int64 with the same bits."""
    return mask - (1 << 64) if mask >> 63 else mask


#: The 76 lines, and for every cell the lines through it (THROUGH_COUNT of them, 4 or 7).
LINES = np.array([signed(m) for m in line_masks(_SHAPE, 4)], dtype=np.int64)
THROUGH = np.zeros((CELLS, 7), dtype=np.int64)
THROUGH_COUNT = np.zeros(CELLS, dtype=np.int64)
for _cell, _masks in enumerate(masks_through(_SHAPE, 4)):
    THROUGH_COUNT[_cell] = len(_masks)
    for _k, _mask in enumerate(_masks):
        THROUGH[_cell, _k] = signed(_mask)
#: For every cell, the lines through it as a set of line numbers (indices into LINES):
#: bit i of word i // 64, for searches that count marks on all lines at once.
LINES_AT = np.zeros((CELLS, 2), dtype=np.int64)
for _i, _mask in enumerate(line_masks(_SHAPE, 4)):
    for _cell in range(CELLS):
        if _mask >> _cell & 1:
            LINES_AT[_cell, _i // 64] |= signed(1 << (_i % 64))

_M1 = np.uint64(0x5555555555555555)
_M2 = np.uint64(0x3333333333333333)
_M4 = np.uint64(0x0F0F0F0F0F0F0F0F)
_H01 = np.uint64(0x0101010101010101)


#: The number of the lowest set bit of a non-zero int64: one instruction (tzcnt), where a
#: loop over the cells takes up to 64 steps. (numba's intrinsic, typed for the callers.)
lowest = cast(Callable[[Int], int], _trailing_zeros)


@kernel_uncounted
def popcount(mask: int) -> int:
    """The number of set bits of an int64 (SWAR: no per-bit loop)."""
    x = np.uint64(mask)
    x = x - ((x >> np.uint64(1)) & _M1)
    x = (x & _M2) + ((x >> np.uint64(2)) & _M2)
    x = (x + (x >> np.uint64(4))) & _M4
    return int((x * _H01) >> np.uint64(56))


@kernel_uncounted
def legal(st: npt.NDArray[np.int64], out: npt.NDArray[np.int64]) -> int:
    """Write the empty cells, ascending, into `out`; their number."""
    if st[RESULT] != 0:
        return 0
    taken = st[0] | st[1]
    n = 0
    for cell in range(CELLS):
        if not (taken >> cell) & 1:
            out[n] = cell
            n += 1
    return n


@kernel_uncounted
def count(st: npt.NDArray[np.int64]) -> int:
    if st[RESULT] != 0:
        return 0
    return CELLS - popcount(st[0] | st[1])


@kernel_uncounted
def holds_line(mine: int) -> bool:
    """Whether `mine` holds a whole line."""
    for line in LINES:  # noqa: SIM110 (a loop numba compiles; not a generator)
        if mine & line == line:
            return True
    return False


@kernel_uncounted
def wins(mine: int, cell: Int) -> bool:
    """Whether `mine` holds a full line through `cell`."""
    for k in range(THROUGH_COUNT[cell]):
        line = THROUGH[cell, k]
        if mine & line == line:
            return True
    return False


@kernel_uncounted
def winning_move(st: npt.NDArray[np.int64]) -> int:
    """A cell that completes a line for the player to move, or -1 (also when the game
    is over)."""
    if st[RESULT] != 0:
        return -1
    mine, theirs = st[st[TURN]], st[1 - st[TURN]]
    for line in LINES:
        if not theirs & line:
            rest = line & ~mine
            if rest and not rest & (rest - 1):
                return popcount(rest - 1)  # the one empty cell: the bits below it
    return -1


@kernel_uncounted
def play(st: npt.NDArray[np.int64], move: Int) -> None:
    """Play a legal move in place."""
    side = st[TURN]
    mine = st[side] | (np.int64(1) << np.int64(move))
    st[side] = mine
    if wins(mine, move):
        st[RESULT] = side + 1
    elif (mine | st[1 - side]) == -1:
        st[RESULT] = DRAW
    st[TURN] = 1 - side


@kernel
def playout(st: npt.NDArray[np.int64], rng: npt.NDArray[np.uint64]) -> int:
    """Play random moves on `st` (in place) to the end; the RESULT code. The empty
    cells are kept in a list that a move swaps its cell out of: O(1) per ply."""
    if st[RESULT] != 0:
        return int(st[RESULT])
    empty = np.empty(CELLS, dtype=np.int64)
    n = legal(st, empty)
    marks = st[0:2].copy()
    side = st[TURN]
    result = 0
    bits = rng[0]
    while result == 0:
        bits = next_bits(bits)
        k = scaled(bits, n)
        cell = empty[k]
        n -= 1
        empty[k] = empty[n]
        mine = marks[side] | (np.int64(1) << np.int64(cell))
        marks[side] = mine
        if wins(mine, cell):
            result = side + 1
        elif n == 0:
            result = DRAW
        side = 1 - side
    rng[0] = bits
    st[0], st[1], st[TURN], st[RESULT] = marks[0], marks[1], side, result
    return int(result)
