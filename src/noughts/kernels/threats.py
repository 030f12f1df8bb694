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

from noughts.kernels.cube import CELLS, LINES, LINES_AT, lowest, popcount
from noughts.kernels.evaluate import threats, threats_through
from noughts.kernels.jit import kernel, kernel_uncounted, now
from noughts.kernels.layout import Int

__all__ = ["NODES", "PLIES", "forced_in", "forced_line", "forced_win", "replays", "stack_size", "unanswered"]

# Slots of the `stats` array.
NODES, PLIES, ABORTED = range(3)
# What `_arrive` finds.
STUCK, WINS_NOW, GO_ON, CUT = range(4)  # CUT: stuck for want of depth
CLOCK_EVERY = 2048


# The search's stack: per level the attacker's and defender's marks, the cells to try,
# the next one to try, and the position's line counts: for each side and k = 1..4, the
# set of lines holding at least k of its marks, as two words of line numbers (bit i of
# word i // 64). A move updates the counts in a few word operations, and a line's state
# (three of one side, none of the other) is a mask, not a scan of the 76 lines.
MINES, THEIRS_AT, OPTIONS, NEXT, COUNTS = range(5)
MINE, THEIRS = 0, 8
LEVEL = COUNTS + 16


@kernel_uncounted
def _place(stack: npt.NDArray[np.int64], at: int, side: int, cell: int) -> None:
    """Count a mark of `side` (MINE or THEIRS) at `cell` in the counts at `at`."""
    for w in range(2):
        through = LINES_AT[cell, w]
        base = at + side + w
        stack[base + 6] |= stack[base + 4] & through
        stack[base + 4] |= stack[base + 2] & through
        stack[base + 2] |= stack[base] & through
        stack[base] |= through


@kernel_uncounted
def _count(mine: int, theirs: int, stack: npt.NDArray[np.int64], at: int) -> None:
    """The line counts of (mine, theirs), at `at`."""
    stack[at : at + 16] = 0
    for cell in range(CELLS):
        if (mine >> cell) & 1:
            _place(stack, at, MINE, cell)
        elif (theirs >> cell) & 1:
            _place(stack, at, THEIRS, cell)


@kernel_uncounted
def _cells(lo: int, hi: int) -> int:
    """The cells of the lines in the set (lo, hi)."""
    found = 0
    while lo:
        found |= LINES[lowest(lo)]
        lo &= lo - 1
    while hi:
        found |= LINES[64 + lowest(hi)]
        hi &= hi - 1
    return found


@kernel_uncounted
def _held(stack: npt.NDArray[np.int64], at: int, side: int, k: int, w: int) -> int:
    """Word `w` of the lines with exactly `k` (1-3) marks of `side` and none of the
    other's, by the counts at `at`."""
    base = at + side + w
    return int(stack[base + 2 * (k - 1)] & ~stack[base + 2 * k] & ~stack[at + THEIRS - side + w])


@kernel_uncounted
def _threats_in(stack: npt.NDArray[np.int64], at: int, side: int, owner: int) -> int:
    """`threats(owner, other)` by the counts at `at`: the empty cells of the lines with
    three of `side`'s marks and none of the other's."""
    lo, hi = _held(stack, at, side, 3, 0), _held(stack, at, side, 3, 1)
    if not (lo | hi):
        return 0
    return _cells(lo, hi) & ~owner


@kernel_uncounted
def _watched(stack: npt.NDArray[np.int64], at: int) -> tuple[int, int, int, int, int, int]:
    """What `_arrive` looks at in the counts at `at`: the lines (two words each) with
    three of the attacker's marks, with three of the defender's, and with two of the
    attacker's (each with none of the other side's)."""
    return (
        _held(stack, at, MINE, 3, 0),
        _held(stack, at, MINE, 3, 1),
        _held(stack, at, THEIRS, 3, 0),
        _held(stack, at, THEIRS, 3, 1),
        _held(stack, at, MINE, 2, 0),
        _held(stack, at, MINE, 2, 1),
    )


@kernel_uncounted
def _arrive(
    mine: int, theirs: int, watched: tuple[int, int, int, int, int, int], depth: int, stopped: bool
) -> tuple[int, int]:
    """The attacker to move (`watched`: its lines, `_watched`; `stopped`: the search
    is out of nodes or time): (WINS_NOW, 0) with a threat of its own standing, (STUCK,
    0) when it cannot go on (a double threat against it; (CUT, 0): no depth left), else
    (GO_ON, the cells worth trying): the block of a single threat against it, or every
    cell that makes a new threat. Scalars only: a kernel taking arrays pays for
    counting references to them at every call, more than this body costs."""
    if stopped:
        return STUCK, 0
    three_lo, three_hi, against_lo, against_hi, two_lo, two_hi = watched
    if three_lo | three_hi:
        return WINS_NOW, 0
    if depth == 0:
        return CUT, 0
    their_threats = _cells(against_lo, against_hi) & ~theirs if against_lo | against_hi else 0
    if popcount(their_threats) >= 2:
        return STUCK, 0
    if their_threats:
        return GO_ON, their_threats
    return GO_ON, _cells(two_lo, two_hi) & ~mine


@kernel_uncounted
def _tick(nodes: int, deadline: float, limit: float) -> bool:
    """Whether the search stops at its `nodes`-th node (out of nodes or of time). The
    clock and the limit are looked at every `CLOCK_EVERY` nodes only."""
    return nodes & (CLOCK_EVERY - 1) == 0 and ((deadline > 0 and now() >= deadline) or nodes >= limit)


@kernel_uncounted
def _attack(
    depth: int,
    stats: npt.NDArray[np.float64],
    deadline: float,
    limit: float,
    line: npt.NDArray[np.int64],
    stack: npt.NDArray[np.int64],
) -> tuple[int, bool]:
    """A first move of a threat sequence that wins within `depth` threats from the
    position on the `stack`'s first level (marks and line counts; at least depth + 1
    levels), or -1, and whether a sequence was cut short by the depth. On success
    `stats[PLIES]` holds the plies to the win and `line` (at least depth + 1 long) the
    attacker's moves of the sequence, the rest -1. Depth first with an explicit stack:
    numba's on-disk cache breaks recursive functions (numba issue 6061). The nodes are
    counted here and written to `stats` on the way out."""
    line[:] = -1
    nodes = int(stats[NODES]) + 1
    stopped = stats[ABORTED] > 0 or _tick(nodes, deadline, limit)
    mine, theirs = stack[MINES], stack[THEIRS_AT]
    status, candidates = _arrive(mine, theirs, _watched(stack, COUNTS), depth, stopped)
    stats[NODES], stats[ABORTED] = nodes, stopped
    if status == WINS_NOW:
        stats[PLIES] = 1
        return lowest(threats(mine, theirs)), False
    if status != GO_ON:
        return -1, status == CUT
    stack[OPTIONS], stack[NEXT] = candidates, 0
    cut = False
    level = 0
    while level >= 0:
        if stopped:
            stats[NODES], stats[ABORTED] = nodes, 1
            return -1, cut
        at = level * LEVEL
        cell = stack[at + NEXT]
        left = stack[at + OPTIONS] & ~((np.int64(1) << np.int64(cell)) - 1) if cell < CELLS else 0
        if not left:
            level -= 1  # every try failed here: back to the parent's next one
            continue
        cell = lowest(left)
        stack[at + NEXT] = cell + 1
        after = stack[at + MINES] | (np.int64(1) << np.int64(cell))
        # The next level's counts (overwritten by the next try here).
        below = at + LEVEL
        # Word by word, not as a slice: numba copies a slice of an array onto the same
        # array through a temporary it allocates (the two may overlap) and counts
        # references to both views, which took half of the search's time.
        for i in range(COUNTS, LEVEL):
            stack[below + i] = stack[at + i]
        _place(stack, below + COUNTS, MINE, cell)
        made = _threats_in(stack, below + COUNTS, MINE, after)  # the attacker had none before
        if not made:
            continue
        # Two threats at once win; one is blocked, and the attack goes on from there.
        won = made & (made - 1) != 0
        if not won:
            _place(stack, below + COUNTS, THEIRS, lowest(made))
            blocked = stack[at + THEIRS_AT] | made
            nodes += 1
            stopped = _tick(nodes, deadline, limit)
            status, candidates = _arrive(after, blocked, _watched(stack, below + COUNTS), depth - level - 1, stopped)
            won = status == WINS_NOW
            cut |= status == CUT
            if status == GO_ON:
                level += 1
                stack[below + MINES], stack[below + THEIRS_AT] = after, blocked
                stack[below + OPTIONS], stack[below + NEXT] = candidates, 0
                continue
        if won:
            stats[NODES] = nodes
            stats[PLIES] = 3 + 2 * level
            for up in range(level + 1):
                line[up] = stack[up * LEVEL + NEXT] - 1
            return int(stack[NEXT] - 1), cut
    stats[NODES] = nodes
    return -1, cut


@kernel_uncounted
def _repeat(stats: npt.NDArray[np.float64], nodes: int, times: int, deadline: float, limit: float) -> None:
    """Count `times` more searches of `nodes` nodes each, as they would count them: the
    clock and the limit looked at on the same counts, stopping where they would."""
    count = int(stats[NODES])
    end = count + nodes * times
    mark = (count // CLOCK_EVERY + 1) * CLOCK_EVERY
    while mark <= end:
        if _tick(mark, deadline, limit):
            stats[NODES], stats[ABORTED] = mark, 1
            return
        mark += CLOCK_EVERY
    stats[NODES] = end


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
    stack = np.empty(stack_size(max_depth), dtype=np.int64)
    return forced_in(mine, theirs, max_depth, stats, deadline, limit, line, stack)


@kernel_uncounted
def stack_size(max_depth: int) -> int:
    """The length of the search's stack (`forced_in`) for `max_depth` threats."""
    return (max_depth + 1) * LEVEL


@kernel_uncounted
def forced_in(
    mine: int,
    theirs: int,
    max_depth: int,
    stats: npt.NDArray[np.float64],
    deadline: float,
    limit: float,
    line: npt.NDArray[np.int64],
    stack: npt.NDArray[np.int64],
) -> int:
    """`forced_line` in the caller's `stack` (at least `stack_size(max_depth)` long), for
    a caller that searches many positions: no array made per search."""
    # One stack for every depth: the first level (the position) is the same for each.
    stack[MINES], stack[THEIRS_AT] = mine, theirs
    _count(mine, theirs, stack, COUNTS)
    for depth in range(max_depth + 1):
        before = int(stats[NODES])
        move, cut = _attack(depth, stats, deadline, limit, line, stack)
        if move >= 0 or stats[ABORTED] > 0:
            return move
        if not cut:
            # No sequence was cut short by the depth: each deeper search would visit
            # exactly these nodes again, in the same order, and fail the same way
            # (the depth only ever stops a sequence). Their nodes are counted, not
            # searched again.
            _repeat(stats, int(stats[NODES]) - before, max_depth - depth, deadline, limit)
            break
    line[:] = -1
    return -1


@kernel_uncounted
def replays(mine: int, theirs: int, line: npt.NDArray[np.int64]) -> bool:
    """Whether the attacker, to move, wins by playing `line` (moves, -1 ends it) as a
    sequence of threats: each move, when the attacker cannot complete a line at once,
    must make a threat (the defender, without a threat of its own, must block it, and
    does; two threats win) and may answer a single threat of the defender only by
    blocking it. A check, not a search: True only when that line wins whatever the
    defender does, so it proves the position (the null-move argument: a sequence found
    with the defender passing wins after every defender move it survives)."""
    return _replays_from(mine, theirs, line, threats(mine, theirs), threats(theirs, mine))


@kernel_uncounted
def _replays_from(mine: int, theirs: int, line: npt.NDArray[np.int64], own: int, against: int) -> bool:
    """`replays`, given the attacker's threats (`own`) and the defender's (`against`)
    in (mine, theirs). After the first move both change only on the lines through the
    cells just played: the attacker has no threat left once its one threat is blocked,
    and its move only takes away a threat of the defender's (its cell), so each step
    looks at those 4-7 lines instead of all 76."""
    if own:
        return True  # a line of its own completes now
    for move in line:
        if move < 0:
            return False
        bit = int(np.int64(1) << np.int64(move))
        if (mine | theirs) & bit:
            return False
        if against and against != bit:
            return False  # a threat the move does not block (or two): the defender wins
        mine |= bit
        made = threats_through(mine, theirs, move)
        if not made:
            return False
        if made & (made - 1):
            return True  # two threats, and the defender has none: one block is not enough
        theirs |= made  # the only move that does not lose at once
        against = threats_through(theirs, mine, lowest(made))
    return False


@kernel_uncounted
def unanswered(mine: int, theirs: int, line: npt.NDArray[np.int64]) -> Int:
    """The empty cells where a defender's move (the defender to move) is not shown to
    lose by `replays` of `line` after it: the replies left to search. The threats on
    both sides are found once; a reply changes them only on the lines through it."""
    left: Int = 0
    empty = ~(mine | theirs)
    own = threats(mine, theirs)
    against = threats(theirs, mine)
    for cell in range(CELLS):
        bit = int(np.int64(1) << np.int64(cell))
        if not empty & bit:
            continue
        after = theirs | bit
        # The reply only blocks the attacker's lines through it, and only its own lines
        # through it can become threats (a threat of its own there, it completes).
        own_after = threats(mine, after) if own else 0
        against_after = (against & ~bit) | threats_through(after, mine, cell)
        if not _replays_from(mine, after, line, own_after, against_after):
            left |= bit
    return left
