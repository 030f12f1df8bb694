"""The websocket routes: one socket per game (players and spectators), one for the
lobby, one per tournament and a player's own (their challenges and notifications). What each side sends is typed in
`noughts.server.online.protocol` (its JSON Schema at /api/online/socket-schema.json;
docs/online.md tables it): a client frame is parsed once there and handled here by
the entry of `HANDLERS` for its type.

The version counts every change of the game: a client that sees one skipped sends
"resync" (and applies no patch until the state comes). Frames larger than `max_frame`
close the socket (1009); a socket that keeps sending faster than its rate allows
after being told is closed (1008). A socket closed with 1012 may have missed events
(the processes' Redis was away): reconnect.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from fastapi import APIRouter, WebSocket
from starlette.websockets import WebSocketDisconnect, WebSocketState

from noughts.server.online.actions import ACTIONS, ActionError, Change
from noughts.server.online.config import OnlineConfig
from noughts.server.online.protocol import (
    Ack,
    Action,
    ChatMute,
    ChatMuted,
    ChatReport,
    ChatReported,
    ChatSay,
    ClientMessage,
    ErrorFrame,
    Frame,
    FrameError,
    Hello,
    Move,
    Ping,
    Pong,
    Resync,
    StateFrame,
    decode,
    encode,
    schema,
)
from noughts.server.online.realtime import LOBBY, RECONNECT, tournament_channel, user_channel
from noughts.server.online.service import Online
from noughts.server.online.service.chat import ChatViewer, players_of
from noughts.server.online.sessions import COOKIE
from noughts.server.online.storage.db import DATABASE_AWAY, DATABASE_AWAY_ERRORS, database_away
from noughts.server.online.storage.store import UserRow

log = logging.getLogger(__name__)
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
        self.resyncs, self.resynced = config.resync_burst, time.monotonic()
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

    def send(self, frame: Frame) -> None:
        self.push(encode(frame))

    def error(self, error: str, message: str, ref: int | str | None = None) -> None:
        self.send(ErrorFrame(error=error, message=message, id=ref))

    async def write(self) -> None:
        """Sends what is queued, in order, until the socket is gone."""
        while True:
            text = await self.queue.get()
            try:
                await self.ws.send_text(text)
            except Exception:  # the client left (its socket closed under us): nothing to tell it
                self.closing = True
                return

    async def close(self, code: int, reason: str) -> None:
        self.closing = True
        # What is queued (the error frame saying why) goes out first.
        for _ in range(50):
            if self.queue.empty():
                break
            await asyncio.sleep(0.01)
        if self.ws.application_state == WebSocketState.CONNECTED:
            # The client may have gone already: then there is nobody to tell.
            with contextlib.suppress(RuntimeError, OSError, WebSocketDisconnect):
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

    def allow_resync(self) -> bool:
        """A resync reads the whole game: `resync_burst` at once, then one every
        `resync_every` seconds."""
        now = time.monotonic()
        self.resyncs = min(self.config.resync_burst, self.resyncs + (now - self.resynced) / self.config.resync_every)
        self.resynced = now
        if self.resyncs >= 1:
            self.resyncs -= 1
            return True
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


@contextlib.asynccontextmanager
async def _opened(websocket: WebSocket) -> AsyncIterator[tuple[Online, _Socket, UserRow | None] | None]:
    """The socket accepted, with whose it is; None (and closed) when it is refused: from
    another site's page, or one more than its visitor may hold open (an account's, or an
    address's for those without one)."""
    online: Online = websocket.app.state.online
    if not _same_origin(websocket):
        await websocket.close(1008, "cross-site websocket refused")
        yield None
        return
    await online.start()
    await websocket.accept()
    user = await online.accounts.user_for(websocket.cookies.get(COOKIE))
    config = online.config
    if user is not None:
        visitor, most = f"user:{user.id}", config.sockets_per_account
    else:
        visitor, most = f"address:{websocket.client.host if websocket.client else '?'}", config.sockets_per_address
    if not online.live.visit(visitor, most):
        whose = "an account" if user is not None else "an address without an account"
        error = ActionError("too-many-sockets", f"{whose} may have {most} sockets open at once: close a page")
        await _refuse(websocket, error, "too many sockets", 1008)
        yield None
        return
    try:
        yield online, _Socket(websocket, config), user
    finally:
        online.live.left_visit(visitor)


@router.websocket("/api/online/games/{game_id}/ws")
async def game_socket(websocket: WebSocket, game_id: str) -> None:
    try:
        async with _opened(websocket) as opened:
            if opened is not None:
                await _game_socket(*opened, game_id)
    except DATABASE_AWAY_ERRORS as e:
        # Opening needs the game and the viewer: the client is told, with a close
        # code that says to come back (1013, try again later), not dropped.
        database_away(e)
        await _refuse(websocket, ActionError("database-unavailable", DATABASE_AWAY), "try again later", 1013)


async def _game_socket(online: Online, sock: _Socket, user: UserRow | None, game_id: str) -> None:
    websocket = sock.ws
    try:
        row = await online.play.game(game_id)
    except ActionError as e:
        await _refuse(websocket, e, "no such game")
        return
    writer = asyncio.create_task(sock.write())
    sock.send(Hello(you=row.side_of(user.id) if user else None, user=user.name if user else None))  # type: ignore[arg-type]
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
        sock.send(StateFrame(game=await online.play.snapshot(row)))
        sock.send(await online.chat.backlog(row, viewer))
        if watches:
            online.live.watching(live, who, True)
        else:
            sock.push(live.spectators_frame())
        here = _Here(online, sock, game_id, user, viewer)
        while (text := await sock.receive()) is not None:
            await _handle(here, text)
    finally:
        if user is not None:
            await online.live.left(live, user.id)
        await online.live.detach(live, listener)
        if watches:
            online.live.watching(live, who, False)
        online.live.disconnected(who)
        await _stop(writer)


async def _stop(writer: asyncio.Task[None]) -> None:
    writer.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await writer


def _who(user: UserRow | None, sock: _Socket) -> str:
    """Whom a socket counts as: a person by their account, a visitor by the socket."""
    return f"user:{user.id}" if user else f"socket:{id(sock)}"


@dataclass(frozen=True)
class _Here:
    """A game's socket, as its handlers see it: whose it is and where."""

    online: Online
    sock: _Socket
    game_id: str
    user: UserRow | None
    viewer: ChatViewer

    async def send_state(self) -> None:
        self.sock.send(StateFrame(game=await self.online.play.snapshot(await self.online.play.game(self.game_id))))

    def acknowledge(self, ref: int | str | None) -> Callable[[Change], None]:
        def sent(change: Change) -> None:
            self.sock.send(Ack(id=ref, kind=change.kind, version=change.row.version, ply=change.row.ply))

        return sent


async def _ping(here: _Here, frame: Ping) -> None:
    here.sock.send(Pong(id=frame.id))


async def _resync(here: _Here, frame: Resync) -> None:
    if not here.sock.allow_resync():
        every = here.online.config.resync_every
        raise ActionError("rate-limited", f"the whole state is sent again once every {every:g} seconds at most")
    await here.send_state()


async def _move(here: _Here, frame: Move) -> None:
    await here.online.play.move(
        here.game_id, here.user, frame.move, frame.ply, here.acknowledge(frame.id), frame.spent, frame.lag
    )


async def _act(here: _Here, frame: Action) -> None:
    await here.online.play.act(here.game_id, here.user, frame.type, here.acknowledge(frame.id))


async def _chat(here: _Here, frame: ChatSay) -> None:
    await here.online.chat.say(here.game_id, here.user, frame.text)


async def _mute(here: _Here, frame: ChatMute) -> None:
    muted = await here.online.chat.mute(here.viewer, here.user, frame.user, frame.type == "chat-mute")
    here.sock.send(ChatMuted(muted=muted, id=frame.id))


async def _report(here: _Here, frame: ChatReport) -> None:
    await here.online.chat.report(here.game_id, here.viewer, here.user, frame.line, frame.reason)
    here.sock.send(ChatReported(line=frame.line, id=frame.id))


Handler = Callable[[_Here, Any], Awaitable[None]]
#: What a game's socket does with each type of client frame (protocol.ClientMessage).
HANDLERS: dict[str, Handler] = {
    "ping": _ping,
    "resync": _resync,
    "move": _move,
    **dict.fromkeys(ACTIONS, _act),
    "chat": _chat,
    "chat-mute": _mute,
    "chat-unmute": _mute,
    "chat-report": _report,
}


async def _handle(here: _Here, text: str) -> None:
    """One frame from the socket: parsed, handled; an error frame if it is refused."""
    ref: int | str | None = None
    try:
        frame: ClientMessage = decode(text)
        ref = frame.id
        await HANDLERS[frame.type](here, frame)
    except FrameError as e:
        here.sock.error(e.error, e.message, e.ref)
    except DATABASE_AWAY_ERRORS as e:
        # Nothing was changed; the socket stays open, and the client may send it again.
        database_away(e)
        here.sock.error("database-unavailable", DATABASE_AWAY, ref)
    except ActionError as e:
        here.sock.error(e.error, e.message, ref)
        if e.error == "stale-ply":
            await here.send_state()


async def _refuse(websocket: WebSocket, error: ActionError, reason: str, code: int = 4404) -> None:
    """A socket for something that is not there (4404), or not now: the error, then closed."""
    with contextlib.suppress(RuntimeError, OSError, WebSocketDisconnect):  # the client may have gone
        await websocket.send_text(encode(ErrorFrame(error=error.error, message=error.message)))
        await websocket.close(code, reason)


@router.get("/api/online/socket-schema.json", summary="The websocket protocol's JSON Schema")
def socket_schema() -> dict[str, Any]:
    """Every frame a client may send on the sockets ("client") and every frame it gets
    ("server"), as JSON Schema (noughts.server.online.protocol)."""
    return _schema()


#: Built on the first request, not at import: start-up does not pay for it.
_schema = functools.cache(schema)
_PING = frozenset({"ping"})


async def _relay(online: Online, sock: _Socket, channel: str, what: str) -> None:
    """A listen-only socket, until it closes: what `channel` publishes goes out; a ping
    is answered, anything else refused (nothing changes)."""
    writer = asyncio.create_task(sock.write())
    await online.fanout.subscribe(channel, sock.push)
    try:
        while (text := await sock.receive()) is not None:
            try:
                frame = decode(text, allowed=_PING)
            except FrameError as e:
                unknown = e.error == "unknown-type"
                sock.error(e.error, f"{what} only answers ping" if unknown else e.message, e.ref)
                continue
            sock.send(Pong(id=frame.id))
    finally:
        await online.fanout.unsubscribe(channel, sock.push)
        await _stop(writer)


@router.websocket("/api/online/lobby/ws")
async def lobby_socket(websocket: WebSocket) -> None:
    """The open rooms, sent whole on connect and whenever they change."""
    async with _opened(websocket) as opened:
        if opened is None:
            return
        online, sock, user = opened
        who = _who(user, sock)
        online.live.connected(who)
        try:
            sock.push(await online.play.lobby_message())
            await _relay(online, sock, LOBBY, "the lobby socket")
        finally:
            online.live.disconnected(who)


@router.websocket("/api/online/tournaments/{tournament_id}/ws")
async def tournament_socket(websocket: WebSocket, tournament_id: str) -> None:
    """A tournament's news, as it happens (see the module's docstring)."""
    async with _opened(websocket) as opened:
        if opened is None:
            return
        online, sock, _ = opened
        try:
            await online.store.call(online.tournaments.book.get, tournament_id)
        except ActionError as e:  # no such tournament
            await _refuse(websocket, e, "no such tournament")
            return
        await _relay(online, sock, tournament_channel(tournament_id), "a tournament's socket")


@router.websocket("/api/online/me/ws")
async def own_socket(websocket: WebSocket) -> None:
    """A player's own socket, on every page they have open: first their `inbox`, then
    the challenges to and from them and their notifications as they come."""
    async with _opened(websocket) as opened:
        if opened is None:
            return
        online, sock, user = opened
        if user is None:
            await _refuse(websocket, ActionError("not-logged-in", "log in or play as a guest first"), "log in", 4401)
            return
        who = _who(user, sock)
        online.live.connected(who)
        channel = user_channel(user.id)
        try:
            # Listening before the inbox is read: nothing sent in between is missed (the
            # page takes a challenge it has already once).
            await online.fanout.subscribe(channel, sock.push)
            sock.send(await online.social.inbox(user))
            await _relay(online, sock, channel, "a player's own socket")
        finally:
            await online.fanout.unsubscribe(channel, sock.push)
            online.live.disconnected(who)
