"""The rating math on cases with known answers."""

from __future__ import annotations

import math

import pytest

from noughts.arena.ratings import Pairing, elo_difference, elo_ratings, expected_score


def _by_name(ratings: list) -> dict:
    return {r.player: r for r in ratings}


def test_equal_scores_give_equal_ratings() -> None:
    pairings = [Pairing("a", "b", 3, 4, 3), Pairing("b", "c", 5, 0, 5), Pairing("a", "c", 2, 6, 2)]
    ratings = elo_ratings(["a", "b", "c"], pairings)
    for r in ratings:
        assert r.elo == pytest.approx(0, abs=1e-6)
        assert r.low is not None and r.high is not None and r.low < 0 < r.high


def test_a_75_percent_score_is_191_elo() -> None:
    a, b = elo_ratings(["a", "b"], [Pairing("a", "b", wins=70, draws=10, losses=20)], prior_draws=0)
    assert a.elo is not None and b.elo is not None
    assert a.elo - b.elo == pytest.approx(400 * math.log10(3))  # 190.85
    assert a.elo == pytest.approx(-b.elo)
    assert round(elo_difference(0.75)) == 191
    assert expected_score(elo_difference(0.75)) == pytest.approx(0.75)


def test_known_ratings_are_recovered_from_their_expected_scores() -> None:
    truth = {"a": 300.0, "b": 100.0, "c": -400.0}
    names = list(truth)
    games = 1000
    pairings = []
    for i, first in enumerate(names):
        for second in names[i + 1 :]:
            points = games * expected_score(truth[first] - truth[second])
            # Fractional points as wins and draws: 2 * points half points.
            wins = int(points)
            draws = round(2 * (points - wins))
            pairings.append(Pairing(first, second, wins, draws, games - wins - draws))
    fitted = _by_name(elo_ratings(names, pairings, prior_draws=0))
    mean = sum(truth.values()) / 3
    for name, elo in truth.items():
        assert fitted[name].elo == pytest.approx(elo - mean, abs=1.5)


def test_intervals_shrink_with_more_games() -> None:
    widths = []
    for games in (10, 40, 160):
        a, _ = elo_ratings(["a", "b"], [Pairing("a", "b", games // 2, games // 4, games // 4)])
        assert a.low is not None and a.high is not None and a.elo is not None
        assert a.low < a.elo < a.high
        widths.append(a.high - a.low)
    assert widths[0] > widths[1] > widths[2]
    # The standard error falls as one over the square root of the games: 4x games, half the width.
    assert widths[1] / widths[2] == pytest.approx(2, rel=0.05)


def test_a_clean_sweep_is_finite_with_the_prior_and_refused_without() -> None:
    a, b = elo_ratings(["a", "b"], [Pairing("a", "b", wins=10)])
    assert a.elo is not None and b.elo is not None
    # One virtual draw: 10.5 of 11 points.
    assert a.elo - b.elo == pytest.approx(elo_difference(10.5 / 11))
    with pytest.raises(ValueError, match="won or lost every game"):
        elo_ratings(["a", "b"], [Pairing("a", "b", wins=10)], prior_draws=0)


def test_a_player_without_games_has_no_rating() -> None:
    ratings = _by_name(elo_ratings(["a", "b", "c"], [Pairing("a", "b", 1, 1, 1), Pairing("a", "c")]))
    assert ratings["c"].elo is None and ratings["c"].games == 0
    assert ratings["a"].elo == pytest.approx(0, abs=1e-6)
    assert ratings["a"].games == 3


@pytest.mark.parametrize(
    ("players", "pairings", "message"),
    [
        (["a", "a"], [], "different"),
        (["a", "b"], [Pairing("a", "z", 1)], "not in the list"),
    ],
)
def test_bad_input_is_refused(players: list[str], pairings: list[Pairing], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        elo_ratings(players, pairings)
