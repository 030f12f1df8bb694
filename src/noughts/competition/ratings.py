"""Glicko-2 ratings (Mark Glickman, "Example of the Glicko-2 system", 2013), one game
at a time: every rated game is a rating period of one game for each player, as lichess
does it. Time away from rated games is counted in rating periods too (`RATING_PERIOD`):
each one without a game widens the deviation (step 6 of the paper), so that a returning
player's rating moves faster and shows as provisional. The PyPI packages for Glicko-2 are
unmaintained, so this follows the paper; its worked example is a test.

>>> winner, loser = update(Glicko(), [(Glicko(), 1.0)]), update(Glicko(), [(Glicko(), 0.0)])
>>> round(winner.rating), round(loser.rating)
(1662, 1338)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

__all__ = [
    "DEFAULT_DEVIATION",
    "DEFAULT_RATING",
    "DEFAULT_VOLATILITY",
    "PROVISIONAL",
    "RATING_PERIOD",
    "TAU",
    "Glicko",
    "after_game",
    "current",
    "expected_score",
    "idle",
    "is_provisional",
    "update",
]

#: The scale factor between Glicko and Glicko-2 units (step 2 of the paper).
_SCALE = 173.7178
#: The system constant tau: how fast volatility may change (the paper suggests 0.3-1.2).
TAU = 0.5
#: New players' rating, deviation and volatility.
DEFAULT_RATING = 1500.0
DEFAULT_DEVIATION = 350.0
DEFAULT_VOLATILITY = 0.06
#: A deviation never grows beyond a new player's.
_MAX_DEVIATION = 350.0
#: The rating period for time away, in milliseconds: a week. Step 6 of the paper widens
#: a deviation by the volatility once per period without games; with the default
#: volatility (0.06, about 10.4 rating points) a week makes a settled deviation (about
#: 60) provisional (above 110) after about a year and a half away and lets a month away
#: barely show, which fits a game played in sessions a few times a week. A day would make
#: every holiday provisional; lichess's choice (about 4.7 days) is of the same order.
#: Periods are counted as a real number (as lichess does), so that a deviation grows
#: smoothly with time instead of jumping at a calendar boundary.
RATING_PERIOD = 7 * 86_400_000
#: Above this deviation a rating is provisional, marked "?" (lichess's threshold); the
#: leaderboard ranks only the others unless asked.
PROVISIONAL = 110
_EPSILON = 0.000001


@dataclass(frozen=True)
class Glicko:
    """A rating on the Glicko scale: `rating` with its deviation (RD) and volatility."""

    rating: float = DEFAULT_RATING
    deviation: float = DEFAULT_DEVIATION
    volatility: float = DEFAULT_VOLATILITY


def is_provisional(deviation: float) -> bool:
    """Whether a rating with this (current) deviation is provisional: new, or away long."""
    return deviation > PROVISIONAL


def _g(phi: float) -> float:
    return 1 / math.sqrt(1 + 3 * phi * phi / math.pi**2)


def _expected(mu: float, mu_j: float, phi_j: float) -> float:
    return 1 / (1 + math.exp(-_g(phi_j) * (mu - mu_j)))


def expected_score(player: Glicko, opponent: Glicko) -> float:
    """`player`'s expected score against `opponent` (step 3 of the paper: the
    opponent's deviation flattens it toward one half)."""
    mu, mu_j = ((r.rating - DEFAULT_RATING) / _SCALE for r in (player, opponent))
    return _expected(mu, mu_j, opponent.deviation / _SCALE)


def update(player: Glicko, results: Sequence[tuple[Glicko, float]], tau: float = TAU) -> Glicko:
    """`player`'s rating after one rating period with `results`: (opponent, score)
    pairs, score 1 for a win, 0.5 a draw, 0 a loss. Without results only the deviation
    grows (step 6 of the paper)."""
    mu = (player.rating - DEFAULT_RATING) / _SCALE
    phi = player.deviation / _SCALE
    sigma = player.volatility
    if not results:
        return idle(player, 1.0)
    # Steps 3 and 4: the estimated variance v and improvement delta.
    v_inverse = 0.0
    delta_sum = 0.0
    for opponent, score in results:
        mu_j = (opponent.rating - DEFAULT_RATING) / _SCALE
        phi_j = opponent.deviation / _SCALE
        g = _g(phi_j)
        e = _expected(mu, mu_j, phi_j)
        v_inverse += g * g * e * (1 - e)
        delta_sum += g * (score - e)
    v = 1 / v_inverse
    delta = v * delta_sum
    sigma_new = _new_volatility(phi, sigma, v, delta, tau)
    # Steps 6 to 8.
    phi_star = math.sqrt(phi * phi + sigma_new * sigma_new)
    phi_new = 1 / math.sqrt(1 / (phi_star * phi_star) + 1 / v)
    mu_new = mu + phi_new * phi_new * delta_sum
    return Glicko(
        rating=_SCALE * mu_new + DEFAULT_RATING,
        deviation=min(_SCALE * phi_new, _MAX_DEVIATION),
        volatility=sigma_new,
    )


def idle(player: Glicko, periods: float) -> Glicko:
    """`player`'s rating after `periods` rating periods without games: step 6 of the
    paper once per period, phi* = sqrt(phi^2 + periods * sigma^2) (the volatility does
    not change without games), never beyond a new player's deviation."""
    if periods <= 0:
        return player
    phi = player.deviation / _SCALE
    sigma = player.volatility
    grown = math.sqrt(phi * phi + periods * sigma * sigma) * _SCALE
    return Glicko(player.rating, min(grown, _MAX_DEVIATION), sigma)


def current(player: Glicko, updated_at: int, now: int) -> Glicko:
    """The rating stored at `updated_at` as it stands at `now` (milliseconds since 1970):
    what is shown, and what the next game's update starts from."""
    return idle(player, (now - updated_at) / RATING_PERIOD)


def _new_volatility(phi: float, sigma: float, v: float, delta: float, tau: float) -> float:
    """Step 5: the root of f by the Illinois algorithm, as the paper gives it."""
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        return ex * (delta * delta - phi * phi - v - ex) / (2 * (phi * phi + v + ex) ** 2) - (x - a) / (tau * tau)

    big_a = a
    if delta * delta > phi * phi + v:
        big_b = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > _EPSILON:
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2
        big_b, f_b = big_c, f_c
    return math.exp(big_a / 2)


def after_game(x: Glicko, o: Glicko, x_score: float) -> tuple[Glicko, Glicko]:
    """Both players' ratings after one game between them; `x_score` is 1, 0.5 or 0."""
    return update(x, [(o, x_score)]), update(o, [(x, 1 - x_score)])
