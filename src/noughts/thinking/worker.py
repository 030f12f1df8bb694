"""``noughts worker``: a process that thinks for servers started with ``--workers-on``,
on this machine or any other that reaches their Redis (`noughts.thinking.queue`).

It loads the players and the compiled kernels once, at its start. Moves are thought
about on threads of their own (`--move-threads`, each with its own players), apart from
the other lanes, which run one job at a time, the next from the most urgent lane that
has one (each lane's queue holds at most two messages here, the one running and the
next, and Dramatiq's worker runs the most urgent of those first). So a move never waits
behind a review in the same worker: it shares the cores with it (the compiled kernels
let go of Python's lock), and the move threads overlap their jobs' Redis round trips.
It stops on SIGTERM or Ctrl-C after its current jobs.
"""

from __future__ import annotations

import logging
import os
import signal
import threading

from noughts.thinking.broker import shown_url
from noughts.thinking.lanes import Lane

#: Milliseconds an idle worker waits before looking at an empty lane again (Dramatiq
#: polls): the most a job waits for an idle worker to notice it.
POLL_MS = 20
#: Threads thinking about moves in each worker that takes them: a house bot's move is
#: mostly a few milliseconds of search between Redis round trips, so several at once
#: answer more of them, sooner (bench/scale_out.py).
MOVE_THREADS = 4


def parse_lanes(text: str) -> frozenset[Lane]:
    """The lanes named in `text`, comma separated.

    >>> sorted(lane.name for lane in parse_lanes("move,review"))
    ['MOVE', 'REVIEW']
    >>> parse_lanes("moves")
    Traceback (most recent call last):
    ...
    ValueError: 'moves' is not a lane: name some of move, analysis, review, mining
    """
    names = {lane.name.lower(): lane for lane in Lane}
    lanes = set()
    for name in filter(None, (part.strip() for part in text.split(","))):
        if name not in names:
            raise ValueError(f"{name!r} is not a lane: name some of {', '.join(names)}")
        lanes.add(names[name])
    if not lanes:
        raise ValueError(f"name one lane at least: some of {', '.join(names)}")
    return frozenset(lanes)


def run_worker(
    url: str,
    prefix: str,
    lanes: frozenset[Lane],
    warm_kernels: bool = True,
    move_threads: int = MOVE_THREADS,
) -> None:
    """Thinks for the servers on the Redis at `url` (keys under `prefix`), taking jobs
    from `lanes` (moves on `move_threads` threads of their own), until SIGTERM or SIGINT.
    Its start line names the Redis without its password."""
    import redis
    from dramatiq import Worker

    from noughts.thinking.jobs import warm_up
    from noughts.thinking.queue import broker, queue_name, use_in_worker

    client = redis.Redis.from_url(url)
    client.ping()
    use_in_worker(client)
    # The players imported and the kernels loaded before the first job, once.
    warm_up(warm_kernels)
    # Dramatiq's worker runs its threads on every queue it takes: moves get a worker of
    # their own, so that its threads never take a review.
    groups = [(lanes & {Lane.MOVE}, move_threads), (lanes - {Lane.MOVE}, 1)]
    workers = []
    for group, threads in groups:
        if group:
            worker = Worker(
                broker(url, prefix),
                queues={queue_name(lane) for lane in group},
                worker_threads=threads,
                worker_timeout=POLL_MS,
            )
            # A message held per thread and one more (the next): the others stay in
            # Redis for the other workers.
            worker.queue_prefetch = threads + 1
            workers.append(worker)
    stop = threading.Event()
    for signum in (signal.SIGTERM, signal.SIGINT):
        signal.signal(signum, lambda *_: stop.set())
    for worker in workers:
        worker.start()
    names = ", ".join(lane.name.lower() for lane in sorted(lanes))
    moves = f" (moves on {move_threads} threads)" if Lane.MOVE in lanes else ""
    print(f"noughts worker {os.getpid()}: thinking for {prefix}* on {shown_url(url)}, lanes {names}{moves}", flush=True)
    stop.wait()
    for worker in workers:
        worker.stop()


def configure_logging() -> None:
    # A line per job started or dropped, for the operator.
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(process)d %(message)s")
    logging.getLogger("dramatiq").setLevel(logging.WARNING)
