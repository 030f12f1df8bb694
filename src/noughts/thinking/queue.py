"""The computer's thinking on `noughts worker` processes, through Dramatiq on Redis
(`noughts serve --workers-on redis://...`): `QueueThinking`, the `Thinking` the server
calls, and what it shares with the workers (`noughts.thinking.worker`).

Dramatiq carries the jobs, a queue a lane, a job acknowledged once done: a worker
killed mid-job stops sending its heartbeat and, `HEARTBEAT_MS` later, its job is
delivered again to another worker (a long job of a live worker never is). Dramatiq was
measured against Celery for this (`bench/queue_choice.py`; the figures and the why in
docs/deployment.md).

What Dramatiq does not do is done beside it on the same Redis, with keys of this
server's prefix: each job has a *wanted* key while its asker waits, which the worker
that finishes it deletes in the same step as it pushes the answer onto the asking
server process's reply list; so a job is answered once, and a job delivered again after
its answer (or after its asker left) is dropped unthought. A job is its function's name
and arguments, pickled with each game replaced by its spec (a 15x15 ThinkJob: 68 KB as
a pickle, 552 bytes of base64 so), from the trusted server to the trusted workers of
one Redis.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import io
import logging
import math
import os
import pickle
import threading
import time
import uuid
from dataclasses import dataclass, field
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from redis import RedisError

from noughts.core import Game
from noughts.thinking.jobs import judge_puzzle, mine_position, think
from noughts.thinking.lanes import (
    GONE_POLL,
    LANES,
    Asker,
    AskerGoneError,
    Lane,
    LanedThinking,
    LaneFullError,
    ThinkingError,
    asker_gone,
)

if TYPE_CHECKING:
    import dramatiq
    import redis

log = logging.getLogger(__name__)

#: A worker whose heartbeat is older than this (ms) is taken for dead, and its job is
#: delivered again.
HEARTBEAT_MS = 10_000
#: How long a job waits for a worker to start it before its asker is told that none did
#: (no worker running, or all of them busy that long).
START_SECONDS = 600.0
#: How long a job's wanted key lives at most (its asker's process may die).
WANTED_SECONDS = 3600
#: How long an asker's job counts against their quota (`Keys.held`) unless the server
#: process holding it renews it, every third of that: a server that dies gives its
#: askers' quotas back within this.
LEASE_SECONDS = 60.0
#: The functions a job may name: what the worker runs.
WORK = {f.__name__: f for f in (think, judge_puzzle, mine_position)}


def actor_name(lane: Lane) -> str:
    return f"noughts_{lane.name.lower()}"


def queue_name(lane: Lane) -> str:
    return f"noughts-{lane.name.lower()}"


def broker(url: str, prefix: str) -> dramatiq.Broker:
    """The Dramatiq broker on `url`, its keys under `prefix`, with the lanes' actors
    (each lane's queue, and its priority inside a worker: MOVE first) calling `run`."""
    import dramatiq
    from dramatiq.brokers.redis import RedisBroker

    # No middleware: a job is never retried on an error (the error is its answer) and
    # has no time limit of Dramatiq's (the players keep their own).
    found = RedisBroker(  # type: ignore[no-untyped-call]  # Dramatiq's Redis broker is not annotated
        url=url,
        namespace=f"{prefix}thinking",
        middleware=[],
        heartbeat_timeout=HEARTBEAT_MS,
        maintenance_chance=100_000,
    )
    for lane in Lane:
        declare = dramatiq.actor(broker=found, actor_name=actor_name(lane), queue_name=queue_name(lane), priority=lane)
        declare(run)
    return found


@dataclass(frozen=True)
class Keys:
    """The Redis keys beside Dramatiq's, under the deployment's prefix."""

    prefix: str

    def wanted(self, job: str) -> str:
        return f"{self.prefix}thinking:wanted:{job}"

    def replies(self, server: str) -> str:
        return f"{self.prefix}thinking:replies:{server}"

    def held(self, lane: Lane, asker: str) -> str:
        """The jobs `asker` holds in `lane`, whichever server process they asked: a
        sorted set of leases, each scored by when it runs out."""
        return f"{self.prefix}thinking:held:{lane.name.lower()}:{asker}"


#: Deletes a job's wanted key and, if it was there, pushes the answer onto its server's
#: reply list, in one step: a job is answered at most once.
ANSWER_ONCE = """
if redis.call('del', KEYS[1]) == 1 then
    redis.call('rpush', KEYS[2], ARGV[1])
    redis.call('expire', KEYS[2], ARGV[2])
    return 1
end
return 0
"""


#: Takes one of an asker's `ARGV[3]` jobs in a lane (a lease `ARGV[4]` until `ARGV[2]`)
#: unless they hold them all, leases run out at `ARGV[1]` not counted: 1 if taken.
TAKE_HELD = """
redis.call('zremrangebyscore', KEYS[1], '-inf', ARGV[1])
if redis.call('zcard', KEYS[1]) >= tonumber(ARGV[3]) then
    return 0
end
redis.call('zadd', KEYS[1], ARGV[2], ARGV[4])
redis.call('expireat', KEYS[1], math.ceil(tonumber(ARGV[2])))
return 1
"""


class _GamesBySpec(pickle.Pickler):
    """Pickles each game as its spec: a game holds its precomputed lines."""

    def reducer_override(self, obj: Any) -> Any:
        if isinstance(obj, Game):
            return _game, (obj.spec,)
        return NotImplemented


@lru_cache(maxsize=64)
def _game(spec: str) -> Game[Any, Any]:
    """A game rebuilt from its spec, once per process."""
    from noughts.registry import parse_spec

    return parse_spec(spec)


def encode(value: Any) -> str:
    """`value` pickled (games as their specs), as text for a Dramatiq message.

    >>> from noughts.registry import parse_spec
    >>> state = parse_spec("mnk:m=15:n=15:k=5").initial().play_text("h8")
    >>> len(encode(state)) < 1000 and decode(encode(state)) == state
    True
    """
    buffer = io.BytesIO()
    _GamesBySpec(buffer, protocol=pickle.HIGHEST_PROTOCOL).dump(value)
    return base64.b64encode(buffer.getvalue()).decode("ascii")


def decode(text: str | bytes) -> Any:
    return pickle.loads(base64.b64decode(text))


#: A worker's Redis client, for the wanted keys and the reply lists (set by the worker).
_worker_redis: redis.Redis | None = None


def use_in_worker(client: redis.Redis) -> None:
    """Makes `client` this worker process's connection for its jobs' answers."""
    global _worker_redis
    _worker_redis = client


def run(job: str, wanted: str, replies: str, work: str) -> None:
    """A worker's side of a job (the lanes' actors): drops it if nobody wants it any
    more, else tells the asking server it started (with this worker's process id, so
    that its clock restarts when it is delivered again), thinks, and answers once."""
    client = _worker_redis
    if client is None:
        raise RuntimeError("the worker has no Redis connection (noughts.thinking.worker.run_worker sets it)")
    if not client.exists(wanted):
        log.info("job %s: nobody waits for it any more, dropped", job)
        return
    client.rpush(replies, encode(("started", job, os.getpid())))
    name, args = decode(work)
    log.info("job %s: %s started", job, name)
    answer: tuple[str, str, Any]
    try:
        answer = ("done", job, WORK[name](*args))
    except Exception as e:  # the core's errors pickle, and are the asker's answer
        answer = ("failed", job, e)
    if not client.eval(ANSWER_ONCE, 2, wanted, replies, encode(answer), WANTED_SECONDS):
        log.info("job %s: answered already or its asker left, dropped", job)


@dataclass(eq=False)
class _Waiting:
    """A job sent: `started` once a worker took it (again on each delivery), `answer` its result."""

    lane: Lane
    started: asyncio.Event = field(default_factory=asyncio.Event)
    answer: asyncio.Future[Any] = field(default_factory=lambda: asyncio.get_running_loop().create_future())
    started_at: float = 0.0


class QueueThinking(LanedThinking):
    """`Thinking` on `noughts worker` processes anywhere, through Dramatiq on the Redis at
    `url` (its keys under `prefix`). The lanes are Dramatiq's queues, and each worker
    takes the next job from the most urgent lane that has one. The askers' quotas are
    shared by every server process of the Redis, as the workers are (a visitor holds
    their quota whichever process each request reaches); a lane's bound on waiting jobs
    is this process's (those it sent that no worker has started)."""

    def __init__(self, url: str, prefix: str = "noughts:", max_think: float | None = None) -> None:
        import redis

        super().__init__(max_think)
        self.url = url
        self.keys = Keys(prefix)
        self.server = uuid.uuid4().hex
        self._broker = broker(url, prefix)
        # Redis's synchronous client, called off the event loop: the replies are read by
        # a thread of their own, blocked on the reply list.
        self._redis = redis.Redis.from_url(url)
        self._connected: asyncio.Future[None] | None = None
        self._stopping = threading.Event()
        self._waiting: dict[str, _Waiting] = {}
        # The quota leases this process holds (lease: its key), renewed while held.
        self._leases: dict[str, str] = {}
        self._renewing: asyncio.Task[None] | None = None

    async def _take(self, lane: Lane, key: str, allowed: int) -> str | None:
        lease, held = uuid.uuid4().hex, self.keys.held(lane, key)
        now = time.time()
        try:
            taken = await asyncio.to_thread(
                self._redis.eval, TAKE_HELD, 1, held, now, now + LEASE_SECONDS, allowed, lease
            )
        except RedisError as e:
            raise ThinkingError(f"the computer's workers cannot be reached ({e}); try again") from None
        if not taken:
            return None
        self._leases[lease] = held
        if self._renewing is None or self._renewing.done():
            self._renewing = asyncio.create_task(self._renew())
        return lease

    async def _give_back(self, lane: Lane, key: str, held: str) -> None:
        name = self._leases.pop(held, None)
        if name is not None:
            with contextlib.suppress(RedisError):  # Redis away: the lease runs out
                await asyncio.shield(asyncio.to_thread(self._redis.zrem, name, held))

    async def _renew(self) -> None:
        """While this process holds leases, renews them every third of their time."""
        while self._leases:
            await asyncio.sleep(LEASE_SECONDS / 3)
            until = time.time() + LEASE_SECONDS
            leases = dict(self._leases)
            try:
                await asyncio.to_thread(self._renew_leases, leases, until)
            except RedisError as e:
                log.warning("renewing the askers' quotas failed (%s); trying again", e)

    def _renew_leases(self, leases: dict[str, str], until: float) -> None:
        with self._redis.pipeline(transaction=False) as pipe:
            for lease, held in leases.items():
                pipe.zadd(held, {lease: until}, xx=True)
                pipe.expireat(held, math.ceil(until))
            pipe.execute()

    async def start(self) -> None:
        """Connects to Redis and starts reading this process's replies (once, however
        many jobs ask at once). The workers are not waited for: a job waits in its lane
        until one takes it."""
        if self._connected is None:
            self._connected = asyncio.ensure_future(self._connect())
        try:
            await asyncio.shield(self._connected)
        except RedisError as e:
            self._connected = None  # the next job tries again
            raise ThinkingError(f"the computer's workers cannot be reached ({e}); try again") from None

    async def _connect(self) -> None:
        await asyncio.to_thread(self._redis.ping)
        self._stopping.clear()
        loop = asyncio.get_running_loop()
        reader = threading.Thread(target=self._read_replies, args=(loop,), name="noughts-thinking-replies", daemon=True)
        reader.start()

    def _read_replies(self, loop: asyncio.AbstractEventLoop) -> None:
        """In the reader thread: each answer handed to the event loop as it comes."""
        key = self.keys.replies(self.server)
        while not self._stopping.is_set():
            try:
                found = self._redis.blpop([key], timeout=1)
            except RedisError as e:  # Redis away: the jobs waiting time out on their own budgets
                log.warning("reading the workers' answers failed (%s); trying again", e)
                self._stopping.wait(1.0)
                continue
            if found is not None:
                try:
                    loop.call_soon_threadsafe(self._answered, found[1])
                except RuntimeError:  # the loop has closed
                    return

    def _answered(self, reply: bytes | str) -> None:
        """In the event loop: a worker's reply to one of this process's jobs."""
        try:
            kind, job, value = decode(reply)
        except Exception:  # not a worker's: it must not stop the answers to come
            log.exception("an answer on %s could not be read", self.keys.replies(self.server))
            return
        waiting = self._waiting.get(job)
        if waiting is None:
            return  # its asker has stopped waiting
        if kind == "started":
            waiting.started_at = asyncio.get_running_loop().time()
            waiting.started.set()
        elif not waiting.answer.done():
            if kind == "done":
                waiting.answer.set_result(value)
            else:
                waiting.answer.set_exception(value)

    def _send(self, wanted: str, message: dramatiq.Message[None]) -> None:
        """Off the event loop: the job is wanted, and queued."""
        self._redis.set(wanted, self.server, ex=WANTED_SECONDS)
        self._broker.enqueue(message)

    def _forget(self, wanted: str) -> None:
        """Off the event loop: nobody waits for the job any more (a worker that takes it
        drops it)."""
        with contextlib.suppress(RedisError):  # Redis away: the key expires
            self._redis.delete(wanted)

    async def _run(self, lane: Lane, asker: Asker, work: tuple[Any, ...], budget: float, late: str) -> Any:
        import dramatiq

        await self.start()
        rules = LANES[lane]
        if sum(not w.started.is_set() and w.lane is lane for w in self._waiting.values()) >= rules.waiting:
            busy = f"the computer has {rules.waiting} {lane.name.lower()} jobs waiting already; try later"
            raise LaneFullError(busy, rules.retry_after)
        job = uuid.uuid4().hex
        waiting = self._waiting[job] = _Waiting(lane)
        wanted = self.keys.wanted(job)
        function, *args = work
        message: dramatiq.Message[None] = dramatiq.Message(
            queue_name=queue_name(lane),
            actor_name=actor_name(lane),
            args=(job, wanted, self.keys.replies(self.server), encode((function.__name__, tuple(args)))),
            kwargs={},
            options={},
        )
        try:
            try:
                await asyncio.to_thread(self._send, wanted, message)
            except RedisError as e:
                raise ThinkingError(f"the computer's workers cannot be reached ({e}); try again") from None
            await self._until_started(waiting, asker)
            loop = asyncio.get_running_loop()
            while True:
                # A job delivered again (its worker died) starts its budget again.
                left = waiting.started_at + budget - loop.time()
                if left <= 0:
                    raise ThinkingError(f"{late} within {budget:.0f} seconds")
                try:
                    return await asyncio.wait_for(asyncio.shield(waiting.answer), left)
                except TimeoutError:
                    continue
        finally:
            del self._waiting[job]
            if not waiting.answer.done():
                await asyncio.shield(asyncio.to_thread(self._forget, wanted))

    async def _until_started(self, waiting: _Waiting, asker: Asker) -> None:
        """Waits for a worker to take the job; AskerGoneError once its asker has gone."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + START_SECONDS
        while not waiting.started.is_set():
            poll = GONE_POLL if asker.gone is not None else START_SECONDS
            try:
                await asyncio.wait_for(waiting.started.wait(), min(poll, max(0.0, deadline - loop.time())))
            except TimeoutError:
                if await asker_gone(asker):
                    raise AskerGoneError("the job's asker has gone") from None
                if loop.time() >= deadline:
                    raise ThinkingError(f"no worker took the job within {START_SECONDS:.0f} seconds") from None

    def shutdown(self) -> None:
        if self._renewing is not None:
            self._renewing.cancel()
        self._stopping.set()  # the reader stops within its second of blocking
        self._connected = None
        self._broker.close()
