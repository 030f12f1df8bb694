"""Quick pairing over HTTP (SQLite and PostgreSQL): two players pressing "play now" for
the same game and clock land in one started game; ratings too far apart wait until the
window has widened; a cancel leaves the pool; colours even out a player's history;
and, across two server processes on one database, every player is paired exactly once."""

from __future__ import annotations

import secrets
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from typing import Any

import pytest

from noughts.server.online.storage.pairing import WINDOW_GROWTH, WINDOW_START, Pairing, SeekRow, window
from noughts.server.online.storage.store import Store
from server.online.people import Person
from server.online.servers import serving

SEEK = {"spec": "classic", "minutes": 3, "increment": 2}


def _until_paired(person: Person, tries: int = 40) -> dict[str, Any]:
    for _ in range(tries):
        answer = person.http.get("/api/online/pairing").json()
        if answer["state"] == "paired":
            return answer
    raise AssertionError(f"{person.name} was not paired: {answer}")


def test_two_players_pressing_play_now_land_in_one_started_game(people: Callable[[], Person]) -> None:
    ann, bob = people().sign_up(), people().sign_up()
    spec = f"mnk:m=5:n=5:k={3 + secrets.randbelow(2)}"  # a pool of this test's own on a shared database
    first = ann.http.post("/api/online/pairing", json={**SEEK, "spec": spec})
    assert first.status_code == 201, first.text
    assert first.json()["state"] == "waiting" and first.json()["waiting"] >= 1
    second = bob.http.post("/api/online/pairing", json={**SEEK, "spec": spec}).json()
    assert second["state"] == "paired"
    game_id = second["game_id"]
    assert _until_paired(ann)["game_id"] == game_id
    game = ann.http.get(f"/api/online/games/{game_id}").json()
    assert game["state"] == "playing" and {game["x"]["name"], game["o"]["name"]} == {ann.name, bob.name}
    assert game["clock"]["initial_ms"] == 180_000 and game["clock"]["increment_ms"] == 2000
    # The game is theirs: a socket of each plays it.
    x, o = (ann, bob) if game["x"]["name"] == ann.name else (bob, ann)
    assert x.socket(game_id).move("5")["type"] == "ack"
    assert o.http.delete("/api/online/pairing").status_code == 200  # paired already: the game is answered


def test_cancel_bad_requests_and_guests(people: Callable[[], Person]) -> None:
    ann = people().sign_up()
    spec = "mnk:m=6:n=6:k=4"
    assert ann.http.get("/api/online/pairing").json()["error"] == "not-seeking"
    assert ann.http.post("/api/online/pairing", json={**SEEK, "spec": spec, "minutes": 10**6}).status_code == 422
    assert ann.http.post("/api/online/pairing", json={**SEEK, "spec": "nonsense"}).json()["error"] == "invalid-spec"
    assert ann.http.post("/api/online/pairing", json={**SEEK, "spec": spec}).status_code == 201
    assert ann.http.delete("/api/online/pairing").status_code == 204
    assert ann.http.get("/api/online/pairing").status_code == 404
    guest = people().guest()
    refused = guest.http.post("/api/online/pairing", json={**SEEK, "spec": spec, "rated": True})
    assert refused.status_code == 403 and refused.json()["error"] == "guest-rated"
    assert people().http.post("/api/online/pairing", json=SEEK).status_code == 401


def test_the_window_widens_with_the_wait(database_url: str) -> None:
    store = Store(database_url)
    store.migrate()
    pairing = Pairing(store)
    users = [store.create_user(name := f"w{secrets.token_hex(4)}", name, None, False, 0).id for _ in range(2)]
    spec = f"mnk:m=7:n=7:k={4 + secrets.randbelow(2)}:forget=true:keep={6 + secrets.randbelow(40)}"
    now = 1_800_000_000_000
    gap = WINDOW_START + 3 * WINDOW_GROWTH  # both must have waited 3 s
    seek = SeekRow(users[0], spec, False, None, None, 1500.0, now)
    pairing.seek(seek)
    pairing.seek(replace(seek, user_id=users[1], rating=1500.0 + gap))

    def start(me: SeekRow, other: SeekRow, me_x: bool) -> Any:
        from noughts.server.online import actions
        from noughts.server.online.service.rooms import room_row

        room = room_row(me.spec, False, me.user_id, "x" if me_x else "o", False, None, 0, now)
        return actions.join(room, other.user_id, False, now).row

    assert window(0) == WINDOW_START and window(3000) == gap
    assert pairing.pair(users[1], now + 2000, start) is None  # 2 s: too far apart still
    game = pairing.pair(users[1], now + 3000, start)
    assert game is not None and {game.x_id, game.o_id} == set(users)
    assert pairing.pair(users[0], now + 4000, start) is None  # paired once, never again
    assert {pairing.status(u).game_id for u in users} == {game.id}  # type: ignore[union-attr]
    store.close()


@pytest.mark.slow  # two servers and twelve players: a minute on two cores
@pytest.mark.timeout(180)
def test_two_processes_pair_every_player_exactly_once(postgres_url: str) -> None:
    spec = f"mnk:m=8:n=8:k=4:forget=true:keep={10 + secrets.randbelow(50)}"  # this test's own pool
    with serving(postgres_url) as (_, one), serving(postgres_url) as (_, two):
        players = [Person(one if i % 2 else two).sign_up() for i in range(12)]
        with ThreadPoolExecutor(12) as pool:
            list(pool.map(lambda p: p.http.post("/api/online/pairing", json={**SEEK, "spec": spec}), players))
            answers = list(pool.map(_until_paired, players))
        games: dict[str, list[str]] = {}
        for person, answer in zip(players, answers, strict=True):
            games.setdefault(answer["game_id"], []).append(person.name or "")
        assert len(games) == 6 and all(len(names) == 2 for names in games.values())
        for game_id, names in games.items():
            game = players[0].http.get(f"/api/online/games/{game_id}").json()
            assert sorted([game["x"]["name"], game["o"]["name"]]) == sorted(names)
        for person in players:
            person.close()


def test_x_goes_to_whoever_played_it_less_lately(database_url: str) -> None:
    store = Store(database_url)
    store.migrate()
    pairing = Pairing(store)
    ann, bob, carol = (store.create_user(name := f"c{secrets.token_hex(4)}", name, None, False, 0).id for _ in range(3))
    spec = f"mnk:m=6:n=7:k={4 + secrets.randbelow(2)}:forget=true:keep={6 + secrets.randbelow(40)}"
    now = 1_800_000_000_000

    from noughts.server.online import actions
    from noughts.server.online.service.rooms import room_row

    def start(me: SeekRow, other: SeekRow, me_x: bool) -> Any:
        room = room_row(me.spec, False, me.user_id, "x" if me_x else "o", False, None, 0, now)
        return actions.join(room, other.user_id, False, now).row

    for i in range(3):  # ann played x three times against carol; bob has played nobody
        room = room_row(spec, False, ann, "x", False, None, 0, now - 10_000 + i)
        store.add_game(actions.join(room, carol, False, now - 10_000 + i).row)

    def paired(first: int, second: int) -> Any:
        for user in (first, second):
            pairing.seek(SeekRow(user, spec, False, None, None, 1500.0, now))
        game = pairing.pair(first, now, start)  # which adds the game
        assert game is not None
        return game

    first = paired(ann, bob)
    assert first.x_id == bob  # ann: x in all her last games; bob: none yet (even)
    # Over, the game frees bob to seek again (a paired game in play is answered instead).
    store.apply(first.id, lambda row: actions.act(row, ann, "resign", now, 0))
    assert paired(bob, carol).x_id == carol  # bob: x in his one game; carol: never
    store.close()


def test_a_second_seek_while_paired_answers_the_game(people: Callable[[], Person]) -> None:
    """Another press of "play now" (the same game, another game or clock, a bot's wait)
    while the player's paired game goes on answers that game and starts no wait; once
    the game is over, a press seeks anew."""
    ann, bob = people().sign_up(), people().sign_up()
    spec = f"mnk:m=5:n=6:k={3 + secrets.randbelow(2)}"
    ann.http.post("/api/online/pairing", json={**SEEK, "spec": spec})
    game_id = bob.http.post("/api/online/pairing", json={**SEEK, "spec": spec}).json()["game_id"]
    assert game_id is not None
    for person, again in [
        (ann, {**SEEK, "spec": spec}),
        (bob, {**SEEK, "spec": spec}),
        (ann, {"spec": "classic", "minutes": 1, "increment": 0}),
        (bob, {"spec": "ultimate", "bot_after": 0}),
        (ann, {**SEEK, "spec": spec, "rated": True}),
    ]:
        answer = person.http.post("/api/online/pairing", json=again)
        assert answer.status_code == 201, answer.text
        assert (answer.json()["state"], answer.json()["game_id"]) == ("paired", game_id), again
        assert person.http.get("/api/online/pairing").json()["game_id"] == game_id
    assert ann.http.get(f"/api/online/games/{game_id}").json()["state"] == "playing"
    assert all(g["id"] == game_id for g in ann.http.get(f"/api/online/users/{ann.name}").json()["games"])
    # Over, the game no longer holds the player: the next press waits for a new one.
    assert ann.socket(game_id).act("resign")["type"] == "ack"
    fresh = ann.http.post("/api/online/pairing", json={**SEEK, "spec": spec})
    assert (fresh.status_code, fresh.json()["state"], fresh.json()["game_id"]) == (201, "waiting", None)
