"""The one place that touches numba's decorator, so the rest stays typed.

Every kernel is compiled with ``cache=True``: the machine code lands in numba's cache
(``__pycache__`` beside the sources, or ``NUMBA_CACHE_DIR``) and later processes load it
instead of compiling again.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any, TypeVar, cast

import numba

__all__ = ["kernel", "kernel_uncounted", "now"]

F = TypeVar("F", bound=Callable[..., Any])


def kernel(fn: F) -> F:
    """Compile `fn` in nopython mode, cached on disk."""
    return cast(F, numba.njit(cache=True, nogil=True)(fn))


def kernel_uncounted(fn: F) -> F:
    """`kernel` without numba's reference counting, for a kernel that allocates no
    array and returns none (it only works in arrays its caller owns). Each array
    argument of a counted kernel costs an atomic increment and decrement per call."""
    # `_nrt` is numba's own switch for this (private, used in its issue tracker's
    # examples, numba issue 2350); an array the kernel made would fail to compile.
    return cast(F, numba.njit(cache=True, nogil=True, _nrt=False)(fn))  # type: ignore[call-overload]


@numba.njit(cache=True)
def now() -> float:
    """``time.perf_counter()`` from inside a kernel (numba has no clock of its own);
    about a microsecond, so callers look at it every few hundred iterations only."""
    with numba.objmode(t="float64"):
        t = time.perf_counter()
    return t
