"""Rooms, the lobby, invite links, profiles, records and leaderboards over HTTP."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from noughts.records import GameRecord
from server.online.people import Person
from server.online.shared import database_url, server
from server.online.test_play import alternate, start

# One server for the module (server/online/shared.py): each test plays with people of its own.
__all__ = ["database_url", "server"]  # fixtures


@pytest.mark.parametrize(
    ("room", "status", "error"),
    [
        ({"spec": "chess"}, 400, "invalid-spec"),
        ({"spec": "mnk:k=9"}, 400, "invalid-spec"),
        ({"spec": "classic", "side": "red"}, 422, "invalid-request"),
        ({"spec": "classic", "minutes": 0}, 422, "invalid-request"),
        ({"spec": "classic", "minutes": 1e-320}, 422, "invalid-request"),
        ({"spec": "classic", "minutes": 5, "increment": -1}, 422, "invalid-request"),
        ({"spec": "classic", "days": 2, "minutes": 5}, 422, "invalid-request"),
        ({"spec": "classic", "colour": "x"}, 422, "invalid-request"),
    ],
)
def test_room_mistakes(people: Callable[[], Person], room: dict[str, object], status: int, error: str) -> None:
    answer = people().sign_up().http.post("/api/online/rooms", json=room)
    assert (answer.status_code, answer.json()["error"]) == (status, error)


def test_create_list_join_and_close(people: Callable[[], Person]) -> None:
    ann, bob = people().sign_up(), people().sign_up()
    answer = ann.http.post("/api/online/rooms", json={"spec": "ultimate:forget", "side": "o", "minutes": 3})
    assert answer.status_code == 201
    game_id = answer.json()["game"]["id"]
    assert answer.json()["invite"] == f"/#/game/{game_id}"
    listed = next(r for r in bob.http.get("/api/online/rooms").json()["rooms"] if r["id"] == game_id)
    assert (listed["creator"], listed["creator_side"], listed["spec"]) == (ann.name, "o", "ultimate:forget=true")
    game = bob.join(game_id)
    assert (game["x"]["name"], game["o"]["name"], game["state"]) == (bob.name, ann.name, "playing")
    again = people().sign_up().http.post(f"/api/online/games/{game_id}/join")
    assert (again.status_code, again.json()["error"]) == (409, "room-closed")
    assert all(r["id"] != game_id for r in bob.http.get("/api/online/rooms").json()["rooms"])
    assert any(r["id"] == game_id for r in bob.http.get("/api/online/rooms").json()["live"])

    other = ann.room()
    assert bob.http.delete(f"/api/online/games/{other}").json()["error"] == "not-yours"
    assert ann.http.delete(f"/api/online/games/{other}").status_code == 204
    assert ann.http.get(f"/api/online/games/{other}").json()["state"] == "cancelled"


def test_private_rooms_are_joined_by_link_only(people: Callable[[], Person]) -> None:
    ann = people().sign_up()
    game_id = ann.room(private=True)
    assert all(r["id"] != game_id for r in ann.http.get("/api/online/rooms").json()["rooms"])
    assert people().sign_up().join(game_id)["state"] == "playing"


def test_private_games_are_listed_to_their_players_only(people: Callable[[], Person]) -> None:
    """A private room, open, in play or over, is in no list a stranger sees (a profile,
    the lobby, the games in play): only its players find it there, others only through
    its invite link. The public games beside it are listed, to everyone."""
    ann, bob, carol = people().sign_up(), people().sign_up(), people().sign_up()
    visitor, dave = people(), people().sign_up()
    public = ann.room()
    private = [ann.room(private=True), ann.room("ultimate", private=True, minutes=5, side="o")]

    def listed(viewer: Person, name: str | None) -> set[str]:
        return {g["id"] for g in viewer.http.get(f"/api/online/users/{name}").json()["games"]}

    def everywhere(viewer: Person) -> set[str]:
        rooms = viewer.http.get("/api/online/rooms").json()
        return {g["id"] for part in ("rooms", "live") for g in rooms[part]}

    for stranger in (visitor, dave):
        assert listed(stranger, ann.name) == {public} and everywhere(stranger) >= {public}
        assert not everywhere(stranger) & set(private)
    assert listed(ann, ann.name) == {public, *private}
    # Joined through its link, each plays; carol takes the public one.
    for game_id in private:
        assert bob.join(game_id)["state"] == "playing"
    carol.join(public)
    for stranger in (visitor, dave, carol):
        assert listed(stranger, ann.name) == {public} and not listed(stranger, bob.name)
        assert public in everywhere(stranger) and not everywhere(stranger) & set(private)
    assert listed(bob, ann.name) == {public, *private} and listed(ann, bob.name) == set(private)
    # Over, it stays theirs, and so does its rematch.
    a, b = ann.socket(private[0]), bob.socket(private[0])
    assert a.act("resign")["type"] == "ack"
    assert a.act("rematch-offer")["type"] == "ack" and b.act("rematch-accept")["type"] == "ack"
    rematch = b.state["rematch_id"]
    assert ann.http.get(f"/api/online/games/{rematch}").json()["private"] is True
    assert listed(visitor, ann.name) == {public} and listed(bob, bob.name) == {*private, rematch}
    assert not everywhere(visitor) & {*private, rematch}


def test_unknown_game(people: Callable[[], Person]) -> None:
    answer = people().http.get("/api/online/games/nothing")
    assert (answer.status_code, answer.json()["error"]) == (404, "no-such-game")


def test_profile_record_and_leaderboard(people: Callable[[], Person]) -> None:
    ann, bob, game_id, a, b = start(people, "classic", rated=True)
    alternate(a, b, "1", "4", "2", "5", "3")
    profile = bob.http.get(f"/api/online/users/{ann.name}").json()
    assert profile["name"] == ann.name
    rating = next(r for r in profile["ratings"] if r["spec"] == "classic")
    assert rating["rating"] > 1500 and rating["games"] == 1 and rating["provisional"] is True
    assert profile["games"][0]["id"] == game_id and profile["games"][0]["result"] == "x-wins"

    text = bob.http.get(f"/api/online/games/{game_id}/record").text
    record = GameRecord.parse(text)
    assert (record.moves, record.x, record.o, record.result) == (
        ["1", "4", "2", "5", "3"],
        ann.name,
        bob.name,
        "x-wins",
    )
    assert len(record.replay()) == 6
    as_json = bob.http.get(f"/api/online/games/{game_id}/record?format=json")
    assert as_json.json()["moves"] == ["1", "4", "2", "5", "3"]
    assert "attachment" in as_json.headers["content-disposition"]

    board = bob.http.get("/api/online/leaderboard?game=classic&provisional=true").json()
    names = [p["name"] for p in board["players"]]
    assert names.index(ann.name) < names.index(bob.name)
    assert any(g["spec"] == "classic" for g in board["games"])
    assert bob.http.get("/api/online/leaderboard?game=chess").json()["error"] == "invalid-spec"
    assert bob.http.get("/api/online/users/nobody-at-all").status_code == 404


def test_casual_games_leave_ratings_alone(people: Callable[[], Person]) -> None:
    ann, _, _, a, b = start(people, "classic")
    alternate(a, b, "1", "4", "2", "5", "3")
    assert a.state["x"]["rating_after"] is None
    assert people().http.get(f"/api/online/users/{ann.name}").json()["ratings"] == []


def test_the_old_online_address_leads_to_the_site(people: Callable[[], Person]) -> None:
    """/online was online play's page: its links (/online#/game/ID) reach the same page
    on the site (the browser keeps the #part; the page maps the old lobby, #/, to #/lobby)."""
    http = people().http
    moved = http.get("/online", follow_redirects=False)
    assert moved.status_code == 301 and moved.headers["location"] == "/?from=online"
    page = http.get(moved.headers["location"])
    assert page.status_code == 200 and "<title>" in page.text


def test_a_waiting_room_shows_its_clock(people: Callable[[], Person]) -> None:
    """Both clocks full and neither running until the game starts (the waiting room
    showed no clock at all)."""
    ann = people().sign_up()
    game_id = ann.room(minutes=3, increment=2)
    clock = ann.http.get(f"/api/online/games/{game_id}").json()["clock"]
    assert {k: clock[k] for k in ("initial_ms", "increment_ms", "x_ms", "o_ms", "running")} == {
        "initial_ms": 180_000,
        "increment_ms": 2000,
        "x_ms": 180_000,
        "o_ms": 180_000,
        "running": None,
    }
    assert ann.http.get(f"/api/online/games/{ann.room()}").json()["clock"] is None


@pytest.mark.parametrize(
    ("room", "field"),
    [
        ({"spec": "classic", "minutes": 5, "increment": False}, "increment"),
        ({"spec": "classic", "rated": 1}, "rated"),
        ({"spec": "classic", "private": "yes"}, "private"),
        ({"spec": "classic", "minutes": "5"}, "minutes"),
        ({"spec": "classic", "minutes": True}, "minutes"),
    ],
)
def test_a_room_request_is_strict(people: Callable[[], Person], room: dict[str, object], field: str) -> None:
    """`"increment": false` was taken as 0: a mistake is refused, not guessed at."""
    ann = people().sign_up()
    answer = ann.http.post("/api/online/rooms", json=room)
    assert (answer.status_code, answer.json()["error"]) == (422, "invalid-request")
    assert answer.json()["field"].startswith(field)
    assert all(r["creator"] != ann.name for r in ann.http.get("/api/online/rooms").json()["rooms"])
    assert ann.room(minutes=5, increment=3)  # whole numbers are numbers


def test_the_openapi_schema_states_the_limits(people: Callable[[], Person]) -> None:
    schema = people().http.get("/openapi.json").json()
    assert "400" in schema["paths"]["/api/online/leaderboard"]["get"]["responses"]
    for path, method in [("/api/online/games/{game_id}/join", "post"), ("/api/online/games/{game_id}", "delete")]:
        assert {"403", "413", "415"} <= set(schema["paths"][path][method]["responses"])  # the guards' answers
    credentials = schema["components"]["schemas"]["Credentials"]["properties"]
    assert (credentials["password"]["minLength"], credentials["password"]["maxLength"]) == (8, 200)
    assert (credentials["name"]["minLength"], credentials["name"]["maxLength"]) == (3, 20)
    assert credentials["name"]["pattern"] == "^[A-Za-z0-9][A-Za-z0-9_-]*$"
    room = schema["components"]["schemas"]["RoomRequest"]["properties"]
    assert "game spec" in room["spec"]["description"] and "1 to 14" in room["days"]["description"]
    assert schema["components"]["schemas"]["RoomRequest"]["not"]["required"] == ["minutes", "days"]
    moves = schema["components"]["schemas"]["GameRequest"]["properties"]["moves"]["items"]
    assert "notation" in moves["description"]
