"""A game's chat on its socket: the players' and the spectators' channels apart, guests
reading only, the rate limit, mutes, reports, and hostile frames changing nothing."""

from __future__ import annotations

import json
import secrets
from collections.abc import Callable
from typing import Any, cast

import pytest
from sqlalchemy import Table, func, select

from noughts.server import Settings
from noughts.server.online.storage.store import Store
from noughts.server.online.storage.tables import ChatMessage, ChatReport
from server.online.people import GameSocket, Person
from server.online.shared import database_url, server
from server.online.test_play import alternate, start

# One server for the module (server/online/shared.py): each test with people of its own.
__all__ = ["database_url", "server"]  # fixtures


def until_pong(sock: GameSocket) -> list[dict[str, Any]]:
    """What the socket receives before the answer to a ping sent now: everything
    published before the ping has reached it by then."""
    ref = secrets.token_hex(4)
    sock.send({"type": "ping", "id": ref})
    seen = []
    while (message := sock.receive())["type"] != "pong" or message.get("id") != ref:
        seen.append(message)
    return seen


def lines(messages: list[dict[str, Any]]) -> list[tuple[str, str, str]]:
    return [(m["line"]["user"], m["line"]["channel"], m["line"]["text"]) for m in messages if m["type"] == "chat"]


def say(sock: GameSocket, text: Any) -> dict[str, Any] | None:
    """Sends a chat line; the error it got, or None once the line came back."""
    sock.send({"type": "chat", "text": text, "id": "said"})
    while True:
        message = sock.receive()
        if message["type"] == "error" and message["id"] == "said":
            return message
        if message["type"] == "chat" and message["line"]["text"] == text.strip():
            return None


def stored(settings: Settings, game_id: str) -> tuple[int, int]:
    """The chat lines of a game in the database, and the reports of them."""
    store = Store(settings.database or "")
    messages, reports = cast(Table, ChatMessage.__table__), cast(Table, ChatReport.__table__)
    try:
        with store.engine.connect() as c:
            said = c.execute(select(func.count()).where(messages.c.game_id == game_id)).scalar_one()
            reported = c.execute(
                select(func.count())
                .select_from(reports.join(messages, messages.c.id == reports.c.message_id))
                .where(messages.c.game_id == game_id)
            ).scalar_one()
            return int(said), int(reported)
    finally:
        store.close()


def test_players_and_spectators_chat_apart_and_guests_read(people: Callable[[], Person]) -> None:
    ann, bob, game_id, a, b = start(people)
    carol = people().sign_up()
    c = carol.socket(game_id)
    guest = people().guest()
    g = guest.socket(game_id)
    visitor = people().socket(game_id)
    assert b.expect("chat-backlog")["channel"] == "players"
    assert c.expect("chat-backlog")["channel"] == "spectators"

    assert say(a, "  good luck  ") is None
    assert lines(until_pong(b)) == [(ann.name, "players", "good luck")]
    assert say(c, "nice opening") is None
    for spectator in (g, visitor):
        assert lines(until_pong(spectator)) == [(carol.name, "spectators", "nice opening")]
    # Neither channel crosses over while the game goes on.
    assert lines(until_pong(a)) == [] and lines(until_pong(b)) == []
    assert lines(until_pong(c)) == []

    refused = say(g, "hello")
    assert refused is not None and refused["error"] == "guest-read-only"
    refused = say(visitor, "hello")
    assert refused is not None and refused["error"] == "not-logged-in"
    assert lines(until_pong(c)) == []

    # Once the game is over, the players read the spectators' chat too; spectators
    # never read the players'.
    alternate(a, b, "1", "4", "2", "5", "3")
    backlog = ann.socket(game_id).expect("chat-backlog")["lines"]
    assert [(line["user"], line["text"]) for line in backlog] == [(ann.name, "good luck"), (carol.name, "nice opening")]
    backlog = carol.socket(game_id).expect("chat-backlog")["lines"]
    assert [(line["user"], line["text"]) for line in backlog] == [(carol.name, "nice opening")]
    assert bob.name


@pytest.mark.both_databases
def test_chat_is_rate_limited_per_player(people: Callable[[], Person], app_settings: Settings) -> None:
    """Five lines in ten seconds, whichever sockets they come from."""
    _, _, game_id, a, _ = start(people)
    carol = people().sign_up()
    first, second = carol.socket(game_id), carol.socket(game_id)
    for i in range(5):
        assert say(first if i % 2 else second, f"line {i}") is None
    refused = say(first, "one more")
    assert refused is not None and refused["error"] == "chat-too-fast"
    assert stored(app_settings, game_id) == (5, 0)
    assert say(a, "players are counted on their own") is None


def test_a_muted_player_is_hidden_and_a_report_is_kept(people: Callable[[], Person], app_settings: Settings) -> None:
    _, _, game_id, _, _ = start(people)
    carol, erin = people().sign_up(), people().sign_up()
    c, e = carol.socket(game_id), erin.socket(game_id)
    assert say(c, "first") is None
    line_id = lines_ids(until_pong(e))[0]

    e.send({"type": "chat-mute", "user": carol.name, "id": 1})
    assert e.expect("chat-muted")["muted"] == [carol.name]
    assert say(c, "unseen") is None
    assert lines(until_pong(e)) == []
    again = erin.socket(game_id).expect("chat-backlog")
    assert again["lines"] == [] and again["muted"] == [carol.name]
    e.send({"type": "chat-unmute", "user": carol.name, "id": 2})
    assert e.expect("chat-muted")["muted"] == []
    assert say(c, "seen") is None
    assert lines(until_pong(e)) == [(carol.name, "spectators", "seen")]

    e.send({"type": "chat-report", "line": line_id, "reason": "rude", "id": 3})
    assert e.expect("chat-reported")["line"] == line_id
    assert stored(app_settings, game_id) == (3, 1)


def lines_ids(messages: list[dict[str, Any]]) -> list[int]:
    return [m["line"]["id"] for m in messages if m["type"] == "chat"]


#: Chat frames a hostile client sends, and the error each gets.
BAD_CHAT_FRAMES = [
    ({"type": "chat"}, "bad-message"),
    ({"type": "chat", "text": 5}, "bad-message"),
    ({"type": "chat", "text": "   "}, "bad-text"),
    ({"type": "chat", "text": "x" * 141}, "bad-text"),
    ({"type": "chat", "text": "a\u0000b"}, "bad-text"),
    ({"type": "chat", "text": "bell\u0007"}, "bad-text"),
    ({"type": "chat", "text": "\u202eevil"}, "bad-text"),
    ({"type": "chat", "text": "\u200b"}, "bad-text"),  # a lone zero-width space shows nothing
    ({"type": "chat", "text": "\u3164 \u3164"}, "bad-text"),  # nor do Hangul fillers
    ({"type": "chat", "text": "one\u2028two"}, "bad-text"),  # a line separator
    ({"type": "chat", "text": "\u200fevil"}, "bad-text"),  # a right-to-left mark
    ({"type": "chat-mute"}, "bad-message"),
    ({"type": "chat-mute", "user": "nobody-at-all"}, "no-such-player"),
    ({"type": "chat-report", "line": True}, "bad-message"),
    ({"type": "chat-report", "line": 10**9}, "no-such-line"),
    ({"type": "chat-report", "line": "players"}, "bad-message"),
    # Past the databases' integers (PostgreSQL's 32 bits, SQLite's 64): refused unread.
    ({"type": "chat-report", "line": 2**31}, "bad-message"),
    ({"type": "chat-report", "line": 2**63}, "bad-message"),
    ({"type": "chat-report", "line": 10**400}, "bad-message"),
    # Names no account has, which a database's text would refuse (a NUL, a lone surrogate).
    ({"type": "chat-mute", "user": "a\u0000b"}, "bad-message"),
    ({"type": "chat-mute", "user": "\ud800"}, "bad-message"),
    ({"type": "chat-unmute", "user": "x" * 41}, "bad-message"),
]


@pytest.mark.both_databases  # each database refuses its own out-of-range numbers
def test_hostile_chat_frames_change_nothing(people: Callable[[], Person], app_settings: Settings) -> None:
    """Each frame in turn on one spectator's socket: its error, nothing stored, the
    socket still open and the game going on."""
    _, _, game_id, a, b = start(people)
    carol = people().sign_up()
    c = carol.socket(game_id)
    for n, (frame, error) in enumerate(BAD_CHAT_FRAMES):
        c.send(json.dumps({**frame, "id": f"hostile-{n}"}))
        assert c.expect("error", id=f"hostile-{n}")["error"] == error, frame
    assert stored(app_settings, game_id) == (0, 0)
    assert say(c, "still here") is None  # the socket carries on
    alternate(a, b, "5")
