"""The exact table of a plain m,n,k board (up to 16 cells), built in a compiled kernel.

The same memoised negamax over positions up to the board's symmetries as the readable
builder in `noughts.ai.solve` (which stays for machines without numba and checks this
one: tests/kernels/test_mnk_table.py compares the two entry for entry), with an
explicit stack instead of recursion (numba's cache breaks recursive functions) and an
open-addressing hash table instead of a dict: the 4x4 tables build in a second or two
instead of half a minute.

Keys are ``x << cells | o`` of the least image over the symmetries; codes as in the
solver (``0`` a draw, ``d + 1`` a win in d plies, ``-(d + 1)`` a loss in d plies, for
the player to move).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from noughts.kernels.jit import kernel

__all__ = ["build"]

_EMPTY = np.uint64(0xFFFFFFFFFFFFFFFF)  # no key is all ones: x and o never share a cell


@kernel
def _canon(x: int, o: int, cells: int, low: int, lo: Any, hi: Any) -> Any:
    mask = (np.int64(1) << low) - 1
    best = _EMPTY
    for s in range(lo.shape[0]):
        xi = lo[s, x & mask] | hi[s, x >> low]
        oi = lo[s, o & mask] | hi[s, o >> low]
        key = np.uint64((xi << cells) | oi)
        if key < best:
            best = key
    return best


@kernel
def _slot(keys: Any, key: Any) -> Any:
    """The slot of `key`, or of the empty slot where it would go."""
    mask = keys.shape[0] - 1
    i = np.int64((key * np.uint64(0x9E3779B97F4A7C15)) >> np.uint64(32)) & mask
    while keys[i] != key and keys[i] != _EMPTY:
        i = (i + 1) & mask
    return i


@kernel
def _negate(code: int) -> int:
    if code > 0:
        return -code - 1
    if code < 0:
        return -code + 1
    return 0


@kernel
def _rank(code: int) -> int:
    if code > 0:
        return (1 << 20) - code
    if code == 0:
        return 0
    return -(1 << 20) - code


@kernel
def _solve(cells: int, full: int, through: Any, lo: Any, hi: Any, low: int, capacity: int) -> Any:
    keys = np.full(capacity, _EMPTY, dtype=np.uint64)
    codes = np.zeros(capacity, dtype=np.int16)
    used = 0
    # One frame a ply: the position, the moves not tried yet, the best code so far.
    sx = np.zeros(cells + 1, dtype=np.int64)
    so = np.zeros(cells + 1, dtype=np.int64)
    left = np.zeros(cells + 1, dtype=np.int64)
    best = np.zeros(cells + 1, dtype=np.int64)
    depth = 0
    sx[0], so[0], left[0], best[0] = 0, 0, full, -(1 << 30)
    while depth >= 0:
        x, o = sx[depth], so[depth]
        x_to_move = depth % 2 == 0
        if left[depth] == 0:
            i = _slot(keys, _canon(x, o, cells, low, lo, hi))
            if keys[i] == _EMPTY:
                keys[i] = _canon(x, o, cells, low, lo, hi)
                used += 1
            codes[i] = best[depth]
            if used * 4 > capacity * 3:
                return keys, codes, -1  # the caller retries with more room
            done = best[depth]
            depth -= 1
            if depth >= 0:
                code = _negate(done)
                if _rank(code) > _rank(best[depth]) or best[depth] == -(1 << 30):
                    best[depth] = code
            continue
        bit = left[depth] & -left[depth]
        left[depth] ^= bit
        cell = 0
        while (np.int64(1) << cell) != bit:
            cell += 1
        mine = (x if x_to_move else o) | bit
        nx, no = (mine, o) if x_to_move else (x, mine)
        won = False
        for j in range(through.shape[1]):
            line = through[cell, j]
            if line == 0:
                break
            if mine & line == line:
                won = True
                break
        code = 0
        if won or nx | no == full:
            i = _slot(keys, _canon(nx, no, cells, low, lo, hi))
            if keys[i] == _EMPTY:
                keys[i] = _canon(nx, no, cells, low, lo, hi)
                used += 1
            codes[i] = -1 if won else 0
            code = 2 if won else 0
        else:
            i = _slot(keys, _canon(nx, no, cells, low, lo, hi))
            if keys[i] == _EMPTY:
                depth += 1
                sx[depth], so[depth], left[depth], best[depth] = nx, no, full & ~(nx | no), -(1 << 30)
                continue
            code = _negate(int(codes[i]))
        if best[depth] == -(1 << 30) or _rank(code) > _rank(best[depth]):
            best[depth] = code
    return keys, codes, used


@kernel
def _positions(keys: Any, cells: int, low: int, lo: Any, hi: Any) -> int:
    """Reachable positions: each stored class counts its distinct images."""
    total = 0
    cell_mask = (np.int64(1) << cells) - 1
    mask = (np.int64(1) << low) - 1
    images = np.zeros(lo.shape[0], dtype=np.int64)
    for key in keys:
        x, o = np.int64(key >> np.uint64(cells)), np.int64(key) & cell_mask
        n = 0
        for s in range(lo.shape[0]):
            image = ((lo[s, x & mask] | hi[s, x >> low]) << cells) | lo[s, o & mask] | hi[s, o >> low]
            seen = False
            for t in range(n):
                if images[t] == image:
                    seen = True
                    break
            if not seen:
                images[n] = image
                n += 1
        total += n
    return total


def build(
    cells: int, full: int, through: list[tuple[int, ...]], tables: list[tuple[list[int], list[int]]], low: int
) -> tuple[npt.NDArray[np.uint64], npt.NDArray[np.int16], int]:
    """The sorted keys, their codes and the count of reachable positions of the board
    whose cells, full mask, lines through each cell and per-symmetry half-board maps
    (`noughts.ai.solve._Canon`) are given."""
    width = max(1, max(len(lines) for lines in through))
    lines = np.zeros((cells, width + 1), dtype=np.int64)
    for cell, found in enumerate(through):
        lines[cell, : len(found)] = found
    lo = np.array([t[0] for t in tables], dtype=np.int64)
    hi = np.array([t[1] for t in tables], dtype=np.int64)
    capacity = 1 << min(26, max(16, cells + 6))  # room for every class of the boards solved
    while True:
        keys, codes, used = _solve(cells, full, lines, lo, hi, low, capacity)
        if used >= 0:
            break
        capacity *= 4
    filled = keys != _EMPTY
    keys, codes = keys[filled], codes[filled]
    order = np.argsort(keys)
    keys, codes = keys[order], codes[order]
    return keys, codes, int(_positions(keys, cells, low, lo, hi))
