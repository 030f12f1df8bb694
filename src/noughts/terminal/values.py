"""Values in words: which are exact and which are estimates, and ply counts."""

from __future__ import annotations

from noughts.ai.base import Analysis

__all__ = ["plies", "value_legend"]


def plies(n: int) -> str:
    """``1 ply``, ``3 plies``."""
    return f"{n} ply" if n == 1 else f"{n} plies"


def value_legend(analysis: Analysis) -> str:
    """Which of the values shown are exact and which are estimates, in a few words."""
    exact = [info.value.exact for info in analysis.moves]
    if all(exact):
        return "all exact, with best play"
    if not any(exact):
        return "estimates: above 0 is good for the player to move"
    return "win/loss in N plies and draw are exact, numbers are estimates"
