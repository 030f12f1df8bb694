"""The compiled fast paths behind the strongest players: bitboard kernels for ultimate,
nine-board and qubic (4x4x4), written in Python and compiled by numba.

* `games`: legal moves, make-move, random playouts and perft on int64 arrays, and
  `encode` from the readable states (`layout` says where everything sits).
* `tree`: MCTS (UCT, MCTS-Solver, tree reuse) in preallocated arrays.
* `negamax`: alpha-beta with a transposition table; `evaluate`: its evaluations.
* `threats`: Qubic's threat-space search for forced wins; `proof`: the proof-number
  search above it, for wins that need quiet moves between the threats.

Every kernel is checked move for move against the readable engine (tests/kernels).
The players built on them are `noughts.ai.compiled` (``kmcts``, ``kalphabeta``).

Compiled code is cached on disk, so only the first run on a machine pays for the
compilation (a minute); `noughts.ai.compiled.prepare` does it, or loads the cache, once
per process and before any clock starts. numba checks a cached function against its own source
file only, not against the kernels it calls: after editing a kernel, delete the
``*.nbi``/``*.nbc`` files of the cache (``__pycache__`` here, or ``NUMBA_CACHE_DIR``).

Recursion is avoided on purpose (searches keep explicit stacks): numba's cache breaks
recursive functions (numba issue 6061: a segmentation fault when loaded).
"""

from __future__ import annotations

import functools
import importlib.util
from typing import Any

from noughts.core import Game, MissingExtraError
from noughts.variant import Trait

__all__ = ["SUPPORTED", "KernelsMissingError", "available", "require_kernels", "supports"]

#: The games the kernels play, for messages.
SUPPORTED = "ultimate and nine-board (without forget mode) and qubic (4x4x4)"


class KernelsMissingError(MissingExtraError):
    """The compiled kernels were asked for where numba is not installed: a
    MissingExtraError naming ``noughts[kernels]``."""

    def __init__(self, who: str) -> None:
        super().__init__(who, ModuleNotFoundError("No module named 'numba'", name="numba"), "kernels")


@functools.cache
def available() -> bool:
    """Whether numba is installed (the ``noughts[kernels]`` extra). Imports no numba."""
    return importlib.util.find_spec("numba") is not None


def require_kernels(who: str) -> None:
    """Raise KernelsMissingError, naming `who` and the extra to install, without numba."""
    if not available():
        raise KernelsMissingError(who)


def supports(game: Game[Any, Any]) -> bool:
    """Whether the kernels play `game` (with these options) here: numba is installed and
    the game is one of theirs. Imports no numba; where this is false, the levels and
    the tools play with the readable engines."""
    if not available():
        return False
    # By the board it is played on: the kernels hold ultimate's nine boards and qubic's
    # 4x4x4 cube, in their own layouts (`layout`).
    board = game.variant.board
    if board == "ultimate":
        return Trait.FORGET not in game.traits
    return board == "qubic" and game.spec == "qubic"
