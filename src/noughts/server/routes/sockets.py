"""The websocket protocol: one socket per game (players and spectators), one for the
lobby and one per tournament. Messages are JSON objects with a "type".

Client to server, on a game's socket (``/api/online/games/{id}/ws``):
  {"type": "move", "move": "5", "ply": 3, "id": 7}  play a move; `ply` is the number of
      plies the client saw played (a move for an older position is refused); `id` is
      echoed in the answer
  {"type": "resign" | "abort" | "draw-offer" | "draw-accept" | "draw-decline" |
      "takeback-request" | "takeback-accept" | "takeback-decline" | "rematch-offer" |
      "rematch-accept" | "rematch-decline" | "claim" | "flag"}
  {"type": "resync"}   the whole state again;   {"type": "ping"}
  {"type": "chat", "text": "good luck"}   a line in the game's chat (accounts only, not
      guests): in the players' channel for a player, the spectators' for anybody else
  {"type": "chat-mute" | "chat-unmute", "user": name}   hide (show again) a player's lines
  {"type": "chat-report", "line": 12, "reason": text}   report a line to the moderators

Server to client:
  {"type": "hello", "you": "x" | "o" | null, "user": name | null}   first, once; "you" is
      null for spectators and for a room's creator until the opponent joins (the
      state's "x" and "o" names tell the sides from then on)
  {"type": "state", "game": {...}}            the whole public state (on connect, resync)
  {"type": "ack", "id", "kind", "version", "ply"}   the actor's change is committed
  {"type": "event", "kind", "by", "move", "version", "ply", "deadline", "game": {...}}
  {"type": "event", "kind": "move", "by", "move", "version", "ply", "deadline",
      "patch": {"clock", "offers", "view": {...}}}   a move that does not end the game:
      what it changed, for the state of version - 1 (the view's fields are some of
      them; "move" goes at the end of "moves" and of the view's "moves", "ply" is also
      the view's ply)
  {"type": "presence", "version", "ply", "away": {"x": ms | null, "o": ms | null}}
  {"type": "error", "error": word, "message": text, "id"}   nothing was changed
  {"type": "chat-backlog", "lines": [...], "muted": [names], "channel"}   after the state:
      the newest chat lines the viewer may read, whom they mute, the channel they write in
  {"type": "chat", "line": {"id", "user", "channel", "text", "at"}}   a new chat line
  {"type": "chat-muted", "muted": [names], "id"}, {"type": "chat-reported", "line", "id"}
  {"type": "spectators", "count"}   how many watch the game (on this process), on
      opening and whenever it changes
  {"type": "pong"}

On a tournament's socket (``/api/online/tournaments/{id}/ws``), server to client only:
  {"type": "tournament", "id", "paired": {player name: game id}}   the tournament changed
      (a pairing, a game over, a join, its start or end): its page asks for it again,
      and a player named in "paired" has a new game
and {"type": "pong"} to a ping.

The version counts every change of the game: a client that sees one skipped sends
"resync" (and applies no patch until the state comes). Frames larger than `max_frame`
close the socket (1009); a socket that keeps sending faster than its rate allows
after being told is closed (1008). A socket closed with 1012 may have missed events
(the processes' Redis was away): reconnect.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from typing import Any
from urllib.parse import urlsplit

from fastapi import APIRouter, WebSocket
from starlette.websockets import WebSocketState

from noughts.server.online.actions import ACTIONS, ActionError, Change
from noughts.server.online.config import OnlineConfig
from noughts.server.online.realtime import LOBBY, RECONNECT, tournament_channel
from noughts.server.online.service import Online
from noughts.server.online.service.chat import ChatViewer, players_of
from noughts.server.online.sessions import COOKIE
from noughts.server.online.storage.store import UserRow
from noughts.server.online.storage.tournaments import TournamentError

router = APIRouter()
#: Events waiting for a slow socket before it is closed.
_QUEUE = 512


class _Socket:
    """A websocket's outgoing queue (written by one task, in order) and its rate budget."""

    def __init__(self, websocket: WebSocket, config: OnlineConfig) -> None:
        self.ws = websocket
        self.config = config
        self.queue: asyncio.Queue[str] = asyncio.Queue(_QUEUE)
        self.tokens = config.burst
        self.stamp = time.monotonic()
        self.refused = 0
        self.closing = False
        self.closer: asyncio.Future[None] | None = None

    def push(self, text: str) -> None:
        if self.closing:
            return
        if text == RECONNECT:
            # Events may have been lost (Redis was away): the client reconnects and
            # gets the whole state.
            self.closing = True
            self.closer = asyncio.ensure_future(self.close(1012, "reconnect: events may have been missed"))
            return
        try:
            self.queue.put_nowait(text)
        except asyncio.QueueFull:
            self.closing = True
            self.closer = asyncio.ensure_future(self.close(1008, "too slow: events piled up"))

    def send(self, message: dict[str, Any]) -> None:
        self.push(json.dumps(message))

    def error(self, error: str, message: str, ref: Any = None) -> None:
        self.send({"type": "error", "error": error, "message": message, "id": ref})

    async def write(self) -> None:
        while True:
            text = await self.queue.get()
            await self.ws.send_text(text)

    async def close(self, code: int, reason: str) -> None:
        self.closing = True
        # What is queued (the error frame saying why) goes out first.
        for _ in range(50):
            if self.queue.empty():
                break
            await asyncio.sleep(0.01)
        if self.ws.application_state == WebSocketState.CONNECTED:
            with contextlib.suppress(RuntimeError, OSError):
                await self.ws.close(code, reason)

    def allow(self) -> bool:
        """Token bucket: `rate` messages a second, `burst` at once."""
        now = time.monotonic()
        self.tokens = min(self.config.burst, self.tokens + (now - self.stamp) * self.config.rate)
        self.stamp = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        self.refused += 1
        return False

    async def receive(self) -> str | None:
        """The next text message within the limits; None when the socket is done."""
        while True:
            message = await self.ws.receive()
            if message["type"] == "websocket.disconnect":
                return None
            text: str | None = message.get("text")
            # Bytes, not characters: a frame of emoji is four times its length.
            size = len(text.encode()) if text is not None else len(message.get("bytes") or b"")
            if size > self.config.max_frame:
                self.error("too-large", f"a message has at most {self.config.max_frame} bytes; closing")
                await self.close(1009, "message too big")
                return None
            if not self.allow():
                if self.refused > self.config.flood_close_after:
                    self.error("flood", "too many messages; closing")
                    await self.close(1008, "flooding")
                    return None
                self.error("rate-limited", f"too many messages: at most {self.config.rate:g} a second")
                continue
            if text is None:
                self.error("text-only", "messages are JSON text frames")
                continue
            return text


def _same_origin(websocket: WebSocket) -> bool:
    """Browsers send the page's Origin; a socket opened from another site's page would
    otherwise ride on the player's cookie. Clients without an Origin are not browsers."""
    origin = websocket.headers.get("origin")
    return origin is None or urlsplit(origin).netloc == websocket.headers.get("host")


def _parse(sock: _Socket, text: str) -> dict[str, Any] | None:
    try:
        message = json.loads(text)
    except ValueError:
        sock.error("bad-json", "the message is not valid JSON")
        return None
    except RecursionError:
        # "[[[[...]]]]" nested a few thousand deep exhausts the parser's stack.
        sock.error("bad-json", "the message nests too deeply")
        return None
    if not isinstance(message, dict) or not isinstance(message.get("type"), str):
        sock.error("bad-message", 'a message is a JSON object with a "type" string')
        return None
    return message


async def _opened(websocket: WebSocket) -> tuple[Online, _Socket] | None:
    online: Online = websocket.app.state.online
    if not _same_origin(websocket):
        await websocket.close(1008, "cross-site websocket refused")
        return None
    await online.start()
    await websocket.accept()
    return online, _Socket(websocket, online.config)


@router.websocket("/api/online/games/{game_id}/ws")
async def game_socket(websocket: WebSocket, game_id: str) -> None:
    opened = await _opened(websocket)
    if opened is None:
        return
    online, sock = opened
    user = await online.accounts.user_for(websocket.cookies.get(COOKIE))
    try:
        row = await online.play.game(game_id)
    except ActionError as e:
        await _refuse(websocket, e, "no such game")
        return
    writer = asyncio.create_task(sock.write())
    sock.send({"type": "hello", "you": row.side_of(user.id) if user else None, "user": user.name if user else None})
    viewer = await online.chat.viewer(user)

    def listener(text: str) -> None:
        # A chat line reaches only those who may read it (its channel, their mutes).
        shown = viewer.frame(text)
        if shown is not None:
            sock.push(shown)

    live = await online.live.attach(row, listener)
    who = _who(user, sock)
    online.live.connected(who)
    # Counted as what they were on opening: a spectator who takes a seat counts as a
    # spectator until the page opens its socket again.
    watches = user is None or user.id not in players_of(row)
    try:
        if user is not None:
            await online.live.arrived(live, user.id)
        row = await online.play.game(game_id)
        sock.send({"type": "state", "game": await online.play.snapshot(row)})
        sock.send(await online.chat.backlog(row, viewer))
        if watches:
            online.live.watching(live, who, True)
        else:
            sock.push(live.spectators_frame())
        while (text := await sock.receive()) is not None:
            message = _parse(sock, text)
            if message is not None:
                await _handle(online, sock, game_id, user, viewer, message)
    finally:
        if user is not None:
            await online.live.left(live, user.id)
        await online.live.detach(live, listener)
        if watches:
            online.live.watching(live, who, False)
        online.live.disconnected(who)
        writer.cancel()


def _who(user: UserRow | None, sock: _Socket) -> str:
    """Whom a socket counts as: a person by their account, a visitor by the socket."""
    return f"user:{user.id}" if user else f"socket:{id(sock)}"


async def _handle(
    online: Online, sock: _Socket, game_id: str, user: UserRow | None, viewer: ChatViewer, message: dict[str, Any]
) -> None:
    kind = message["type"]
    ref = message.get("id")
    if not (ref is None or (isinstance(ref, int | str) and len(str(ref)) <= 40)):
        ref = None

    def acknowledge(change: Change) -> None:
        sock.send({"type": "ack", "id": ref, "kind": change.kind, "version": change.row.version, "ply": change.row.ply})

    try:
        if kind == "ping":
            sock.send({"type": "pong", "id": ref})
        elif kind == "resync":
            sock.send({"type": "state", "game": await online.play.snapshot(await online.play.game(game_id))})
        elif kind == "move":
            move, ply = message.get("move"), message.get("ply")
            if not isinstance(move, str) or not 0 < len(move) <= 16:
                raise ActionError("bad-message", 'a move message has "move": the move text, e.g. "5"')
            if ply is not None and (not isinstance(ply, int) or isinstance(ply, bool) or ply < 0):
                raise ActionError("bad-message", '"ply" is the number of plies played, 0 or more')
            await online.play.move(game_id, user, move, ply, acknowledge)
        elif kind == "chat":
            await online.chat.say(game_id, user, message.get("text"))
        elif kind in ("chat-mute", "chat-unmute"):
            muted = await online.chat.mute(viewer, user, message.get("user"), kind == "chat-mute")
            sock.send({"type": "chat-muted", "muted": muted, "id": ref})
        elif kind == "chat-report":
            await online.chat.report(game_id, viewer, user, message.get("line"), message.get("reason"))
            sock.send({"type": "chat-reported", "line": message.get("line"), "id": ref})
        elif kind in ACTIONS:
            await online.play.act(game_id, user, kind, acknowledge)
        else:
            raise ActionError("unknown-type", f"unknown message type {kind[:40]!r}")
    except ActionError as e:
        sock.error(e.error, e.message, ref)
        if e.error == "stale-ply":
            sock.send({"type": "state", "game": await online.play.snapshot(await online.play.game(game_id))})


async def _refuse(websocket: WebSocket, error: ActionError, reason: str) -> None:
    """A socket for something that is not there: the error, then closed with 4404."""
    await websocket.send_text(json.dumps({"type": "error", "error": error.error, "message": error.message, "id": None}))
    await websocket.close(4404, reason)


async def _relay(online: Online, sock: _Socket, channel: str, what: str) -> None:
    """A listen-only socket, until it closes: what `channel` publishes goes out; a ping
    is answered, anything else refused (nothing changes)."""
    writer = asyncio.create_task(sock.write())
    await online.fanout.subscribe(channel, sock.push)
    try:
        while (text := await sock.receive()) is not None:
            message = _parse(sock, text)
            if message is None:
                continue
            if message["type"] == "ping":
                sock.send({"type": "pong", "id": message.get("id")})
            else:
                sock.error("unknown-type", f"{what} only answers ping")
    finally:
        await online.fanout.unsubscribe(channel, sock.push)
        writer.cancel()


@router.websocket("/api/online/lobby/ws")
async def lobby_socket(websocket: WebSocket) -> None:
    """The open rooms, sent whole on connect and whenever they change."""
    opened = await _opened(websocket)
    if opened is None:
        return
    online, sock = opened
    who = _who(await online.accounts.user_for(websocket.cookies.get(COOKIE)), sock)
    online.live.connected(who)
    try:
        sock.push(await online.play.lobby_message())
        await _relay(online, sock, LOBBY, "the lobby socket")
    finally:
        online.live.disconnected(who)


@router.websocket("/api/online/tournaments/{tournament_id}/ws")
async def tournament_socket(websocket: WebSocket, tournament_id: str) -> None:
    """A tournament's news, as it happens (see the module's docstring)."""
    opened = await _opened(websocket)
    if opened is None:
        return
    online, sock = opened
    try:
        await online.store.call(online.tournaments.book.get, tournament_id)
    except TournamentError as e:
        await _refuse(websocket, e, "no such tournament")
        return
    await _relay(online, sock, tournament_channel(tournament_id), "a tournament's socket")
