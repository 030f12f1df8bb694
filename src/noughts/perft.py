"""Perft: the number of move paths of exactly `depth` plies from a position.

Games that end earlier contribute nothing, so the counts are comparable with the
published tables (classic 9, 72, 504, ... 127,872; ultimate 81, 720, 6,336, 55,080).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from noughts.core import State

__all__ = ["divide", "perft"]


def perft(state: State[Any], depth: int) -> int:
    """Leaves at exactly `depth` plies below `state`.

    >>> from noughts import parse_spec
    >>> perft(parse_spec("classic").initial(), 3)
    504
    """
    if depth < 0:
        raise ValueError("depth must be 0 or more")
    if depth == 0:
        return 1
    if depth == 1:
        # Every child is a leaf at exactly one ply, finished or not.
        return len(state.legal_moves())
    return sum(perft(state.play(move), depth - 1) for move in state.legal_moves())


def divide(state: State[Any], depth: int, count: Callable[[State[Any], int], int] = perft) -> list[tuple[str, int]]:
    """Perft split by first move, as (move text, count) in legal-move order; `count`
    is the perft below each move (the compiled one, `noughts.kernels.games.perft`,
    where a game has kernels)."""
    if depth < 1:
        raise ValueError("divide needs a depth of 1 or more")
    return [(state.move_text(move), count(state.play(move), depth - 1)) for move in state.legal_moves()]
