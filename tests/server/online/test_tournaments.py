"""Tournaments over HTTP (a real server, SQLite here; PostgreSQL in make test-slow):
the Swiss worked by hand in tests/competition/tournaments/test_swiss.py played to the end through the
API, an arena pairing its players as they join and finish, and bad requests refused."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import replace
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from noughts.server import Settings
from server.online.people import FAST, Person, unique

ROOT = "/api/online/tournaments"


@pytest.fixture
def app_settings(database_url: str) -> Settings:
    # A slow sweep: what is tested here is that a game's end advances its tournament.
    return Settings(database=database_url, ai_workers=1, online=replace(FAST, tournament_sweep=30.0))


def _show(person: Person, tid: str) -> dict[str, Any]:
    answer = person.http.get(f"{ROOT}/{tid}")
    assert answer.status_code == 200, answer.text
    shown: dict[str, Any] = answer.json()
    return shown


def _until(person: Person, tid: str, check: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
    for _ in range(100):
        shown = _show(person, tid)
        if check(shown):
            return shown
        time.sleep(0.05)
    raise AssertionError(f"the tournament never got there: {shown}")


def _pairs(shown: dict[str, Any], round_: int) -> set[tuple[str, str | None]]:
    return {(g["x"], g["o"]) for g in shown["games"] if g["round"] == round_}


def _end(by_name: dict[str, Person], shown: dict[str, Any], x: str, o: str, winner: str) -> None:
    game = next(g for g in shown["games"] if (g["x"], g["o"]) == (x, o))
    xs, os = by_name[x].socket(game["game_id"]), by_name[o].socket(game["game_id"])
    if winner == "draw":
        xs.act("draw-offer")
        os.act("draw-accept")
    else:
        (os if winner == "x" else xs).act("resign")


def test_a_swiss_to_the_end(people: Callable[[], Person]) -> None:
    p = [people().sign_up() for _ in range(5)]  # joined in this order: ranked 1..5 at equal ratings
    n = [person.name or "" for person in p]
    by_name = dict(zip(n, p, strict=True))
    created = p[0].http.post(
        ROOT, json={"kind": "swiss", "name": "Friday Swiss", "spec": "classic", "rounds": 3, "starts_in": 60}
    )
    assert created.status_code == 201, created.text
    tid = created.json()["id"]
    assert created.json()["state"] == "upcoming"
    for person in p:
        assert person.http.post(f"{ROOT}/{tid}/join").json()["joined"]
    listed = p[1].http.get(ROOT).json()
    assert [t["players"] for t in listed["upcoming"] if t["id"] == tid] == [5]
    assert p[1].http.post(f"{ROOT}/{tid}/start").json()["error"] == "not-yours"
    shown = p[0].http.post(f"{ROOT}/{tid}/start").json()
    assert (shown["state"], shown["round"]) == ("running", 1)
    # The example worked by hand in tests/competition/tournaments/test_swiss.py: round 1 is 1-3, 4-2, bye 5.
    assert _pairs(shown, 1) == {(n[0], n[2]), (n[3], n[1]), (n[4], None)}
    assert _show(p[0], tid)["my_game"] is not None and _show(p[4], tid)["my_game"] is None
    assert p[4].http.post(f"{ROOT}/{tid}/join").json()["error"] == "joined-already"
    assert people().sign_up().http.post(f"{ROOT}/{tid}/join").json()["error"] == "tournament-started"
    _end(by_name, shown, n[0], n[2], "x")
    _end(by_name, shown, n[3], n[1], "draw")
    shown = _until(p[0], tid, lambda s: s["round"] == 2)
    assert _pairs(shown, 2) == {(n[1], n[0]), (n[4], n[3]), (n[2], None)}
    _end(by_name, shown, n[1], n[0], "x")
    _end(by_name, shown, n[4], n[3], "draw")
    shown = _until(p[0], tid, lambda s: s["round"] == 3)
    assert _pairs(shown, 3) == {(n[2], n[1]), (n[0], n[4]), (n[3], None)}
    _end(by_name, shown, n[2], n[1], "x")
    _end(by_name, shown, n[0], n[4], "x")
    shown = _until(p[0], tid, lambda s: s["state"] == "finished")
    table = [(s["rank"], s["name"], s["score"], s["buchholz"], s["sonneborn_berger"]) for s in shown["standings"]]
    assert table == [
        (1, n[0], 2.0, 5.0, 3.5),
        (2, n[2], 2.0, 3.5, 1.5),
        (3, n[3], 2.0, 3.0, 1.5),
        (4, n[1], 1.5, 6.0, 3.0),
        (5, n[4], 1.5, 4.0, 1.0),
    ]
    # Nine pairings in all (three rounds of two games and a bye), the newest first; a
    # page asks for as many as it shows.
    assert shown["games_total"] == len(shown["games"]) == 9
    newest = p[1].http.get(f"{ROOT}/{tid}", params={"games": 3}).json()
    assert (newest["games_total"], newest["games"]) == (9, shown["games"][:3])
    assert {g["round"] for g in newest["games"]} == {3}
    assert p[1].http.get(f"{ROOT}/{tid}", params={"games": -1}).status_code == 422
    # The asker's own part: p[1] is in it (a finished tournament: no game going on).
    assert (newest["joined"], newest["my_game"]) == (True, None)
    # The results are kept, listed with the finished ones.
    assert tid in [t["id"] for t in p[1].http.get(ROOT, params={"state": "finished"}).json()["finished"]]
    assert p[0].http.post(f"{ROOT}/{tid}/withdraw").json()["error"] == "tournament-over"


def test_an_arena_pairs_players_as_they_join_and_finish(people: Callable[[], Person]) -> None:
    ann, bob, cat = (people().sign_up() for _ in range(3))
    created = ann.http.post(
        ROOT, json={"kind": "arena", "name": "Blitz arena", "spec": "classic", "minutes": 3, "increment": 2,
                    "duration": 30, "starts_in": 0},
    )  # fmt: skip
    assert created.status_code == 201, created.text
    tid = created.json()["id"]
    assert created.json()["state"] == "running"  # starts_in 0: at once
    ann.http.post(f"{ROOT}/{tid}/join")
    assert _show(ann, tid)["my_game"] is None  # alone: waits
    bob.http.post(f"{ROOT}/{tid}/join")
    game_id = _show(ann, tid)["my_game"]
    assert game_id is not None and _show(bob, tid)["my_game"] == game_id
    game = ann.http.get(f"/api/online/games/{game_id}").json()
    assert game["state"] == "playing" and game["clock"]["initial_ms"] == 180_000
    assert game["tournament_id"] == tid  # the game's page links back to it
    cat.http.post(f"{ROOT}/{tid}/join")  # waits: the others are playing
    assert _show(cat, tid)["my_game"] is None
    # The page's small question, asked every two seconds: the same answers.
    assert ann.http.get(f"{ROOT}/{tid}/me").json() == {"state": "running", "joined": True, "my_game": game_id}
    assert cat.http.get(f"{ROOT}/{tid}/me").json() == {"state": "running", "joined": True, "my_game": None}
    assert Person(ann.base).http.get(f"{ROOT}/{tid}/me").json()["joined"] is False
    assert ann.http.get(f"{ROOT}/nosuch/me").status_code == 404
    loser = bob if game["x"]["name"] == ann.name else ann
    loser.socket(game_id).act("resign")
    # The winner is paired with cat at once; the loser waits (no immediate rematch).
    shown = _until(cat, tid, lambda s: s["my_game"] is not None)
    top = shown["standings"][0]
    assert (top["name"], top["score"], top["games"], top["sheet"]) == (ann.name, 2, 1, "2")
    playing = {s["name"] for s in shown["standings"] if s["playing"]}
    assert playing == {ann.name, cat.name}
    # Withdrawing keeps the player's results; they can come back.
    assert bob.http.post(f"{ROOT}/{tid}/withdraw").json()["joined"] is False
    assert [s["withdrawn"] for s in _show(bob, tid)["standings"] if s["name"] == bob.name] == [True]
    assert bob.http.post(f"{ROOT}/{tid}/join").json()["joined"] is True


def test_bad_requests_change_nothing(people: Callable[[], Person]) -> None:
    ann = people().sign_up()
    good = {"kind": "arena", "name": unique("refused"), "spec": "classic", "duration": 10}
    for bad, status, error in [
        ({"spec": "nonsense"}, 400, "invalid-spec"),
        ({"minutes": 10**6}, 422, None),
        ({"minutes": 1e-320}, 422, None),
        ({"duration": None}, 422, None),
        ({"kind": "swiss"}, 422, None),
        ({"kind": "swiss", "rounds": 3}, 422, None),
        ({"duration": 2.5}, 422, None),
        ({"duration": 0}, 422, None),
        ({"name": ""}, 422, None),
        ({"kind": "knockout"}, 422, None),
        ({"rounds": "3"}, 422, None),
    ]:
        answer = ann.http.post(ROOT, json={**good, **bad})
        assert answer.status_code == status, (bad, answer.text)
        assert error is None or answer.json()["error"] == error
    assert all(t["name"] != good["name"] for listed in ann.http.get(ROOT).json().values() for t in listed)
    guest = people().guest()
    assert guest.http.post(ROOT, json=good).json()["error"] == "guest-tournament"
    assert people().http.post(ROOT, json=good).status_code == 401
    assert ann.http.get(f"{ROOT}/nope").status_code == 404
    assert ann.http.post(f"{ROOT}/nope/join").json()["error"] == "no-such-tournament"
    rated = ann.http.post(ROOT, json={**good, "rated": True}).json()["id"]
    assert guest.http.post(f"{ROOT}/{rated}/join").json()["error"] == "guest-rated"
    assert ann.http.post(f"{ROOT}/{rated}/withdraw").json()["error"] == "not-joined"
    assert ann.http.get(ROOT, params={"state": "sideways"}).status_code == 422


def test_the_tournament_socket_tells_its_news_and_who_was_paired(people: Callable[[], Person]) -> None:
    ann, bob = people().sign_up(), people().sign_up()
    tid = ann.http.post(
        ROOT, json={"kind": "arena", "name": "News", "spec": "classic", "duration": 30, "starts_in": 0}
    ).json()["id"]
    url = ann.base.replace("http", "ws", 1) + f"{ROOT}/{tid}/ws"
    with connect(url, open_timeout=10) as watcher:

        def news() -> dict[str, Any]:
            message: dict[str, Any] = json.loads(watcher.recv(timeout=10))
            assert message["type"] == "tournament" and message["id"] == tid
            return message

        ann.http.post(f"{ROOT}/{tid}/join")
        assert news()["paired"] == {}  # a join: the standings changed, nobody paired
        bob.http.post(f"{ROOT}/{tid}/join")
        paired = news()["paired"]
        game_id = _show(ann, tid)["my_game"]
        assert paired == {ann.name: game_id, bob.name: game_id}
        ann.socket(game_id).act("resign")
        # The game is over: new standings, and the two (nobody else waits) paired again.
        again = news()["paired"]
        assert again[ann.name] == again[bob.name] != game_id
        # The page, told, asks again after the server's one-second copy has gone stale.
        _until(ann, tid, lambda shown: shown["standings"][0]["name"] == bob.name)
        # It only listens: a ping is answered, anything else refused, nothing changed.
        watcher.send(json.dumps({"type": "ping", "id": 1}))
        assert json.loads(watcher.recv(timeout=10)) == {"type": "pong", "id": 1}
        watcher.send(json.dumps({"type": "join"}))
        assert json.loads(watcher.recv(timeout=10))["error"] == "unknown-type"
        watcher.send("{not json")
        assert json.loads(watcher.recv(timeout=10))["type"] == "error"
    assert _show(ann, tid)["players"] == 2
    with connect(ann.base.replace("http", "ws", 1) + f"{ROOT}/nosuch/ws", open_timeout=10) as stranger:
        assert json.loads(stranger.recv(timeout=10))["error"] == "no-such-tournament"
        with pytest.raises(ConnectionClosed) as closed:
            stranger.recv(timeout=10)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 4404
