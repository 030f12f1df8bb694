"""`Thinking` in a pool of this server's worker processes, the default.

A search holds its CPU for up to the level's time limit; run in the server's process it
would stall every other request. So each job (`noughts.thinking.jobs`) is sent whole to
a worker process once its lane's turn comes, and the event loop only awaits the future.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import signal
import threading
from collections import defaultdict, deque
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from functools import partial
from time import monotonic, sleep
from typing import Any

from noughts.thinking.jobs import warm_up
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

#: The longest `ThinkingPool.start` waits for its workers to warm up: compiling the
#: kernels anew (numba's cache lost) takes a minute or two on a busy machine.
WARM_UP_SECONDS = 180.0


def _start_worker(server_pid: int, warm_kernels: bool) -> None:
    """Runs first in every worker of the pool: a watchdog, then the warm-up."""
    # Ctrl-C reaches every process of the terminal's group: the server stops its pool,
    # and a worker that took the signal itself would print its own traceback.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    threading.Thread(target=_exit_with_the_server, args=(server_pid,), daemon=True).start()
    warm_up(warm_kernels)


def _exit_with_the_server(server_pid: int) -> None:
    # A server that is killed (kill -9, out of memory) cannot stop its pool, and idle
    # workers would wait on their queue forever: they leave once they are orphaned.
    while os.getppid() == server_pid:
        sleep(1.0)
    os._exit(0)


def _worker_ready(hold: float) -> int:
    """Runs in a worker once its start-up (`_start_worker`) is done: its process id,
    after holding the worker `hold` seconds so that the same round's other calls go to
    the other workers."""
    sleep(hold)
    return os.getpid()


@dataclass(eq=False)
class _Queued:
    """A job waiting for a worker: `started` gets the executor's future once it has one."""

    lane: Lane
    work: tuple[Any, ...]
    loop: asyncio.AbstractEventLoop
    started: asyncio.Future[Future[Any]]
    asker: str = ""


class ThinkingPool(LanedThinking):
    """`Thinking` in this server's worker processes (a process pool, started with the app
    or with the first job). No job thinks longer than `max_think` seconds (None: as
    asked).

    Jobs are not handed to the pool's executor as they come: they wait in their lane
    here, and a job starts only when a worker is free, from the most urgent lane that
    has one (the executor's own queue, first come first served, stays empty). One worker
    is kept for the MOVE lane (when there are two or more): reviews and mining never hold
    every worker, so a move starts at once however much other work waits."""

    def __init__(self, workers: int | None = None, warm_kernels: bool = False, max_think: float | None = None) -> None:
        super().__init__(max_think)
        self.workers = workers or max(1, min(4, os.cpu_count() or 1))
        self.warm_kernels = warm_kernels
        self._executor: ProcessPoolExecutor | None = None
        # The lanes and the jobs running (all, and those of the lanes below MOVE). The
        # executor's thread finishes jobs: the lock, reentrant since a job done already
        # when it is started finishes there and then.
        self._lock = threading.RLock()
        self._waiting: dict[Lane, deque[_Queued]] = {lane: deque() for lane in Lane}
        self._running: dict[Future[Any], Lane] = {}
        #: The review lane's share: the worker seconds each asker's review positions took
        #: lately, and when their last one ended (`_fairest`).
        self._spent: defaultdict[str, float] = defaultdict(float)
        self._seen: dict[str, float] = {}
        self._reviewing: dict[Future[Any], tuple[str, float]] = {}

    async def start(self) -> None:
        """Starts every worker and returns once each has warmed up (imported the players,
        and loaded the compiled kernels when `warm_kernels`), so that no request pays for
        a cold worker. Bounded: a worker that never answers leaves it to the first jobs."""
        pool = self._pool()
        loop = asyncio.get_running_loop()
        ready: set[int] = set()
        deadline = loop.time() + WARM_UP_SECONDS
        while len(ready) < self.workers and loop.time() < deadline:
            calls = [loop.run_in_executor(pool, _worker_ready, 0.05) for _ in range(self.workers)]
            ready.update(await asyncio.gather(*calls))

    def _pool(self) -> ProcessPoolExecutor:
        if self._executor is None:
            # spawn, not fork: the server runs threads (uvicorn, asyncio), and forking a
            # threaded process can copy a held lock into the child.
            self._executor = ProcessPoolExecutor(
                self.workers,
                mp_context=multiprocessing.get_context("spawn"),
                initializer=_start_worker,
                initargs=(os.getpid(), self.warm_kernels),
            )
        return self._executor

    async def _run(self, lane: Lane, asker: Asker, work: tuple[Any, ...], budget: float, late: str) -> Any:
        """`work` (a function and its arguments) in a worker once its lane's turn comes,
        within `budget` seconds of starting there."""
        future = await self._started(lane, asker, work)
        try:
            return await asyncio.wait_for(asyncio.wrap_future(future), budget)
        except TimeoutError:
            raise ThinkingError(f"{late} within {budget:.0f} seconds") from None
        except BrokenProcessPool:
            # A worker died (killed, out of memory): the next request gets a new pool.
            self.shutdown()
            raise ThinkingError("the computer's worker process stopped; try again") from None

    async def _started(self, lane: Lane, asker: Asker, work: tuple[Any, ...]) -> Future[Any]:
        """Queues `work` in `lane` and waits for its worker: the executor's future. The
        job is dropped if the caller is cancelled or the asker goes meanwhile."""
        loop = asyncio.get_running_loop()
        queued = _Queued(lane, work, loop, loop.create_future(), asker.key)
        with self._lock:
            if len(self._waiting[lane]) >= LANES[lane].waiting:
                message = f"the computer has {LANES[lane].waiting} {lane.name.lower()} jobs waiting already; try later"
                raise LaneFullError(message, LANES[lane].retry_after)
            self._waiting[lane].append(queued)
        self._dispatch()
        try:
            while True:
                done, _ = await asyncio.wait([queued.started], timeout=None if asker.gone is None else GONE_POLL)
                if done:
                    return queued.started.result()
                if await asker_gone(asker):
                    raise AskerGoneError("the job's asker has gone")
        except BaseException:
            with self._lock:
                if queued in self._waiting[lane]:
                    self._waiting[lane].remove(queued)
            if queued.started.done() and not queued.started.cancelled():
                queued.started.result().cancel()  # too late if it runs already: its answer is dropped
            raise

    def _dispatch(self) -> None:
        """Starts waiting jobs, most urgent lane first, while a worker is free for them."""
        with self._lock:
            while len(self._running) < self.workers:
                queued = self._next()
                if queued is None:
                    return
                future = self._pool().submit(*queued.work)
                self._running[future] = queued.lane
                if queued.lane is Lane.REVIEW:
                    self._reviewing[future] = (queued.asker, monotonic())
                future.add_done_callback(partial(self._finished, queued.loop))
                queued.loop.call_soon_threadsafe(_hand_over, queued.started, future)

    def _next(self) -> _Queued | None:
        """The next job to start: the first of the most urgent lane that may start one
        (the lanes below MOVE leave one worker free for moves)."""
        below_moves = sum(lane is not Lane.MOVE for lane in self._running.values())
        below_moves_allowed = below_moves < max(1, self.workers - 1)
        for lane in Lane:
            if self._waiting[lane] and (lane is Lane.MOVE or below_moves_allowed):
                return self._fairest(self._waiting[lane]) if lane is Lane.REVIEW else self._waiting[lane].popleft()
        return None

    def _fairest(self, waiting: deque[_Queued]) -> _Queued:
        """The review position to start: the one whose asker's positions took the least
        worker time lately (the first come among equals), so that a short review does
        not wait behind a long one's every position, and two long ones take turns."""
        chosen = min(waiting, key=lambda queued: self._spent[queued.asker])
        waiting.remove(chosen)
        return chosen

    def _finished(self, loop: asyncio.AbstractEventLoop, future: Future[Any]) -> None:
        # Called in the executor's own thread: the next job is started from the event loop.
        with self._lock:
            self._running.pop(future, None)
            reviewed = self._reviewing.pop(future, None)
            if reviewed is not None:
                asker, began = reviewed
                now = monotonic()
                self._spent[asker] += now - began
                self._seen[asker] = now
                for old in [a for a, seen in self._seen.items() if now - seen > REVIEW_MEMORY]:
                    del self._seen[old], self._spent[old]
        try:
            loop.call_soon_threadsafe(self._dispatch)
        except RuntimeError:  # that loop has closed (its asker's asyncio.run ended)
            self._dispatch()

    def shutdown(self) -> None:
        with self._lock:
            self._running.clear()  # their workers are gone with the executor
        if self._executor is not None:
            self._executor.shutdown(wait=False, cancel_futures=True)
            self._executor = None


#: Seconds after an asker's last review position that the review lane forgets the time
#: their positions took (`ThinkingPool._fairest`).
REVIEW_MEMORY = 120.0


def _hand_over(started: asyncio.Future[Future[Any]], future: Future[Any]) -> None:
    """In the asker's loop: the job has its worker (or, if its asker stopped waiting
    meanwhile, is cancelled when it has not started yet)."""
    if started.done():
        future.cancel()
    else:
        started.set_result(future)
