"""One visitor's share of a server is bounded: the sockets they hold open at once (an
account's, an address's for those without one) and the frames that make the server
read a whole game again (resync)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import replace

import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from noughts.server import Settings
from noughts.server.online.sessions import COOKIE
from server.online.people import FAST, GameSocket, Person
from server.online.servers import in_thread
from server.online.test_play import alternate, start


@pytest.fixture
def base(sqlite_url: str) -> Iterator[str]:
    """A server with the shipped limits on resyncs, and small socket caps (the shipped
    ones are 16 and 48: the same code, fewer sockets to open)."""
    online = replace(FAST, resync_burst=3.0, resync_every=2.0, sockets_per_account=4, sockets_per_address=3)
    with in_thread(Settings(database=sqlite_url, ai_workers=1, online=online)) as address:
        yield address


def _refused(url: str, **headers: str) -> tuple[str, int | None]:
    """The error a refused socket gets, and its close code."""
    with connect(url, additional_headers=headers) as ws:
        message = json.loads(ws.recv(timeout=30))
        try:
            ws.recv(timeout=30)
        except ConnectionClosed as closed:
            return message["error"], closed.rcvd.code if closed.rcvd else None
    raise AssertionError("the socket was not closed")


def test_an_account_holds_a_bounded_number_of_sockets(base: str) -> None:
    """Its fifth socket (of any kind) is refused with a word and 1008; closing one
    makes room; another account's sockets are not counted with it."""
    ann, bob = Person(base).sign_up(), Person(base).sign_up()
    try:
        game_id = ann.room()
        held: list[GameSocket] = [ann.socket(game_id) for _ in range(4)]
        url = base.replace("http", "ws", 1) + "/api/online/lobby/ws"
        assert _refused(url, Cookie=f"{COOKIE}={ann.http.cookies.get(COOKIE)}") == ("too-many-sockets", 1008)
        held.pop().ws.close()
        assert ann.socket(game_id).state["id"] == game_id  # room again
        assert bob.socket(game_id).state["id"] == game_id  # others are not counted with ann
    finally:
        ann.close()
        bob.close()


def test_an_address_without_an_account_holds_a_bounded_number_of_sockets(base: str) -> None:
    url = base.replace("http", "ws", 1) + "/api/online/lobby/ws"
    with connect(url) as one, connect(url) as two, connect(url) as three:
        assert [_first(ws) for ws in (one, two, three)] == ["lobby"] * 3
        assert _refused(url) == ("too-many-sockets", 1008)


def _first(ws: ClientConnection) -> str:
    """The type of the first frame a socket gets."""
    return str(json.loads(ws.recv(timeout=30))["type"])


def test_resyncs_beyond_their_rate_are_refused_and_the_game_goes_on(base: str) -> None:
    def people() -> Person:
        return Person(base)

    _, _, _, a, b = start(people)
    alternate(a, b, "5")
    for _ in range(3):
        b.send({"type": "resync"})
        assert b.expect("state")["game"]["moves"] == ["5"]
    b.send({"type": "resync", "id": "fourth"})
    refused = b.expect("error", id="fourth")
    assert refused["error"] == "rate-limited" and "every 2 seconds" in refused["message"]
    assert b.move("1")["type"] == "ack"  # other frames are not counted with resyncs
