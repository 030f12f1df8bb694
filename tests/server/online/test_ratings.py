"""Glicko-2 against the worked example of Glickman's paper, deviations growing with
time away, and ratings as the server shows and updates them."""

from __future__ import annotations

from collections.abc import Callable
from typing import cast

import pytest
from sqlalchemy import Table

from noughts.server import Settings
from noughts.server.online.accounts import name_key
from noughts.server.online.clock import now_ms
from noughts.server.online.ratings import RATING_PERIOD, Glicko, after_game, current, idle, update
from noughts.server.online.storage.store import Store
from noughts.server.online.storage.tables import Rating
from server.online.people import Person
from server.online.test_play import alternate, start


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


def test_a_game_in_play_shows_the_players_ratings_a_guest_none(people: Callable[[], Person]) -> None:
    ann, _, _, a, b = start(people, "classic", rated=True)
    new = {"rating": 1500, "provisional": True}
    assert (b.state["x"]["rating"], b.state["o"]["rating"]) == (new, new)
    assert (b.state["x"]["rating_before"], b.state["x"]["rating_after"]) == (None, None)
    b.act("resign")
    over = a.event("resign")["game"]
    # After the game: the new ratings, and the change from before it.
    assert over["x"]["rating"]["rating"] == over["x"]["rating_after"] > over["x"]["rating_before"] == 1500
    guest = people().guest()
    casual = ann.room("classic")
    guest.join(casual)
    seen = guest.socket(casual).state
    assert seen["o"]["name"] == guest.name and seen["o"]["rating"] is None
    assert seen["tournament_id"] is None  # a game of its own
    assert seen["x"]["rating"] == {"rating": over["x"]["rating_after"], "provisional": True}


def test_ratings_are_shown_and_updated_as_they_stand_now(people: Callable[[], Person], app_settings: Settings) -> None:
    ann, bob, game_id, a, b = start(people, "classic", rated=True)
    alternate(a, b, "1", "4", "2", "5", "3")
    # ann last played two years ago, bob just now; both were settled at RD 60.
    store = Store(app_settings.database or "")
    now = now_ms()
    users = {name: store.user_by_key(name_key(name)) for name in (ann.name, bob.name) if name}
    ratings = cast(Table, Rating.__table__)
    with store.engine.begin() as c:
        for name, since in ((ann.name, now - 104 * RATING_PERIOD), (bob.name, now)):
            c.execute(
                ratings.update()
                .where(ratings.c.user_id == users[name].id, ratings.c.spec == "classic")  # type: ignore[union-attr]
                .values(rating=1600, deviation=60, volatility=0.06, updated_at=since)
            )
    # Settled when stored, ann's rating grew provisional while away: the leaderboard
    # leaves it out unless asked.
    settled = bob.http.get("/api/online/leaderboard?game=classic").json()["players"]
    assert bob.name in [p["name"] for p in settled] and ann.name not in [p["name"] for p in settled]
    board = {p["name"]: p for p in bob.http.get("/api/online/leaderboard?game=classic&provisional=1").json()["players"]}
    assert board[ann.name]["provisional"] is True and board[ann.name]["deviation"] > 110
    assert board[bob.name]["provisional"] is False and board[bob.name]["deviation"] == 60
    profile = bob.http.get(f"/api/online/users/{ann.name}").json()["ratings"]
    assert profile[0]["deviation"] == board[ann.name]["deviation"] and profile[0]["provisional"] is True

    # The next game starts from the grown deviation: ann's rating moves as a returning player's.
    game_id = ann.room("classic", rated=True)
    a = ann.socket(game_id)
    bob.join(game_id)
    a.event("start")
    b = bob.socket(game_id)
    # Beside the names while they play: ann's rating provisional again, bob's settled.
    assert b.state["x"]["rating"] == {"rating": 1600, "provisional": True}
    assert b.state["o"]["rating"] == {"rating": 1600, "provisional": False}
    alternate(a, b, "1", "4", "2", "5", "3")
    ended = a.state["ended_at"]
    expected_x, expected_o = after_game(
        current(Glicko(1600, 60, 0.06), now - 104 * RATING_PERIOD, ended),
        current(Glicko(1600, 60, 0.06), now, ended),
        1.0,
    )
    stored = {r.name: r for r in store.leaderboard("classic", provisional=True)}
    assert stored[ann.name].rating == pytest.approx(expected_x.rating)
    assert stored[ann.name].deviation == pytest.approx(expected_x.deviation)
    assert stored[bob.name].rating == pytest.approx(expected_o.rating)
    assert stored[ann.name].rating - 1600 > 1600 - stored[bob.name].rating > 0
    assert stored[ann.name].updated_at == ended
    store.close()
