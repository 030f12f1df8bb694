"""Which task queue on Redis carries the server's thinking: Celery against Dramatiq,
side by side in one run, each with two worker processes (one job at a time each, as
`noughts worker` runs) on the Redis of --redis (a database of its own, flushed).

For each: the round trip of a 1 ms job, one at a time (p50/p99, from sending to the
result read back through the library's own result backend); the throughput of 1,000
such jobs sent at once; and a worker killed with SIGKILL 0.5 s into a 3 s job: whether
the job is delivered again, and how long after the kill its result arrives; and how
often a 15 s job runs when its worker lives (longer than the timeouts). Both are
set up as the server would use them: messages acknowledged once a job is done, Celery
with a visibility timeout of 10 s, Dramatiq with a heartbeat timeout of 10 s.

Celery is not a dependency of Noughts: `.venv/bin/pip install 'celery[redis]'` first.

    .venv/bin/python bench/queue_choice.py [--redis redis://127.0.0.1:6379/14] [--jobs 200]
"""

from __future__ import annotations

import argparse
import contextlib
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import textwrap
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import redis

CELERY_APP = """
import os, time
from celery import Celery
app = Celery("bench", broker=os.environ["BENCH_REDIS"], backend=os.environ["BENCH_REDIS"])
app.conf.update(task_acks_late=True, task_reject_on_worker_lost=True, worker_prefetch_multiplier=1,
                broker_transport_options={"visibility_timeout": 10, "unacked_restore_interval": 1,
                                          "unacked_restore_throttle": 1})

@app.task
def work(seconds, marker):
    if marker:
        open(marker, "a").write(f"{os.getpid()}\\n")
    time.sleep(seconds)
    return os.getpid()
"""

DRAMATIQ_APP = """
import os, time
import dramatiq, dramatiq.results
from dramatiq.brokers.redis import RedisBroker
from dramatiq.results import Results
from dramatiq.results.backends import RedisBackend
broker = RedisBroker(url=os.environ["BENCH_REDIS"], heartbeat_timeout=10_000, maintenance_chance=100_000)
broker.add_middleware(Results(backend=RedisBackend(url=os.environ["BENCH_REDIS"])))
dramatiq.set_broker(broker)

@dramatiq.actor(store_results=True, max_retries=0)
def work(seconds, marker):
    if marker:
        open(marker, "a").write(f"{os.getpid()}\\n")
    time.sleep(seconds)
    return os.getpid()
"""


class Library:
    """One queue: its worker command and a way to send a job and wait for its result."""

    def __init__(self, name: str, source: str, folder: Path, url: str) -> None:
        self.name = name
        (folder / f"bench_{name}.py").write_text(textwrap.dedent(source))
        self.folder = folder
        self.env = {**os.environ, "BENCH_REDIS": url, "PYTHONPATH": str(folder)}
        sys.path.insert(0, str(folder))
        os.environ["BENCH_REDIS"] = url
        self.module: Any = __import__(f"bench_{name}")
        self.workers: list[subprocess.Popen[bytes]] = []

    def start_workers(self, count: int) -> None:
        bin_dir = Path(sys.executable).parent
        for _ in range(count):
            if self.name == "celery":
                command = [str(bin_dir / "celery"), "-A", "bench_celery", "worker", "--pool", "solo"]
                command += ["--loglevel", "WARNING"]
            else:
                command = [str(bin_dir / "dramatiq"), "bench_dramatiq", "--processes", "1", "--threads", "1"]
            quiet = subprocess.DEVNULL
            # A session of its own: Dramatiq's command starts its worker as a child process.
            worker = subprocess.Popen(
                command, cwd=self.folder, env=self.env, stdout=quiet, stderr=quiet, start_new_session=True
            )
            self.workers.append(worker)

    def send(self, seconds: float, marker: str = "") -> Callable[[float], Any]:
        """Sends a job; the function it returns waits (at most its argument's seconds)
        for the result."""
        if self.name == "celery":
            result = self.module.work.delay(seconds, marker)
            return lambda timeout: result.get(timeout=timeout)
        message = self.module.work.send(seconds, marker)

        def wait(timeout: float) -> Any:
            # In short waits: a long one outlasts the result backend's socket timeout.
            deadline = time.monotonic() + timeout
            while True:
                try:
                    return message.get_result(block=True, timeout=2000)
                except self.module.dramatiq.results.ResultTimeout:
                    if time.monotonic() > deadline:
                        raise

        return wait

    def stop(self) -> None:
        for worker in self.workers:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(worker.pid, signal.SIGKILL)
            worker.wait()
        self.workers.clear()


def measure(library: Library, jobs: int) -> dict[str, str]:
    library.start_workers(2)
    for _ in range(4):  # both workers up and connected
        library.send(0.001)(60)
    round_trips = []
    for _ in range(jobs):
        began = time.perf_counter()
        library.send(0.001)(30)
        round_trips.append((time.perf_counter() - began) * 1000)
    began = time.perf_counter()
    waits = [library.send(0.001) for _ in range(1000)]
    for wait in waits:
        wait(120)
    per_second = 1000 / (time.perf_counter() - began)

    # A job longer than the redelivery timeout, its worker alive: how often it runs.
    long_marker = library.folder / f"{library.name}.long"
    library.send(15.0, str(long_marker))(120)
    time.sleep(2.0)  # a second start would be logged by now
    long_runs = len(long_marker.read_text().split())

    marker = library.folder / f"{library.name}.started"
    wait = library.send(3.0, str(marker))
    while not marker.exists():
        time.sleep(0.05)
    time.sleep(0.5)
    victim = int(marker.read_text().split()[0])
    os.kill(victim, signal.SIGKILL)
    killed = time.perf_counter()
    try:
        wait(120)
        recovered = f"result {time.perf_counter() - killed:.1f} s after the kill"
    except Exception as e:  # the library's own timeout or failure type
        recovered = f"no result within 120 s ({type(e).__name__})"
    runs = len(marker.read_text().split())
    library.stop()
    return {
        "round trip p50": f"{statistics.median(round_trips):.1f} ms",
        "round trip p99": f"{statistics.quantiles(round_trips, n=100)[98]:.1f} ms",
        "1,000 jobs at once": f"{per_second:,.0f} jobs/s",
        "a 15 s job, its worker alive": f"started {long_runs} time(s)",
        "worker killed mid-job": f"{recovered}; started {runs} time(s)",
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--redis", default="redis://127.0.0.1:6379/14", help="a Redis database the bench may flush")
    parser.add_argument("--jobs", type=int, default=200, help="1 ms jobs sent one at a time")
    args = parser.parse_args()
    print(f"load average {os.getloadavg()[0]:.1f}")
    rows: dict[str, dict[str, str]] = {}
    with tempfile.TemporaryDirectory() as folder:
        for name, source in (("celery", CELERY_APP), ("dramatiq", DRAMATIQ_APP)):
            redis.Redis.from_url(args.redis).flushdb()
            library = Library(name, source, Path(folder), args.redis)
            try:
                rows[name] = measure(library, args.jobs)
            finally:
                library.stop()
            print(name, rows[name], flush=True)
    print(f"\n| | {' | '.join(rows)} |\n|---|{'---|' * len(rows)}")
    for measure_name in next(iter(rows.values())):
        print(f"| {measure_name} | {' | '.join(row[measure_name] for row in rows.values())} |")
    print(f"load average {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
