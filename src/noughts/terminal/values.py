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
    bounds = " ('at most N': proven, N plies a bound)" if any(info.value.bound for info in analysis.moves) else ""
    if all(exact):
        return "all exact, with best play" + bounds
    if not any(exact):
        return "estimates: above 0 is good for the player to move"
    return "win/loss in N plies and draw are exact, numbers are estimates" + bounds


def meaning(value: Value) -> str:
    """A move's value in words, for the person who would make it, saying whether it is
    exact (proven by search or read from a solved table) or an estimate, and whether a
    proven result's plies are exact or a bound (`Value.bound`)."""
    if value.kind is Kind.WIN:
        if value.bound:
            return f"proven: a forced win {value.distance}, perhaps sooner"
        return f"exact: a forced win {value.distance}"
    if value.kind is Kind.LOSS:
        if value.bound:
            return f"proven: every move loses with best play; the opponent wins with this one {value.distance}"
        return f"exact: every move loses with best play; this one lasts {plies(value.plies or 0)}"
    if value.kind is Kind.DRAW:
        return "exact: a draw with best play"
    if value.kind is Kind.SCORE:
        return f"estimate: {value.text}, above 0 is good for you"
    return "not evaluated"
