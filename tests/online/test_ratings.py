"""Glicko-2 against the worked example of Glickman's paper."""

from __future__ import annotations

import pytest

from noughts.server.online.ratings import Glicko, after_game, update


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
