"""The games with sockets in this process: who of their players is here, how many
spectators watch, and the timers that end them when the clock of the player to move
runs out. Also who is connected to this process at all (players online)."""

from __future__ import annotations

import asyncio
from collections import Counter
from dataclasses import dataclass, field

from noughts.competition.clock import now_ms
from noughts.server.online import actions
from noughts.server.online.actions import GameRow
from noughts.server.online.bus import Bus, ClockDue, PresenceChanged
from noughts.server.online.presence import Presence
from noughts.server.online.protocol import Spectators, deadline_of, encode
from noughts.server.online.realtime import Fanout, Listener, game_channel
from noughts.server.online.storage.store import Store


@dataclass
class LiveGame:
    """A game with sockets in this process: its listeners, the sockets of each
    logged-in user here, and the timer that ends it when the clock of the player to move
    runs out."""

    id: str
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    present: dict[int, int] = field(default_factory=dict)
    sockets: int = 0
    timer: asyncio.TimerHandle | None = None
    clock_listener: Listener | None = None
    presence_lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    #: The sockets of this process on the game, and of them the spectators' by viewer
    #: (a person with two tabs open counts once).
    listeners: list[Listener] = field(default_factory=list)
    spectators: Counter[str] = field(default_factory=Counter)

    def spectators_frame(self) -> str:
        return encode(Spectators(count=len(self.spectators)))

    def tell_spectators(self) -> None:
        frame = self.spectators_frame()
        for listener in self.listeners:
            listener(frame)


class LiveGames:
    """The games with sockets in this process, by id. It tells the `bus` when a clock it
    watches is due (`ClockDue`: the play ends the game on time) and when a player's
    presence changed (`PresenceChanged`: the play tells the game's watchers)."""

    def __init__(self, store: Store, fanout: Fanout, presence: Presence, bus: Bus) -> None:
        self.store, self.fanout, self.presence, self.bus = store, fanout, presence, bus
        self._games: dict[str, LiveGame] = {}
        #: Who has a socket open on this process (a game's or the lobby's), by viewer.
        self._connected: Counter[str] = Counter()
        #: Sockets open on this process by visitor (`visit`).
        self._visits: Counter[str] = Counter()

    def visit(self, visitor: str, most: int) -> bool:
        """Counts a socket of `visitor` (an account, or an address) opened on this
        process, if they hold fewer than `most`; False (not counted) if they hold them."""
        if self._visits[visitor] >= most:
            return False
        self._visits[visitor] += 1
        return True

    def left_visit(self, visitor: str) -> None:
        self._visits[visitor] -= 1
        if self._visits[visitor] <= 0:
            del self._visits[visitor]

    def connected(self, viewer: str) -> None:
        self._connected[viewer] += 1

    def disconnected(self, viewer: str) -> None:
        self._connected[viewer] -= 1
        if self._connected[viewer] <= 0:
            del self._connected[viewer]

    @property
    def online(self) -> int:
        """How many people (a visitor: a socket) have a socket open on this process."""
        return len(self._connected)

    def online_users(self) -> set[int]:
        """The accounts (guests' too) with a socket open on this process."""
        return {int(viewer[5:]) for viewer in self._connected if viewer.startswith("user:")}

    def watching(self, live: LiveGame, viewer: str, watches: bool) -> None:
        """A spectator's socket opened (`watches`) or closed: every socket here is told the count."""
        if watches:
            live.spectators[viewer] += 1
        else:
            live.spectators[viewer] -= 1
            if live.spectators[viewer] <= 0:
                del live.spectators[viewer]
        live.tell_spectators()

    def get(self, game_id: str) -> LiveGame | None:
        return self._games.get(game_id)

    def stop(self) -> None:
        """Stops the clocks' timers."""
        for live in self._games.values():
            if live.timer:
                live.timer.cancel()

    async def attach(self, row: GameRow, listener: Listener) -> LiveGame:
        """A socket of this process starts listening to the game of `row`."""
        live = self._games.get(row.id)
        if live is None:
            live = self._games[row.id] = LiveGame(row.id)
            live.clock_listener = lambda message: self._clock_event(row.id, message)
            await self.fanout.subscribe(game_channel(row.id), live.clock_listener)
            self.watch_clock(row.id, row.deadline())
        live.sockets += 1
        live.listeners.append(listener)
        await self.fanout.subscribe(game_channel(row.id), listener)
        return live

    async def detach(self, live: LiveGame, listener: Listener) -> None:
        await self.fanout.unsubscribe(game_channel(live.id), listener)
        live.listeners.remove(listener)
        live.sockets -= 1
        if live.sockets == 0:
            if live.timer:
                live.timer.cancel()
            if live.clock_listener:
                await self.fanout.unsubscribe(game_channel(live.id), live.clock_listener)
            self._games.pop(live.id, None)

    def _clock_event(self, game_id: str, message: str) -> None:
        # Every frame of every game passes here; only events move the clock.
        is_event, deadline = deadline_of(message)
        if is_event:
            self.watch_clock(game_id, deadline)

    async def arrived(self, live: LiveGame, user_id: int) -> None:
        """A user's socket opened: if they play this game, they are no longer away."""
        live.present[user_id] = live.present.get(user_id, 0) + 1
        if live.present[user_id] == 1:
            await self._presence(live, user_id)

    async def left(self, live: LiveGame, user_id: int) -> None:
        live.present[user_id] -= 1
        if live.present[user_id] == 0:
            del live.present[user_id]
            await self._presence(live, user_id)

    async def _presence(self, live: LiveGame, user_id: int) -> None:
        # One change of a game's presence at a time, each written as things stand when
        # its turn comes: a socket closing while the same player's new one opens (a
        # reconnect) must not leave them marked away.
        async with live.presence_lock:
            here = user_id in live.present
            await (self.presence.here if here else self.presence.gone)(live.id, user_id)
            await self._write_presence(live.id, user_id, None if here else now_ms())

    async def _write_presence(self, game_id: str, user_id: int, left_at: int | None) -> None:
        # Read at the moment of arriving or leaving: the creator of a room gets a side
        # only when somebody joins.
        row = await self.store.call(self.store.game, game_id)
        side = row.side_of(user_id)
        if side is None or row.state != actions.PLAYING:
            return
        if (row.x_left_at if side == "x" else row.o_left_at) == left_at:
            return
        await self.store.call(self.store.set_left, game_id, side, left_at)
        await self.bus.deliver(PresenceChanged(await self.store.call(self.store.game, game_id)))

    def watch_clock(self, game_id: str, deadline: int | None) -> None:
        """Ends the game on time at `deadline` unless a move comes first (every process
        with sockets on the game watches; the store lets one of them win)."""
        live = self._games.get(game_id)
        if live is None:
            return
        if live.timer is not None:
            live.timer.cancel()
            live.timer = None
        if deadline is None:
            return
        loop = asyncio.get_running_loop()
        delay = max(0.0, (deadline - now_ms()) / 1000) + 0.01
        live.timer = loop.call_later(delay, self.bus.publish, ClockDue(game_id))
