"""A position's value in a few words for both sides, on the one scale: a proven result
says who wins and when, an estimate says the side to move's chance, never a raw score.

>>> from noughts.ai.base import Value
>>> verdict(Value.win(7), Player.O)
'O wins in 7 plies'
>>> verdict(Value.loss(2), Player.O)
'X wins in 2 plies'
>>> verdict(Value.loss(63, bound=True), Player.O)
'X wins, proven, in at most 63 plies'
>>> verdict(Value.draw(), Player.X)
'a draw with best play'
>>> verdict(Value.estimate(0.28), Player.X)
'X to move: 64% (an estimate)'
"""

from __future__ import annotations

from noughts.ai.base import Kind, Value, win_chance
from noughts.core import Player

__all__ = ["verdict"]


def verdict(value: Value, mover: Player, scale: float | None = None) -> str:
    """`value`, which belongs to `mover` (the side to move), in words for both sides;
    an estimate through `win_chance` on `scale`. Unknown: "not evaluated". A win whose
    plies are only a bound (`Value.bound`) says so: "X wins, proven, in at most 64 plies"."""
    if value.kind in (Kind.WIN, Kind.LOSS):
        winner = mover if value.kind is Kind.WIN else mover.other
        return f"{winner.value.upper()} wins{', proven,' if value.bound else ''} {value.distance}"
    if value.kind is Kind.DRAW:
        return "a draw with best play"
    chance = win_chance(value, scale)
    if chance is None:
        return "not evaluated"
    return f"{mover.value.upper()} to move: {chance:.0%} (an estimate)"
