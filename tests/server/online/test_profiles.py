"""What a profile counts (wins, draws and losses per game, the rating after each rated
game, the puzzle rating, a paged game list) and who the leaderboard ranks."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, cast

import pytest
from sqlalchemy import Table, delete, insert

from noughts.competition.clock import now_ms
from noughts.server import Settings
from noughts.server.online.accounts import name_key
from noughts.server.online.sessions import COOKIE
from noughts.server.online.storage.store import Store
from noughts.server.online.storage.tables import Rating
from noughts.study.puzzles import Puzzle
from server.online.people import Person, unique
from server.online.shared import database_url, server
from server.online.test_play import alternate, start
from server.online.test_puzzles_api import puzzles  # noqa: F401 (a fixture)

#: A drawn game of tic-tac-toe, X first.
DRAW = ("5", "1", "9", "3", "2", "8", "7", "4", "6")

# One server for the module (server/online/shared.py): each test with people of its own.
__all__ = ["database_url", "server"]  # fixtures


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


#: X wins along the top row (in Forget mode too: X keeps its three marks); O wins the
#: middle row.
X_WINS = ("1", "4", "2", "5", "3")
O_WINS = ("1", "4", "2", "5", "9", "6")


def _unlisted(game_id: str, readers: tuple[Person, ...]) -> None:
    """`game_id` is in none of the lobby's lists that `readers` read."""
    for reader in readers:
        lobby = reader.http.get("/api/online/rooms").json()
        assert game_id not in [g["id"] for g in lobby["rooms"] + lobby["live"]], reader.name


def _played(creator: Person, joiner: Person, spec: str, moves: tuple[str, ...], *looking: Person, **room: Any) -> str:
    """A room `creator` makes (X) and `joiner` joins, played out with `moves`: in none
    of the lobby's lists the `looking` read while it waits and while it is played."""
    game_id = creator.room(spec, **room)
    x = creator.socket(game_id)
    _unlisted(game_id, looking)
    joiner.join(game_id)
    x.event("start")
    o = joiner.socket(game_id)
    _unlisted(game_id, looking)
    alternate(x, o, *moves)
    return game_id


@pytest.mark.both_databases
def test_strangers_cannot_tell_that_a_private_game_was_played(people: Callable[[], Person]) -> None:
    """A private game was in no list but its players', yet anyone read from their two
    profiles that they played it and who won (the wins, draws and losses counted every
    game), and when it ended, to the millisecond (the rating chart's points); the games
    beside a rating, on the leaderboard and in the bots' list counted it. Now a stranger
    (signed in, a guest, a visitor, the opponent of another of the player's private
    games, a bot's owner) reads every public view the same before and after private
    games, casual and rated, but for the ratings they moved; their players see them."""
    rated, casual = "classic:forget=true", "classic"
    ann, bob, carol = people().sign_up(), people().sign_up(), people().sign_up()
    engine = unique("eng")
    made = carol.http.post("/api/online/me/bots", json={"name": engine})
    assert made.status_code == 201, made.text
    bot = people()
    bot.http.cookies.set(COOKIE, made.json()["token"])
    bot.name = engine
    strangers = (people().sign_up(), people().guest(), people(), carol)
    public_rated = _played(bob, ann, rated, X_WINS, rated=True)  # bob wins
    public_casual = _played(ann, bob, casual, DRAW)

    def seen(reader: Person) -> dict[str, Any]:
        """What `reader` reads of the three players, the rating's figures left out."""
        views: dict[str, Any] = {}
        for player in (ann, bob, bot):
            profile = reader.http.get(f"/api/online/users/{player.name}").json()
            views[f"{player.name} profile"] = {
                **{k: v for k, v in profile.items() if k != "ratings"},
                "ratings": [(r["spec"], r["games"]) for r in profile["ratings"]],
            }
        for spec in (rated, casual):
            shown = {"game": spec, "provisional": "true", "bots": "true"}
            board = reader.http.get("/api/online/leaderboard", params=shown).json()["players"]
            views[f"{spec} leaderboard"] = sorted(
                (p["name"], p["games"], p["bot"]) for p in board if p["name"] in (ann.name, bob.name, engine)
            )
        (listed,) = [b for b in reader.http.get("/api/online/bots").json()["bots"] if b["name"] == engine]
        views["bots"] = (listed["owner"], [(r["spec"], r["games"]) for r in listed["ratings"]])
        game = reader.http.get(f"/api/online/games/{public_rated}").json()
        views["public game"] = [(game[s]["name"], game[s]["rating_before"], game[s]["rating_after"]) for s in "xo"]
        return views

    before = {stranger: seen(stranger) for stranger in (*strangers, bob)}
    private_rated = _played(ann, bob, rated, X_WINS, *strangers, rated=True, private=True)  # ann wins
    private_casual = _played(bob, ann, casual, O_WINS, *strangers, private=True)  # ann wins
    challenge = ann.http.post(f"/api/online/bots/{engine}/challenge", json={"spec": rated, "rated": True, "side": "x"})
    assert challenge.status_code == 201, challenge.text
    against_bot = challenge.json()["game"]["id"]
    a = ann.socket(against_bot)
    _unlisted(against_bot, strangers)
    bot.join(against_bot)
    a.event("start")
    alternate(a, bot.socket(against_bot), *X_WINS)  # ann wins, rated
    assert a.state["private"] and a.state["x"]["rating_after"] > a.state["x"]["rating_before"]

    # The ratings moved: the bot has one in `rated` now (on the leaderboard and in the
    # bots' list), its one rated game shown to nobody but ann. All else reads as if none
    # of the three games had been played; bob reads the two he played (below), not
    # ann's with the bot.
    for stranger, earlier in before.items():
        now = seen(stranger)
        if stranger is bob:
            for views in (now, earlier):
                for player in (ann, bob):
                    del views[f"{player.name} profile"]
                views[f"{rated} leaderboard"] = [p for p in views[f"{rated} leaderboard"] if p[0] == engine]
        bot_profile, board = f"{engine} profile", f"{rated} leaderboard"
        assert (earlier["bots"], now["bots"]) == ((carol.name, []), (carol.name, [(rated, 0)]))
        assert (earlier[bot_profile]["ratings"], now[bot_profile]["ratings"]) == ([], [(rated, 0)])
        assert sorted([*earlier[board], (engine, 0, True)]) == now[board]
        now |= {"bots": earlier["bots"], board: earlier[board]}
        now[bot_profile]["ratings"] = []
        assert now == earlier, stranger.name

    def own(reader: Person, player: Person) -> tuple[object, ...]:
        profile = reader.http.get(f"/api/online/users/{player.name}").json()
        shown = {"game": rated, "provisional": "true"}
        leaders = reader.http.get("/api/online/leaderboard", params=shown).json()["players"]
        (board,) = [p["games"] for p in leaders if p["name"] == player.name]
        return (
            [(o["spec"], o["wins"], o["draws"], o["losses"]) for o in profile["outcomes"]],
            [p["at"] for p in profile["history"]],
            [(r["spec"], r["games"]) for r in profile["ratings"]],
            board,
            (profile["games_total"], [g["id"] for g in profile["games"]]),
        )

    ended = {}
    for game_id in (public_rated, private_rated, against_bot):
        ended[game_id] = ann.http.get(f"/api/online/games/{game_id}").json()["ended_at"]
    # Each player sees their own private games, on their profile and their opponent's.
    mine = [against_bot, private_casual, private_rated, public_casual, public_rated]
    assert own(ann, ann) == (
        [(rated, 2, 0, 1), (casual, 1, 1, 0)],
        [ended[public_rated], ended[private_rated], ended[against_bot]],
        [(rated, 3)],
        3,
        (5, mine),
    )
    for reader in (ann, bob):
        assert (
            own(reader, bob)
            == (
                [(casual, 0, 1, 1), (rated, 1, 0, 1)],  # as many of each: by name
                [ended[public_rated], ended[private_rated]],
                [(rated, 2)],
                2,
                (4, mine[1:]),
            )
        ), reader.name
    assert own(bob, ann) == (
        [(casual, 1, 1, 0), (rated, 1, 0, 1)],
        [ended[public_rated], ended[private_rated]],
        [(rated, 2)],
        2,
        (4, mine[1:]),
    )
    # What a rated private game moves for everyone: the rating, as its players read it.
    for player in (ann, bob, bot):
        figures = set()
        for reader in (ann, *strangers):
            ratings = reader.http.get(f"/api/online/users/{player.name}").json()["ratings"]
            figures.add(tuple((r["spec"], r["rating"]) for r in ratings))
        assert len(figures) == 1, (player.name, figures)
    seen_by_ann = ann.http.get(f"/api/online/users/{engine}").json()
    assert [(o["wins"], o["losses"]) for o in seen_by_ann["outcomes"]] == [(0, 1)]
    assert [g["id"] for g in seen_by_ann["games"]] == [against_bot] and len(seen_by_ann["history"]) == 1
