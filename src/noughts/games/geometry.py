"""Lines on boxes of cells: rows, columns and every diagonal, in any dimension.

Cells are numbered in row-major order with the last axis fastest, so on a 2-D board
with `m` columns the cell in row r, column c is ``r * m + c`` (reading order).
"""

from __future__ import annotations

import functools
import itertools
import operator
from collections.abc import Sequence
from functools import lru_cache
from typing import overload

__all__ = [
    "GROUP_MEMO",
    "CubeSymmetries",
    "bits",
    "board_group",
    "board_symmetries",
    "full_line",
    "has_line",
    "line_groups",
    "line_masks",
    "lines",
    "mapped_mask",
    "masks_through",
]


@lru_cache(maxsize=64)
def lines(shape: tuple[int, ...], k: int) -> tuple[tuple[int, ...], ...]:
    """Every run of `k` cells in a straight line on a box of `shape` (sizes per axis).

    Directions are the non-zero vectors of {-1, 0, 1}^d taken once each (not also their
    negatives). For a cube of side n with k = n this gives ((n+2)^d - n^d) / 2 lines:
    8 for 3x3, 76 for 4x4x4.
    """
    d = len(shape)
    strides = [1] * d
    for axis in range(d - 2, -1, -1):
        strides[axis] = strides[axis + 1] * shape[axis + 1]
    directions = [v for v in itertools.product((-1, 0, 1), repeat=d) if any(v) and _first_nonzero_positive(v)]
    found: list[tuple[int, ...]] = []
    for start in itertools.product(*(range(s) for s in shape)):
        for v in directions:
            end = [start[a] + (k - 1) * v[a] for a in range(d)]
            if all(0 <= end[a] < shape[a] for a in range(d)):
                found.append(tuple(sum((start[a] + i * v[a]) * strides[a] for a in range(d)) for i in range(k)))
    return tuple(found)


def _first_nonzero_positive(v: tuple[int, ...]) -> bool:
    return next(x for x in v if x) > 0


@lru_cache(maxsize=64)
def line_masks(shape: tuple[int, ...], k: int) -> tuple[int, ...]:
    """`lines` as bitmasks (bit i = cell i)."""
    return tuple(sum(1 << c for c in line) for line in lines(shape, k))


@lru_cache(maxsize=64)
def masks_through(shape: tuple[int, ...], k: int) -> tuple[tuple[int, ...], ...]:
    """For every cell, the masks of the lines that pass through it."""
    size = 1
    for s in shape:
        size *= s
    through: list[list[int]] = [[] for _ in range(size)]
    for line, mask in zip(lines(shape, k), line_masks(shape, k), strict=True):
        for c in line:
            through[c].append(mask)
    return tuple(tuple(t) for t in through)


def has_line(marks: int, masks: tuple[int, ...]) -> bool:
    # A plain loop: on this hot path any() over a generator costs twice as much.
    for mask in masks:  # noqa: SIM110
        if marks & mask == mask:
            return True
    return False


def full_line(marks: int, masks: tuple[int, ...]) -> tuple[int, ...] | None:
    """The cells of the first of `masks` that `marks` fill, ascending; None if none.

    >>> full_line(0b111000000, line_masks((3, 3), 3))
    (6, 7, 8)
    """
    for mask in masks:
        if marks & mask == mask:
            return tuple(bits(mask))
    return None


def bits(mask: int) -> list[int]:
    """The indices of the set bits, ascending."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


#: Callers that look a group's part of a score up by its contents (the marks of each
#: side in the group) remember this many contents per group, then start again.
GROUP_MEMO = 4096


@lru_cache(maxsize=64)
def line_groups(lines: tuple[int, ...]) -> tuple[tuple[int, tuple[int, ...]], ...]:
    """The lines grouped by the row, column or diagonal they lie on, as (the cells of
    the group, its lines): two lines of one direction that overlap share at least two
    cells, two of different directions at most one."""
    parent = list(range(len(lines)))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    through: dict[int, list[int]] = {}
    for i, mask in enumerate(lines):
        for cell in bits(mask):
            through.setdefault(cell, []).append(i)
    for group in through.values():
        for at, i in enumerate(group):
            for j in group[at + 1 :]:
                if (lines[i] & lines[j]).bit_count() >= 2:
                    parent[root(i)] = root(j)
    members: dict[int, list[int]] = {}
    for i, mask in enumerate(lines):
        members.setdefault(root(i), []).append(mask)
    return tuple((functools.reduce(operator.or_, group), tuple(group)) for group in members.values())


def board_symmetries(m: int, n: int) -> list[list[int]]:
    """The cell maps of a board of `m` columns and `n` rows onto itself: ``map[cell]`` is
    the cell's image. A square has 8 (transposed or not, then rows and columns flipped or
    not, in that order: the identity first), another rectangle the 4 without the
    transposition; a board one cell wide repeats some maps.

    >>> board_symmetries(3, 3)[1]  # columns flipped
    [2, 1, 0, 5, 4, 3, 8, 7, 6]
    >>> len(board_symmetries(4, 3))
    4
    """
    maps = []
    for transpose in (False, True) if m == n else (False,):
        for flip_r in (False, True):
            for flip_c in (False, True):
                cell_map = []
                for cell in range(m * n):
                    r, c = divmod(cell, m)
                    if transpose:
                        r, c = c, r
                    if flip_r:
                        r = n - 1 - r
                    if flip_c:
                        c = m - 1 - c
                    cell_map.append(r * m + c)
                maps.append(cell_map)
    return maps


@lru_cache(maxsize=64)
def board_group(m: int, n: int) -> tuple[tuple[int, ...], ...]:
    """`board_symmetries` each once, in the same order (the identity first): 8 on a
    square, 4 on another rectangle, 2 on a board one cell wide, 1 on a single cell.

    >>> [len(board_group(m, n)) for m, n in ((3, 3), (7, 6), (1, 5), (1, 1))]
    [8, 4, 2, 1]
    """
    return tuple(dict.fromkeys(tuple(cell_map) for cell_map in board_symmetries(m, n)))


def mapped_mask(mask: int, cell_map: Sequence[int]) -> int:
    """The image of a mask of cells under a cell map (``cell_map[cell]``: the image).

    >>> bin(mapped_mask(0b011, board_symmetries(3, 3)[1]))  # cells 0, 1 -> 2, 1
    '0b110'
    """
    out = 0
    for cell in bits(mask):
        out |= 1 << cell_map[cell]
    return out


def _commuting(n: int) -> list[tuple[int, ...]]:
    """The maps of the coordinates 0..n-1 that commute with reversal (``i -> n-1-i``),
    in ascending order: the pairs {i, n-1-i} permuted, each swapped or not."""
    pairs = n // 2
    found = set()
    for order in itertools.permutations(range(pairs)):
        for swaps in itertools.product((False, True), repeat=pairs):
            image = list(range(n))
            for i, j in enumerate(order):
                low, high = (n - 1 - j, j) if swaps[i] else (j, n - 1 - j)
                image[i], image[n - 1 - i] = low, high
            found.add(tuple(image))
    return sorted(found)


class CubeSymmetries(Sequence[tuple[int, ...]]):
    """The symmetries of the lines (n in a row) of a cube of side `n` in `d` dimensions,
    as cell maps (``group[s][cell]``: the cell's image; the identity first), each made
    when it is asked for.

    Besides permuting the axes and reversing any of them, one map of the coordinates
    that commutes with reversal may be applied to every axis at once (on 4x4x4, 0123 ->
    1032 exchanges the inner and outer layers of every axis): it takes a line to a line,
    since a line's coordinates are each constant, ascending or descending. That gives
    d! 2^d (n//2)! 2^(n//2) / 2 maps: 192 for Qubic (4x4x4, Silver 1967), 48 for 3x3x3,
    8 for 3x3, 32 for 4x4. (On a side of 2 every two cells are a line, and the lines have
    more symmetries than these.) The order is `noughts.kernels.symmetry`'s.

    >>> group = CubeSymmetries(4, 3)
    >>> len(group), group[0] == tuple(range(64))
    (192, True)
    >>> len(CubeSymmetries(3, 2)), len(CubeSymmetries(3, 3))
    (8, 48)
    """

    def __init__(self, n: int, d: int) -> None:
        self.n = n
        """The cube's side."""
        self.d = d
        """Its dimensions."""
        params: list[tuple[tuple[int, ...], tuple[tuple[int, ...], ...]]] = []
        for axes in itertools.permutations(range(d)):
            for pi in _commuting(n):
                # pi reversed, with every axis reversed again, is the same map: met first as pi.
                if pi[0] > n - 1 - pi[0]:
                    continue
                for flips in itertools.product((False, True), repeat=d):
                    maps = tuple(tuple(n - 1 - pi[i] if flip else pi[i] for i in range(n)) for flip in flips)
                    params.append((axes, maps))
        self._params = params
        # Each instance keeps its own recent maps: Qubic's 192 all fit, a 4-D group's
        # tens of thousands are made again when asked for again.
        self._map = lru_cache(maxsize=512)(self._build)

    def __len__(self) -> int:
        return len(self._params)

    @overload
    def __getitem__(self, index: int) -> tuple[int, ...]: ...
    @overload
    def __getitem__(self, index: slice) -> Sequence[tuple[int, ...]]: ...
    def __getitem__(self, index: int | slice) -> tuple[int, ...] | Sequence[tuple[int, ...]]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        return self._map(index)

    def _build(self, index: int) -> tuple[int, ...]:
        axes, maps = self._params[index]
        n, d = self.n, self.d
        image = []
        for cell in range(n**d):
            coords = [cell // n ** (d - 1 - a) % n for a in range(d)]
            new = [0] * d
            for a in range(d):
                new[axes[a]] = maps[a][coords[a]]
            image.append(sum(new[a] * n ** (d - 1 - a) for a in range(d)))
        return tuple(image)
