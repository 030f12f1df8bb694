"""Ratings as the server shows and updates them (the rules themselves:
tests/competition/test_ratings.py)."""

from __future__ import annotations

from collections.abc import Callable
from typing import cast

import pytest
from sqlalchemy import Table

from noughts.competition.clock import now_ms
from noughts.competition.ratings import RATING_PERIOD, Glicko, after_game, current
from noughts.server import Settings
from noughts.server.online.accounts import name_key
from noughts.server.online.storage.store import Store
from noughts.server.online.storage.tables import Rating
from server.online.people import Person
from server.online.test_play import alternate, start


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
    stored = {r.name: r for r in store.leaderboard("classic", None, provisional=True)}
    assert stored[ann.name].rating == pytest.approx(expected_x.rating)
    assert stored[ann.name].deviation == pytest.approx(expected_x.deviation)
    assert stored[bob.name].rating == pytest.approx(expected_o.rating)
    assert stored[ann.name].rating - 1600 > 1600 - stored[bob.name].rating > 0
    assert stored[ann.name].updated_at == ended
    store.close()
