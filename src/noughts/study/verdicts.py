"""A position's value in a few words for both sides, on the one scale: a proven result
says who wins and in how many of the winner's own moves (as players count, not plies),
an estimate says the side to move's chance, never a raw score.

>>> from noughts.ai.base import Value
>>> verdict(Value.win(7), Player.O)
'O wins in 4 moves'
>>> verdict(Value.loss(2), Player.O)
'X wins in 1 move'
>>> verdict(Value.loss(63, bound=True), Player.O)
'X wins, proven, in at most 32 moves'
>>> verdict(Value.draw(), Player.X)
'a draw with best play'
>>> verdict(Value.estimate(0.28), Player.X)
'X to move: 64% (an estimate)'
"""

from __future__ import annotations

from noughts.ai.base import Kind, Value, win_chance
from noughts.core import Player

__all__ = ["in_moves", "verdict"]


def verdict(value: Value, mover: Player, scale: float | None = None) -> str:
    """`value`, which belongs to `mover` (the side to move), in words for both sides;
    an estimate through `win_chance` on `scale`. Unknown: "not evaluated". A win whose
    distance is only a bound (`Value.bound`) says so: "X wins, proven, in at most 32 moves"."""
    if value.kind in (Kind.WIN, Kind.LOSS):
        winner = mover if value.kind is Kind.WIN else mover.other
        return f"{winner.value.upper()} wins{', proven,' if value.bound else ''} {in_moves(value)}"
    if value.kind is Kind.DRAW:
        return "a draw with best play"
    chance = win_chance(value, scale)
    if chance is None:
        return "not evaluated"
    return f"{mover.value.upper()} to move: {chance:.0%} (an estimate)"


def in_moves(value: Value) -> str:
    """A win's or loss's distance as players count it: the winner's own moves, so a win
    in 3 plies is "in 2 moves" (as `verdict` and the web page say it); empty for other values.

    >>> in_moves(Value.win(3)), in_moves(Value.loss(2)), in_moves(Value.win(63, bound=True))
    ('in 2 moves', 'in 1 move', 'in at most 32 moves')
    """
    if value.kind not in (Kind.WIN, Kind.LOSS):
        return ""
    moves = ((value.plies or 0) + 1) // 2
    return f"in {'at most ' if value.bound else ''}{moves} {'move' if moves == 1 else 'moves'}"
