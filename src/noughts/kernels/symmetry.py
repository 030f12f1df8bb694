"""The 192 symmetries of Qubic (4x4x4), and a position's canonical form under them.

A symmetry is a permutation of the 64 cells that maps the 76 lines onto themselves.
Besides the cube's 48 (permuting the axes, reversing any of them) there are the maps
that exchange the inner and outer layers of all axes at once (0123 -> 1032): a
coordinate map pi is allowed when it commutes with reversal (8 such maps), and each
axis may use pi or its reverse; (8 x 8 / 2) x 6 axis orders = 192 (Silver 1967). The
group is `noughts.games.geometry.CubeSymmetries` (the one description, which
`noughts.symmetry` serves too), checked against the lines here on import, so a wrong
map cannot slip in.

`canonical` picks, among a position's images, the one with the smallest (x, o) pair:
positions equal up to symmetry get one key, which is what lets a proof list o's replies
"up to symmetry" and share the work of transpositions. Masks are mapped a byte at a
time through tables (8 look-ups a mask instead of 64 bit tests); the tables (3 MB) are
passed to the kernels as `BYTES`, since numba cannot cache a kernel holding a global
array that large.

The order is that of the masks as unsigned numbers.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from noughts.games.geometry import CubeSymmetries
from noughts.kernels.cube import CELLS, LINES
from noughts.kernels.jit import kernel

__all__ = ["BYTES", "COUNT", "IMAGE", "INVERSE", "canonical", "canonical_all", "transform"]


#: The group as `noughts.games.geometry.CubeSymmetries` describes and orders it.
_PERMUTATIONS = list(CubeSymmetries(4, 3))
#: How many symmetries there are (the identity is number 0).
COUNT = len(_PERMUTATIONS)
#: IMAGE[s, cell]: where symmetry s takes `cell`.
IMAGE = np.array(_PERMUTATIONS, dtype=np.int64)
#: INVERSE[s]: the symmetry that undoes s.
INVERSE = np.zeros(COUNT, dtype=np.int64)


def _check() -> None:
    lines = {int(m) & ((1 << 64) - 1) for m in LINES}
    assert COUNT == 192 and _PERMUTATIONS[0] == tuple(range(CELLS))
    index = {p: s for s, p in enumerate(_PERMUTATIONS)}
    for s, perm in enumerate(_PERMUTATIONS):
        for line in lines:
            assert sum(1 << perm[c] for c in range(CELLS) if line >> c & 1) in lines
        inverse = [0] * CELLS
        for c, image in enumerate(perm):
            inverse[image] = c
        INVERSE[s] = index[tuple(inverse)]


_check()


def _byte_tables() -> npt.NDArray[np.int64]:
    # Every symmetry takes the 8 cells of a byte to 8 distinct cells, so the image of a
    # byte's value is the sum of its set bits' images: one array operation, where a loop
    # over the 393,216 entries took most of a second at each import.
    images = np.uint64(1) << IMAGE.reshape(COUNT, 8, 8).astype(np.uint64)  # [s, byte, bit]
    bits = np.arange(8, dtype=np.uint64)
    set_bits = (np.arange(256, dtype=np.uint64)[:, None] >> bits) & np.uint64(1)  # [value, bit]
    tables: npt.NDArray[np.uint64] = (images[:, :, None, :] * set_bits[None, None, :, :]).sum(axis=-1, dtype=np.uint64)
    return tables.view(np.int64)


#: BYTES[s, b, v]: the image under symmetry s of the cells of byte b whose bits are v.
BYTES = _byte_tables()


@kernel
def transform(mask: int, s: int, tables: npt.NDArray[np.int64]) -> np.int64:
    """The image of a mask of cells under symmetry `s` (`tables`: `BYTES`)."""
    out = np.int64(0)
    m = np.uint64(mask)
    for byte in range(8):
        out |= tables[s, byte, (m >> np.uint64(8 * byte)) & np.uint64(0xFF)]
    return out


@kernel
def canonical(x: int, o: int, tables: npt.NDArray[np.int64]) -> tuple[np.int64, np.int64, int]:
    """(x', o', s): the smallest image (x', o') of the position (x, o) under the 192
    symmetries, and a symmetry s with s(x, o) = (x', o') (`tables`: `BYTES`)."""
    best_x, best_o, best_s = np.uint64(x), np.uint64(o), 0
    for s in range(1, COUNT):
        tx = np.uint64(transform(x, s, tables))
        if tx > best_x:
            continue
        to = np.uint64(transform(o, s, tables))
        if tx < best_x or to < best_o:
            best_x, best_o, best_s = tx, to, s
    return np.int64(best_x), np.int64(best_o), best_s


@kernel
def canonical_all(
    xs: npt.NDArray[np.int64], os: npt.NDArray[np.int64], tables: npt.NDArray[np.int64], out: npt.NDArray[np.int64]
) -> None:
    """`canonical` of many positions at once: out[i] = (x', o', s)."""
    for i in range(xs.shape[0]):
        out[i, 0], out[i, 1], out[i, 2] = canonical(xs[i], os[i], tables)
