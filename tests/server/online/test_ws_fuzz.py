"""The outside probe's hostile websocket frames kept in the suite: thousands of frames
(garbage, broken and deeply nested JSON, every message type with wrong fields, huge
numbers, oversized and binary frames, and frames of the protocol's published JSON
Schema with one field just past what it allows: server.online.frames) against a live game on a real server. Each is
answered with an error (or, for a ping or a resync, its answer), or the socket is
closed with a code that says why; the game's moves are unchanged, and it plays on."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed

from noughts.server import Settings
from noughts.server.online.actions import ACTIONS
from server.online.frames import hostile_frames
from server.online.people import FAST, GameSocket, Person
from server.online.servers import in_thread
from server.online.test_play import alternate

FRAMES = 3000
#: Closes a socket may end with: too big (1009), abuse (1008), not text (1003).
CLEAN_CLOSES = {1003, 1008, 1009}
#: What answers a frame: an error, or what a ping and a resync are answered with.
ANSWERS = {"error", "pong", "state"}
TYPES = [*ACTIONS, "move", "resync", "ping", "", "MOVE", "move ", "__proto__", "constructor", "hello", "state"]


def _value(rng: random.Random, depth: int = 0) -> Any:
    """A JSON value of any kind, nested a little, with the awkward ones often."""
    kinds = ["null", "bool", "int", "huge", "float", "str", "weird"] + (["list", "dict"] if depth < 4 else [])
    kind = rng.choice(kinds)
    if kind == "null":
        return None
    if kind == "bool":
        return rng.random() < 0.5
    if kind == "int":
        return rng.randint(-5, 100)
    if kind == "huge":
        return rng.choice([2**63, -(2**63) - 1, 10**40, 2**1000])
    if kind == "float":
        return rng.choice([0.5, -0.0, 1e308, 5e-324, 1.5])
    if kind == "str":
        return "".join(rng.choice("0123456789abcxyz-=:/ .") for _ in range(rng.randint(0, 12)))
    if kind == "weird":
        # (A lone surrogate goes as its JSON escape, "\ud800": json.dumps writes it so.)
        weird = ["\u0000", "\u202e5", "５", "💥" * 30, "<script>", "' OR 1=1 --", "%s%n", "\\", "9" * 300, "\ud800"]
        return rng.choice(weird)
    if kind == "list":
        return [_value(rng, depth + 1) for _ in range(rng.randint(0, 4))]
    return {_key(rng): _value(rng, depth + 1) for _ in range(rng.randint(0, 4))}


def _key(rng: random.Random) -> str:
    return rng.choice(["type", "move", "ply", "id", "game", "by", "x", "__proto__", "", "💥"])


def hostile(rng: random.Random, types: list[str]) -> str | bytes:
    """One hostile frame."""
    kind = rng.randrange(12)
    if kind == 0:
        return "".join(chr(rng.randint(1, 0x2FF)) for _ in range(rng.randint(0, 80)))
    if kind == 1:
        return json.dumps(_value(rng))
    if kind == 2:  # a message of a known type with its fields of any kind
        message = {"type": rng.choice(types), **{_key(rng): _value(rng) for _ in range(rng.randint(0, 4))}}
        if rng.random() < 0.7:
            message["type"] = rng.choice(types)
        return json.dumps(message)
    if kind == 3:  # a move with every field wrong in turn
        move = {"type": "move", "move": _value(rng), "ply": _value(rng), "id": _value(rng)}
        return json.dumps({k: v for k, v in move.items() if rng.random() < 0.9})
    if kind == 4:  # broken JSON
        text = json.dumps({"type": rng.choice(types), "move": "9", "ply": 2, "id": 1})
        return text[: rng.randrange(len(text))]
    if kind == 5:
        depth = rng.choice([50, 500, 1500, 2000])
        return rng.choice(["[" * depth + "]" * depth, '{"a":' * depth + "1" + "}" * depth, "[" * depth])
    if kind == 6:
        # (A repeated key counts once, its last value, as JSON parsers do.)
        return rng.choice(['{"type": NaN}', '{"type": "move", "ply": Infinity}', '{"ply": 1e400, "type": "move"}',
                           '{"type": "resign", "type": "move"}', "\ufeff{}", "null", "", " "])  # fmt: skip
    if kind == 7:  # over the frame limit (4 KB, counted in bytes)
        return json.dumps({"type": "move", "move": "é" * rng.randint(2100, 3000)})
    if kind == 8:
        return bytes(rng.randrange(256) for _ in range(rng.randint(0, 40)))
    if kind in (10, 11):  # a frame of the published schema's with one field just past it
        return json.dumps(hostile_frames(rng))
    return json.dumps({"type": rng.choice(["ping", "resync"]), "id": _value(rng)})


class Prober:
    """One person's socket on the game, opened again whenever the server closes it."""

    def __init__(self, person: Person, game_id: str) -> None:
        self.person = person
        self.game_id = game_id
        self.sock: GameSocket = person.socket(game_id)
        self.answers: dict[str, int] = {}
        self.closes: dict[int | None, int] = {}

    def probe(self, frame: str | bytes) -> None:
        try:
            self.sock.ws.send(frame)
            while (answer := self.sock.receive()["type"]) not in ANSWERS | {"ack"}:
                pass  # presence and events of the others are not answers
            self.answers[answer] = self.answers.get(answer, 0) + 1
        except ConnectionClosed as closed:
            code = closed.rcvd.code if closed.rcvd else None
            self.closes[code] = self.closes.get(code, 0) + 1
            self.sock = self.person.socket(self.game_id)


@pytest.fixture
def base(database_url: str) -> Iterator[str]:
    """A server on SQLite, or PostgreSQL (make test-slow, and the sample in make test)."""
    # The rate limit would close a socket sending thousands of frames a second at once
    # (that brake has its own test); here every frame must reach the handlers.
    online = replace(FAST, rate=1e9, burst=1e9)
    with in_thread(Settings(database=database_url, ai_workers=1, online=online)) as address:
        yield address


# Thousands of frames: make test-slow, for make test's 6 minutes (test_faults.py keeps
# the hostile frames of each kind in make test, and the sample below a few of each).
@pytest.mark.slow
def test_thousands_of_hostile_frames_change_nothing(base: str) -> None:
    fuzz(base, FRAMES, seed=17)


#: Frames of the sample: a few of every kind, on SQLite in make test (PostgreSQL's run
#: is in make test-slow, with the thousands above).
SAMPLE = 80


def test_a_sample_of_hostile_frames_changes_nothing(base: str) -> None:
    fuzz(base, SAMPLE, seed=41)


def fuzz(base: str, frames: int, seed: int) -> None:
    """`frames` hostile frames at a game in play, half by a player not to move, half by a
    watcher: each answered or the socket cleanly closed, the game unchanged and playing on."""
    ann, bob, eve = Person(base).sign_up(), Person(base).sign_up(), Person(base).sign_up()
    try:
        game_id = ann.room()
        a = ann.socket(game_id)
        bob.join(game_id)
        a.event("start")
        b = bob.socket(game_id)
        alternate(a, b, "5", "1")
        before = {k: a.state[k] for k in ("moves", "version", "state", "offers")}
        rng = random.Random(seed)
        # Bob (not to move) sends moves and garbage; Eve (watching) sends anything, the
        # game's offers and decisions too: neither may change the game.
        o_types = [t for t in TYPES if t not in ACTIONS or t == "move"]
        player, watcher = Prober(bob, game_id), Prober(eve, game_id)
        for i in range(frames):
            if i % 2:
                player.probe(hostile(rng, o_types))
            else:
                watcher.probe(hostile(rng, TYPES))
        for prober in (player, watcher):
            assert set(prober.answers) <= ANSWERS, prober.answers  # never an ack
            assert set(prober.closes) <= CLEAN_CLOSES, prober.closes
            assert sum(prober.answers.values()) + sum(prober.closes.values()) == frames // 2
        assert player.closes.get(1009) and player.answers["error"] > frames // 4

        a.send({"type": "resync"})
        after = a.expect("state")["game"]
        assert {k: after[k] for k in before} == before
        assert a.move("9")["type"] == "ack"  # the game plays on
        assert player.sock.expect("event", kind="move")["move"] == "9"
    finally:
        for person in (ann, bob, eve):
            person.close()
