"""Elo ratings from game results: maximum likelihood Bradley-Terry, draws as half points.

The model: a player rated `d` Elo above another scores ``1 / (1 + 10 ** (-d / 400))``
on average. The ratings are the maximum likelihood fit of that model to the points
scored in each pairing (a draw is half a point to each side), found by the MM algorithm
of Hunter (2004), and centred so that they average 0.

Every pairing that was played also gets `prior_draws` virtual draws (as BayesElo does):
without them a player who won every game would have an infinite rating. The 95%
intervals come from the Fisher information of the fit (the inverse of the curvature of
the log-likelihood at its maximum, pseudo-inverted because only differences are
determined). Counting a draw as half a win treats its variance like a coin toss's, so
the intervals are conservative when there are many draws.

>>> a, b = elo_ratings(["a", "b"], [Pairing("a", "b", wins=75, draws=0, losses=25)], prior_draws=0)
>>> round(a.elo - b.elo)
191
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from statistics import NormalDist

from noughts.core import MissingExtraError

try:
    import numpy as np
except ModuleNotFoundError as e:
    raise MissingExtraError("noughts.arena", e, "arena") from e

__all__ = ["Pairing", "Rating", "elo_difference", "elo_ratings", "expected_score"]

#: Elo points per natural-log unit of the strength ratio.
_SCALE = 400 / math.log(10)


@dataclass(frozen=True)
class Pairing:
    """The results of `first` against `second`, counted from `first`'s side."""

    first: str
    """The player the results are counted for."""
    second: str
    """Its opponent."""
    wins: int = 0
    """Games `first` won."""
    draws: int = 0
    """Games drawn."""
    losses: int = 0
    """Games `first` lost."""

    @property
    def games(self) -> int:
        """Games played between the two."""
        return self.wins + self.draws + self.losses

    @property
    def score(self) -> float:
        """`first`'s share of the points, 0 to 1 (0.5 before any game)."""
        return (self.wins + self.draws / 2) / self.games if self.games else 0.5


@dataclass(frozen=True)
class Rating:
    """A player's rating with its interval; `elo`, `low` and `high` are None for a
    player without any finished game."""

    player: str
    """The player's name."""
    elo: float | None
    """The rating, in Elo points relative to the field (their mean is 0)."""
    low: float | None
    """The low end of the rating's confidence interval (95% unless `elo_ratings` was told otherwise)."""
    high: float | None
    """The high end of the rating's confidence interval."""
    games: int
    """Finished games played."""
    points: float
    """Points scored: 1 a win, half a draw."""


def expected_score(difference: float) -> float:
    """The average score of a player rated `difference` Elo above the opponent."""
    return 1 / (1 + 10 ** (-difference / 400))


def elo_difference(score: float) -> float:
    """The rating difference that gives an expected `score` (strictly between 0 and 1).

    >>> round(elo_difference(0.75), 1)
    190.8
    """
    if not 0 < score < 1:
        raise ValueError("a score of 0 or 1 means an infinite rating difference")
    return -400 * math.log10(1 / score - 1)


def elo_ratings(
    players: Sequence[str],
    pairings: Sequence[Pairing],
    prior_draws: float = 1.0,
    confidence: float = 0.95,
    iterations: int = 100_000,
    tolerance: float = 1e-10,
) -> list[Rating]:
    """The ratings of `players` (in their order) from the `pairings` they played.

    Raises ValueError for a pairing with an unknown player, or when the fit does not
    converge (a player who won or lost everything, with ``prior_draws=0``)."""
    if prior_draws < 0:
        raise ValueError("prior_draws cannot be negative")
    if not 0 < confidence < 1:
        raise ValueError("confidence is a probability between 0 and 1")
    index = {name: i for i, name in enumerate(players)}
    if len(index) != len(players):
        raise ValueError("player names must be different")
    size = len(players)
    games = np.zeros((size, size))  # games[i, j]: games between i and j, both ways
    points = np.zeros((size, size))  # points[i, j]: what i scored against j
    real_games = np.zeros(size)
    real_points = np.zeros(size)
    for p in pairings:
        if p.first not in index or p.second not in index:
            raise ValueError(f"pairing {p.first} - {p.second} names a player who is not in the list")
        if p.games == 0 or p.first == p.second:
            continue
        i, j = index[p.first], index[p.second]
        won = p.wins + p.draws / 2
        games[i, j] += p.games
        games[j, i] += p.games
        points[i, j] += won
        points[j, i] += p.games - won
        real_games[i] += p.games
        real_games[j] += p.games
        real_points[i] += won
        real_points[j] += p.games - won
    played = games > 0
    games += prior_draws * played
    points += prior_draws / 2 * played
    active = [i for i in range(size) if real_games[i] > 0]
    fitted = _fit(games[np.ix_(active, active)], points[np.ix_(active, active)], iterations, tolerance)
    elo = _SCALE * (fitted - fitted.mean())
    spread = _standard_errors(games[np.ix_(active, active)], fitted) * NormalDist().inv_cdf((1 + confidence) / 2)
    out: dict[int, tuple[float, float]] = {i: (float(elo[k]), float(spread[k])) for k, i in enumerate(active)}
    ratings = []
    for i, name in enumerate(players):
        if i in out:
            value, half = out[i]
            ratings.append(Rating(name, value, value - half, value + half, int(real_games[i]), float(real_points[i])))
        else:
            ratings.append(Rating(name, None, None, None, 0, 0.0))
    return ratings


def _fit(games: np.ndarray, points: np.ndarray, iterations: int, tolerance: float) -> np.ndarray:
    """Log-strengths maximising the likelihood, by the MM iteration
    ``gamma_i <- W_i / sum_j n_ij / (gamma_i + gamma_j)``: each step increases the
    likelihood, so it converges wherever a maximum exists."""
    size = len(games)
    if size == 0:
        return np.zeros(0)
    totals = points.sum(axis=1)
    if np.any(totals <= 0) or np.any(totals >= games.sum(axis=1)):
        raise ValueError("a player won or lost every game: the ratings are infinite (use prior_draws > 0)")
    gamma = np.ones(size)
    for _ in range(iterations):
        denominator = (games / (gamma[:, None] + gamma[None, :])).sum(axis=1)
        updated = totals / denominator
        updated /= math.exp(np.log(updated).mean())  # only ratios matter: keep the scale fixed
        change = float(np.max(np.abs(np.log(updated) - np.log(gamma))))
        gamma = updated
        if change < tolerance:
            return np.asarray(np.log(gamma))
    raise ValueError("the rating fit did not converge: the results do not determine the ratings")


def _standard_errors(games: np.ndarray, strengths: np.ndarray) -> np.ndarray:
    """The standard error of each centred rating, in Elo, from the Fisher information."""
    if len(games) < 2:
        return np.zeros(len(games))
    diff = strengths[:, None] - strengths[None, :]
    p = 1 / (1 + np.exp(-diff))
    weight = games * p * p.T
    information = np.diag(weight.sum(axis=1)) - weight
    covariance = np.linalg.pinv(information)
    return np.asarray(_SCALE * np.sqrt(np.clip(np.diag(covariance), 0, None)))
