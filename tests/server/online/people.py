"""People using an online server in tests: an HTTP client with its own cookies and the
game sockets it opens (real websockets)."""

from __future__ import annotations

import contextlib
import json
import secrets
import time
from typing import Any

import httpx2
from websockets.sync.client import ClientConnection, connect

from noughts.server.online.config import OnlineConfig
from noughts.server.online.sessions import COOKIE

PASSWORD = "correct horse"
#: Cheap hashes and short periods: the tests sign up many players and wait for graces;
#: all of them from one address (the brakes on that have tests of their own).
FAST = OnlineConfig(
    argon2_time_cost=1,
    argon2_memory_kib=8192,
    disconnect_grace=1.0,
    signups_per_address=1000,
    guests_per_address=1000,
    # The tests read the state again whenever they check it (test_share.py keeps the limit).
    resync_burst=1e6,
)


KEEP_ALIVE = httpx2.Limits(keepalive_expiry=2.0)
#: Seconds a test waits for an answer or an event that should come: generous, since it
#: only stops a hang (a busy machine answers late, not differently).
WAIT = 30.0


def unique(name: str) -> str:
    """A name no other test uses (the PostgreSQL database is shared by a test run)."""
    return f"{name}{secrets.token_hex(3)}"


class Person:
    def __init__(self, base: str) -> None:
        self.base = base
        # Idle connections dropped long before the server closes them (KEEP_ALIVE_SECONDS):
        # a request sent on a connection just as the server closes it fails with "Server
        # disconnected" (seen in CI when the server kept them 5 s, as uvicorn does).
        self.http = httpx2.Client(base_url=base, timeout=WAIT, limits=KEEP_ALIVE)
        self.name: str | None = None
        self.sockets: list[GameSocket] = []
        self._stack = contextlib.ExitStack()

    def sign_up(self, name: str | None = None, password: str = PASSWORD) -> Person:
        name = name or unique("p")
        answer = self.http.post("/api/online/signup", json={"name": name, "password": password})
        assert answer.status_code == 201, answer.text
        self.name = name
        return self

    def guest(self) -> Person:
        answer = self.http.post("/api/online/guest")
        assert answer.status_code == 201, answer.text
        self.name = answer.json()["user"]["name"]
        return self

    def room(self, spec: str = "classic", **options: Any) -> str:
        answer = self.http.post("/api/online/rooms", json={"spec": spec, **options})
        assert answer.status_code == 201, answer.text
        game_id: str = answer.json()["game"]["id"]
        return game_id

    def join(self, game_id: str) -> dict[str, Any]:
        answer = self.http.post(f"/api/online/games/{game_id}/join")
        assert answer.status_code == 200, answer.text
        game: dict[str, Any] = answer.json()
        return game

    def socket(self, game_id: str, **headers: str) -> GameSocket:
        url = self.base.replace("http", "ws", 1) + f"/api/online/games/{game_id}/ws"
        token = self.http.cookies.get(COOKIE)
        extra = {"Cookie": f"{COOKIE}={token}"} if token else {}
        ws = self._stack.enter_context(connect(url, additional_headers={**extra, **headers}, open_timeout=WAIT))
        sock = GameSocket(ws)
        self.sockets.append(sock)
        return sock

    def close(self) -> None:
        self._stack.close()
        self.http.close()


def patched(game: dict[str, Any], event: dict[str, Any]) -> dict[str, Any]:
    """The state after a move event's patch, as the web page (live.js) computes it."""
    patch = event["patch"]
    view = {**game["view"], **patch["view"], "ply": event["ply"], "moves": [*game["view"]["moves"], event["move"]]}
    moves = [*game["moves"], event["move"]]
    return {**game, **patch, "ply": event["ply"], "version": event["version"], "moves": moves, "view": view}


class GameSocket:
    """A game's socket: `hello` and the first `state` are read on opening."""

    def __init__(self, ws: ClientConnection) -> None:
        self.ws = ws
        self.hello = self.expect("hello")
        self.state: dict[str, Any] = self.expect("state")["game"]

    def send(self, message: dict[str, Any] | str) -> None:
        self.ws.send(message if isinstance(message, str) else json.dumps(message))

    def receive(self, timeout: float = WAIT) -> dict[str, Any]:
        message: dict[str, Any] = json.loads(self.ws.recv(timeout=timeout))
        if message.get("game") is not None:
            self.state = message["game"]
        elif message.get("patch") is not None:
            # Skipped when the state read on opening (or asked for) already holds it.
            state = getattr(self, "state", None)
            if state is not None and message["version"] > state["version"]:
                assert message["version"] == state["version"] + 1, "a move's patch follows the version before it"
                self.state = patched(state, message)
        return message

    def expect(self, type_: str, timeout: float = WAIT, **fields: Any) -> dict[str, Any]:
        """The next message of type `type_` (with `fields`), skipping others (presence...).
        On a timeout the failure lists what came instead: a flaky wait says what it saw."""
        deadline = time.monotonic() + timeout
        skipped: list[str] = []
        while True:
            try:
                message = self.receive(max(0.01, deadline - time.monotonic()))
            except TimeoutError:
                wanted = " ".join([type_, *(f"{k}={v}" for k, v in fields.items())])
                seen = "; ".join(skipped[-8:]) or "nothing"
                raise AssertionError(f"no {wanted} within {timeout} s; came instead: {seen}") from None
            if message["type"] == type_ and all(message.get(k) == v for k, v in fields.items()):
                return message
            skipped.append(" ".join(f"{k}={message[k]}" for k in ("type", "kind", "ply", "error") if k in message))

    def event(self, kind: str, timeout: float = WAIT) -> dict[str, Any]:
        return self.expect("event", timeout, kind=kind)

    def act(self, kind: str, **fields: Any) -> dict[str, Any]:
        """Sends a message and returns the answer to it: its error, or its ack once the
        event it caused has arrived too (so that `state` is up to date)."""
        ref = secrets.token_hex(4)
        self.send({"type": kind, "id": ref, **fields})
        while True:
            message = self.receive()
            if message["type"] == "error" and message.get("id") == ref:
                return message
            if message["type"] == "ack" and message.get("id") == ref:
                self.expect("event", version=message["version"])
                return message

    def move(self, move: str, ply: int | None = None) -> dict[str, Any]:
        return self.act("move", move=move, ply=self.state["ply"] if ply is None else ply)
