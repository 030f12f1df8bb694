"""Values in words, for people: what a move is worth, which values are exact and which
are estimates, and ply counts."""

from __future__ import annotations

from noughts.ai.base import Analysis, Kind, Value

__all__ = ["meaning", "plies", "value_legend"]


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


def meaning(value: Value) -> str:
    """A move's value in words, for the person who would make it, saying whether it is
    exact (proven by search or read from a solved table) or an estimate."""
    if value.kind is Kind.WIN:
        return f"exact: a forced win in {plies(value.plies or 0)}"
    if value.kind is Kind.LOSS:
        return f"exact: every move loses with best play; this one lasts {plies(value.plies or 0)}"
    if value.kind is Kind.DRAW:
        return "exact: a draw with best play"
    if value.kind is Kind.SCORE:
        return f"estimate: {value.text}, above 0 is good for you"
    return "not evaluated"
