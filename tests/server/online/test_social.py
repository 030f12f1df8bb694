"""Players between themselves over HTTP and real websockets: a challenge reaches the
challenged player's own socket at once and accepting it starts the game for both; bad
challenges, follows and blocks change nothing; a blocked player's chat is hidden; the
bell's notifications (a rematch offered, a correspondence move) are kept read or
unread; with two server processes a challenge crosses through Redis."""

from __future__ import annotations

import json
import secrets
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from websockets.sync.client import ClientConnection, connect

from noughts.server import Settings
from noughts.server.online.sessions import COOKIE
from server.online.people import FAST, WAIT, Person
from server.online.servers import in_thread
from server.online.shared import database_url, server
from server.online.test_play import alternate

# One server for the module (server/online/shared.py): each test with people of its own.
__all__ = ["database_url", "server"]  # fixtures


class Own:
    """A player's own socket (/api/online/me/ws): its inbox is read on opening."""

    def __init__(self, ws: ClientConnection) -> None:
        self.ws = ws
        self.inbox = self.expect("inbox")

    def expect(self, type_: str, **fields: Any) -> dict[str, Any]:
        seen = []
        while True:
            message: dict[str, Any] = json.loads(self.ws.recv(timeout=WAIT))
            if message["type"] == type_ and all(message.get(k) == v for k, v in fields.items()):
                return message
            seen.append(message["type"])
            assert len(seen) < 20, seen

    def quiet(self) -> list[dict[str, Any]]:
        """What came before the answer to a ping sent now."""
        ref = secrets.token_hex(4)
        self.ws.send(json.dumps({"type": "ping", "id": ref}))
        seen = []
        while (message := json.loads(self.ws.recv(timeout=WAIT)))["type"] != "pong":
            seen.append(message)
        return seen


@contextmanager
def own(person: Person) -> Iterator[Own]:
    url = person.base.replace("http", "ws", 1) + "/api/online/me/ws"
    cookie = {"Cookie": f"{COOKIE}={person.http.cookies[COOKIE]}"}
    with connect(url, additional_headers=cookie, open_timeout=WAIT) as ws:
        yield Own(ws)


def challenge(by: Person, to: str, expect: int = 201, **options: Any) -> dict[str, Any]:
    answer = by.http.post("/api/online/challenges", json={"to": to, "spec": "classic", **options})
    assert answer.status_code == expect, answer.text
    body: dict[str, Any] = answer.json()
    return body


def pending(person: Person) -> tuple[list[str], list[str]]:
    body = person.http.get("/api/online/challenges").json()
    return [c["id"] for c in body["incoming"]], [c["id"] for c in body["outgoing"]]


def test_a_challenge_reaches_the_player_at_once_and_accepting_starts_the_game(
    people: Callable[[], Person],
) -> None:
    ann, bob = people().sign_up(), people().sign_up()
    assert ann.name and bob.name
    with own(ann) as a, own(bob) as b:
        assert b.inbox["incoming"] == [] and b.inbox["unread"] == 0
        made = challenge(ann, bob.name, spec="mnk:m=4:n=4:k=3", minutes=3, increment=2, side="x", rated=True)
        shown = made["challenge"]
        assert (shown["by"], shown["to"], shown["state"], shown["minutes"], shown["increment"]) == (
            ann.name, bob.name, "pending", 3, 2,
        )  # fmt: skip
        assert b.expect("challenge")["challenge"] == shown
        note = b.expect("notification")
        assert (note["notification"]["kind"], note["notification"]["actor"]) == ("challenge", ann.name)
        assert note["unread"] == 1
        assert a.expect("challenge")["challenge"]["id"] == shown["id"]
        accepted = bob.http.post(f"/api/online/challenges/{shown['id']}/accept")
        assert accepted.status_code == 200, accepted.text
        game_id = accepted.json()["challenge"]["game"]
        for sock in (a, b):
            heard = sock.expect("challenge")["challenge"]
            assert (heard["state"], heard["game"]) == ("accepted", game_id)
    game = ann.http.get(f"/api/online/games/{game_id}").json()
    assert (game["state"], game["x"]["name"], game["o"]["name"], game["rated"]) == ("playing", ann.name, bob.name, True)
    assert game["spec"] == "mnk:m=4:n=4:k=3"
    # Answering read the challenge's notification; a second answer changes nothing.
    assert bob.http.get("/api/online/me/notifications").json()["unread"] == 0
    again = bob.http.post(f"/api/online/challenges/{shown['id']}/accept")
    assert (again.status_code, again.json()["error"]) == (409, "challenge-accepted")


def test_bad_challenges_get_a_typed_error_and_change_nothing(people: Callable[[], Person]) -> None:
    ann, bob, cat = people().sign_up(), people().sign_up(), people().sign_up()
    assert ann.name and bob.name and cat.name
    first = challenge(ann, bob.name)["challenge"]["id"]
    before = pending(ann), pending(bob), pending(cat)
    for to, options, status, error in [
        (ann.name, {}, 400, "own-challenge"),
        ("nobody" + secrets.token_hex(3), {}, 404, "no-such-player"),
        (bob.name, {}, 409, "already-challenged"),
        (bob.name, {"spec": "chess"}, 400, "invalid-spec"),
        (bob.name, {"minutes": 2, "days": 3}, 422, "invalid-request"),
        (bob.name, {"days": 99}, 422, "invalid-request"),
        ("a\u202ename", {}, 404, "no-such-player"),
        ("x" * 41, {}, 422, "invalid-request"),
    ]:
        answer = ann.http.post("/api/online/challenges", json={"to": to, "spec": "classic", **options})
        assert (answer.status_code, answer.json()["error"]) == (status, error), (to, options, answer.text)
    # Someone else's challenge, a declined one, hostile ids.
    for path, status, error in [
        (f"/api/online/challenges/{first}/accept", 403, "not-yours"),
        (f"/api/online/challenges/{first}/decline", 403, "not-yours"),
        ("/api/online/challenges/nothing/accept", 404, "no-such-challenge"),
        ("/api/online/challenges/" + "z" * 41 + "/accept", 422, "invalid-request"),
        ("/api/online/challenges/%00/accept", 422, "invalid-request"),
    ]:
        answer = cat.http.post(path, json={})
        assert (answer.status_code, answer.json()["error"]) == (status, error), (path, answer.text)
    bad_reason = bob.http.post(f"/api/online/challenges/{first}/decline", json={"reason": "smelly"})
    assert bad_reason.status_code == 422
    assert (pending(ann), pending(bob), pending(cat)) == before
    declined = bob.http.post(f"/api/online/challenges/{first}/decline", json={"reason": "later"}).json()["challenge"]
    assert (declined["state"], declined["reason"]) == ("declined", "later")
    assert declined["reason_text"].startswith("This is not the right time")
    late = bob.http.post(f"/api/online/challenges/{first}/accept")
    assert (late.status_code, late.json()["error"]) == (409, "challenge-declined")
    # Blocked, either way: no challenge, and it is not said who blocked whom.
    assert cat.http.put(f"/api/online/me/blocked/{ann.name}").status_code == 204
    for by, to in ((ann, cat.name), (cat, ann.name)):
        refused = by.http.post("/api/online/challenges", json={"to": to, "spec": "classic"})
        assert (refused.status_code, refused.json()["error"]) == (403, "blocked")
    assert pending(ann) == ([], []) and pending(cat) == ([], [])


def test_follows_blocks_and_a_blocked_players_chat(people: Callable[[], Person]) -> None:
    ann, bob = people().sign_up(), people().sign_up()
    assert ann.name and bob.name
    nobody = "nobody" + secrets.token_hex(3)
    for name, status, error in [(ann.name, 400, "own-follow"), (nobody, 404, "no-such-player")]:
        answer = ann.http.put(f"/api/online/me/following/{name}")
        assert (answer.status_code, answer.json()["error"]) == (status, error)
    assert ann.http.get("/api/online/me/following").json() == {"players": []}
    assert ann.http.put(f"/api/online/me/following/{bob.name}").status_code == 204
    assert ann.http.put(f"/api/online/me/following/{bob.name.upper()}").status_code == 204  # twice is once
    with own(bob):
        game_id = bob.http.post(f"/api/online/challenges/{challenge(ann, bob.name)['challenge']['id']}/accept").json()[
            "challenge"
        ]["game"]
        followed = ann.http.get("/api/online/me/following").json()["players"]
        assert followed == [{"name": bob.name, "online": True, "playing": game_id}]
        online = {p["name"]: p["playing"] for p in ann.http.get("/api/online/players/online").json()["players"]}
        assert online[bob.name] == game_id
    relation = ann.http.get(f"/api/online/me/relations/{bob.name}").json()
    assert relation == {"name": bob.name, "following": True, "blocking": False}
    # Bob blocks Ann: her lines are hidden from him, and her follow of him ends.
    a = ann.socket(game_id)
    a.send({"type": "chat", "text": "hello there"})
    assert a.expect("chat")["line"]["text"] == "hello there"
    assert bob.http.put(f"/api/online/me/blocked/{ann.name}").status_code == 204
    backlog = bob.socket(game_id).expect("chat-backlog")
    assert backlog["lines"] == []
    assert ann.http.get("/api/online/me/following").json() == {"players": []}
    assert bob.http.get("/api/online/me/blocked").json() == {"players": [ann.name]}
    refused = ann.http.put(f"/api/online/me/blocked/{ann.name}")
    assert (refused.status_code, refused.json()["error"]) == (400, "own-block")


def test_the_bell_keeps_a_rematch_and_a_correspondence_move_read_or_unread(people: Callable[[], Person]) -> None:
    ann, bob = people().sign_up(), people().sign_up()
    assert ann.name and bob.name
    made = challenge(ann, bob.name, days=2, side="x")["challenge"]
    assert made["days"] == 2 and made["minutes"] is None
    game_id = bob.http.post(f"/api/online/challenges/{made['id']}/accept").json()["challenge"]["game"]
    # Accepted, the first move is Ann's: she is told so.
    first = ann.http.get("/api/online/me/notifications").json()["notifications"][0]
    assert (first["kind"], first["game"], first["actor"]) == ("your-move", game_id, bob.name)
    a, b = ann.socket(game_id), bob.socket(game_id)
    with own(bob) as bobs:
        alternate(a, b, "5")
        note = bobs.expect("notification")["notification"]
        assert (note["kind"], note["game"], note["actor"]) == ("your-move", game_id, ann.name)
    alternate(a, b, "1", "9", "3", "2", "7", "8")  # X wins
    with own(ann) as anns:
        b.act("rematch-offer")
        # Her "your move"s may still be on their way (told after each move, not awaited by it).
        while (rematch := anns.expect("notification")["notification"])["kind"] != "rematch":
            assert rematch["kind"] == "your-move"
        assert rematch["actor"] == bob.name
    bell = ann.http.get("/api/online/me/notifications").json()
    kinds = [n["kind"] for n in bell["notifications"]]
    assert "rematch" in kinds and bell["unread"] == len(kinds) == kinds.count("your-move") + 1
    # Bob's ids are not Ann's to read; hers are read one by one, then all.
    bobs_ids = [n["id"] for n in bob.http.get("/api/online/me/notifications").json()["notifications"]]
    read = "/api/online/me/notifications/read"
    assert ann.http.post(read, json={"ids": bobs_ids}).json() == {"unread": bell["unread"]}
    one = bell["notifications"][0]["id"]
    assert ann.http.post(read, json={"ids": [one]}).json() == {"unread": bell["unread"] - 1}
    assert ann.http.post(read, json={}).json() == {"unread": 0}
    for bad in ({"ids": [0]}, {"ids": ["1"]}, {"ids": list(range(1, 300))}, {"all": True}):
        assert ann.http.post(read, json=bad).status_code == 422


def test_a_bot_keeps_its_challenges_and_a_visitor_is_refused(people: Callable[[], Person]) -> None:
    ann = people().sign_up()
    made = challenge(ann, "noughts-easy", minutes=5)
    assert made["challenge"] is None and made["message"] == "the bot accepts: the game starts"
    assert ann.http.get(f"/api/online/games/{made['game']}").json()["state"] == "playing"
    refused = ann.http.post("/api/online/challenges", json={"to": "noughts-easy", "spec": "classic", "days": 1})
    assert (refused.status_code, refused.json()["error"]) == (400, "bot-correspondence")
    visitor = people()
    anonymous = visitor.http.post("/api/online/challenges", json={"to": "noughts-easy", "spec": "classic"})
    assert anonymous.status_code == 401
    url = visitor.base.replace("http", "ws", 1) + "/api/online/me/ws"
    with connect(url, open_timeout=WAIT) as ws:
        assert json.loads(ws.recv(timeout=WAIT))["error"] == "not-logged-in"
    # The player's own socket listens: anything but a ping is refused, nothing changes.
    with own(ann) as mine:
        mine.ws.send(json.dumps({"type": "move", "move": "5", "id": 3}))
        refused_frame = mine.expect("error")
        assert (refused_frame["error"], refused_frame["id"]) == ("unknown-type", 3)
        assert "own socket only answers ping" in refused_frame["message"]
        assert mine.quiet() == []


def test_a_challenge_crosses_server_processes_through_redis(postgres_url: str, redis_url: str) -> None:
    # Two server processes share PostgreSQL (and Redis), as they are deployed.
    database_url = postgres_url
    online = FAST.__class__(**{**FAST.__dict__, "redis_prefix": f"noughts-test-{secrets.token_hex(4)}:"})
    settings = Settings(database=database_url, redis=redis_url, ai_workers=1, online=online)
    with in_thread(settings) as one, in_thread(settings) as two:
        ann, bob = Person(one).sign_up(), Person(two).sign_up()
        assert bob.name
        with own(bob) as b:
            shown = challenge(ann, bob.name)["challenge"]  # through process one
            assert b.expect("challenge")["challenge"]["id"] == shown["id"]
            assert b.expect("notification")["notification"]["challenge"] == shown["id"]
        ann.close()
        bob.close()


def test_a_tournament_starting_is_told_to_its_players(people: Callable[[], Person]) -> None:
    ann, bob = people().sign_up(), people().sign_up()
    created = ann.http.post(
        "/api/online/tournaments",
        json={"kind": "swiss", "name": "Social Swiss", "spec": "classic", "rounds": 1, "starts_in": 60},
    )
    assert created.status_code == 201, created.text
    tid = created.json()["id"]
    for person in (ann, bob):
        assert person.http.post(f"/api/online/tournaments/{tid}/join").json()["joined"]
    with own(bob) as b:
        assert ann.http.post(f"/api/online/tournaments/{tid}/start").status_code == 200
        note = b.expect("notification")["notification"]
        assert (note["kind"], note["tournament"], note["text"]) == ("tournament-start", tid, "Social Swiss has started")
