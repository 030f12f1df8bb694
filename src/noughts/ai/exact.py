"""What the exact tables share (the solved games' in `solve`, gobblet's in
`gobblet_table`): where they are cached on disk, and how a stored value code reads."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from noughts.ai.base import Kind, Value
from noughts.core import State

__all__ = ["cache_dir", "code_value", "outcome_value", "value_code"]


def cache_dir() -> Path:
    """Where tables are cached: ``$NOUGHTS_CACHE_DIR``, else ``$XDG_CACHE_HOME/noughts``,
    else ``~/.cache/noughts``."""
    explicit = os.environ.get("NOUGHTS_CACHE_DIR")
    if explicit:
        return Path(explicit)
    xdg = os.environ.get("XDG_CACHE_HOME")
    return (Path(xdg) if xdg else Path.home() / ".cache") / "noughts"


def code_value(code: int, bound: bool = False) -> Value:
    """A stored code as a value: plies + 1 to a win if positive, to a loss if negative,
    0 a draw; with `bound`, the plies are an upper bound (`Value.bound`: codes written by
    a prover that bounds them, the race puzzles' answer keys)."""
    if code > 0:
        return Value.win(code - 1, bound)
    if code < 0:
        return Value.loss(-code - 1, bound)
    return Value.draw()


def value_code(value: Value, bound_ok: bool = False) -> int:
    """A proven value as its stored code (`code_value` reads it back); ValueError for an
    estimate, and for a `bound` unless `bound_ok` (whose reader then knows the codes are
    bounds: a table's are exact distances)."""
    if value.bound and not bound_ok:
        raise ValueError(f"only an exact distance has a code, not {value}")
    if value.kind is Kind.WIN:
        return (value.plies or 0) + 1
    if value.kind is Kind.LOSS:
        return -(value.plies or 0) - 1
    if value.kind is Kind.DRAW:
        return 0
    raise ValueError(f"only a proven value has a code, not {value}")


def outcome_value(state: State[Any]) -> Value:
    """The value of a finished game for the player who would move next."""
    assert state.outcome is not None
    winner = state.outcome.winner
    if winner is None:
        return Value.draw()
    return Value.win(0) if winner is state.turn else Value.loss(0)
