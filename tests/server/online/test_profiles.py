"""What a profile counts (wins, draws and losses per game, the rating after each rated
game, the puzzle rating, a paged game list) and who the leaderboard ranks."""

from __future__ import annotations

from collections.abc import Callable
from typing import cast

import pytest
from sqlalchemy import Table, delete, insert

from noughts.competition.clock import now_ms
from noughts.server import Settings
from noughts.server.online.accounts import name_key
from noughts.server.online.storage.store import Store
from noughts.server.online.storage.tables import Rating
from noughts.study.puzzles import Puzzle
from server.online.people import Person
from server.online.test_play import alternate, start
from server.online.test_puzzles_api import puzzles  # noqa: F401 (a fixture)

#: A drawn game of tic-tac-toe, X first.
DRAW = ("5", "1", "9", "3", "2", "8", "7", "4", "6")


@pytest.mark.both_databases
def test_a_profile_counts_results_draws_the_rating_history_and_pages_the_games(
    people: Callable[[], Person],
    puzzles: list[Puzzle],  # noqa: F811 (the fixture imported above)
) -> None:
    ann, bob, first, a, b = start(people, rated=True)
    alternate(a, b, "1", "4", "2", "5", "3")  # ann (X) wins
    second = ann.room("classic")  # casual, drawn
    a2 = ann.socket(second)
    bob.join(second)
    a2.event("start")
    alternate(a2, bob.socket(second), *DRAW)
    third = bob.room("classic", rated=True, side="x")
    b3 = bob.socket(third)
    ann.join(third)
    b3.event("start")
    alternate(b3, ann.socket(third), "1", "4", "2", "5", "3")  # bob (X) wins
    open_room = ann.room("qubic")

    profile = bob.http.get(f"/api/online/users/{ann.name}").json()
    assert [(o["spec"], o["wins"], o["draws"], o["losses"]) for o in profile["outcomes"]] == [("classic", 1, 1, 1)]
    assert [g["id"] for g in profile["games"]] == [open_room, third, second, first]
    assert [g["outcome"] for g in profile["games"]] == [None, "loss", "draw", "win"]
    assert profile["games_total"] == 4
    won = profile["games"][3]
    assert won["ended_at"] >= won["created_at"] and won["rating_after"] > won["rating_before"] == 1500
    # The chart: the rating after each rated game, oldest first; the casual draw is not one.
    history = profile["history"]
    assert [(p["spec"], p["rating"]) for p in history] == [
        ("classic", won["rating_after"]),
        ("classic", profile["games"][1]["rating_after"]),
    ]
    assert history[0]["at"] <= history[1]["at"]
    assert history[1]["rating"] == next(r["rating"] for r in profile["ratings"] if r["spec"] == "classic")
    page = bob.http.get(f"/api/online/users/{ann.name}", params={"limit": 2, "offset": 2}).json()
    assert [g["id"] for g in page["games"]] == [second, first] and page["games_total"] == 4

    # The puzzle rating shows once the player has tried a puzzle.
    assert profile["puzzles"] is None
    tried = ann.http.post(f"/api/puzzles/{puzzles[0].id}/attempt", json={"solved": True})
    assert tried.status_code == 200, tried.text
    shown = bob.http.get(f"/api/online/users/{ann.name}").json()["puzzles"]
    assert (shown["attempts"], shown["solved"]) == (1, 1) and shown["rating"] > 1500


def _rate(settings: Settings, ratings: dict[str, tuple[float, float]]) -> None:
    """Gives each named player a classic rating (rating, deviation), as if just played
    (a house bot's may be there from other tests on this database)."""
    store = Store(settings.database or "")
    table = cast(Table, Rating.__table__)
    try:
        users = {name: store.user_by_key(name_key(name)) for name in ratings}
        with store.engine.begin() as c:
            for name, (rating, deviation) in ratings.items():
                user = users[name]
                assert user is not None
                values = {"rating": rating, "deviation": deviation, "volatility": 0.06, "games": 30}
                c.execute(delete(table).where(table.c.user_id == user.id, table.c.spec == "classic"))
                c.execute(insert(table).values(user_id=user.id, spec="classic", updated_at=now_ms(), **values))
    finally:
        store.close()


@pytest.mark.both_databases
def test_the_leaderboard_ranks_settled_people_and_shows_the_others_when_asked(
    people: Callable[[], Person], app_settings: Settings
) -> None:
    ann, bob, newcomer = people().sign_up(), people().sign_up(), people().sign_up()
    house = "noughts-max"
    people().http.get("/api/online/bots")  # the house bots exist once the service starts
    assert ann.name and bob.name and newcomer.name
    _rate(app_settings, {ann.name: (1700, 60), bob.name: (1650, 109), newcomer.name: (1900, 111), house: (2100, 50)})

    def names(**shown: str) -> list[str]:
        board = ann.http.get("/api/online/leaderboard", params={"game": "classic", **shown}).json()
        ranks = [p["rank"] for p in board["players"]]
        assert ranks == list(range(1, len(ranks) + 1))
        return [p["name"] for p in board["players"] if p["name"] in (ann.name, bob.name, newcomer.name, house)]

    assert names() == [ann.name, bob.name]  # 109 is settled, 111 provisional: the "?" mark's line, 110
    assert names(provisional="true") == [newcomer.name, ann.name, bob.name]
    assert names(bots="true") == [house, ann.name, bob.name]
    assert names(provisional="true", bots="true")[:2] == [house, newcomer.name]


@pytest.mark.both_databases
def test_a_private_game_counts_nowhere_a_stranger_reads(people: Callable[[], Person]) -> None:
    """A private game was in no list but its players', yet anyone read from their
    profiles that they played it and who won (outcomes), and when it ended, to the
    millisecond (the rating chart's points); the games beside each rating, on the
    leaderboard and in the bots' list counted it. Only the rating moves, as documented."""
    spec = "classic:forget=true"  # a rating of its own: the leaderboard's other games stay out of it
    ann, bob, private, a, b = start(people, spec, rated=True, private=True)
    alternate(a, b, "1", "4", "2", "5", "3")  # ann (X) wins
    public = ann.room(spec)  # casual, listed: bob (O) wins
    a2 = ann.socket(public)
    bob.join(public)
    a2.event("start")
    alternate(a2, bob.socket(public), "1", "4", "2", "5", "9", "6")
    own = ann.http.get(f"/api/online/users/{ann.name}").json()
    ended = next(g["ended_at"] for g in own["games"] if g["id"] == private)
    (rating,) = [r["rating"] for r in own["ratings"] if r["spec"] == spec]
    assert rating > 1500

    def read(reader: Person) -> tuple[object, ...]:
        seen = reader.http.get(f"/api/online/users/{ann.name}").json()
        board = reader.http.get("/api/online/leaderboard", params={"game": spec, "provisional": "true"}).json()
        (row,) = [p for p in board["players"] if p["name"] == ann.name]
        (mine,) = [r for r in seen["ratings"] if r["spec"] == spec]
        return (
            [(o["spec"], o["wins"], o["draws"], o["losses"]) for o in seen["outcomes"]],
            [p["at"] for p in seen["history"]],
            (mine["rating"], mine["games"]),
            (row["rating"], row["games"]),
            (seen["games_total"], [g["id"] for g in seen["games"]]),
        )

    for player in (ann, bob):
        assert read(player) == (
            [(spec, 1, 0, 1)], [ended], (rating, 1), (rating, 1), (2, [public, private])
        ), player.name  # fmt: skip
    for stranger in (people().sign_up(), people()):
        assert read(stranger) == ([(spec, 0, 0, 1)], [], (rating, 0), (rating, 0), (1, [public]))
