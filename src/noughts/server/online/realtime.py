"""Realtime fan-out: events published on a channel reach every listener of that
channel in every server process.

`InProcessFanout` serves one process; `RedisFanout` carries the events through Redis
pub/sub so that several processes behind one address share live games and lobbies.
Pub/sub delivers at most once, so every game event carries the game's version and ply:
a client that sees a gap asks for the whole state again.

Redis may be away. At start that is an error (`RedisUnreachableError`, one line: the
server refuses to start). Mid-run it is one warning: this process's own listeners keep
hearing what this process publishes, and when Redis is back every listener gets
`RECONNECT`, on which a socket closes so that its client reconnects and loads what the
other processes published meanwhile.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import socket
from collections.abc import Callable

import redis.asyncio as aioredis
from redis.asyncio.retry import Retry
from redis.backoff import NoBackoff

from noughts.competition.clock import now_ms
from noughts.server.online.bus import Bus, Paused
from noughts.thinking.broker import REDIS_DOWN, reason, shown_url, unreachable

log = logging.getLogger(__name__)

#: Gets each message published on a channel it listens to. It must not block: it
#: queues the message for its socket.
Listener = Callable[[str], None]

#: Delivered to every listener when Redis is back after an outage: events published by
#: other processes meanwhile are lost, so sockets close (1012) and their clients
#: reconnect, which sends them the whole state.
RECONNECT = '{"type": "reconnect"}'

#: The channels: the lobby's (its open rooms), each game's, each tournament's and each player's.
LOBBY = "lobby"


def game_channel(game_id: str) -> str:
    return f"game:{game_id}"


def user_channel(user_id: int) -> str:
    """A player's own: their challenges and notifications, on every page they have open."""
    return f"user:{user_id}"


def tournament_channel(tournament_id: str) -> str:
    return f"tournament:{tournament_id}"


#: Connections a process opens to Redis at most; more concurrent commands wait for one.
REDIS_CONNECTIONS = 64


#: Probe after 10 s idle, every 5 s, give up after 2 unanswered (where the platform has them).
_KEEPALIVE: dict[int, int] = {
    getattr(socket, option): value
    for option, value in (("TCP_KEEPIDLE", 10), ("TCP_KEEPINTVL", 5), ("TCP_KEEPCNT", 2))
    if hasattr(socket, option)
}


def redis_client(url: str, retries: int = 1) -> aioredis.Redis:
    """A client that fails at once when Redis is away instead of retrying quietly for
    seconds (redis-py's default): the callers know what to do meanwhile. One retry at
    once replaces a connection that Redis closed (it restarted) without an error.

    The pool blocks: redis-py's default pool raises "Too many connections" past its
    limit, which under load (a group commit publishing hundreds of moves at once) looked
    like an outage and closed every socket. Here a command waits (up to 5 s) for a
    free connection instead.

    TCP keepalive probes find a connection whose other end vanished without closing it
    (a Redis host lost, a network cut) in about 20 s; without them the pub/sub reader,
    which only waits, would wait on it for hours and the process would hear no other
    process's events."""
    pool = aioredis.BlockingConnectionPool.from_url(
        url,
        max_connections=REDIS_CONNECTIONS,
        timeout=5,
        socket_connect_timeout=3,
        socket_timeout=5,
        socket_keepalive=True,
        socket_keepalive_options=_KEEPALIVE,
        retry=Retry(NoBackoff(), retries),
    )
    return aioredis.Redis.from_pool(pool)


class Outage:
    """One warning when Redis fails for `what` and one when it answers again, instead
    of a line (or a traceback) per failed call."""

    def __init__(self, url: str, what: str) -> None:
        self.url = shown_url(url)
        self.what = what
        self.down = False
        #: When it failed (ms since 1970), while it is down.
        self.since: int | None = None

    def failed(self, error: BaseException) -> None:
        if not self.down:
            self.down = True
            self.since = now_ms()
            log.warning("Redis at %s is unreachable (%s): %s", self.url, reason(error), self.what)

    def recovered(self, what: str) -> tuple[int, int] | None:
        """Says Redis answers again; the outage's span, if there was one."""
        if not self.down:
            return None
        self.down = False
        span = (self.since or now_ms(), now_ms())
        self.since = None
        log.warning("Redis at %s answers again: %s", self.url, what)
        return span


class Fanout:
    """Channels of text messages; listeners are local to this process. Each span during
    which events could not cross between processes (a Redis outage) is told to the `bus`
    (`Paused`): the clocks that ran meanwhile give that time back."""

    def __init__(self, bus: Bus | None = None) -> None:
        self._listeners: dict[str, set[Listener]] = {}
        self.bus = bus

    async def start(self) -> None:
        """Connects (if there is anything to connect to)."""

    async def close(self) -> None:
        """Disconnects."""

    async def publish(self, channel: str, message: str) -> None:
        """Sends `message` to every listener of `channel`, in every process."""
        raise NotImplementedError

    async def subscribe(self, channel: str, listener: Listener) -> None:
        listeners = self._listeners.setdefault(channel, set())
        listeners.add(listener)
        if len(listeners) == 1:
            await self._first_listener(channel)

    async def unsubscribe(self, channel: str, listener: Listener) -> None:
        listeners = self._listeners.get(channel)
        if listeners is None or listener not in listeners:
            return
        listeners.discard(listener)
        if not listeners:
            del self._listeners[channel]
            await self._last_listener_gone(channel)

    def _deliver(self, channel: str, message: str) -> None:
        for listener in list(self._listeners.get(channel, ())):
            try:
                listener(message)
            except Exception:
                log.exception("a listener of %s failed", channel)

    async def _first_listener(self, channel: str) -> None:
        """Hook: this process now listens to `channel`."""

    async def _last_listener_gone(self, channel: str) -> None:
        """Hook: this process no longer listens to `channel`."""


class InProcessFanout(Fanout):
    """One server process: publishing is delivering."""

    async def publish(self, channel: str, message: str) -> None:
        self._deliver(channel, message)


class RedisFanout(Fanout):
    """Redis pub/sub at `url`; channel names get `prefix` so that deployments (and test
    runs) sharing one Redis stay apart."""

    def __init__(self, url: str, prefix: str = "noughts:", bus: Bus | None = None) -> None:
        super().__init__(bus)
        self.url = url
        self.prefix = prefix
        self._redis: aioredis.Redis | None = None
        #: Pub/sub has a client of its own that never reconnects by itself: a pub/sub
        #: connection that did would hide the events lost in between.
        self._listening: aioredis.Redis | None = None
        self._pubsub: aioredis.client.PubSub | None = None
        self._reader: asyncio.Task[None] | None = None
        #: The pub/sub connection is up and subscribed to every channel with listeners.
        self._up = False
        #: The reader's loops end: redis-py may turn the cancellation of a call in flight
        #: into a timeout (seen with Python 3.11), so cancelling the reader is not enough.
        self._closing = False
        self._outage = Outage(url, "events between server processes wait for it; each process serves its own")

    async def start(self) -> None:
        self._redis = redis_client(self.url)
        self._listening = redis_client(self.url, retries=0)
        try:
            await self._redis.ping()
            await self._connect()
        except REDIS_DOWN as e:
            await self.close()
            raise unreachable(self.url, e) from None
        self._reader = asyncio.create_task(self._read(), name="noughts-redis-reader")

    async def close(self) -> None:
        self._closing = True
        if self._reader is not None:
            self._reader.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._reader
            self._reader = None
        self._up = False
        await self._drop_pubsub()
        for client in (self._redis, self._listening):
            if client is not None:
                await client.aclose()
        self._redis = self._listening = None

    async def publish(self, channel: str, message: str) -> None:
        if self._redis is None:
            raise RuntimeError("RedisFanout.publish before start")
        try:
            await self._redis.publish(self.prefix + channel, message)
        except REDIS_DOWN as e:
            self._lost(e)
        if not self._up:
            # Nothing comes back through Redis now: this process's listeners hear it
            # directly (twice at worst, if the subscription came back meanwhile: game
            # events carry their version, and clients skip what they have seen).
            self._deliver(channel, message)

    async def _first_listener(self, channel: str) -> None:
        if self._up and self._pubsub is not None:
            try:
                await self._pubsub.subscribe(self.prefix + channel)
            except REDIS_DOWN as e:
                self._lost(e)  # the reader subscribes again to every channel listened to

    async def _last_listener_gone(self, channel: str) -> None:
        if self._up and self._pubsub is not None:
            try:
                await self._pubsub.unsubscribe(self.prefix + channel)
            except REDIS_DOWN as e:
                self._lost(e)

    def _lost(self, error: BaseException) -> None:
        self._up = False
        self._outage.failed(error)

    async def _connect(self) -> None:
        """A new pub/sub connection, subscribed to every channel listened to here."""
        assert self._listening is not None
        await self._drop_pubsub()
        pubsub = self._listening.pubsub(ignore_subscribe_messages=True)
        channels = set(self._listeners)
        try:
            # A channel of its own, so that the reader always has a subscription to wait on.
            await pubsub.subscribe(self.prefix + "_process", *(self.prefix + c for c in channels))
        except BaseException:
            await pubsub.aclose()  # type: ignore[no-untyped-call]
            raise
        self._pubsub = pubsub
        self._up = True
        # Listeners came and went while subscribing: from here on (no await since
        # `_up` was set) the hooks keep the subscriptions in step.
        gained, dropped = set(self._listeners) - channels, channels - set(self._listeners)
        if gained:
            await pubsub.subscribe(*(self.prefix + c for c in gained))
        if dropped:
            await pubsub.unsubscribe(*(self.prefix + c for c in dropped))

    async def _drop_pubsub(self) -> None:
        pubsub, self._pubsub = self._pubsub, None
        if pubsub is not None:
            with contextlib.suppress(*REDIS_DOWN):
                await pubsub.aclose()  # type: ignore[no-untyped-call]

    async def _read(self) -> None:
        cut = len(self.prefix)
        while not self._closing:
            if not self._up or self._pubsub is None:
                await self._reconnect()
                continue
            try:
                message = await self._pubsub.get_message(timeout=1.0)
            except REDIS_DOWN as e:
                self._lost(e)
                continue
            if message is None or message.get("type") != "message":
                continue
            channel = message["channel"].decode()[cut:]
            data = message["data"]
            self._deliver(channel, data.decode() if isinstance(data, bytes) else str(data))

    async def _reconnect(self) -> None:
        """Tries again (every 0.2 s, backing off to 5 s) until the subscriptions are back,
        then tells every listener to reconnect."""
        delay = 0.2
        while True:
            await asyncio.sleep(delay)
            if self._closing:
                return
            try:
                await self._connect()
                break
            except REDIS_DOWN as e:
                self._up = False
                self._outage.failed(e)
                delay = min(5.0, delay * 2)
        span = self._outage.recovered("clients reconnect to catch up on the events they missed")
        if span is not None and self.bus is not None:
            self.bus.publish(Paused(*span))
        for channel in list(self._listeners):
            self._deliver(channel, RECONNECT)


def make_fanout(redis_url: str | None, prefix: str, bus: Bus | None = None) -> Fanout:
    return RedisFanout(redis_url, prefix, bus) if redis_url else InProcessFanout(bus)
