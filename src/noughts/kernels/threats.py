"""Qubic threat-space search: a forced win by continuous threats (a "VCF").

The attacker plays a move that makes a line of three with the fourth cell empty (a
threat); the defender must fill that cell; and so on, until the attacker makes two
threats at once, which no single reply stops. While attacking, a defender's threat must
be blocked first, and the block must itself make a threat to keep the initiative.

This is how Qubic was solved (Patashnik 1980; Allis's threat-space search): most of the
first player's forced wins are such sequences, and searching only forcing moves keeps
the tree narrow, so wins twenty or more plies deep are found in milliseconds.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from noughts.kernels.cube import CELLS, LINES, popcount
from noughts.kernels.evaluate import threats
from noughts.kernels.jit import kernel, now

__all__ = ["NODES", "PLIES", "forced_win"]

# Slots of the `stats` array.
NODES, PLIES, ABORTED = range(3)
# What `_arrive` finds.
STUCK, WINS_NOW, GO_ON = range(3)
CLOCK_EVERY = 2048


@kernel
def _lowest(mask: int) -> int:
    for cell in range(CELLS):
        if (mask >> cell) & 1:
            return cell
    return -1


@kernel
def _arrive(
    mine: int, theirs: int, depth: int, stats: npt.NDArray[np.float64], deadline: float, limit: float
) -> tuple[int, int]:
    """The attacker to move: (WINS_NOW, 0) with a threat of its own standing, (STUCK, 0)
    when it cannot go on (no depth left, or a double threat against it), else (GO_ON,
    the cells worth trying): the block of a single threat against it, or every cell
    that makes a new threat."""
    stats[NODES] += 1
    if stats[NODES] % CLOCK_EVERY == 0 and ((deadline > 0 and now() >= deadline) or stats[NODES] >= limit):
        stats[ABORTED] = 1
    if stats[ABORTED] > 0:
        return STUCK, 0
    if threats(mine, theirs):
        return WINS_NOW, 0
    if depth == 0:
        return STUCK, 0
    their_threats = threats(theirs, mine)
    if popcount(their_threats) >= 2:
        return STUCK, 0
    if their_threats:
        return GO_ON, their_threats
    candidates = 0
    for mask in LINES:
        if not theirs & mask and popcount(mine & mask) == 2:
            candidates |= mask & ~mine
    return GO_ON, candidates


@kernel
def _attack(mine: int, theirs: int, depth: int, stats: npt.NDArray[np.float64], deadline: float, limit: float) -> int:
    """A first move of a threat sequence that wins within `depth` threats, or -1; on
    success `stats[PLIES]` holds the plies to the win. Depth first with an explicit
    stack: numba's on-disk cache breaks recursive functions (numba issue 6061)."""
    status, candidates = _arrive(mine, theirs, depth, stats, deadline, limit)
    if status == WINS_NOW:
        stats[PLIES] = 1
        return _lowest(threats(mine, theirs))
    if status == STUCK:
        return -1
    mines = np.empty(depth + 1, dtype=np.int64)
    theirs_at = np.empty(depth + 1, dtype=np.int64)
    options = np.empty(depth + 1, dtype=np.int64)
    next_cell = np.zeros(depth + 1, dtype=np.int64)
    mines[0], theirs_at[0], options[0] = mine, theirs, candidates
    level = 0
    while level >= 0:
        if stats[ABORTED] > 0:
            return -1
        cell = next_cell[level]
        while cell < CELLS and not (options[level] >> cell) & 1:
            cell += 1
        if cell == CELLS:
            level -= 1  # every try failed here: back to the parent's next one
            continue
        next_cell[level] = cell + 1
        after = mines[level] | (np.int64(1) << np.int64(cell))
        made = threats(after, theirs_at[level])
        if not made:
            continue
        # Two threats at once win; one is blocked, and the attack goes on from there.
        won = made & (made - 1) != 0
        if not won:
            status, candidates = _arrive(after, theirs_at[level] | made, depth - level - 1, stats, deadline, limit)
            won = status == WINS_NOW
            if status == GO_ON:
                level += 1
                mines[level], theirs_at[level], options[level] = after, theirs_at[level - 1] | made, candidates
                next_cell[level] = 0
                continue
        if won:
            stats[PLIES] = 3 + 2 * level
            return int(next_cell[0] - 1)
    return -1


@kernel
def forced_win(
    mine: int, theirs: int, max_depth: int, stats: npt.NDArray[np.float64], deadline: float, limit: float
) -> int:
    """The first move of the shortest threat sequence (by number of threats, up to
    `max_depth`) with which `mine`, to move, wins; -1 if none was found before the
    `deadline` or the node `limit`. `stats[PLIES]`: plies to the win."""
    for depth in range(max_depth + 1):
        move = _attack(mine, theirs, depth, stats, deadline, limit)
        if move >= 0 or stats[ABORTED] > 0:
            return move
    return -1
