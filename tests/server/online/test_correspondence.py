"""Correspondence games: days for each move, the clock filled again after every move;
nobody is claimed against or abandoned for being away between moves; a move not made in
time loses, found by the server's sweep with nobody connected; and the home page's list
of the games where it is your move."""

from __future__ import annotations

import time
from dataclasses import replace

from noughts.competition.clock import now_ms
from noughts.server import Settings
from noughts.server.online import actions
from noughts.server.online.accounts import name_key
from noughts.server.online.service.rooms import room_row
from noughts.server.online.storage.store import Store
from server.online.people import FAST, Person
from server.online.servers import in_thread
from server.online.test_play import alternate

DAY_MS = 86_400_000


def test_a_correspondence_game_refills_the_clock_and_waits_for_its_players(sqlite_url: str) -> None:
    settings = Settings(database=sqlite_url, ai_workers=1, online=replace(FAST, abandon_after=0.5))
    with in_thread(settings) as base:
        ann, bob = Person(base).sign_up(), Person(base).sign_up()
        game_id = ann.room("classic", days=3)
        a = ann.socket(game_id)
        bob.join(game_id)
        a.event("start")
        b = bob.socket(game_id)
        assert a.state["clock"]["days_per_move"] == 3
        alternate(a, b, "5", "1", "9")
        assert a.state["clock"]["x_ms"] == 3 * DAY_MS  # x's clock is full again after its move
        assert 3 * DAY_MS - 5_000 < a.state["clock"]["o_ms"] <= 3 * DAY_MS
        assert [g["id"] for g in bob.http.get("/api/online/me/turns").json()["games"]] == [game_id]
        assert ann.http.get("/api/online/me/turns").json()["games"] == []
        assert Person(base).http.get("/api/online/me/turns").json()["games"] == []
        waiting = bob.http.get("/api/online/me/turns").json()["games"][0]
        assert waiting["clock"]["days"] == 3 and waiting["deadline"] > now_ms() + 2 * DAY_MS
        b.ws.close()
        time.sleep(1.5)  # past the grace and abandon_after of the test server
        claimed = a.act("claim")
        assert claimed["type"] == "error" and claimed["error"] == "correspondence"
        a.ws.close()
        time.sleep(1.5)
        assert ann.http.get(f"/api/online/games/{game_id}").json()["state"] == "playing"
        for bad in ({"days": 0}, {"days": 15}):
            assert ann.http.post("/api/online/rooms", json={"spec": "classic", **bad}).status_code == 422
        both = ann.http.post("/api/online/rooms", json={"spec": "classic", "days": 2, "minutes": 5})
        assert both.status_code == 422 and "not both" in both.json()["message"]  # the schema says so
        ann.close()
        bob.close()


def test_a_move_not_made_in_its_days_loses_with_nobody_connected(sqlite_url: str) -> None:
    url = sqlite_url
    with in_thread(Settings(database=url, ai_workers=1, online=replace(FAST, abandon_after=0.5))) as base:
        ann, bob = Person(base).sign_up(), Person(base).sign_up()
        store = Store(url)
        x, o = (store.user_by_key(name_key(p.name or "")) for p in (ann, bob))
        assert x is not None and o is not None
        long_ago = now_ms() - 2 * DAY_MS
        room = room_row("classic", True, x.id, "x", False, None, 0, long_ago, days=1)
        started = actions.join(room, o.id, False, long_ago).row
        row = replace(started, moves="5 1", ply=2, turn_started_at=long_ago)  # x's move, a day overdue
        store.add_game(row)
        store.close()
        for _ in range(50):
            game = ann.http.get(f"/api/online/games/{row.id}").json()
            if game["state"] != "playing":
                break
            time.sleep(0.1)
        assert (game["state"], game["result"], game["termination"]) == ("over", "o-wins", "time")
        ann.close()
        bob.close()
