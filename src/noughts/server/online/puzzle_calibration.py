"""How well puzzle ratings predict attempts: per band of the puzzle's rating, the
success the Glicko-2 expected score of solver against puzzle predicted, beside the
success observed. Ratings that are calibrated show the two near each other in every
band; a band where players solve far more often than predicted holds puzzles rated too
hard.

An attempt is judged with both ratings as they stood before it (`rating_before`,
`puzzle_rating_before` of its row). The deviations then are not stored with the
attempt, so the puzzle's counts as 0: the expectation of the two ratings alone.

>>> bands = calibration([Attempt(1500, 1500, True), Attempt(1500, 1500, False), Attempt(1700, 1300, True)])
>>> [(b.low, b.attempts, round(b.predicted, 2), b.observed) for b in bands]
[(1200, 1, 0.91, 1.0), (1400, 2, 0.5, 0.5)]
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

from noughts.competition.ratings import Glicko, expected_score

__all__ = ["Attempt", "Band", "calibration", "log_loss"]

#: The width of a band of puzzle ratings.
BAND = 200


@dataclass(frozen=True)
class Attempt:
    """A first attempt: the solver's and the puzzle's ratings before it, and whether
    it solved the puzzle."""

    player_rating: float
    puzzle_rating: float
    solved: bool

    @property
    def predicted(self) -> float:
        """The solver's chance of solving it: its Glicko-2 expected score."""
        return expected_score(Glicko(self.player_rating), Glicko(self.puzzle_rating, 0.0))


@dataclass(frozen=True)
class Band:
    """The attempts at puzzles rated `low` to `low + width`: how many, the mean
    predicted success and the share solved."""

    low: int
    width: int
    attempts: int
    predicted: float
    observed: float


def calibration(attempts: Iterable[Attempt], width: int = BAND) -> list[Band]:
    """The bands of puzzle ratings that have attempts, the lowest first."""
    grouped: dict[int, list[Attempt]] = {}
    for attempt in attempts:
        grouped.setdefault(int(attempt.puzzle_rating // width) * width, []).append(attempt)
    return [
        Band(
            low,
            width,
            len(group),
            sum(a.predicted for a in group) / len(group),
            sum(a.solved for a in group) / len(group),
        )
        for low, group in sorted(grouped.items())
    ]


def log_loss(attempts: Iterable[Attempt]) -> float:
    """The mean log loss of the predicted chances against the outcomes (log 2, 0.69,
    for a coin; lower is better)."""
    losses = [-math.log(max(a.predicted if a.solved else 1 - a.predicted, 1e-12)) for a in attempts]
    return sum(losses) / len(losses) if losses else math.nan
