"""A learned evaluation of ultimate positions, for the tree search (`tree`, implicit
minimax).

A position's value for its player to move is a logistic function of the sum of one
weight per active feature (19 of them):

* each open local board: its pattern of marks (the mover's and the opponent's), by the
  board's place (corner, edge, centre) and up to the symmetries that keep that place;
  a closed board: its place, and whether the mover won it, the opponent did or it is full;
* each line of boards: its three boards' statuses, unordered (won by either, full, or
  open with a cell that wins it for the mover, the opponent, both or neither), by the
  line's place (along an edge, through the middle, diagonal);
* where the mover is sent: anywhere, or a board's place and status and whether winning
  it would win the game;
* which side moves.

Every feature is the same for the eight images of a position under the board's
symmetries, so the value is too. The weights are fit to seeded self-play by
tools/ultimate_eval and shipped in ``ai/books/ultimate_eval.npz``, one per feature up to
symmetry (`weights` expands them to one array a kernel reads without any symmetry work).
"""

from __future__ import annotations

import functools
import math
from pathlib import Path

import numpy as np
import numpy.typing as npt

from noughts.games.geometry import board_symmetries, lines
from noughts.kernels.boards import WINS
from noughts.kernels.jit import kernel_uncounted
from noughts.kernels.layout import FORCED, FULL, TURN, WON

__all__ = [
    "ACTIVE",
    "FEATURES",
    "SCRATCH",
    "SHIPPED",
    "active",
    "expand",
    "feature_classes",
    "value",
    "weights",
]

#: The place of each board (0 corner, 1 edge, 2 centre).
KIND = np.array([0, 1, 0, 1, 2, 1, 0, 1, 0], dtype=np.int64)
#: TERNARY[mask]: the 9-bit mask as a base-3 number, 1 per cell in it.
TERNARY = np.array([sum(3**i for i in range(9) if m >> i & 1) for m in range(512)], dtype=np.int64)
_LINES = np.array(lines((3, 3), 3), dtype=np.int64)
#: Each line's place: 0 along an edge, 1 through the middle, 2 a diagonal (through the
#: centre and two corners).
_LINE_KIND = np.array([0 if 4 not in line else 2 if line[0] in (0, 2) and line[2] in (6, 8) else 1 for line in _LINES])
#: Statuses: 0 won by the mover, 1 by the opponent, 2 full; 3 + 1 if the mover has a
#: cell that wins the board + 2 if the opponent has one.
_STATUSES = 7
_multisets: dict[tuple[int, ...], int] = {}
#: _MULTISET[a, b, c]: the number of the unordered statuses of a line's three boards.
_MULTISET = np.zeros((_STATUSES,) * 3, dtype=np.int64)
for _a in range(_STATUSES):
    for _b in range(_STATUSES):
        for _c in range(_STATUSES):
            _MULTISET[_a, _b, _c] = _multisets.setdefault(tuple(sorted((_a, _b, _c))), len(_multisets))
_MULTISETS = len(_multisets)

# Where each kind of feature starts in the expanded weights.
_PATTERNS = 9 * 3**9  # board * 3^9 + the pattern (mover's cells 1, opponent's 2)
_CLOSED = _PATTERNS  # + place * 3 + status
_LINE = _CLOSED + 9  # + line place * _MULTISETS + multiset
_SENT = _LINE + 3 * _MULTISETS  # + place * 14 + status * 2 + winning it wins the game
_FREE = _SENT + 3 * _STATUSES * 2
_MOVER = _FREE + 1  # + side
#: The length of the expanded weights.
FEATURES = _MOVER + 2
#: How many features are active in a position.
ACTIVE = 19
#: The length of the scratch array `active` and `value` work in.
SCRATCH = ACTIVE + 9

#: The shipped weights.
SHIPPED = Path(__file__).resolve().parent.parent / "ai" / "books" / "ultimate_eval.npz"


@kernel_uncounted
def _status(mine: int, theirs: int, won_mine: int, won_theirs: int, full: int, board: int) -> int:
    if (won_mine >> board) & 1:
        return 0
    if (won_theirs >> board) & 1:
        return 1
    if (full >> board) & 1:
        return 2
    return 3 + (1 if WINS[mine] & ~theirs else 0) + (2 if WINS[theirs] & ~mine else 0)


@kernel_uncounted
def active(st: npt.NDArray[np.int64], out: npt.NDArray[np.int64]) -> None:
    """Write the indices (in the expanded weights) of the `ACTIVE` features of position
    `st` (an unfinished ultimate position) into out[:ACTIVE]; out[ACTIVE:SCRATCH] gets
    the boards' statuses."""
    side = st[TURN]
    won_mine, won_theirs, full = st[WON + side], st[WON + 1 - side], st[FULL]
    for b in range(9):
        mine, theirs = st[side * 9 + b], st[(1 - side) * 9 + b]
        status = _status(mine, theirs, won_mine, won_theirs, full, b)
        out[ACTIVE + b] = status
        out[b] = _CLOSED + KIND[b] * 3 + status if status < 3 else b * 3**9 + TERNARY[mine] + 2 * TERNARY[theirs]
    for line in range(8):
        a, b, c = out[ACTIVE + _LINES[line, 0]], out[ACTIVE + _LINES[line, 1]], out[ACTIVE + _LINES[line, 2]]
        out[9 + line] = _LINE + _LINE_KIND[line] * _MULTISETS + _MULTISET[a, b, c]
    forced = st[FORCED]
    if forced < 0:
        out[17] = _FREE
    else:
        wins_game = (WINS[won_mine] >> forced) & 1
        out[17] = _SENT + KIND[forced] * _STATUSES * 2 + out[ACTIVE + forced] * 2 + wins_game
    out[18] = _MOVER + side


@kernel_uncounted
def value(st: npt.NDArray[np.int64], weights: npt.NDArray[np.float64], scratch: npt.NDArray[np.int64]) -> float:
    """The value of unfinished position `st` for its player to move, from -1 (lost) to
    1 (won): twice its expected score, less one. `weights`: expanded (`weights()`);
    `scratch`: `SCRATCH` slots the caller owns."""
    active(st, scratch)
    z = 0.0
    for i in range(ACTIVE):
        z += weights[scratch[i]]
    return 2.0 / (1.0 + math.exp(-z)) - 1.0


@functools.cache
def feature_classes() -> tuple[npt.NDArray[np.int64], int]:
    """(CLASS, n): CLASS[i] is the number (below n) of expanded feature i up to
    symmetry; features one symmetry apart share a weight."""
    digits = np.arange(3**9)[:, None] // 3 ** np.arange(9) % 3
    reps = {0: 0, 1: 1, 2: 4}
    keys = np.zeros((9, 3**9), dtype=np.int64)
    for board in range(9):
        place = int(KIND[board])
        # Every map taking the board to its place's first board: its pattern is seen from there.
        images = []
        for image in board_symmetries(3, 3):
            if image[board] == reps[place]:
                moved = np.zeros_like(digits)
                moved[:, image] = digits
                images.append(moved @ 3 ** np.arange(9))
        keys[board] = place * 3**9 + np.min(images, axis=0)
    _, pattern_class = np.unique(keys.ravel(), return_inverse=True)
    patterns = int(pattern_class.max()) + 1
    rest = np.arange(FEATURES - _PATTERNS) + patterns
    return np.concatenate([pattern_class, rest]).astype(np.int64), patterns + FEATURES - _PATTERNS


def expand(shared: npt.NDArray[np.floating]) -> npt.NDArray[np.float64]:
    """The expanded weights (`FEATURES`) of weights up to symmetry."""
    classes, n = feature_classes()
    if shared.shape != (n,):
        raise ValueError(f"weights up to symmetry are {n} numbers, not {shared.shape}")
    return np.asarray(shared, dtype=np.float64)[classes]


@functools.cache
def weights() -> npt.NDArray[np.float64]:
    """The shipped weights, expanded."""
    with np.load(SHIPPED) as book:
        return expand(book["weights"])
