"""Who is at each game, kept so that a player whose server process died (kill -9, a
crash, a power cut) is seen as away, and can be claimed against, even if they never
come back.

A player's `left_at` (the game row's x_left_at / o_left_at) is set when their last
socket on the game closes; a process that dies closes nothing, so without more the
players it served would look connected forever.

Alone (no Redis), the server is the only process: when it starts, nobody has a socket
open, so every seated player of every game in play is away from that moment
(`LocalPresence`). The grace starts then for everybody: nobody could come back while
the server was down.

With Redis, several processes serve the games and one may die while the others run
on: marking everybody away when it restarts would be wrong for the players connected to
the others. So each process says in Redis which players it holds sockets for and that
it is alive (`RedisPresence`, heartbeats with a time to live, as lichess does):

  {prefix}procs              sorted set: process id -> its last heartbeat (Redis's clock)
  {prefix}held:{process}     set of "game:user" it holds a socket of
  {prefix}at:{game}:{user}   set of the processes holding a socket of that user there

A process beats three times per `presence_ttl`; one silent for `presence_ttl` is dead.
The first process to notice removes it (one script, so exactly one does) and marks away,
from that moment, each player that no live process holds. Marking and arriving can
cross: the mark is made only if the player is still not away, then undone if a live
process holds them by then. A process arriving registers in Redis before it writes
`left_at`, so one of the two always sees the other.

A process that starts and finds no other alive marks everybody away as a lone server
does: every process restarted, or Redis lost its data. A process that was taken for dead
(it could not reach Redis for longer than the time to live) registers its sockets again
and marks their players back, when Redis answers.

A game starts with both players present (no `left_at`), but a player may have no socket
on it: the creator of a room who closed the waiting screen before anybody joined, a
player who offered a rematch and left. Their sockets' closing marked nothing (they had
no side yet, or it was another game), so a while after the start (`arrival_wait`, time
to open the game's page) `seated` marks away, from the start, each player that no
process holds. The same crossing rule applies as above: mark if still present, then
undo if held meanwhile.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from collections.abc import Collection

from noughts.competition.clock import now_ms
from noughts.server.online import actions
from noughts.server.online.actions import GameRow
from noughts.server.online.bus import Bus, PresenceChanged
from noughts.server.online.config import OnlineConfig
from noughts.server.online.realtime import Outage, redis_client
from noughts.server.online.storage.db import log_failure
from noughts.server.online.storage.store import NotFoundError, Store
from noughts.thinking.broker import REDIS_DOWN, unreachable

log = logging.getLogger(__name__)


class Presence:
    """Tells the store who is away when sockets cannot: hooks called by the service.
    After marking a player away, or back, from outside their sockets' own process, it
    tells the `bus` (`PresenceChanged`: the play publishes the presence event)."""

    def __init__(self, store: Store, bus: Bus) -> None:
        self.store = store
        self.bus = bus

    async def changed(self, row: GameRow) -> None:
        await self.bus.deliver(PresenceChanged(row))

    async def start(self) -> None:
        """The process starts serving (no socket is open yet)."""

    async def close(self) -> None:
        """The process stops."""

    async def here(self, game_id: str, user_id: int) -> None:
        """The user's first socket on the game in this process opened (before `left_at`
        is cleared)."""

    async def gone(self, game_id: str, user_id: int) -> None:
        """The user's last socket on the game in this process closed."""

    async def holds(self, game_id: str, user_id: int) -> bool:
        """Whether a server process (alive) has a socket of the user on the game."""
        raise NotImplementedError

    async def seated(self, row: GameRow, since: int, bots: Collection[int] = ()) -> None:
        """The game of `row` started at `since` (a while ago): its players who have no
        socket on it are away since then, but for `bots`, which play without one."""
        marked = False
        for side, user_id in (("x", row.x_id), ("o", row.o_id)):
            if user_id is not None and user_id not in bots and not await self.holds(row.id, user_id):
                marked = await self._mark(row.id, side, user_id, since) or marked
        if marked:
            await self.changed(await self.store.call(self.store.game, row.id))

    async def _mark(self, game_id: str, side: str, user_id: int, stamp: int) -> bool:
        """Marks the player of `side` away since `stamp` if they are still present, and
        undoes it if a process holds them by then (they arrived meanwhile, after their
        socket's process read them present); whether the mark stayed."""
        if not await self.store.call(self.store.set_left_if, game_id, side, None, stamp):
            return False  # away already, or the game is over
        if await self.holds(game_id, user_id):
            await self.store.call(self.store.set_left_if, game_id, side, stamp, None)
            return False
        return True


class LocalPresence(Presence):
    """The only server process."""

    def __init__(self, store: Store, bus: Bus) -> None:
        super().__init__(store, bus)
        self._held: set[tuple[str, int]] = set()

    async def start(self) -> None:
        await self.store.call(self.store.mark_all_away, now_ms())

    async def here(self, game_id: str, user_id: int) -> None:
        self._held.add((game_id, user_id))

    async def gone(self, game_id: str, user_id: int) -> None:
        self._held.discard((game_id, user_id))

    async def holds(self, game_id: str, user_id: int) -> bool:
        return (game_id, user_id) in self._held


# KEYS[1]: procs. ARGV: this process, the time to live (ms). Registers the heartbeat;
# returns {1 if this process was not registered, how many others are alive, the dead}.
_BEAT = """
redis.replicate_commands()
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local added = redis.call('ZADD', KEYS[1], now, ARGV[1])
local others = redis.call('ZCOUNT', KEYS[1], now - tonumber(ARGV[2]), '+inf') - 1
local dead = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', '(' .. (now - tonumber(ARGV[2])))
return {added, others, dead}
"""
# Whether a process that is alive holds the pair, as Lua, used by the scripts below.
_HELD = """
redis.replicate_commands()
local function held(procs, at, now, ttl)
  for _, other in ipairs(redis.call('SMEMBERS', at)) do
    local beat = redis.call('ZSCORE', procs, other)
    if beat and tonumber(beat) >= now - ttl then return true end
  end
  return false
end
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
"""
# KEYS[1]: procs. ARGV: the dead process, the time to live, the prefix. Forgets the dead
# process (unless another sweeper did) and returns the "game:user" pairs it held that no
# live process holds. (Keys are built in the script: one Redis, not a cluster.)
_SWEEP = (
    _HELD
    + """
if redis.call('ZREM', KEYS[1], ARGV[1]) == 0 then return {} end
local held_key = ARGV[3] .. 'held:' .. ARGV[1]
local away = {}
for _, pair in ipairs(redis.call('SMEMBERS', held_key)) do
  local at = ARGV[3] .. 'at:' .. pair
  redis.call('SREM', at, ARGV[1])
  if not held(KEYS[1], at, now, tonumber(ARGV[2])) then table.insert(away, pair) end
end
redis.call('DEL', held_key)
return away
"""
)
# KEYS[1]: procs, KEYS[2]: at:{game}:{user}. ARGV: the time to live. 1 if held.
_IS_HELD = _HELD + "return held(KEYS[1], KEYS[2], now, tonumber(ARGV[1])) and 1 or 0\n"


class RedisPresence(Presence):
    """One of several server processes sharing Redis at `url` (see the module's text)."""

    def __init__(self, url: str, store: Store, config: OnlineConfig, bus: Bus) -> None:
        super().__init__(store, bus)
        self.url = url
        self.prefix = config.redis_prefix
        self.ttl = config.presence_ttl
        #: This process, for as long as it runs.
        self.id = secrets.token_hex(8)
        #: The (game, user) pairs with a socket in this process.
        self._held: set[tuple[str, int]] = set()
        self._redis = redis_client(url)
        self._beat = self._redis.register_script(_BEAT)
        self._sweep = self._redis.register_script(_SWEEP)
        self._is_held = self._redis.register_script(_IS_HELD)
        self._task: asyncio.Task[None] | None = None
        #: Sockets close after the process stopped (a server shutting down): nothing
        #: to register any more.
        self._closed = False
        self._outage = Outage(url, "a server process that dies meanwhile leaves its players looking connected")

    @property
    def _procs(self) -> str:
        return self.prefix + "procs"

    def _at(self, game_id: str, user_id: int) -> str:
        return f"{self.prefix}at:{game_id}:{user_id}"

    async def start(self) -> None:
        try:
            _, others, dead = await self._beat(keys=[self._procs], args=[self.id, self._ttl_ms])
            if others == 0:
                await self.store.call(self.store.mark_all_away, now_ms())
            await self._bury([d.decode() for d in dead])
        except REDIS_DOWN as e:
            raise unreachable(self.url, e) from None
        self._task = asyncio.create_task(self._live(), name="noughts-presence")

    async def close(self) -> None:
        self._closed = True
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None
        with contextlib.suppress(*REDIS_DOWN):
            async with self._redis.pipeline(transaction=True) as pipe:
                for game_id, user_id in self._held:
                    pipe.srem(self._at(game_id, user_id), self.id)
                pipe.delete(self.prefix + "held:" + self.id)
                pipe.zrem(self._procs, self.id)
                await pipe.execute()
        await self._redis.aclose()

    async def here(self, game_id: str, user_id: int) -> None:
        self._held.add((game_id, user_id))
        await self._register([(game_id, user_id)])

    async def gone(self, game_id: str, user_id: int) -> None:
        self._held.discard((game_id, user_id))
        if self._closed:
            return
        try:
            async with self._redis.pipeline(transaction=True) as pipe:
                pipe.srem(self._at(game_id, user_id), self.id)
                pipe.srem(self.prefix + "held:" + self.id, f"{game_id}:{user_id}")
                await pipe.execute()
        except REDIS_DOWN as e:
            self._outage.failed(e)

    async def holds(self, game_id: str, user_id: int) -> bool:
        if (game_id, user_id) in self._held:
            return True
        try:
            return bool(await self._is_held(keys=[self._procs, self._at(game_id, user_id)], args=[self._ttl_ms]))
        except REDIS_DOWN as e:
            # Nobody can be told away without Redis: the player is taken as here.
            self._outage.failed(e)
            return True

    @property
    def _ttl_ms(self) -> int:
        return round(self.ttl * 1000)

    async def _register(self, pairs: list[tuple[str, int]]) -> None:
        if self._closed:
            return
        try:
            async with self._redis.pipeline(transaction=True) as pipe:
                for game_id, user_id in pairs:
                    pipe.sadd(self._at(game_id, user_id), self.id)
                    pipe.sadd(self.prefix + "held:" + self.id, f"{game_id}:{user_id}")
                await pipe.execute()
        except REDIS_DOWN as e:
            self._outage.failed(e)

    async def _live(self) -> None:
        """Beats, and buries the dead, until cancelled."""
        loop = asyncio.get_running_loop()
        quiet_until = 0.0
        # Not `while True`: redis-py may turn the cancellation of a call in flight into
        # a timeout (seen with Python 3.11), and `close` must not wait for ever.
        while not self._closed:
            await asyncio.sleep(self.ttl / 3)
            try:
                added, _, dead = await self._beat(keys=[self._procs], args=[self.id, self._ttl_ms])
                if self._outage.down:
                    # Redis was away for every process, not only for this one: the
                    # others get a time to live to beat again before any is taken for dead.
                    quiet_until = loop.time() + self.ttl
                    self._outage.recovered("server processes keep track of each other again")
                if added:
                    await self._return()
                if loop.time() >= quiet_until:
                    await self._bury([d.decode() for d in dead])
            except REDIS_DOWN as e:
                self._outage.failed(e)
            except Exception:
                log_failure(log, "keeping presence failed")  # the database, say: next beat

    async def _bury(self, dead: list[str]) -> None:
        """Marks away the players only the `dead` processes held."""
        for process in dead:
            if process == self.id:
                continue
            pairs = await self._sweep(keys=[self._procs], args=[process, self._ttl_ms, self.prefix])
            if pairs:
                log.warning("server process %s stopped beating: %d players it served are away", process, len(pairs))
            for pair in pairs:
                game_id, _, user_id = pair.decode().rpartition(":")
                await self._mark_away(game_id, int(user_id))

    async def _mark_away(self, game_id: str, user_id: int) -> None:
        try:
            row = await self.store.call(self.store.game, game_id)
        except NotFoundError:
            return
        side = row.side_of(user_id)
        if side is None or row.state != actions.PLAYING:
            return
        if await self._mark(game_id, side, user_id, now_ms()):
            await self.changed(await self.store.call(self.store.game, game_id))

    async def _return(self) -> None:
        """This process was taken for dead (or Redis lost its data): its sockets are still
        open, so their players are registered again and marked back."""
        held = sorted(self._held)
        log.warning(
            "this server process was missing from Redis (taken for dead, or Redis lost its data): "
            "registering its %d players again",
            len(held),
        )
        await self._register(held)
        for game_id, user_id in held:
            try:
                row = await self.store.call(self.store.game, game_id)
            except NotFoundError:
                continue
            side = row.side_of(user_id)
            if side is None or row.state != actions.PLAYING:
                continue
            left_at = row.x_left_at if side == "x" else row.o_left_at
            if left_at is not None and await self.store.call(self.store.set_left_if, game_id, side, left_at, None):
                await self.changed(await self.store.call(self.store.game, game_id))


def make_presence(redis_url: str | None, store: Store, config: OnlineConfig, bus: Bus) -> Presence:
    return RedisPresence(redis_url, store, config, bus) if redis_url else LocalPresence(store, bus)
