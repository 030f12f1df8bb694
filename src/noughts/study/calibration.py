"""How well scores predict results: the log loss of the chances a scale gives a set of
(score, result) pairs, and the scale that predicts them best. bench/value_scale.py
measures each evaluator's scale with these on self-play; the registry holds the result.

>>> points = [(100.0, 1.0), (-100.0, 0.0), (20.0, 0.5), (-30.0, 0.5), (60.0, 1.0), (50.0, 0.0)]
>>> 100 < fit_scale(points) < 120
True
"""

from __future__ import annotations

import math
from collections.abc import Sequence

__all__ = ["fit_scale", "log_loss"]


def log_loss(points: Sequence[tuple[float, float]], scale: float) -> float:
    """The mean log loss of the chances ``(1 + tanh(score / scale)) / 2`` against the
    results (1 a win, 0.5 a draw, 0 a loss), all for the same side."""
    total = 0.0
    for score, result in points:
        chance = min(max((1 + math.tanh(score / scale)) / 2, 1e-9), 1 - 1e-9)
        total -= result * math.log(chance) + (1 - result) * math.log(1 - chance)
    return total / len(points)


def fit_scale(points: Sequence[tuple[float, float]], low: float = 0.01, high: float = 1e7) -> float:
    """The scale of least log loss, on a grid of ratios 1.02 apart between `low` and
    `high`."""
    steps = int(math.log(high / low) / math.log(1.02))
    return min((low * 1.02**i for i in range(steps + 1)), key=lambda scale: log_loss(points, scale))
