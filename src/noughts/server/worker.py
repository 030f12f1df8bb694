"""``noughts worker``: a process that thinks for servers started with ``--workers-on``,
on this machine or any other that reaches their Redis (`noughts.server.queue_thinking`).

It loads the players and the compiled kernels once, at its start, then runs one job at
a time, taking the next from the most urgent of its lanes that has one: each lane's
queue holds at most two messages here (the one running, the next) and Dramatiq's worker
runs the most urgent of those first. A message held by a busy worker waits for it: a
worker kept for moves (`--lanes move`), the others taking none (`--lanes
analysis,review,mining`), answers them while the others think long. It stops on
SIGTERM or Ctrl-C after its current job.
"""

from __future__ import annotations

import logging
import os
import signal
import threading

from noughts.server.thinking import Lane

#: Milliseconds an idle worker waits before looking at an empty lane again (Dramatiq
#: polls): the most a job waits for an idle worker to notice it.
POLL_MS = 20


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


def run_worker(url: str, prefix: str, lanes: frozenset[Lane], warm_kernels: bool = True) -> None:
    """Thinks for the servers on the Redis at `url` (keys under `prefix`), taking jobs
    from `lanes`, until SIGTERM or SIGINT."""
    import redis
    from dramatiq import Worker

    from noughts.server.online.realtime import shown_url
    from noughts.server.queue_thinking import broker, queue_name, use_in_worker
    from noughts.server.thinking import warm_up

    client = redis.Redis.from_url(url)
    client.ping()
    use_in_worker(client)
    # The players imported and the kernels loaded before the first job, once.
    warm_up(warm_kernels)
    worker = Worker(
        broker(url, prefix), queues={queue_name(lane) for lane in lanes}, worker_threads=1, worker_timeout=POLL_MS
    )
    # Two messages held per lane (the one running, the next): the others stay in Redis
    # for the other workers.
    worker.queue_prefetch = 2
    stop = threading.Event()
    for signum in (signal.SIGTERM, signal.SIGINT):
        signal.signal(signum, lambda *_: stop.set())
    worker.start()
    names = ", ".join(lane.name.lower() for lane in sorted(lanes))
    print(f"noughts worker {os.getpid()}: thinking for {prefix}* on {shown_url(url)}, lanes {names}", flush=True)
    stop.wait()
    worker.stop()


def configure_logging() -> None:
    # A line per job started or dropped, for the operator.
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(process)d %(message)s")
    logging.getLogger("dramatiq").setLevel(logging.WARNING)
