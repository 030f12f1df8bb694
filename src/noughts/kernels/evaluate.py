"""Static evaluations in kernels, ported from `noughts.ai.evaluation`, plus the Qubic
threat tests the searches build on.

* nine-board and ultimate: the seed reports' line scores (``seed-lines``): per open local
  board +-200 a three, +-2 a two and +-1 a one in an open line, read from a table of all
  3^9 boards; ultimate adds +-200 per won board and the meta board's lines scaled by 100.
* qubic: open lines weighted by how full they are (1, 10, 100 for one, two, three marks).

Scores are integers, positive = good for the player to move, far below `WIN`.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from noughts.games.geometry import line_masks
from noughts.kernels.boards import POP
from noughts.kernels.cube import LINES, THROUGH, THROUGH_COUNT, popcount
from noughts.kernels.jit import kernel_uncounted
from noughts.kernels.layout import FORCED, FULL, NINE_BOARD, QUBIC, TURN, WON

__all__ = ["LOCAL_LINES", "WIN", "evaluate", "position_key", "qubic_lines", "threats", "threats_through"]

#: The score of a won game at the root; a win after p plies scores WIN - p.
WIN = 1_000_000
_SEED_WEIGHTS = np.array([0, 1, 2, 200], dtype=np.int64)
_META_SCALE = 100
_LINES3 = np.array(line_masks((3, 3), 3), dtype=np.int64)
_QUBIC_WEIGHTS = np.array([0, 1, 10, 100, 0], dtype=np.int64)


def _local_lines() -> npt.NDArray[np.int64]:
    """The seed-lines score of every 3x3 board, indexed by ``x | o << 9``."""
    index = np.arange(1 << 18)
    x, o = index & 511, index >> 9
    score = np.zeros(1 << 18, dtype=np.int64)
    for mask in _LINES3:
        a, b = POP[x & mask], POP[o & mask]
        score += np.where(b == 0, _SEED_WEIGHTS[a], 0) - np.where(a == 0, _SEED_WEIGHTS[b], 0)
    return score


#: Passed to the kernels as an argument (a 2 MB global would be baked into the code).
LOCAL_LINES = _local_lines()


@kernel_uncounted
def _meta(won_x: int, won_o: int, drawn: int) -> int:
    total = 0
    for mask in _LINES3:
        if drawn & mask:
            continue
        a, b = won_x & mask, won_o & mask
        if a and not b:
            total += _SEED_WEIGHTS[POP[a]]
        elif b and not a:
            total -= _SEED_WEIGHTS[POP[b]]
    return total


@kernel_uncounted
def qubic_lines(x: int, o: int) -> int:
    """Qubic's lines evaluation for x: every line without o's marks counts 1, 10, 100
    for one, two, three of x's, and o's lines as much against."""
    value = 0
    for mask in LINES:
        a, b = x & mask, o & mask
        if a and not b:
            value += _QUBIC_WEIGHTS[popcount(a)]
        elif b and not a:
            value -= _QUBIC_WEIGHTS[popcount(b)]
    return value


@kernel_uncounted
def evaluate(game: int, st: npt.NDArray[np.int64], local_lines: npt.NDArray[np.int64]) -> int:
    """The static score of an ongoing position for its player to move."""
    value = 0
    if game == QUBIC:
        value = qubic_lines(st[0], st[1])
    else:
        shut = 0 if game == NINE_BOARD else st[WON] | st[WON + 1] | st[FULL]
        for b in range(9):
            if not (shut >> b) & 1:
                value += local_lines[st[b] | (st[9 + b] << 9)]
        if game != NINE_BOARD:
            value += 200 * (POP[st[WON]] - POP[st[WON + 1]])
            value += _META_SCALE * _meta(st[WON], st[WON + 1], st[FULL])
    return value if st[TURN] == 0 else -value


@kernel_uncounted
def threats(mine: int, theirs: int) -> int:
    """Qubic: the empty cells that would complete a line of `mine` (as a mask)."""
    found = 0
    for mask in LINES:
        if not theirs & mask:
            rest = mask & ~mine
            if rest and not rest & (rest - 1):
                found |= rest
    return found


@kernel_uncounted
def threats_through(mine: int, theirs: int, cell: int) -> int:
    """`threats` on the 4 or 7 lines through `cell` only: what a move there changed,
    so the searches that play one move at a time update their threats from it instead
    of scanning all 76 lines again."""
    found = 0
    for k in range(THROUGH_COUNT[cell]):
        mask = THROUGH[cell, k]
        if not theirs & mask:
            rest = mask & ~mine
            if rest and not rest & (rest - 1):
                found |= rest
    return found


_MIX = np.uint64(0x9E3779B97F4A7C15)


@kernel_uncounted
def position_key(game: int, st: npt.NDArray[np.int64]) -> np.int64:
    """A 64-bit key of the position (marks, board to play in, player to move)."""
    words = 2 if game == QUBIC else 18
    h = np.uint64(st[TURN] + 1)
    for i in range(words):
        h = (h ^ np.uint64(st[i])) * _MIX
        h ^= h >> np.uint64(29)
    if game != QUBIC:
        h = (h ^ np.uint64(st[FORCED] + 2)) * _MIX
        h ^= h >> np.uint64(32)
    return np.int64(h)
