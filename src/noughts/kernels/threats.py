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
from noughts.kernels.layout import Int

__all__ = ["NODES", "PLIES", "forced_line", "forced_win", "replays", "unanswered"]

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
def _attack(
    mine: int,
    theirs: int,
    depth: int,
    stats: npt.NDArray[np.float64],
    deadline: float,
    limit: float,
    line: npt.NDArray[np.int64],
) -> int:
    """A first move of a threat sequence that wins within `depth` threats, or -1; on
    success `stats[PLIES]` holds the plies to the win and `line` (at least depth + 1
    long) the attacker's moves of the sequence, the rest -1. Depth first with an
    explicit stack: numba's on-disk cache breaks recursive functions (numba issue 6061)."""
    line[:] = -1
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
            for at in range(level + 1):
                line[at] = next_cell[at] - 1
            return int(next_cell[0] - 1)
    return -1


@kernel
def forced_win(
    mine: int, theirs: int, max_depth: int, stats: npt.NDArray[np.float64], deadline: float, limit: float
) -> int:
    """The first move of the shortest threat sequence (by number of threats, up to
    `max_depth`) with which `mine`, to move, wins; -1 if none was found before the
    `deadline` or the node `limit`. `stats[PLIES]`: plies to the win."""
    line = np.empty(max_depth + 1, dtype=np.int64)
    return forced_line(mine, theirs, max_depth, stats, deadline, limit, line)


@kernel
def forced_line(
    mine: int,
    theirs: int,
    max_depth: int,
    stats: npt.NDArray[np.float64],
    deadline: float,
    limit: float,
    line: npt.NDArray[np.int64],
) -> int:
    """`forced_win`, also leaving the attacker's moves of the sequence in `line` (at
    least `max_depth` + 1 long; -1 after the last; all -1 when a line of its own is
    already one move from complete)."""
    for depth in range(max_depth + 1):
        move = _attack(mine, theirs, depth, stats, deadline, limit, line)
        if move >= 0 or stats[ABORTED] > 0:
            return move
    line[:] = -1
    return -1


@kernel
def replays(mine: int, theirs: int, line: npt.NDArray[np.int64]) -> bool:
    """Whether the attacker, to move, wins by playing `line` (moves, -1 ends it) as a
    sequence of threats: each move, when the attacker cannot complete a line at once,
    must make a threat (the defender, without a threat of its own, must block it, and
    does; two threats win) and may answer a single threat of the defender only by
    blocking it. A check, not a search: True only when that line wins whatever the
    defender does, so it proves the position (the null-move argument: a sequence found
    with the defender passing wins after every defender move it survives)."""
    for move in line:
        if threats(mine, theirs):
            return True  # a line of its own completes now
        if move < 0:
            return False
        bit = int(np.int64(1) << np.int64(move))
        if (mine | theirs) & bit:
            return False
        against = threats(theirs, mine)
        if against and against != bit:
            return False  # a threat the move does not block (or two): the defender wins
        mine |= bit
        made = threats(mine, theirs)
        if not made:
            return False
        if made & (made - 1):
            return True  # two threats, and the defender has none: one block is not enough
        theirs |= made  # the only move that does not lose at once
    return threats(mine, theirs) != 0


@kernel
def unanswered(mine: int, theirs: int, line: npt.NDArray[np.int64]) -> Int:
    """The empty cells where a defender's move (the defender to move) is not shown to
    lose by `replays` of `line` after it: the replies left to search."""
    left: Int = 0
    empty = ~(mine | theirs)
    for cell in range(CELLS):
        bit = int(np.int64(1) << np.int64(cell))
        if empty & bit and not replays(mine, theirs | bit, line):
            left |= bit
    return left
