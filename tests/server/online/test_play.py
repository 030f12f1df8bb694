"""Live play over the game socket, every message, against SQLite and PostgreSQL."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import replace
from typing import Any

import pytest

from noughts.server import Settings
from server.online.people import FAST, GameSocket, Person
from server.online.servers import in_thread, in_thread_loop
from server.online.shared import database_url, server

Pair = tuple[Person, Person, str, GameSocket, GameSocket]

# One server for the module (server/online/shared.py): each test plays with people of its own.
__all__ = ["database_url", "server"]  # fixtures


def start(people: Callable[[], Person], spec: str = "classic", **room: Any) -> Pair:
    """ann creates a room (as X unless told), bob joins; both are on the game's socket."""
    ann, bob = people().sign_up(), people().sign_up()
    game_id = ann.room(spec, **room)
    a = ann.socket(game_id)
    assert a.state["state"] == "open"
    bob.join(game_id)
    a.event("start")
    b = bob.socket(game_id)
    assert b.state["state"] == "playing"
    return ann, bob, game_id, a, b


def alternate(x: GameSocket, o: GameSocket, *moves: str) -> None:
    """Plays `moves` in turn; the other side reads each move's event."""
    for move in moves:
        mover, other = (x, o) if x.state["ply"] % 2 == 0 else (o, x)
        answer = mover.move(move)
        assert answer["type"] == "ack", answer
        other.event("move")


@pytest.mark.both_databases
def test_a_game_to_the_end_with_acks_events_and_ply_numbers(people: Callable[[], Person]) -> None:
    ann, bob, game_id, a, b = start(people, rated=True)
    assert (a.state["x"]["name"], a.state["o"]["name"]) == (ann.name, bob.name)
    version = a.state["version"]
    for ply, (sock, move) in enumerate(zip([a, b] * 5, ["5", "1", "9", "3", "2"], strict=False)):
        ack = sock.move(move)
        assert ack["type"] == "ack" and ack["ply"] == ply + 1 and ack["version"] == version + 1
        version += 1
        event = (b if sock is a else a).event("move")
        assert (event["move"], event["ply"], event["version"]) == (move, ply + 1, version)
    assert b.state["state"] == "playing"
    b.move("7")
    a.event("move")
    a.move("8")  # 2-5-8: x wins
    final = b.event("move")["game"]
    assert (final["state"], final["result"], final["termination"]) == ("over", "x-wins", "normal")
    assert final["x"]["rating_after"] > final["x"]["rating_before"] == 1500
    assert final["view"]["winning_line"] == [1, 4, 7]
    # The game is stored as it was acknowledged.
    stored = ann.http.get(f"/api/online/games/{game_id}").json()
    assert stored["moves"] == ["5", "1", "9", "3", "2", "7", "8"]
    record = ann.http.get(f"/api/online/games/{game_id}/record").text
    assert f'[X "{ann.name}"]' in record and "x-wins" in record.splitlines()[-1]


def test_resign(people: Callable[[], Person]) -> None:
    _, _, _, a, b = start(people)
    assert b.act("resign")["kind"] == "resign"
    game = a.event("resign")["game"]
    assert (game["result"], game["termination"]) == ("x-wins", "resignation")
    assert a.act("resign")["error"] == "game-over"


def test_draw_offer_decline_and_accept(people: Callable[[], Person]) -> None:
    _, _, _, a, b = start(people)
    assert a.act("draw-offer")["type"] == "ack"
    assert b.event("draw-offer")["game"]["offers"]["draw"] == "x"
    assert a.act("draw-offer")["error"] == "already-offered"
    assert a.act("draw-accept")["error"] == "no-offer"
    b.act("draw-decline")
    assert a.event("draw-decline")["game"]["offers"]["draw"] is None
    b.act("draw-offer")
    a.act("draw-accept")
    game = b.event("draw-accept")["game"]
    assert (game["state"], game["result"], game["termination"]) == ("over", "draw", "agreement")


def test_a_move_declines_a_standing_draw_offer(people: Callable[[], Person]) -> None:
    _, _, _, a, b = start(people)
    b.act("draw-offer")
    a.move("5")
    assert b.event("move")["patch"]["offers"]["draw"] is None
    assert b.state["offers"]["draw"] is None


def test_takeback_of_the_last_move_and_of_two(people: Callable[[], Person]) -> None:
    _, _, _game_id, a, b = start(people)
    assert a.act("takeback-request")["error"] == "nothing-to-take-back"
    a.move("5")
    a.act("takeback-request")
    b.act("takeback-decline")
    assert b.state["offers"]["takeback"] is None and b.state["moves"] == ["5"]
    a.act("takeback-request")
    b.act("takeback-accept")
    game = a.event("takeback-accept")["game"]
    assert (game["moves"], game["ply"]) == ([], 0)
    a.move("1")
    b.move("5")
    # X asks after O replied: both moves go, and it is X's move again.
    a.act("takeback-request")
    b.act("takeback-accept")
    game = a.event("takeback-accept")["game"]
    assert (game["moves"], game["view"]["turn"]) == ([], "x")
    # The ply taken back can be played again (the (game, ply) key was freed).
    assert a.move("9")["type"] == "ack"


def test_abort_before_the_second_move_only(people: Callable[[], Person]) -> None:
    _, _, _, a, b = start(people)
    a.move("5")
    assert b.act("abort")["kind"] == "abort"
    assert a.event("abort")["game"]["state"] == "aborted"

    _, _, _, a, b = start(people)
    alternate(a, b, "5", "1")
    assert a.act("abort")["error"] == "too-late"


def test_rematch_swaps_colours(people: Callable[[], Person]) -> None:
    ann, bob, _game_id, a, b = start(people)
    assert a.act("rematch-offer")["error"] == "not-over"
    a.act("resign")
    b.act("rematch-offer")
    a.event("rematch-offer")
    a.act("rematch-decline")
    assert b.event("rematch-decline")["game"]["offers"]["rematch"] is None
    a.act("rematch-offer")
    accepted = b.act("rematch-accept")
    assert accepted["type"] == "ack"
    new_id = a.event("rematch-accept")["game"]["rematch_id"]
    new = ann.http.get(f"/api/online/games/{new_id}").json()
    assert (new["state"], new["x"]["name"], new["o"]["name"]) == ("playing", bob.name, ann.name)
    assert b.act("rematch-offer")["error"] == "rematch-exists"
    # As public as the game it follows (a private game's stays private: test_rooms.py).
    assert new["private"] is False
    assert new_id in {g["id"] for g in people().http.get(f"/api/online/users/{ann.name}").json()["games"]}


def test_clock_flag_loses(people: Callable[[], Person]) -> None:
    _, _, _, a, b = start(people, minutes=0.01, increment=0)  # 600 ms each
    alternate(a, b, "5", "1")
    assert a.state["clock"]["running"] == "x"
    # Nobody moves: the server ends the game when X's time is up.
    game = b.event("flag", timeout=5)["game"]
    assert (game["result"], game["termination"]) == ("o-wins", "time")
    assert game["clock"]["x_ms"] == 0


def test_increment_is_added_after_a_timed_move(people: Callable[[], Person]) -> None:
    _, _, _, a, b = start(people, minutes=1, increment=5)
    alternate(a, b, "5", "1", "9")
    clock = b.state["clock"]
    # X thought a moment on the running clock and got 5 s; O's clock runs now.
    assert 60_000 < clock["x_ms"] <= 65_000 and clock["running"] == "o" and 55_000 < clock["o_ms"] <= 60_000


def test_flag_message_and_no_flag(people: Callable[[], Person]) -> None:
    _, _, _, _a, b = start(people, minutes=1)
    assert b.act("flag")["error"] == "no-flag"


def test_claim_after_the_grace_period(people: Callable[[], Person]) -> None:
    _, _, _, a, b = start(people)
    alternate(a, b, "5", "1")
    assert a.act("claim")["error"] == "opponent-here"
    b.ws.close()
    away = a.expect("presence")
    assert away["away"]["o"] is not None
    assert a.act("claim")["error"] == "too-early"
    time.sleep(FAST.disconnect_grace)
    assert a.act("claim")["type"] == "ack"
    assert a.state["result"] == "x-wins" and a.state["termination"] == "abandoned"


def test_reconnecting_clears_away_and_resyncs(people: Callable[[], Person]) -> None:
    _, bob, game_id, a, b = start(people)
    a.move("5")
    b.ws.close()
    assert a.expect("presence")["away"]["o"] is not None
    b = bob.socket(game_id)
    assert b.state["moves"] == ["5"] and b.state["ply"] == 1
    assert a.expect("presence")["away"]["o"] is None
    b.send({"type": "resync"})
    assert b.expect("state")["game"]["version"] == b.state["version"]
    b.send({"type": "ping", "id": 3})
    assert b.expect("pong")["id"] == 3


def test_spectators_watch_but_cannot_play(people: Callable[[], Person]) -> None:
    _, _, game_id, a, b = start(people)
    watcher = people()
    visitor = watcher.socket(game_id)  # not even logged in
    assert visitor.hello["you"] is None
    a.move("5")
    assert visitor.event("move")["move"] == "5"
    assert visitor.move("1")["error"] == "not-a-player"
    guest = people().guest().socket(game_id)
    assert guest.act("resign")["error"] == "not-a-player"
    assert b.event("move")["ply"] == 1
    b.send({"type": "resync"})
    assert (b.expect("state")["game"]["ply"], b.state["state"]) == (1, "playing")


def test_lobby_socket_sees_rooms_come_and_go(people: Callable[[], Person], server: str) -> None:
    import json

    from websockets.sync.client import connect

    with connect(server.replace("http", "ws", 1) + "/api/online/lobby/ws") as lobby:
        first = json.loads(lobby.recv(timeout=5))
        assert first["type"] == "lobby"
        ann = people().sign_up()
        game_id = ann.room("ultimate", minutes=5, increment=2)
        rooms = json.loads(lobby.recv(timeout=5))["rooms"]
        assert any(r["id"] == game_id and r["clock"] == {"minutes": 5, "increment": 2, "days": None} for r in rooms)
        people().sign_up().join(game_id)
        rooms = json.loads(lobby.recv(timeout=5))["rooms"]
        assert all(r["id"] != game_id for r in rooms)


@pytest.mark.parametrize("spec", ["ultimate", "gobblet", "qubic", "mnk:m=4:n=4:k=4", "classic:forget=true", "connect4"])
def test_every_family_plays_online(people: Callable[[], Person], spec: str) -> None:
    _, _, _, a, b = start(people, spec)
    for sock in (a, b, a):
        legal = sock.state["view"]["legal"]
        assert sock.move(legal[0]["text"])["type"] == "ack"
        (b if sock is a else a).event("move")
    assert a.state["ply"] == 3


def _timeless(game: dict[str, Any]) -> dict[str, Any]:
    """`game` without what the clock reads at the moment it is sent."""
    clock = {k: v for k, v in game["clock"].items() if k not in ("x_ms", "o_ms", "at")}
    return {**game, "clock": clock}


@pytest.mark.parametrize("spec", ["ultimate", "gobblet", "classic:forget=true", "connect4"])
def test_a_moves_patch_gives_the_state_the_server_sends_whole(people: Callable[[], Person], spec: str) -> None:
    _, _, _, a, b = start(people, spec, minutes=5, increment=2)
    b.act("draw-offer")
    a.expect("event", kind="draw-offer")
    for _ in range(6):
        mover, other = (a, b) if a.state["ply"] % 2 == 0 else (b, a)
        assert mover.move(mover.state["view"]["legal"][-1]["text"])["type"] == "ack"
        event = other.event("move")
        assert "game" not in event and event["patch"]["offers"]["draw"] is None
        for sock in (mover, other):
            patched = sock.state
            sock.send({"type": "resync"})
            assert _timeless(patched) == _timeless(sock.expect("state")["game"])


def test_a_game_left_by_both_players_is_ended_by_the_server(database_url: str) -> None:
    """A game without a clock whose players both closed their browsers stayed "being
    played" forever: after `abandon_after` the server ends it, as a claim would."""
    settings = Settings(database=database_url, ai_workers=1, online=replace(FAST, abandon_after=0.5))
    with in_thread(settings) as base:
        ann, bob = Person(base).sign_up(), Person(base).sign_up()
        try:
            game_id = ann.room()
            a = ann.socket(game_id)
            bob.join(game_id)
            a.event("start")
            b = bob.socket(game_id)
            alternate(a, b, "5", "1")
            a.ws.close()  # X leaves first
            b.expect("presence")
            b.ws.close()
            for _ in range(200):
                game = ann.http.get(f"/api/online/games/{game_id}").json()
                if game["state"] != "playing":
                    break
                time.sleep(0.05)
            assert (game["state"], game["result"], game["termination"]) == ("over", "o-wins", "abandoned")
            assert all(g["id"] != game_id for g in ann.http.get("/api/online/rooms").json()["live"])
        finally:
            ann.close()
            bob.close()


def test_a_move_made_while_the_server_stood_still_is_not_charged_for_it(sqlite_url: str) -> None:
    """The server's event loop held up 2 s (a long collection, a blocking call, a starved
    machine) while X's move waits in its socket: X is charged their thinking only. The
    lag quota of a 1-minute game (1.2 s) could not pay for it: the pause is given back."""
    with in_thread_loop(Settings(database=sqlite_url, ai_workers=1, online=FAST)) as (base, loop):
        ann, bob = Person(base).sign_up(), Person(base).sign_up()
        try:
            game_id = ann.room(minutes=1, increment=0)
            a = ann.socket(game_id)
            bob.join(game_id)
            a.event("start")
            b = bob.socket(game_id)
            alternate(a, b, "5", "1")
            time.sleep(0.2)  # X thinks
            loop.call_soon_threadsafe(time.sleep, 2)  # ... and the server stands still
            time.sleep(0.1)
            answer = a.move("9")
            assert answer["type"] == "ack", answer
            clock = a.state["clock"]
            # X's 0.2 s and the round trips (less when the loaded machine starved the
            # server meanwhile: also given back); without the pause given back, 2.2 s.
            assert 59_000 < clock["x_ms"] <= 60_000, clock
        finally:
            ann.close()
            bob.close()
