"""Bad input a hostile visitor sends, on SQLite and PostgreSQL: texts with the NUL
character (PostgreSQL cannot store one: it was a 500), absurd numbers, and what the
schema says against what the server reads (strict types, rules in the schema, `Allow`).
Each is refused with a clear 4xx and changes nothing."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from websockets.exceptions import InvalidStatus
from websockets.sync.client import connect

from noughts.server import Settings, create_app
from noughts.server.online.actions import ActionError
from noughts.server.online.service.rooms import checked
from noughts.server.online.storage.store import UserRow
from server.online.people import Person, unique
from server.online.shared import database_url, server

NUL_PATHS = [
    "/api/online/users/a%00b",
    "/api/online/games/a%00b",
    "/api/online/games/a%00b/record",
    "/api/online/games/a%00b/analysis",
    "/api/online/tournaments/a%00b",
    "/api/online/tournaments/a%00b/me",
    "/api/puzzles/next?theme=%00",
    "/api/puzzles/next?spec=classic%00",
    "/api/puzzles/next?exclude=ab%00c",
    "/api/puzzles/streak?theme=fork%00",
    "/api/online/leaderboard?game=classic%00",
    "/api/online/users/ann?limit=5&x=%00",
]


ARENA = {"kind": "arena", "name": "t", "spec": "classic", "duration": 5}


# One server for the module (where the suite's is one a test): every test here is refused
# something and checks that nothing changed, each with people of its own.
__all__ = ["database_url", "server"]  # fixtures


def _refused(answer: Any, where: str) -> None:
    assert answer.status_code == 422, answer.text
    body = answer.json()
    assert (body["error"], body["field"]) == ("invalid-request", where)
    assert "NUL" in body["message"]


@pytest.mark.both_databases
def test_a_nul_anywhere_is_refused_and_changes_nothing(people: Callable[[], Person]) -> None:
    ann = people().sign_up()
    room = ann.room()
    for path in NUL_PATHS:
        _refused(ann.http.get(path), "path" if "?" not in path else "query")
    name = unique("nul")
    posts: list[tuple[str, dict[str, Any]]] = [
        ("/api/online/signup", {"name": name + "\0", "password": "correct horse"}),
        ("/api/online/signup", {"name": name, "password": "correct\0horse"}),
        ("/api/online/login", {"name": ann.name + "\0", "password": "correct horse"}),
        ("/api/online/rooms", {"spec": "classic\0"}),
        ("/api/online/tournaments", {"kind": "arena", "name": name + "\0", "spec": "classic", "duration": 5}),
        ("/api/online/tournaments", {"kind": "arena", "name": name, "spec": "classic\0", "duration": 5}),
        ("/api/online/pairing", {"spec": "classic", "\0": 1}),
        ("/api/online/me/bots", {"name": name + "\0"}),
        ("/api/new", {"spec": "classic", "moves": ["5\0"]}),
        ("/api/record", {"text": "[Game classic]\n\n1. 5\0"}),
    ]
    for path, body in posts:
        _refused(ann.http.post(path, json=body), "body")
    _refused(ann.http.post("/api/online/bots/a%00b/challenge", json={"spec": "classic"}), "path")
    _refused(ann.http.post(f"/api/online/games/{room}/join%00"), "path")
    url = ann.base.replace("http", "ws", 1) + "/api/online/games/a%00b/ws"
    with pytest.raises(InvalidStatus):
        connect(url, open_timeout=10).close()
    # Nothing was made: no account, tournament, bot or room; the room is as it was.
    assert ann.http.get(f"/api/online/users/{name}").status_code == 404
    lists = ann.http.get("/api/online/tournaments").json()
    assert all(t["creator"] != ann.name for listed in lists.values() for t in listed)
    assert ann.http.get("/api/online/me/bots").json()["bots"] == []
    assert ann.http.get("/api/online/pairing").status_code == 404
    assert [r["id"] for r in ann.http.get("/api/online/rooms").json()["rooms"] if r["creator"] == ann.name] == [room]
    # A backslash and a "u0000" are only text: six characters, kept as they are.
    literal = ann.http.post(
        "/api/online/tournaments", json={"kind": "arena", "name": "a\\u0000b", "spec": "classic", "duration": 5}
    )
    assert literal.status_code == 201 and literal.json()["name"] == "a\\u0000b"


@pytest.mark.parametrize(
    ("path", "body"),
    [
        ("/api/online/rooms", {"spec": "classic", "minutes": 1e-320}),
        ("/api/online/rooms", {"spec": "classic", "minutes": 5, "increment": 1e300}),
        ("/api/online/rooms", {"spec": "classic", "days": 1e300}),
        ("/api/online/pairing", {"spec": "classic", "minutes": 1e-320}),
        ("/api/online/pairing", {"spec": "classic", "bot_after": -1}),
        ("/api/online/bots/nobody/challenge", {"spec": "classic", "minutes": 5e-324}),
        ("/api/online/tournaments", {**ARENA, "minutes": 1e-320}),
        ("/api/online/tournaments", {**ARENA, "starts_in": 1e300}),
        ("/api/puzzles/streak", {"score": 10**30}),
    ],
)  # fmt: skip
def test_absurd_numbers_are_refused_by_the_schema(
    people: Callable[[], Person], path: str, body: dict[str, Any]
) -> None:
    """`minutes: 1e-320` made a timed game with 0 ms clocks."""
    ann = people().sign_up()
    answer = ann.http.post(path, json=body)
    assert (answer.status_code, answer.json()["error"]) == (422, "invalid-request"), answer.text
    assert ann.http.get("/api/online/me/turns").json()["games"] == []
    assert [r for r in ann.http.get("/api/online/rooms").json()["rooms"] if r["creator"] == ann.name] == []


@pytest.mark.parametrize(
    ("body", "says"),
    [
        (b'{"spec": "classic", "minutes": ' + b"5" * 5000 + b"}", "holds a number of more than 4,300 digits"),
        (b'{"spec": "classic\xff"}', "is not UTF-8 text"),
    ],
)
def test_a_body_json_cannot_read_is_refused_saying_why(people: Callable[[], Person], body: bytes, says: str) -> None:
    """Both were "There was an error parsing the body", a 400 the schema did not name."""
    ann = people().sign_up()
    answer = ann.http.post("/api/online/rooms", content=body, headers={"content-type": "application/json"})
    assert (answer.status_code, answer.json()) == (
        422, {"error": "invalid-request", "message": f"the request body {says}", "field": None}
    )  # fmt: skip
    assert [r for r in ann.http.get("/api/online/rooms").json()["rooms"] if r["creator"] == ann.name] == []


@pytest.mark.parametrize("minutes", [1e-320, 0.0, 0.009, 180.5, float("inf")])
def test_the_service_refuses_a_clock_below_its_least(minutes: float) -> None:
    """Not only the schema: the service that every route (and a bot, a tournament) calls."""
    user = UserRow(id=1, name="ann", guest=False)
    with pytest.raises(ActionError, match="minutes") as refused:
        checked(user, "classic", False, minutes, 0)
    assert refused.value.error == "invalid-clock"


@pytest.mark.parametrize("solved", [0, 1, "true", "yes", None, 1.0])
def test_a_puzzle_attempt_is_true_or_false_nothing_else(people: Callable[[], Person], solved: object) -> None:
    """`{"solved": 0}` was taken as false, `1` as true: a mistake is refused, not guessed at."""
    ann = people().sign_up()
    answer = ann.http.post("/api/puzzles/aaaa/attempt", json={"solved": solved})
    assert (answer.status_code, answer.json()["field"]) == (422, "solved"), answer.text
    assert ann.http.get("/api/puzzles/me").json()["rating"]["attempts"] == 0
    streak = ann.http.post("/api/puzzles/streak", json={"score": "3"})
    assert streak.status_code == 422
    assert ann.http.post("/api/puzzles/streak", json={"score": 3.0}).json()["best_streak"] == 3  # a whole number


def test_whole_numbers_written_with_a_point_are_integers(people: Callable[[], Person]) -> None:
    """JSON Schema counts 13.0 as an integer; strict fields refused it (valid by the schema)."""
    ann = people().sign_up()
    room = ann.http.post("/api/online/rooms", json={"spec": "classic", "days": 2.0})
    assert room.status_code == 201 and room.json()["game"]["clock"]["days_per_move"] == 2, room.text
    for kind, count in (("arena", {"duration": 10.0}), ("swiss", {"rounds": 3.0})):
        made = ann.http.post("/api/online/tournaments", json={"kind": kind, "name": "t", "spec": "classic", **count})
        assert made.status_code == 201, made.text
        assert made.json()[next(iter(count))] == 10 if kind == "arena" else made.json()["rounds"] == 3
    for bad in ({"days": 2.5}, {"days": "2"}, {"days": True}, {"days": 2, "minutes": 5}):
        assert ann.http.post("/api/online/rooms", json={"spec": "classic", **bad}).status_code == 422, bad


def test_a_tournaments_kind_says_in_the_schema_what_it_needs(people: Callable[[], Person]) -> None:
    """ "An arena needs a duration" was a rule the schema did not state (valid by the
    schema, refused with 400): now each kind has its own shape."""
    ann = people().sign_up()
    schema = ann.http.get("/openapi.json").json()["components"]["schemas"]
    assert "duration" in schema["NewArena"]["required"] and "rounds" in schema["NewSwiss"]["required"]
    for body in (
        {"kind": "arena", "name": "t", "spec": "classic"},
        {"kind": "swiss", "name": "t", "spec": "classic"},
        {"kind": "arena", "name": "t", "spec": "classic", "duration": 5, "rounds": 3},
    ):
        assert ann.http.post("/api/online/tournaments", json=body).status_code == 422, body
    # The page's form sends the other kind's number as null.
    arena = {"kind": "arena", "name": "t", "spec": "classic", "duration": 5, "rounds": None}
    assert ann.http.post("/api/online/tournaments", json=arena).status_code == 201


def test_a_wrong_method_is_told_every_method_the_path_serves(people: Callable[[], Person]) -> None:
    """`Allow` named the first route's method only, on the 7 paths that serve two or three."""
    ann = people().sign_up()
    schema = ann.http.get("/openapi.json").json()
    several = {path: ops for path, ops in schema["paths"].items() if len(ops) > 1}
    assert len(several) >= 7
    for path, operations in schema["paths"].items():
        concrete = path.replace("{game_id}", "abc").replace("{tournament_id}", "abc").replace("{name}", "abc")
        concrete = concrete.replace("{puzzle_id}", "abc")
        answer = ann.http.request("PATCH", concrete)
        assert answer.status_code == 405, (path, answer.text)
        assert answer.headers["allow"].split(", ") == [
            m.upper() for m in ("get", "post", "put", "delete") if m in operations
        ]


def test_a_records_answer_has_a_content_type_the_schema_declares(people: Callable[[], Person]) -> None:
    """The text record (the default) came as text/plain where the schema declared JSON only."""
    ann = people().sign_up()
    game_id = ann.room()
    declared = ann.http.get("/openapi.json").json()["paths"]["/api/online/games/{game_id}/record"]["get"]
    for form, kind in (("text", "text/plain"), ("json", "application/json")):
        answer = ann.http.get(f"/api/online/games/{game_id}/record", params={"format": form})
        assert answer.status_code == 200 and answer.headers["content-type"].startswith(kind)
        assert kind in declared["responses"]["200"]["content"]


#: What chat refuses (`noughts.server.online.texts`), as a name, and why: characters
#: that redraw or break a line, or nothing that shows (a Hangul filler, a blank Braille
#: pattern and a variation selector are drawn as nothing, as a zero-width space is).
REFUSED_NAMES = {
    **dict.fromkeys(["evil\u202eeman", "a\u0007b", "two\nlines", "one\u2028two", "\u2066x\u2069"], "control"),
    **dict.fromkeys(["\u200b", " \u200b\u2060 ", "\u3164", "\u115f\u1160", "\u2800\ufe0f", "\uffa0 "], "is empty"),
}  # fmt: skip


@pytest.mark.both_databases
def test_names_are_refused_on_what_chat_refuses(people: Callable[[], Person]) -> None:
    """A tournament took a bidirectional override, a control character, a newline or a
    lone zero-width space in its name, which a chat line may not hold."""
    ann = people().sign_up()
    for name, words in REFUSED_NAMES.items():
        made = ann.http.post("/api/online/tournaments", json={**ARENA, "name": name})
        assert (made.status_code, made.json()["error"]) == (400, "invalid-tournament"), (name, made.text)
        assert words in made.json()["message"]
        bot = ann.http.post("/api/online/me/bots", json={"name": name})
        assert (bot.status_code, bot.json()["error"]) in ((400, "name-malformed"), (400, "name-length")), bot.text
    lists = ann.http.get("/api/online/tournaments").json()
    assert all(t["creator"] != ann.name for listed in lists.values() for t in listed)
    assert ann.http.get("/api/online/me/bots").json()["bots"] == []
    for shown in ("Ünïcode ✓ cup", "\u2764\ufe0f cup", "한국 cup"):  # a variation selector beside what it varies
        fine = ann.http.post("/api/online/tournaments", json={**ARENA, "name": shown})
        assert fine.status_code == 201 and fine.json()["name"] == shown


def _request_schemas() -> Iterator[tuple[str, dict[str, Any]]]:
    """Every schema a request's parameter or body holds, through references, each with
    where it is ("POST /api/online/rooms body.minutes")."""
    document = create_app(Settings(ai_workers=1)).openapi()
    components = document["components"]["schemas"]

    def walk(schema: Any, where: str) -> Iterator[tuple[str, dict[str, Any]]]:
        if isinstance(schema, list):
            for item in schema:
                yield from walk(item, where)
        elif isinstance(schema, dict):
            if "$ref" in schema:
                yield from walk(components[schema["$ref"].rsplit("/", 1)[-1]], where)
                return
            yield where, schema
            for name, sub in schema.get("properties", {}).items():
                yield from walk(sub, f"{where}.{name}")
            for key in ("items", "anyOf", "oneOf", "allOf"):
                yield from walk(schema.get(key), where)

    for path, operations in document["paths"].items():
        for method, operation in operations.items():
            for parameter in operation.get("parameters", []):
                yield from walk(parameter["schema"], f"{method.upper()} {path} {parameter['name']}")
            for content in operation.get("requestBody", {}).get("content", {}).values():
                yield from walk(content["schema"], f"{method.upper()} {path} body")


def test_every_number_and_text_a_request_carries_is_bounded_in_the_schema() -> None:
    """Bounds on every number, and no NUL in any text, stated where clients read them."""
    numbers = texts = 0
    for where, schema in _request_schemas():
        if schema.get("type") in ("integer", "number"):
            numbers += 1
            assert {"minimum", "exclusiveMinimum"} & schema.keys(), where
            assert {"maximum", "exclusiveMaximum"} & schema.keys(), where
        elif schema.get("type") == "string":
            texts += 1
            if "enum" not in schema and "const" not in schema:
                assert re.search(schema["pattern"], "a\x00b") is None, where
    assert numbers >= 15 and texts >= 20, (numbers, texts)
