"""The websocket protocol's one definition (noughts.server.online.protocol) against
what uses it: the handlers of a game's socket, the published JSON Schema, the docs'
tables and the browser client; and its parser against anything a client may send."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import TypeAdapter

from noughts.server.online import protocol
from noughts.server.online.protocol import CLIENT_TYPES, ErrorFrame, Event, FrameError, ServerFrame, decode, encode
from noughts.server.routes.sockets import HANDLERS
from server.online.frames import CLIENT_MODELS, hostile_frames, valid

ROOT = Path(__file__).resolve().parents[3]
WEB = ROOT / "src" / "noughts" / "web" / "js"


def _types(section: dict[str, Any], defs: dict[str, Any]) -> set[str]:
    """The "type" values a schema's union allows."""
    found: set[str] = set()
    for ref in section["discriminator"]["mapping"].values():
        kind = defs[ref.rsplit("/", 1)[1]]["properties"]["type"]
        found.update(kind.get("enum", [kind.get("const")]))
    return found


def test_every_client_type_has_its_handler_and_the_schema_says_so() -> None:
    schema = protocol.schema()
    assert set(HANDLERS) == CLIENT_TYPES == _types(schema["client"], schema["$defs"])
    server = _types(schema["server"], schema["$defs"])
    assert {"hello", "state", "ack", "event", "error", "pong", "lobby", "tournament"} <= server
    assert not server & {"chat-envelope"}  # between processes only


def test_the_schema_is_served_beside_openapi() -> None:
    from fastapi.testclient import TestClient

    from noughts.server import create_app

    with TestClient(create_app()) as client:
        answer = client.get("/api/online/socket-schema.json")
        assert answer.status_code == 200
        assert answer.json() == json.loads(json.dumps(protocol.schema()))
        assert "/api/online/socket-schema.json" in client.get("/openapi.json").json()["paths"]


def test_the_docs_tables_name_every_frame() -> None:
    """docs/online.md's protocol section names every type each side sends, and no other."""
    text = (ROOT / "docs" / "online.md").read_text()
    section = text.split("## The websocket protocol", 1)[1].split("\n## ", 1)[0]
    schema = protocol.schema()
    named = set(re.findall(r"`([a-z-]+)`", section)) | set(re.findall(r'"type": "([a-z-]+)"', section))
    every = _types(schema["client"], schema["$defs"]) | _types(schema["server"], schema["$defs"])
    assert every <= named, sorted(every - named)


def _sent_by_the_page() -> set[str]:
    """The types the browser's online modules send: `send({ type: "..." })` literals, and
    the action buttons' types (literals and the offers' `${kind}-accept`/`-decline`)."""
    sent: set[str] = set()
    for path in (WEB / "online").glob("*.js"):
        source = path.read_text()
        sent.update(re.findall(r'send\(\{ type: "([a-z-]+)"', source))
        # A label as written or as translated: `button("Abort", "abort")`, `button(t("Abort"), "abort")`.
        sent.update(re.findall(r'(?:button|confirmed)\((?:t\()?"[^"]*"\)?, "([a-z-]+)"', source))
        # The offers' kinds, listed in the loop or in the array it walks (`const offers = [...]`).
        loops = re.findall(r"for \(const \[kind, [^\]]*\] of \[(.*?)\]\) \{", source)
        loops += re.findall(r"const offers = \[(.*?)\];\n", source)
        kinds = [kind for loop in loops for kind in re.findall(r'\["([a-z]+)", ', loop)]
        sent.update(f"{kind}-{suffix}" for kind in kinds for suffix in re.findall(r"`\$\{kind\}-([a-z]+)`", source))
    return sent


def _read_by_the_page() -> set[str]:
    read: set[str] = set()
    for path in (WEB / "online").glob("*.js"):
        read.update(re.findall(r'message\.type === "([a-z-]+)"', path.read_text()))
    return read


def test_the_browser_sends_and_reads_only_the_schemas_frames() -> None:
    schema = protocol.schema()
    sent, read = _sent_by_the_page(), _read_by_the_page()
    # Enough found that the patterns above still match the page's code.
    assert {"move", "resync", "chat", "chat-mute", "chat-report", "resign", "draw-accept", "takeback-decline"} <= sent
    assert sent <= _types(schema["client"], schema["$defs"]), sorted(sent - CLIENT_TYPES)
    server = _types(schema["server"], schema["$defs"])
    assert {"state", "event", "error", "chat", "lobby"} <= read
    assert read <= server, sorted(read - server)


@pytest.mark.parametrize("model", CLIENT_MODELS, ids=lambda m: m.__name__)
@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_every_frame_the_schema_allows_is_taken_as_it_was_sent(model: type[Any], data: st.DataObject) -> None:
    """Frames generated from each model's JSON Schema (what a client reading the schema
    would send) parse to that model, each field as sent."""
    frame = data.draw(valid(model))
    try:
        parsed = decode(json.dumps(frame))
    except FrameError as e:
        # The schema cannot say what a name's characters may be (no control characters,
        # no lone surrogates): those alone are refused.
        assert e.error == "bad-message" and "control characters" in e.message, (frame, e.message)
        return
    assert type(parsed) is model
    assert {k: v for k, v in parsed.model_dump().items() if k in frame} == frame


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)


@settings(max_examples=100, deadline=None)
@given(
    kind=st.sampled_from([*sorted(CLIENT_TYPES), "", "hello", "MOVE"]),
    fields=st.dictionaries(st.sampled_from(["move", "ply", "id", "text", "user", "line", "reason"]), JSON),
)
def test_any_frame_is_taken_or_refused_with_a_word(kind: str, fields: dict[str, Any]) -> None:
    """Whatever the fields hold, a frame parses or is a FrameError: never another
    exception, which would end the socket's handler."""
    try:
        frame = decode(json.dumps({"type": kind, **fields}))
    except FrameError as e:
        assert e.error in {"bad-message", "unknown-type"}
    else:
        assert frame.type == kind


@pytest.mark.parametrize(
    ("text", "error"),
    [
        ('{"type": "move", "move": "5", "ply": ' + "9" * 5000 + "}", "bad-json"),  # past int's text limit
        ('{"type": "move", "move": "5", "ply": 1e400}', "bad-message"),
        ('{"type": "move", "move": "5", "ply": 3.0}', "bad-message"),
        ('{"type": "move", "move": "5", "ply": true}', "bad-message"),
        ('{"type": "move", "move": "5", "ply": "3"}', "bad-message"),
        ('{"type": "chat-report", "line": 2147483648}', "bad-message"),
        ('{"type": "chat-report", "line": 9223372036854775808}', "bad-message"),
        ('{"type": "chat-mute", "user": "a\\u0000b"}', "bad-message"),
        ('{"type": "chat-mute", "user": "\\udc00"}', "bad-message"),
        ('{"type": "chat-mute", "user": "a\\u202eb"}', "bad-message"),
        ("[" * 100_000, "bad-json"),
        ('{"type": 5}', "bad-message"),
        ('{"type": "hello"}', "unknown-type"),
    ],
)
def test_what_no_handler_could_take_is_refused_before_one_runs(text: str, error: str) -> None:
    with pytest.raises(FrameError) as refused:
        decode(text)
    assert refused.value.error == error


def test_every_frame_just_past_the_schema_is_refused() -> None:
    rng = random.Random(5)
    for _ in range(400):
        frame = hostile_frames(rng)
        with pytest.raises(FrameError) as refused:
            decode(json.dumps(frame))
        assert refused.value.error == "bad-message", frame


def test_a_refusal_echoes_the_frames_id_when_it_has_one() -> None:
    with pytest.raises(FrameError) as refused:
        decode('{"type": "move", "id": 12, "ply": -1, "move": "5"}')
    assert refused.value.ref == 12 and '"ply"' in refused.value.message
    with pytest.raises(FrameError) as refused:
        decode('{"type": "move", "id": ' + str(2**60) + ', "move": ""}')
    assert refused.value.ref is None  # not an id a browser could match


@pytest.mark.parametrize("ref", ['"\\ud800"', '"a\\udc00"', '"\\ud83d"'])
@pytest.mark.parametrize("frame", ['{"type": "ping", "id": %s}', '{"type": "move", "id": %s, "ply": -1}'])
def test_an_id_utf_8_cannot_carry_is_not_echoed(frame: str, ref: str) -> None:
    """JSON's escape of half a UTF-16 pair alone made an id the error frame could not
    be written with: the handler raised, and the socket ended."""
    with pytest.raises(FrameError) as refused:
        decode(frame % ref)
    assert refused.value.ref is None
    answer = encode(ErrorFrame(error=refused.value.error, message=refused.value.message, id=refused.value.ref))
    assert json.loads(answer)["error"] == "bad-message"
    pair = decode('{"type": "ping", "id": "\\ud83d\\ude00"}')  # a whole pair is its character
    assert pair.id == "\U0001f600"


def test_the_deadline_is_the_events_field() -> None:
    event = Event(deadline=1_700_000_000_123, kind="move", by="x", move="5", version=3, ply=1, patch={})
    assert protocol.deadline_of(encode(event)) == (True, 1_700_000_000_123)
    assert "game" not in json.loads(encode(event))  # a move's event carries its patch alone
    resigned = Event(deadline=None, kind="resign", by="o", move=None, version=4, ply=1)
    assert protocol.deadline_of(encode(resigned)) == (True, None)
    # A chat line that holds an event's text is not an event.
    line = protocol.ChatLine(id=1, user="ann", channel="players", text='{"type":"event","deadline":1}', at=0)
    assert protocol.deadline_of(encode(protocol.ChatLineFrame(line=line))) == (False, None)


def test_every_server_frame_reads_back_as_the_schema_says() -> None:
    frames = [
        protocol.Hello(you="x", user="ann"),
        protocol.StateFrame(game={"id": "g"}),
        protocol.Ack(id=7, kind="move", version=2, ply=1),
        Event(deadline=None, kind="start", by=None, move=None, version=1, ply=0, game={}),
        protocol.Presence(version=1, ply=0, away={"x": None, "o": 5}),
        protocol.ErrorFrame(error="bad-json", message="the message is not valid JSON"),
        protocol.ChatBacklog(lines=[], muted=["bob"], channel="spectators"),
        protocol.ChatMuted(muted=[], id="a"),
        protocol.ChatReported(line=3, id=None),
        protocol.Spectators(count=2),
        protocol.Pong(id=1),
        protocol.Lobby(rooms=[]),
        protocol.TournamentNews(id="t", paired={"ann": "g"}),
    ]
    server: TypeAdapter[Any] = TypeAdapter(ServerFrame)
    for frame in frames:
        text = encode(frame)
        assert text.startswith('{"type":"'), text  # "type" first, as deadline_of reads it
        assert server.validate_json(text) == frame
