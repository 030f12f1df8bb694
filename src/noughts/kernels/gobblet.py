"""Gobblet Gobblers' exact solver in kernels: a position index over the board's
symmetries and the colour swap, move and un-move generation on it, and the passes of
the retrograde analysis and of the reachability count (`noughts.ai.gobblet_table`
drives them in chunks, with progress and checkpoints).

Positions are seen from the side to move ("mover" / "opponent"), which halves the space:
the rules are the same for both colours, only who starts differs. A position is one
*component* per figure size: the cells holding the mover's figures of that size and the
opponent's (disjoint, at most `copies` each; what is not on the board is in hand). With
two copies a size has 1,423 components, with one 91. Sizes above the variant's largest
are always component 0 (nothing on the board, nothing in hand).

The index of a position: the components as digits, the large size most significant,
minimised over the 8 symmetries of the board; the large component of that minimum is
always the least of its orbit, so it is stored by its rank among those orbit minima
(about 190 of the 1,423), which is what makes the table 8 times smaller than the digits.
Slots that are not the minimum of their own class stay unused.

Values are the project's codes (`noughts.ai.solve`): from the mover's side ``0`` a draw
(or not proven yet), ``d + 1`` a win in d plies, ``-(d + 1)`` a loss in d plies.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from noughts.games.geometry import board_symmetries
from noughts.kernels.jit import kernel
from noughts.kernels.layout import Int

__all__ = [
    "UNUSED",
    "Layout",
    "canonical",
    "children",
    "count_reached",
    "init_pass",
    "layout",
    "level_apply",
    "level_collect",
    "reach_advance",
    "reach_apply",
    "reach_collect",
]

LINES = (7, 56, 448, 73, 146, 292, 273, 84)
#: The children count of a slot that holds no class (not the minimum of its own orbit).
UNUSED = 255
#: At most 3 sizes x 9 cells placements plus 6 tops x 8 cells board moves.
MAX_MOVES = 81

I64 = npt.NDArray[np.int64]
I64_2D = npt.NDArray[np.int64]
#: The layout's arrays, as the kernels take them (`Layout.arrays`).
Tables = tuple[I64, I64, I64, I64, I64_2D, I64, I64, I64, I64]


@dataclass(frozen=True)
class Layout:
    """The index of one figure set: `sizes` sizes (the smallest ones), `copies` of each."""

    sizes: int
    copies: int
    #: Per component: the mover's and the opponent's cells (9-bit masks).
    comp_m: I64
    comp_o: I64
    #: (mover << 9 | opponent) -> component, -1 where the masks are no component.
    comp_of: I64
    #: Per component: the same figures seen from the other side.
    swap: I64
    #: Per symmetry and component: the component under that symmetry (row 0: identity).
    sym: I64
    #: The same, indexed [component, symmetry]: what the kernels read.
    symt: I64
    #: Per large component: its rank among orbit minima, -1 if it is no orbit minimum.
    rank: I64
    #: Per rank: the large component (the inverse of `rank`).
    rep: I64
    #: Per size 0-2: how many figures of it each player has (0 above `sizes`).
    caps: I64
    #: Per 9-bit mask: 1 if it holds a line.
    wins: I64

    @property
    def components(self) -> int:
        return len(self.comp_m)

    @property
    def slots(self) -> int:
        """Entries of the table: orbit minima of the large size x every smaller digit."""
        k = self.components
        return len(self.rep) * k * k

    def arrays(self) -> Tables:
        """The arrays every kernel takes, in their order."""
        return (
            self.comp_m,
            self.comp_o,
            self.comp_of,
            self.swap,
            self.symt,
            self.rank,
            self.rep,
            self.caps,
            self.wins,
        )


def _cell_maps() -> list[list[int]]:
    """The 8 symmetries of the 3x3 board as cell maps (the identity first)."""
    return board_symmetries(3, 3)


def layout(sizes: int = 3, copies: int = 2) -> Layout:
    """The index of the figure set: `sizes` sizes with `copies` figures each."""
    masks = [m for m in range(512) if m.bit_count() <= copies]
    pairs = [(m, o) for m in masks for o in masks if not m & o]
    pairs.sort(key=lambda p: (p[0].bit_count() + p[1].bit_count(), p))  # component 0: empty
    comp_m = np.array([m for m, _ in pairs], dtype=np.int64)
    comp_o = np.array([o for _, o in pairs], dtype=np.int64)
    comp_of = np.full(512 * 512, -1, dtype=np.int64)
    for i, (m, o) in enumerate(pairs):
        comp_of[m << 9 | o] = i
    swap = np.array([comp_of[o << 9 | m] for m, o in pairs], dtype=np.int64)
    maps = _cell_maps()

    def image(mask: int, cell_map: list[int]) -> int:
        return sum(1 << cell_map[c] for c in range(9) if mask >> c & 1)

    sym = np.array([[comp_of[image(m, cm) << 9 | image(o, cm)] for m, o in pairs] for cm in maps], dtype=np.int64)
    minima = sym.min(axis=0)
    rank = np.full(len(pairs), -1, dtype=np.int64)
    if sizes == 3:
        orbit_minima = [i for i in range(len(pairs)) if minima[i] == i]
        rank[orbit_minima] = np.arange(len(orbit_minima))
    else:
        rank[0] = 0  # the large size is not in play: its component is always empty
    rep = np.flatnonzero(rank >= 0).astype(np.int64)
    caps = np.array([copies if s < sizes else 0 for s in range(3)], dtype=np.int64)
    wins = np.array([any(mask & line == line for line in LINES) for mask in range(512)], dtype=np.int64)
    return Layout(sizes, copies, comp_m, comp_o, comp_of, swap, sym, np.ascontiguousarray(sym.T), rank, rep, caps, wins)


# -- positions ---------------------------------------------------------------------


@kernel
def canonical(c0: Int, c1: Int, c2: Int, k: Int, sym: I64_2D, rank: I64) -> Int:
    """The index of the class of components (small, medium, large); `sym` is indexed
    [component, symmetry], so that one component's 8 images share a cache line."""
    # The large component decides first; the smaller ones only break its ties.
    big = sym[c2, 0]
    rest = c1 * k + c0
    for g in range(1, 8):
        v = sym[c2, g]
        if v < big:
            big = v
            rest = sym[c1, g] * k + sym[c0, g]
        elif v == big:
            r = sym[c1, g] * k + sym[c0, g]
            if r < rest:
                rest = r
    return int(rank[big] * k * k + rest)


@kernel
def orbit_size(c0: Int, c1: Int, c2: Int, k: Int, sym: I64_2D) -> Int:
    """How many positions the class of these components stands for (8 / stabiliser)."""
    kk = k * k
    keys = np.empty(8, dtype=np.int64)
    n: Int = 0
    for g in range(8):
        key = sym[c2, g] * kk + sym[c1, g] * k + sym[c0, g]
        seen = False
        for i in range(n):
            if keys[i] == key:
                seen = True
        if not seen:
            keys[n] = key
            n += 1
    return n


@kernel
def _tops(m0: Int, o0: Int, m1: Int, o1: Int, m2: Int, o2: Int) -> tuple[Int, Int, Int, Int]:
    """The mover's top cells, the opponent's, and the cells a medium and a large figure
    may go to (their top is smaller)."""
    big = m2 | o2
    mover = m2 | (m1 & ~big) | (m0 & ~(big | m1 | o1))
    opponent = o2 | (o1 & ~big) | (o0 & ~(big | m1 | o1))
    return mover, opponent, 511 & ~(big | m1 | o1), 511 & ~big


@kernel
def _add(buf: I64, n: Int, value: Int) -> Int:
    for i in range(n):
        if buf[i] == value:
            return n
    buf[n] = value
    return n + 1


@kernel
def children(
    idx: Int,
    out: I64,
    tables: Tables,
) -> Int:
    """The distinct classes the mover can move to from class `idx` into `out`; their
    count, -1 when `idx` is a finished position (someone has a line) and -2 when the slot
    holds no class."""
    comp_m, comp_o, comp_of, swap, sym, rank, rep, caps, wins = tables
    k = len(comp_m)
    c0, c1, c2 = _decode(idx, k, rep)
    if canonical(c0, c1, c2, k, sym, rank) != idx:
        return -2
    m = (comp_m[c0], comp_m[c1], comp_m[c2])
    o = (comp_o[c0], comp_o[c1], comp_o[c2])
    mover, opponent, under_medium, under_large = _tops(m[0], o[0], m[1], o[1], m[2], o[2])
    if wins[mover] or wins[opponent]:
        return -1
    empty = 511 & ~(m[0] | o[0] | m[1] | o[1] | m[2] | o[2])
    free = (empty, under_medium, under_large)
    # Cells where a larger figure covers this size: its figures there cannot move.
    covered = (511 & ~under_medium, 511 & ~under_large, 0)
    s0, s1, s2 = swap[c0], swap[c1], swap[c2]
    n: Int = 0
    for size in range(3):
        ms = m[size]
        os_ = o[size]
        # Places from hand.
        if caps[size] > 0 and _popcount9(ms) < caps[size]:
            targets = free[size]
            while targets:
                bit = targets & -targets
                targets ^= bit
                d = comp_of[os_ << 9 | (ms | bit)]
                n = _add(out, n, _child(size, d, s0, s1, s2, k, sym, rank))
        # Board moves of the mover's top figures of this size.
        sources = ms & ~covered[size]
        while sources:
            src = sources & -sources
            sources ^= src
            targets = free[size] & ~src
            while targets:
                bit = targets & -targets
                targets ^= bit
                d = comp_of[os_ << 9 | (ms ^ src | bit)]
                n = _add(out, n, _child(size, d, s0, s1, s2, k, sym, rank))
    return n


@kernel
def _child(size: Int, d: Int, s0: Int, s1: Int, s2: Int, k: Int, sym: I64, rank: I64) -> Int:
    if size == 0:
        return canonical(d, s1, s2, k, sym, rank)
    if size == 1:
        return canonical(s0, d, s2, k, sym, rank)
    return canonical(s0, s1, d, k, sym, rank)


@kernel
def _popcount9(mask: Int) -> Int:
    n: Int = 0
    while mask:
        mask &= mask - 1
        n += 1
    return n


@kernel
def _decode(idx: Int, k: Int, rep: I64) -> tuple[Int, Int, Int]:
    """The components (small, medium, large) of slot `idx`."""
    kk = k * k
    return idx % k, idx % kk // k, rep[idx // kk]


@kernel
def parents(
    idx: Int,
    out: I64,
    tables: Tables,
) -> Int:
    """The distinct unfinished classes from which a move leads to class `idx`, into
    `out`; their count. The last move was the opponent's: it placed one of its top
    figures or moved it there from a cell where it fits now."""
    comp_m, comp_o, comp_of, swap, sym, rank, rep, _, wins = tables
    k = len(comp_m)
    c0, c1, c2 = _decode(idx, k, rep)
    m = (comp_m[c0], comp_m[c1], comp_m[c2])
    o = (comp_o[c0], comp_o[c1], comp_o[c2])
    _, _, under_medium, under_large = _tops(m[0], o[0], m[1], o[1], m[2], o[2])
    empty = 511 & ~(m[0] | o[0] | m[1] | o[1] | m[2] | o[2])
    free = (empty, under_medium, under_large)
    covered = (511 & ~under_medium, 511 & ~under_large, 0)
    s0, s1, s2 = swap[c0], swap[c1], swap[c2]
    n: Int = 0
    for size in range(3):
        ms = m[size]
        os_ = o[size]
        sources = os_ & ~covered[size]
        while sources:
            src = sources & -sources
            sources ^= src
            # Back to hand...
            d = comp_of[(os_ ^ src) << 9 | ms]
            n = _add_parent(out, n, size, d, s0, s1, s2, k, comp_m, comp_o, sym, rank, wins)
            # ... or back to a cell it came from.
            targets = free[size] & ~src
            while targets:
                bit = targets & -targets
                targets ^= bit
                d = comp_of[(os_ ^ src | bit) << 9 | ms]
                n = _add_parent(out, n, size, d, s0, s1, s2, k, comp_m, comp_o, sym, rank, wins)
    return n


@kernel
def _add_parent(
    out: I64,
    n: Int,
    size: Int,
    d: Int,
    s0: Int,
    s1: Int,
    s2: Int,
    k: Int,
    comp_m: I64,
    comp_o: I64,
    sym: I64,
    rank: I64,
    wins: I64,
) -> Int:
    p0, p1, p2 = (d, s1, s2) if size == 0 else (s0, d, s2) if size == 1 else (s0, s1, d)
    mover, opponent, _, _ = _tops(comp_m[p0], comp_o[p0], comp_m[p1], comp_o[p1], comp_m[p2], comp_o[p2])
    if wins[mover] or wins[opponent]:
        return n  # a finished game has no moves: no parent
    return _add(out, n, canonical(p0, p1, p2, k, sym, rank))


# -- the passes ----------------------------------------------------------------------


@kernel
def init_pass(
    lo: Int,
    hi: Int,
    values: npt.NDArray[np.int16],
    counts: npt.NDArray[np.uint8],
    tables: Tables,
) -> None:
    """Slots lo..hi: finished positions get their value (the mover has a line: won, else
    the opponent has one: lost), the others their number of distinct children, unused
    slots `UNUSED`."""
    comp_m, comp_o, _, _, _, _, rep, _, wins = tables
    out = np.empty(MAX_MOVES, dtype=np.int64)
    k = len(comp_m)
    for idx in range(lo, hi):
        n = children(idx, out, tables)
        if n == -2:
            counts[idx] = UNUSED
        elif n == -1:
            counts[idx] = 0
            c0, c1, c2 = _decode(idx, k, rep)
            mover, _, _, _ = _tops(comp_m[c0], comp_o[c0], comp_m[c1], comp_o[c1], comp_m[c2], comp_o[c2])
            values[idx] = 1 if wins[mover] else -1
        else:
            counts[idx] = n


@kernel
def level_collect(
    lo: Int,
    hi: Int,
    depth: Int,
    values: npt.NDArray[np.int16],
    counts: npt.NDArray[np.uint8],
    tables: Tables,
    buf: I64,
) -> tuple[Int, int, int]:
    """The first half of one step of the retrograde analysis over slots lo..hi: the
    undecided parents of every class decided in `depth` plies, into `buf` as ``parent * 2
    + 1`` after a loss and ``parent * 2`` after a win, for `level_apply`. It only reads
    the table, so threads collect side by side while one applies. Stops early when `buf`
    might not hold the next class's parents. Returns the slot where it stopped, the
    classes seen at `depth` and the entries written."""
    out = np.empty(MAX_MOVES, dtype=np.int64)
    code = depth + 1
    seen = 0
    n = 0
    idx = lo
    while idx < hi:
        v = values[idx]
        if (v == code or v == -code) and counts[idx] != UNUSED:
            if n + MAX_MOVES > len(buf):
                break
            seen += 1
            loss = 1 if v < 0 else 0
            for i in range(parents(idx, out, tables)):
                p = out[i]
                # Decided parents stay decided: skipping them here only saves room.
                if values[p] == 0:
                    buf[n] = p * 2 + loss
                    n += 1
        idx += 1
    return idx, seen, n


@kernel
def level_apply(
    buf: I64,
    n: Int,
    depth: Int,
    values: npt.NDArray[np.int16],
    counts: npt.NDArray[np.uint8],
) -> int:
    """The second half: each collected parent of a loss is a win in depth + 1; a win
    takes one from its parent's count of undecided children, and a parent left with
    none is a loss in depth + 1. The order does not matter (values decided now are
    depth + 1 away, never a class of this step), so the result is the same whatever
    the threads' order. Returns the classes decided."""
    code = depth + 1
    decided = 0
    for i in range(n):
        p = buf[i] >> 1
        if values[p] != 0:
            continue
        if buf[i] & 1:
            values[p] = code + 1
            decided += 1
        else:
            counts[p] -= 1
            if counts[p] == 0:
                values[p] = -(code + 1)
                decided += 1
    return decided


# Reachability: bits of one byte per class. Reached with x to move, with o to move; in
# the current frontier (x, o); in the next one (x, o).
REACHED = 1
FRONTIER = 4
NEXT = 16


@kernel
def reach_collect(
    lo: Int,
    hi: Int,
    reach: npt.NDArray[np.uint8],
    tables: Tables,
    buf: I64,
) -> tuple[Int, int, int]:
    """The first half of expanding the frontier classes among slots lo..hi: each
    unfinished one's children not yet reached with the other colour to move, into `buf`
    as ``child * 4 + colours``, for `reach_apply` (which never touches the frontier bits
    read here). Stops early when `buf` might not hold the next class's children.
    Returns the slot where it stopped, the classes expanded and the entries written."""
    out = np.empty(MAX_MOVES, dtype=np.int64)
    expanded = 0
    n = 0
    idx = lo
    while idx < hi:
        front = reach[idx] >> 2 & 3
        if front:
            if n + MAX_MOVES > len(buf):
                break
            expanded += 1
            # A child of a position with x to move has o to move, and the other way round.
            colours = (front & 1) << 1 | front >> 1
            for i in range(children(idx, out, tables)):
                c = out[i]
                if colours & ~reach[c] & 3:
                    buf[n] = c * 4 + colours
                    n += 1
        idx += 1
    return idx, expanded, n


@kernel
def reach_apply(buf: I64, n: Int, reach: npt.NDArray[np.uint8]) -> None:
    """The second half: the collected children are reached, and in the next frontier,
    with the colours not reached before."""
    for i in range(n):
        c = buf[i] >> 2
        new = buf[i] & 3 & ~reach[c] & 3
        if new:
            reach[c] |= new | new << 4


@kernel
def reach_advance(reach: npt.NDArray[np.uint8]) -> int:
    """The next frontier becomes the current one; returns its size."""
    size = 0
    for idx in range(len(reach)):
        r = reach[idx]
        nxt = r >> 4 & 3
        reach[idx] = (r & 3) | nxt << 2
        if nxt:
            size += 1
    return size


@kernel
def count_reached(
    reach: npt.NDArray[np.uint8],
    values: npt.NDArray[np.int16],
    tables: Tables,
) -> npt.NDArray[np.int64]:
    """Counts of the reached classes: [classes, classes with colour, positions, terminal
    classes, terminal classes with colour, terminal positions, then classes won, drawn,
    lost for the mover]."""
    comp_m, comp_o, _, _, sym, _, rep, _, wins = tables
    k = len(comp_m)
    totals = np.zeros(9, dtype=np.int64)
    for idx in range(len(reach)):
        colours = reach[idx] & 3
        if not colours:
            continue
        c0, c1, c2 = _decode(idx, k, rep)
        both = (colours & 1) + (colours >> 1)
        orbit = orbit_size(c0, c1, c2, k, sym)
        mover, opponent, _, _ = _tops(comp_m[c0], comp_o[c0], comp_m[c1], comp_o[c1], comp_m[c2], comp_o[c2])
        totals[0] += 1
        totals[1] += both
        totals[2] += both * orbit
        if wins[mover] or wins[opponent]:
            totals[3] += 1
            totals[4] += both
            totals[5] += both * orbit
        v = values[idx]
        totals[6 if v > 0 else 7 if v == 0 else 8] += 1
    return totals
