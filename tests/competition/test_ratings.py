"""Glicko-2 against the worked example of Glickman's paper, and deviations growing with
time away (no database: how the server shows and stores them is
tests/server/online/test_ratings.py)."""

from __future__ import annotations

import pytest

from noughts.competition.ratings import RATING_PERIOD, Glicko, after_game, current, idle, update


def test_the_papers_worked_example() -> None:
    # "Example of the Glicko-2 system", section 3: a 1500 (RD 200) player beats a 1400
    # (RD 30) and loses to a 1550 (RD 100) and a 1700 (RD 300); tau = 0.5.
    player = Glicko(1500, 200, 0.06)
    results = [(Glicko(1400, 30), 1.0), (Glicko(1550, 100), 0.0), (Glicko(1700, 300), 0.0)]
    new = update(player, results, tau=0.5)
    assert new.rating == pytest.approx(1464.06, abs=0.02)
    assert new.deviation == pytest.approx(151.52, abs=0.01)
    assert new.volatility == pytest.approx(0.05999, abs=0.00001)


def test_a_period_without_games_only_widens_the_deviation() -> None:
    new = update(Glicko(1600, 100, 0.06), [])
    assert new.rating == 1600 and new.deviation == pytest.approx((100**2 + (0.06 * 173.7178) ** 2) ** 0.5)


def test_one_game_is_zero_sum_between_equals_and_a_draw_moves_nothing() -> None:
    x, o = after_game(Glicko(), Glicko(), 1.0)
    assert x.rating - 1500 == pytest.approx(1500 - o.rating) and x.rating > 1500
    x, o = after_game(Glicko(), Glicko(), 0.5)
    assert (x.rating, o.rating) == (pytest.approx(1500), pytest.approx(1500))
    assert x.deviation < 350


def test_an_upset_moves_more_than_an_expected_win() -> None:
    strong, weak = Glicko(1900, 80), Glicko(1400, 80)
    expected, _ = after_game(strong, weak, 1.0)
    upset, _ = after_game(strong, weak, 0.0)
    assert 1900 - upset.rating > expected.rating - 1900 > 0


def test_a_period_without_games_is_step_6_of_the_paper() -> None:
    # Step 6 of the worked example: phi = 1.1513 (RD 200), sigma = 0.05999 gives
    # phi* = 1.152862 (the paper rounds phi to four places, hence the tolerance).
    grown = idle(Glicko(1500, 200, 0.05999), 1.0)
    assert grown.deviation / 173.7178 == pytest.approx(1.152862, abs=1e-5)
    assert (grown.rating, grown.volatility) == (1500, 0.05999)
    assert update(Glicko(1500, 200, 0.05999), []) == grown
    # n periods are step 6 n times over; a fraction of a period grows less than one.
    assert idle(Glicko(1500, 200), 3.0).deviation == pytest.approx(
        idle(idle(idle(Glicko(1500, 200), 1), 1), 1).deviation
    )
    assert 200 < idle(Glicko(1500, 200), 0.5).deviation < grown.deviation


def test_the_deviation_grows_with_idle_periods_up_to_350() -> None:
    settled = Glicko(1700, 50, 0.06)
    deviations = [current(settled, 0, weeks * RATING_PERIOD).deviation for weeks in range(0, 3000, 100)]
    assert deviations[0] == 50 and deviations == sorted(deviations) and len(set(deviations)) > 10
    assert deviations[-1] == 350 and max(deviations) == 350
    assert current(settled, 0, 10**15).deviation == 350
    assert current(settled, 0, 78 * RATING_PERIOD).rating == 1700  # only the deviation grows
    # About a year and a half away makes a settled rating provisional (above 110).
    assert (
        current(Glicko(1700, 60), 0, 70 * RATING_PERIOD).deviation
        < 110
        < current(Glicko(1700, 60), 0, 80 * RATING_PERIOD).deviation
    )


def test_a_returning_player_moves_faster() -> None:
    """The worked example's player, back after two years: the same results move the
    rating further than for the player who never left."""
    player = Glicko(1500, 200, 0.06)
    results = [(Glicko(1400, 30), 1.0), (Glicko(1550, 100), 0.0), (Glicko(1700, 300), 0.0)]
    stayed = update(player, results)
    returned = update(current(player, 0, 104 * RATING_PERIOD), results)
    assert 1500 - returned.rating > 1500 - stayed.rating > 0
