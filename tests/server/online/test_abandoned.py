"""Games nobody would ever end: the server ends them by itself, whoever sits there.

An engine bot's program never claims (issue 41): a game its opponent left stayed in play
forever, holding one of the bot's game slots and its tournament's round. The server now
ends a game whose player has been away for `abandon_after`, and aborts one whose first
move has not come `first_move_wait` after it was due, connected or not.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from dataclasses import replace
from typing import Any

import pytest

from noughts.server import Settings
from noughts.server.online.sessions import COOKIE
from server.online.people import FAST, GameSocket, Person, unique
from server.online.servers import in_thread

# Away for 2 s ends a game: short for a test, long enough that a loaded machine's slow
# socket opening is not taken for leaving (0.6 s was, in a suite on six processes).
QUICK = replace(FAST, arrival_wait=0.2, abandon_after=2.0, first_move_wait=60.0)


def _until(read: Callable[[], dict[str, Any]], done: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
    """`read()` once `done` holds of it (at most 15 s: the server's sweep is what waits)."""
    for _ in range(300):
        value = read()
        if done(value):
            return value
        time.sleep(0.05)
    pytest.fail(f"still {value}")


def _alternate(x: GameSocket, o: GameSocket, *moves: str) -> None:
    for i, move in enumerate(moves):
        mover, other = (x, o) if i % 2 == 0 else (o, x)
        assert mover.move(move)["type"] == "ack"
        other.event("move")


@pytest.fixture
def site(sqlite_url: str) -> Iterator[str]:
    with in_thread(Settings(database=sqlite_url, ai_workers=1, online=QUICK)) as base:
        yield base


def _engine_bot(site: str, owner: Person) -> tuple[str, Person]:
    """A bot account of `owner`'s, logged in as its program would be."""
    name = unique("eng")
    made = owner.http.post("/api/online/me/bots", json={"name": name})
    assert made.status_code == 201, made.text
    bot = Person(site)
    bot.http.cookies.set(COOKIE, made.json()["token"])
    bot.name = name
    return name, bot


def test_an_engine_bot_is_not_held_by_opponents_who_leave(site: str) -> None:
    """Anyone could block a bot by challenging it and leaving: each game stayed "playing"
    and held one of the bot's --max-games slots. Here the bot (its socket open, as its
    bridge keeps it) is left by one challenger who never opens the game and by one who
    plays two moves each and closes the page: both games end, the second won by the bot."""
    ann = Person(site).sign_up()
    name, bot = _engine_bot(site, ann)
    try:
        never = ann.http.post(f"/api/online/bots/{name}/challenge", json={"spec": "classic", "side": "x"})
        played = ann.http.post(f"/api/online/bots/{name}/challenge", json={"spec": "classic", "side": "x"})
        never_id, played_id = never.json()["game"]["id"], played.json()["game"]["id"]
        for game_id in (never_id, played_id):
            bot.join(game_id)
        bot_never, bot_played = bot.socket(never_id), bot.socket(played_id)
        a = ann.socket(played_id)
        _alternate(a, bot_played, "5", "1", "9", "3")
        assert {*bot.http.get("/api/online/bot/inbox").json()["playing"]} == {never_id, played_id}
        a.ws.close()  # ann leaves in the middle of the game; the bot stays and never claims

        def game(game_id: str) -> dict[str, Any]:
            answer: dict[str, Any] = bot.http.get(f"/api/online/games/{game_id}").json()
            return answer

        left = _until(lambda: game(played_id), lambda g: g["state"] != "playing")
        assert (left["state"], left["result"], left["termination"]) == ("over", "o-wins", "abandoned")
        unopened = _until(lambda: game(never_id), lambda g: g["state"] != "playing")
        assert unopened["state"] == "aborted"  # before the second move: no result
        assert bot.http.get("/api/online/bot/inbox").json()["playing"] == []
        assert bot_never.state["state"] == "playing"  # the bot's sockets saw it start
    finally:
        ann.close()
        bot.close()


def test_a_first_move_never_made_aborts_the_game_though_both_are_connected(sqlite_url: str) -> None:
    """A player who opens the game and never starts it (a stuck program, a page left
    open) held it in play forever: the clock runs only from the third ply."""
    settings = Settings(database=sqlite_url, ai_workers=1, online=replace(QUICK, first_move_wait=0.6))
    with in_thread(settings) as base:
        ann, bob = Person(base).sign_up(), Person(base).sign_up()
        try:
            for moves in ((), ("5",)):
                game_id = ann.room(side="x", minutes=5)
                a = ann.socket(game_id)
                bob.join(game_id)
                a.event("start")
                b = bob.socket(game_id)
                _alternate(a, b, *moves)
                event = a.event("abort", timeout=15)
                late = "x" if not moves else "o"
                assert (event["game"]["state"], event["game"]["result"]) == ("aborted", "ongoing")
                assert event["game"]["away"][late] is not None  # who did not start is told
        finally:
            ann.close()
            bob.close()


def test_a_swiss_round_with_a_no_show_ends_and_the_player_there_wins(site: str) -> None:
    """A Swiss round whose game had a player who never came never ended (the game stayed
    in play), and had it been claimed, the player who was there scored 0."""
    root = "/api/online/tournaments"
    ann, bob = Person(site).sign_up(), Person(site).sign_up()
    try:
        created = ann.http.post(
            root, json={"kind": "swiss", "name": "No-show", "spec": "classic", "rounds": 1, "starts_in": 60}
        )
        tid = created.json()["id"]
        for person in (ann, bob):
            assert person.http.post(f"{root}/{tid}/join").json()["joined"]
        shown = ann.http.post(f"{root}/{tid}/start").json()
        (game,) = [g for g in shown["games"] if g["round"] == 1]
        ann.socket(game["game_id"])  # ann comes; bob never does
        done = _until(lambda: ann.http.get(f"{root}/{tid}").json(), lambda t: t["state"] == "finished")
        assert {s["name"]: s["score"] for s in done["standings"]} == {ann.name: 1.0, bob.name: 0.0}
    finally:
        ann.close()
        bob.close()
