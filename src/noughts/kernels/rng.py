"""A small seeded random generator for kernels: xorshift64* in a one-slot array, so a
search's randomness is reproducible from the player's seed and costs a few cycles."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from noughts.kernels.jit import kernel_uncounted
from noughts.kernels.layout import Int

__all__ = ["below", "new_rng", "next_bits", "scaled"]

_MULTIPLIER = np.uint64(2685821657736338717)


def new_rng(seed: int) -> npt.NDArray[np.uint64]:
    """A generator state from any integer seed (never the all-zero state)."""
    mixed = (seed * 0x9E3779B97F4A7C15 + 0x632BE59BD9B4E019) % (1 << 64)
    return np.array([mixed or 1], dtype=np.uint64)


@kernel_uncounted
def next_bits(x: np.uint64) -> np.uint64:
    """The xorshift step: the next state after `x` (for loops that keep it local)."""
    x ^= x >> np.uint64(12)
    x ^= x << np.uint64(25)
    x ^= x >> np.uint64(27)
    return x


@kernel_uncounted
def scaled(x: np.uint64, n: Int) -> np.int64:
    """A number in [0, n) from state `x`: the high 32 bits of the scrambled state scaled
    by n (Lemire's multiply-shift, no division). np.int64, not int(): numba keeps int()
    of a uint64 unsigned, and mixing that with signed numbers gives floats."""
    return np.int64((((x * _MULTIPLIER) >> np.uint64(32)) * np.uint64(n)) >> np.uint64(32))


@kernel_uncounted
def below(rng: npt.NDArray[np.uint64], n: Int) -> np.int64:
    """A random integer in [0, n), n >= 1."""
    x = next_bits(rng[0])
    rng[0] = x
    return scaled(x, n)
