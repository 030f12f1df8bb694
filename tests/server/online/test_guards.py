"""The guards in front of every HTTP request: other sites' pages cannot change anything
with a player's cookie, bodies are JSON, and a huge body is refused before it is read."""

from __future__ import annotations

import asyncio
import socket
from collections.abc import Iterator
from typing import Any
from urllib.parse import urlsplit

import httpx2
import pytest
from starlette.types import Message

from noughts.server import Settings
from noughts.server.guards import MAX_BODY, NoNulText
from server.online.people import FAST, Person
from server.online.servers import in_thread

EVIL = "http://evil.example"


@pytest.fixture
def base(sqlite_url: str) -> Iterator[str]:
    """A server on SQLite: the guards do not depend on the database."""
    with in_thread(Settings(database=sqlite_url, ai_workers=1, online=FAST)) as address:
        yield address


@pytest.fixture
def ann(base: str) -> Iterator[Person]:
    person = Person(base).sign_up()
    yield person
    person.close()


@pytest.fixture
def bob(base: str) -> Iterator[Person]:
    person = Person(base).sign_up()
    yield person
    person.close()


def _refused(answer: httpx2.Response, status: int, error: str) -> None:
    body = answer.json()
    assert (answer.status_code, body["error"], body["field"]) == (status, error, None)
    assert body["message"]


FORM = {"Content-Type": "application/x-www-form-urlencoded"}


@pytest.mark.parametrize(
    "headers",
    [
        {"Origin": EVIL, **FORM},
        {"Origin": EVIL},
        {"Origin": "null"},  # a sandboxed frame, a page opened from a file
        {"Referer": EVIL + "/page.html"},  # an old browser that sends no Origin
    ],
)
def test_another_sites_page_cannot_join_close_or_log_out(ann: Person, bob: Person, headers: dict[str, str]) -> None:
    """The issue's three forged requests, each with the victim's cookie: each is a 403
    and the game and the log-in are as they were."""
    game_id = ann.room(rated=True)
    before = ann.http.get(f"/api/online/games/{game_id}").json()

    _refused(bob.http.post(f"/api/online/games/{game_id}/join", headers=headers, content=b"x=1"), 403, "cross-origin")
    _refused(ann.http.delete(f"/api/online/games/{game_id}", headers=headers), 403, "cross-origin")
    _refused(bob.http.post("/api/online/logout", headers=headers), 403, "cross-origin")
    _refused(bob.http.post("/api/online/rooms", headers=headers, json={"spec": "classic"}), 403, "cross-origin")

    assert ann.http.get(f"/api/online/games/{game_id}").json() == before
    assert any(r["id"] == game_id for r in ann.http.get("/api/online/rooms").json()["rooms"])
    assert bob.http.get("/api/online/me").json()["user"]["name"] == bob.name


def test_this_sites_own_page_and_programs_without_an_origin_are_let_through(
    base: str, ann: Person, bob: Person
) -> None:
    own = {"Origin": base, "Referer": base + "/online"}
    game_id = ann.room()
    answer = bob.http.post(f"/api/online/games/{game_id}/join", headers=own)
    assert answer.status_code == 200 and answer.json()["state"] == "playing"
    assert bob.http.post("/api/online/logout", headers={"Referer": base + "/online"}).status_code == 204
    assert bob.http.get("/api/online/me").json() == {"user": None}
    # Another port of the same host is another origin (and the same "site" for SameSite).
    other_port = f"http://{urlsplit(base).hostname}:1"
    _refused(ann.http.post("/api/online/logout", headers={"Origin": other_port}), 403, "cross-origin")


def test_a_form_from_anywhere_is_not_a_json_body(ann: Person, bob: Person) -> None:
    """A second line: other sites can post forms without asking, not JSON."""
    game_id = ann.room()
    _refused(bob.http.post(f"/api/online/games/{game_id}/join", data={"x": "1"}), 415, "unsupported-media-type")
    text = {"Content-Type": "text/plain"}
    answer = bob.http.post("/api/online/rooms", content=b'{"spec": "classic"}', headers=text)
    _refused(answer, 415, "unsupported-media-type")
    assert ann.http.get(f"/api/online/games/{game_id}").json()["state"] == "open"


def test_a_huge_body_is_refused_before_it_is_read(base: str) -> None:
    """A Content-Length of 200 MB is answered at once, with only a few bytes sent."""
    address = urlsplit(base)
    assert address.hostname is not None and address.port is not None
    with socket.create_connection((address.hostname, address.port), timeout=10) as raw:
        raw.sendall(
            b"POST /api/online/signup HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            b'Content-Length: 209715200\r\n\r\n{"name": '
        )
        answer = b""
        while b"\r\n\r\n" not in answer or not answer.rstrip().endswith(b"}"):
            chunk = raw.recv(4096)
            if not chunk:
                break
            answer += chunk
    head, _, body = answer.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 413")
    assert b'"error":"too-large"' in body


def test_a_streamed_body_is_cut_at_the_limit(base: str) -> None:
    """Without a Content-Length (chunked), the limit applies to the bytes read."""
    visitor = Person(base)

    def chunks() -> Iterator[bytes]:
        yield b'{"name": "'
        for _ in range(2 * MAX_BODY // 1024):
            yield b"a" * 1024

    try:
        answer = visitor.http.post("/api/online/signup", content=chunks(), headers={"Content-Type": "application/json"})
        _refused(answer, 413, "too-large")
    finally:
        visitor.close()


def test_the_nul_guard_hands_the_body_on_whole_and_then_what_follows() -> None:
    """The guard reads a body to look for NUL: the app behind gets every chunk of it, in
    order, then the messages after it (a disconnect) from the server."""
    chunks = [b'{"name": ', b'"ann"}']
    sent: list[Message] = [
        {"type": "http.request", "body": chunks[0], "more_body": True},
        {"type": "http.request", "body": chunks[1], "more_body": False},
        {"type": "http.disconnect"},
    ]
    seen: list[Message] = []

    async def app(scope: object, receive: Any, send: Any) -> None:
        for _ in range(3):
            seen.append(await receive())

    async def receive() -> Message:
        return sent.pop(0)

    async def send(message: Message) -> None:
        raise AssertionError(f"the guard answered {message}")

    scope = {"type": "http", "method": "POST", "path": "/api/online/login", "query_string": b"", "headers": []}
    asyncio.run(NoNulText(app)(scope, receive, send))
    assert [m.get("body") for m in seen[:2]] == chunks and seen[2]["type"] == "http.disconnect"
