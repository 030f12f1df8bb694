"""How a position is laid out in a kernel: one int64 array of `SIZE` slots.

ultimate and nine-board: slots 0-8 hold x's marks in local boards 0-8 (9 bits each),
9-17 o's; `WON` + side the boards each side has won, `FULL` the boards full without a
line, `FORCED` the board to play in (-1: free choice). qubic: slot 0 holds x's 64 cells
and slot 1 o's, as the bits of an int64. Both: `TURN` (0 x, 1 o) and `RESULT`.

Games are numbered (`ULTIMATE`...) so that one compiled search serves all of them: the
per-game functions branch on the number, which costs next to nothing per call.
"""

from __future__ import annotations

from typing import TypeAlias

import numpy as np

__all__ = [
    "DRAW",
    "FORCED",
    "FULL",
    "MAX_MOVES",
    "NINE_BOARD",
    "QUBIC",
    "RESULT",
    "SIZE",
    "TURN",
    "ULTIMATE",
    "ULTIMATE_TIEBREAK",
    "WON",
    "Int",
]

#: A whole number in a kernel: a Python int or a numpy one (numba makes no difference).
Int: TypeAlias = int | np.int64

# Game numbers.
ULTIMATE = 0
ULTIMATE_TIEBREAK = 1  # ultimate with tiebreak=boards
NINE_BOARD = 2
QUBIC = 3

# Slots.
WON = 18  # + side
FULL = 20
FORCED = 21
TURN = 22
RESULT = 23
SIZE = 24

# RESULT values: 0 while the game goes on, then 1 + the winning side, or DRAW.
DRAW = 3

#: The most legal moves any position of these games has (an empty ultimate board).
MAX_MOVES = 81
