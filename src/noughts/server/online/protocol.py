"""The websocket protocol as types: every frame a client may send and every frame the
server sends, on a game's socket, the lobby's, a tournament's and a player's own.

A client frame is parsed once, by `decode`, into one of `ClientFrame`'s models (a union
on "type"), every field bounded before anything reads it: a number out of range, a
name with a control character, an unknown type is a `FrameError` with a stable word
and nothing else happens. A server frame is one of the models below, made into text by
`encode`. `schema()` is the JSON Schema of both directions, published at
/api/online/socket-schema.json beside /openapi.json; docs/online.md's tables, the
browser client and the websocket fuzzer are checked against it.

A new message is a model here, its handler in routes/sockets.py and its JavaScript.
"""

from __future__ import annotations

import json
from typing import Annotated, Any, ClassVar, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

from noughts.server.online.actions import ACTIONS
from noughts.server.online.texts import text_fault

__all__ = [
    "ENVELOPE_HEAD",
    "Ack",
    "Action",
    "ChallengeNews",
    "ChallengeView",
    "ChatBacklog",
    "ChatEnvelope",
    "ChatLine",
    "ChatLineFrame",
    "ChatMute",
    "ChatMuted",
    "ChatReport",
    "ChatReported",
    "ChatSay",
    "ClientFrame",
    "ClientMessage",
    "ErrorFrame",
    "Event",
    "Frame",
    "FrameError",
    "Hello",
    "Inbox",
    "Lobby",
    "Move",
    "NotificationFrame",
    "NotificationView",
    "Ping",
    "Pong",
    "Presence",
    "Resync",
    "ServerFrame",
    "Spectators",
    "StateFrame",
    "TournamentNews",
    "deadline_of",
    "decode",
    "encode",
    "reference",
    "schema",
]

#: The largest whole number a client may send (JavaScript's safe integers): beyond it a
#: number is not one the browser could have meant, and the databases' integers end.
SAFE_INT = 2**53 - 1
#: Row ids in both databases are 32-bit signed integers (PostgreSQL's `integer`).
ROW_ID_MAX = 2**31 - 1
#: Plies a game may reach (play.MAX_PLIES refuses the move past it with its own words).
PLY_MAX = 100_000
#: A move's own timing (milliseconds): a correspondence move may take weeks; a lag
#: beyond a minute is no network's.
TIME_MAX = 2**31 - 1
LAG_MAX = 60_000
#: Characters of a frame's reference ("id"), echoed in the answer.
REF_LENGTH = 40
#: Characters of a chat line or a report's reason as sent; chat.clean applies the
#: configured, shorter limits with their own words.
TEXT_LENGTH = 1000
#: Characters of a player's name (accounts' NAME_MAX, guests' names included).
NAME_LENGTH = 40


class FrameError(Exception):
    """A client frame refused before anything happened: `error` is the word the error
    frame carries, `message` says what is wrong; `ref` the frame's "id" if it had one."""

    def __init__(self, error: str, message: str, ref: int | str | None = None) -> None:
        super().__init__(message)
        self.error, self.message, self.ref = error, message, ref


def _shown_text(text: str) -> str:
    # A name or a line others read: what chat refuses (control characters, a NUL, lone
    # surrogates, bidirectional overrides) is refused here, before any database sees it.
    fault = text_fault(text)
    if fault is not None and fault != "is empty":
        raise ValueError(f"it {fault}")
    return text


Ref = Annotated[int, Field(ge=-SAFE_INT, le=SAFE_INT)] | Annotated[str, Field(max_length=REF_LENGTH)] | None
Name = Annotated[str, Field(min_length=1, max_length=NAME_LENGTH), AfterValidator(_shown_text)]
#: A chat line or a reason: its characters are chat.clean's to judge ("bad-text").
Text = Annotated[str, Field(max_length=TEXT_LENGTH)]


class Frame(BaseModel):
    # The schema of what is sent says a field with a default is there all the same.
    model_config = ConfigDict(extra="ignore", frozen=True, json_schema_serialization_defaults_required=True)

    #: Fields left out of the text when they are None (others are sent as null).
    omitted_when_none: ClassVar[frozenset[str]] = frozenset()


class _ClientFrame(Frame):
    # Strict: 3 is a ply, "3", 3.0 and true are not.
    model_config = ConfigDict(**Frame.model_config, strict=True)

    id: Ref = None
    """Echoed in the answer (its ack or error), so that a client matches them."""


# --- client to server -------------------------------------------------------------


class Move(_ClientFrame):
    """Play a move. `ply`: the plies the client saw played (a move for an older
    position is refused with `stale-ply` and the state sent again)."""

    type: Literal["move"]
    move: Annotated[str, Field(min_length=1, max_length=16)]
    ply: Annotated[int, Field(ge=0, le=PLY_MAX)] | None = None
    #: The player's own timing of the move, for lag compensation
    #: (`noughts.server.online.actions.MoveTiming`): milliseconds from the position's
    #: arrival to this move by the client's clock, and its estimate of the network's
    #: one-way delay (half its ping's round trip).
    spent: Annotated[int, Field(ge=0, le=TIME_MAX)] | None = None
    lag: Annotated[int, Field(ge=0, le=LAG_MAX)] | None = None


class Action(_ClientFrame):
    """One of a player's actions on the game besides a move."""

    type: Literal[ACTIONS]  # type: ignore[valid-type]


class Resync(_ClientFrame):
    """The whole state again (a client that saw a version skipped)."""

    type: Literal["resync"]


class Ping(_ClientFrame):
    type: Literal["ping"]


class ChatSay(_ClientFrame):
    """A line in the game's chat (accounts, not guests): in the players' channel for a
    player, the spectators' for anybody else."""

    type: Literal["chat"]
    text: Text


class ChatMute(_ClientFrame):
    """Hide (show again) a player's lines, everywhere."""

    type: Literal["chat-mute", "chat-unmute"]
    user: Name


class ChatReport(_ClientFrame):
    """Report a chat line (its id) to the moderators."""

    type: Literal["chat-report"]
    line: Annotated[int, Field(ge=1, le=ROW_ID_MAX)]
    reason: Text | None = None


#: What a client sends, parsed.
ClientMessage = Move | Action | Resync | Ping | ChatSay | ChatMute | ChatReport
ClientFrame = Annotated[ClientMessage, Field(discriminator="type")]
_CLIENT: TypeAdapter[Any] = TypeAdapter(ClientFrame)
#: Every type a client may send, and the models that take them.
CLIENT_TYPES: frozenset[str] = frozenset(
    value
    for model in (Move, Action, Resync, Ping, ChatSay, ChatMute, ChatReport)
    for value in model.model_fields["type"].annotation.__args__  # type: ignore[union-attr]
)


def reference(message: dict[str, Any]) -> int | str | None:
    """A frame's "id" if it is one the answer may echo, else None: a whole number a
    browser could send, or a short text that UTF-8 can carry back (JSON's escape of half
    a UTF-16 pair alone, "\\ud800", makes one it cannot)."""
    ref = message.get("id")
    if isinstance(ref, bool) or not isinstance(ref, int | str):
        return None
    if isinstance(ref, int):
        return ref if abs(ref) <= SAFE_INT else None
    if len(ref) > REF_LENGTH:
        return None
    try:
        ref.encode("utf-8")
    except UnicodeEncodeError:
        return None
    return ref


def decode(text: str, allowed: frozenset[str] = CLIENT_TYPES) -> ClientMessage:
    """The client frame `text` holds, if its type is `allowed` on this socket; else
    FrameError: `bad-json` (not JSON, or nested past the parser), `bad-message` (not an
    object with a "type" string, or a field missing, of the wrong kind or out of its
    bounds) or `unknown-type`."""
    try:
        # Numbers of more than 4,300 digits are refused by the parser itself (ValueError).
        message = json.loads(text)
    except RecursionError:
        raise FrameError("bad-json", "the message nests too deeply") from None
    except ValueError:
        raise FrameError("bad-json", "the message is not valid JSON") from None
    if not isinstance(message, dict) or not isinstance(message.get("type"), str):
        raise FrameError("bad-message", 'a message is a JSON object with a "type" string')
    ref = reference(message)
    kind: str = message["type"]
    if kind not in allowed:
        known = "" if kind in CLIENT_TYPES else "unknown "
        raise FrameError("unknown-type", f"{known}message type {kind[:40]!r} is not taken here", ref)
    try:
        frame: ClientMessage = _CLIENT.validate_python(message)
    except ValidationError as e:
        raise FrameError("bad-message", f"a {kind!r} message: {_first_fault(e)}", ref) from None
    return frame


def _first_fault(error: ValidationError) -> str:
    fault = error.errors(include_url=False, include_input=False)[0]
    where = ".".join(str(part) for part in fault["loc"][1:]) or "the message"
    return f'"{where}": {fault["msg"]}'


# --- server to client -------------------------------------------------------------


class Hello(Frame):
    """First, once, on a game's socket. `you`: null for spectators and for a room's
    creator until the opponent joins (the state's "x" and "o" tell the sides then)."""

    type: Literal["hello"] = "hello"
    you: Literal["x", "o"] | None
    user: str | None


class StateFrame(Frame):
    """The whole public state of the game (on opening, on resync, after a stale ply)."""

    type: Literal["state"] = "state"
    game: dict[str, Any]


class Ack(Frame):
    """The sender's change is committed (its event follows)."""

    type: Literal["ack"] = "ack"
    id: Ref
    kind: str
    version: int
    ply: int


class Event(Frame):
    """A change of the game, to everybody on its socket. A move that does not end the
    game carries `patch` (what it changed, for the state of version - 1: "move" goes at
    the end of "moves" and of the view's "moves", "ply" is also the view's); any other
    change carries the whole `game`. `deadline`: when the clock of the side to move
    runs out (ms since the epoch), for every process's clock watch."""

    omitted_when_none: ClassVar[frozenset[str]] = frozenset({"patch", "game"})

    type: Literal["event"] = "event"
    deadline: int | None
    kind: str
    by: str | None
    move: str | None
    version: int
    ply: int
    patch: dict[str, Any] | None = None
    game: dict[str, Any] | None = None


class Presence(Frame):
    """Who is away (since when, ms), after a player's socket opened or closed."""

    type: Literal["presence"] = "presence"
    version: int
    ply: int
    away: dict[Literal["x", "o"], int | None]


class ErrorFrame(Frame):
    """Nothing was changed: `error` a stable word, `message` for the player."""

    type: Literal["error"] = "error"
    error: str
    message: str
    id: Ref = None


class ChatLine(Frame):
    id: int
    user: str
    channel: Literal["players", "spectators"]
    text: str
    at: int


class ChatBacklog(Frame):
    """After the state: the newest lines the viewer may read, whom they mute, the
    channel they write in."""

    type: Literal["chat-backlog"] = "chat-backlog"
    lines: list[ChatLine]
    muted: list[str]
    channel: Literal["players", "spectators"] | None


class ChatLineFrame(Frame):
    """A new chat line the viewer may read."""

    type: Literal["chat"] = "chat"
    line: ChatLine


class ChatMuted(Frame):
    type: Literal["chat-muted"] = "chat-muted"
    muted: list[str]
    id: Ref = None


class ChatReported(Frame):
    type: Literal["chat-reported"] = "chat-reported"
    line: int
    id: Ref = None


class Spectators(Frame):
    """How many watch the game (on this process): on opening and when it changes."""

    type: Literal["spectators"] = "spectators"
    count: int


class Pong(Frame):
    type: Literal["pong"] = "pong"
    id: Ref = None


class Lobby(Frame):
    """The open rooms, whole, on the lobby's socket: on opening and when they change."""

    type: Literal["lobby"] = "lobby"
    rooms: list[dict[str, Any]]


class TournamentNews(Frame):
    """The tournament changed (a pairing, a game over, a join, its start or end): its
    page asks for it again; a player named in `paired` has a new game."""

    type: Literal["tournament"] = "tournament"
    id: str
    paired: dict[str, str]


class ChallengeView(Frame):
    """A challenge between two players, as both see it. `state`: pending, accepted (then
    `game` is its game), declined (with `reason`), cancelled or expired; `expires_at`
    (ms since the epoch) is when a pending one expires."""

    id: str
    by: str
    to: str
    spec: str
    title: str
    rated: bool
    side: Literal["x", "o", "random"]
    minutes: float | None
    increment: float | None
    days: int | None
    state: Literal["pending", "accepted", "declined", "cancelled", "expired"]
    reason: str | None
    reason_text: str | None
    game: str | None
    expires_at: int


class ChallengeNews(Frame):
    """On a player's own socket: a challenge to them or from them is new, or was
    answered (accepted: both go to `challenge.game`)."""

    type: Literal["challenge"] = "challenge"
    challenge: ChallengeView


class NotificationView(Frame):
    """One notification of the header's bell. `kind`: challenge, your-move,
    tournament-start or rematch; what it points at in `game`, `challenge`, `tournament`."""

    id: int
    kind: Literal["challenge", "your-move", "tournament-start", "rematch"]
    actor: str | None
    game: str | None
    challenge: str | None
    tournament: str | None
    text: str
    read: bool
    at: int


class NotificationFrame(Frame):
    """On a player's own socket: a new notification, and how many are unread now."""

    type: Literal["notification"] = "notification"
    notification: NotificationView
    unread: int


class Inbox(Frame):
    """First on a player's own socket: the challenges waiting for an answer (to them and
    from them) and how many notifications are unread."""

    type: Literal["inbox"] = "inbox"
    incoming: list[ChallengeView]
    outgoing: list[ChallengeView]
    unread: int


class ChatEnvelope(Frame):
    """Not sent to clients: a chat line as published between processes, with what each
    socket needs to decide whether its viewer reads it (`ChatViewer.frame`)."""

    type: Literal["chat-envelope"] = "chat-envelope"
    line: dict[str, Any]
    players: list[int]
    finished: bool


ServerFrame = Annotated[
    Hello
    | StateFrame
    | Ack
    | Event
    | Presence
    | ErrorFrame
    | ChatBacklog
    | ChatLineFrame
    | ChatMuted
    | ChatReported
    | Spectators
    | Pong
    | Lobby
    | TournamentNews
    | ChallengeNews
    | NotificationFrame
    | Inbox,
    Field(discriminator="type"),
]

#: How a published chat envelope's text starts (`encode` writes "type" first).
ENVELOPE_HEAD = '{"type":"chat-envelope"'
_EVENT_HEAD = '{"type":"event"'


def encode(frame: Frame) -> str:
    """A server frame as the text sent: compact JSON, "type" first."""
    absent = {name for name in frame.omitted_when_none if getattr(frame, name) is None}
    return frame.model_dump_json(exclude=absent or None)


def deadline_of(text: str) -> tuple[bool, int | None]:
    """Whether the published frame `text` is a game's event, and its deadline."""
    if not text.startswith(_EVENT_HEAD):
        return False, None
    return True, Event.model_validate_json(text).deadline


def schema() -> dict[str, Any]:
    """The JSON Schema of the protocol: "client" (what a client may send) and "server"
    (what it receives), each a union on "type" with its models in "$defs"."""
    client = TypeAdapter(ClientFrame).json_schema(ref_template="#/$defs/{model}")
    # As sent: a field with a default is always there (the event's `patch` or `game`
    # is left out rather than null).
    server = TypeAdapter(ServerFrame).json_schema(ref_template="#/$defs/{model}", mode="serialization")
    defs = {**client.pop("$defs", {}), **server.pop("$defs", {})}
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "Noughts websocket protocol",
        "description": (__doc__ or "").strip().split("\n\n")[0],
        "client": client,
        "server": server,
        "$defs": defs,
    }
