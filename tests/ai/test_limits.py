"""A decision's budgets: absurd ones are refused with a clear error, and the smallest
one accepted still gives a legal move, whatever the game and the position."""

from __future__ import annotations

import math

import pytest

from noughts import parse_spec
from noughts.ai import Limits
from noughts.ai.base import MAX_COUNT, MAX_TIME, MIN_TIME
from noughts.ai.levels import level_player
from noughts.core import InvalidOptionError

from support import playout


@pytest.mark.parametrize(
    "limits",
    [
        {"time": 5e-324},  # made the kernels' share of it infinite: OverflowError
        {"time": 1e-320},
        {"time": 0.0},
        {"time": -1.0},
        {"time": math.inf},
        {"time": math.nan},
        {"time": MAX_TIME * 2},
        {"nodes": 0},
        {"nodes": 2**64},
        {"depth": MAX_COUNT + 1},
        {"depth": -(2**70)},
    ],
)
def test_absurd_limits_are_refused(limits: dict[str, float]) -> None:
    with pytest.raises(InvalidOptionError, match="must be"):
        Limits(**limits)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("spec", "level"),
    [("ultimate", "max"), ("nine-board", "max"), ("ultimate", "hard"), ("qubic", "max"), ("classic", "max"),
     ("gobblet", "hard"), ("mnk:m=5:n=5:k=4", "max")],
)  # fmt: skip
def test_the_least_time_still_gives_a_legal_move(spec: str, level: str) -> None:
    """The players' own shares of a budget (the endgame search's half, a last 5%) stay
    within the limits at the least time, from the start, the middle and near the end."""
    player = level_player(parse_spec(spec), level, seed=1)
    for seed in (1, 2):
        steps = playout(spec, seed)
        for state, _ in (steps[0], steps[len(steps) // 2], steps[max(0, len(steps) - 4)]):
            if not state.is_over:
                best = player.decide(state, Limits(time=MIN_TIME)).moves[0].move
                assert best in state.legal_moves(), (spec, level, state)
