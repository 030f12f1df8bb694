"""Realtime fan-out: events published on a channel reach every listener of that
channel in every server process.

`InProcessFanout` serves one process; `RedisFanout` carries the events through Redis
pub/sub so that several processes behind one address share live games and lobbies.
Pub/sub delivers at most once, so every game event carries the game's version and ply:
a client that sees a gap asks for the whole state again.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable

import redis.asyncio as aioredis

log = logging.getLogger(__name__)

#: Gets each message published on a channel it listens to. It must not block: it
#: queues the message for its socket.
Listener = Callable[[str], None]


class Fanout:
    """Channels of text messages; listeners are local to this process."""

    def __init__(self) -> None:
        self._listeners: dict[str, set[Listener]] = {}

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

    def __init__(self, url: str, prefix: str = "noughts:") -> None:
        super().__init__()
        self.url = url
        self.prefix = prefix
        self._redis: aioredis.Redis | None = None
        self._pubsub: aioredis.client.PubSub | None = None
        self._reader: asyncio.Task[None] | None = None

    async def start(self) -> None:
        self._redis = aioredis.Redis.from_url(self.url)
        await self._redis.ping()
        self._pubsub = self._redis.pubsub(ignore_subscribe_messages=True)
        # A channel of its own, so that the reader always has a subscription to wait on.
        await self._pubsub.subscribe(self.prefix + "_process")
        for channel in self._listeners:
            await self._pubsub.subscribe(self.prefix + channel)
        self._reader = asyncio.create_task(self._read(), name="noughts-redis-reader")

    async def close(self) -> None:
        if self._reader is not None:
            self._reader.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._reader
        if self._pubsub is not None:
            await self._pubsub.aclose()  # type: ignore[no-untyped-call]
        if self._redis is not None:
            await self._redis.aclose()

    async def publish(self, channel: str, message: str) -> None:
        if self._redis is None:
            raise RuntimeError("RedisFanout.publish before start")
        await self._redis.publish(self.prefix + channel, message)

    async def _first_listener(self, channel: str) -> None:
        if self._pubsub is not None:
            await self._pubsub.subscribe(self.prefix + channel)

    async def _last_listener_gone(self, channel: str) -> None:
        if self._pubsub is not None:
            await self._pubsub.unsubscribe(self.prefix + channel)

    async def _read(self) -> None:
        assert self._pubsub is not None
        cut = len(self.prefix)
        while True:
            try:
                message = await self._pubsub.get_message(timeout=1.0)
            except asyncio.CancelledError:
                raise
            except Exception:
                # Redis went away: the client reconnects and subscribes again on the
                # next call; clients resync through the versions they see.
                log.exception("reading from Redis failed; retrying")
                await asyncio.sleep(0.5)
                continue
            if message is None or message.get("type") != "message":
                continue
            channel = message["channel"].decode()[cut:]
            data = message["data"]
            self._deliver(channel, data.decode() if isinstance(data, bytes) else str(data))


def make_fanout(redis_url: str | None, prefix: str) -> Fanout:
    return RedisFanout(redis_url, prefix) if redis_url else InProcessFanout()
