"""The computer's thinking on `noughts worker` processes through Redis
(`noughts.thinking.queue`), against the machine's Redis (`NOUGHTS_TEST_REDIS`,
each test under a prefix of its own; skipped, saying why, when none answers)."""

from __future__ import annotations

import asyncio
import json
import os
import re
import secrets
import signal
import sqlite3
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
import redis

from noughts.server import Settings, create_app
from noughts.server.replay import replay
from noughts.thinking.jobs import ThinkJob
from noughts.thinking.lanes import SERVER, Lane
from noughts.thinking.pool import ThinkingPool
from noughts.thinking.queue import QueueThinking, decode, encode, run, use_in_worker
from server.online.servers import serving


@pytest.fixture
def prefix(redis_url: str) -> Iterator[str]:
    """A key prefix of the test's own, its keys deleted after it."""
    prefix = f"noughts-test-{secrets.token_hex(4)}:"
    yield prefix
    client = redis.Redis.from_url(redis_url)
    keys = list(client.scan_iter(f"{prefix}*"))
    if keys:
        client.delete(*keys)


class Worker:
    """A `noughts worker` process; what it logs is kept (a line per job started)."""

    def __init__(self, url: str, prefix: str, lanes: str = "move,analysis,review,mining") -> None:
        command = [sys.executable, "-m", "noughts.cli", "worker", "--redis", url, "--lanes", lanes]
        environment = {**os.environ, "NOUGHTS_REDIS_PREFIX": prefix}
        self.process = subprocess.Popen(
            command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=environment
        )
        self.lines: list[str] = []
        #: When it started each job, and which.
        self.starts: list[tuple[float, str]] = []
        self.ready = threading.Event()
        threading.Thread(target=self._read, daemon=True).start()
        if not self.ready.wait(180):
            raise RuntimeError(f"noughts worker did not start: {self.lines}")

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.lines.append(line)
            if match := re.search(r"job (\w+): \w+ started", line):
                self.starts.append((time.monotonic(), match.group(1)))
            if "thinking for" in line:
                self.ready.set()

    def started(self) -> list[str]:
        """The jobs it started, in order."""
        return [job for _, job in self.starts]

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
        try:
            self.process.wait(30)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(10)


@contextmanager
def workers(url: str, prefix: str, *lanes: str) -> Iterator[list[Worker]]:
    started: list[Worker] = []
    try:
        for each in lanes:
            started.append(Worker(url, prefix, each))
        yield started
    finally:
        for worker in started:
            worker.stop()


def post(address: str, path: str, body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
    request = urllib.request.Request(
        address + path, json.dumps(body).encode(), {"Content-Type": "application/json", "Origin": address}
    )
    with urllib.request.urlopen(request, timeout=120) as answer:
        return answer.status, json.loads(answer.read())


def get(address: str, path: str) -> tuple[int, dict[str, Any]]:
    with urllib.request.urlopen(address + path, timeout=60) as answer:
        return answer.status, json.loads(answer.read())


def test_the_embedded_default_needs_no_redis(tmp_path: Path) -> None:
    """Without --workers-on the server thinks in its own processes, as before."""
    app = create_app(Settings(database=f"sqlite:///{tmp_path / 'noughts.db'}", ai_workers=1))
    assert isinstance(app.state.thinking, ThinkingPool)


def test_a_job_is_sent_compactly() -> None:
    """A 15x15 gomoku position travels as its game's spec and its marks, not the game's
    precomputed lines (68 KB pickled whole)."""
    state = replay("mnk:m=15:n=15:k=5", None, ["h8", "h9"]).state
    sent = encode(("think", (ThinkJob(state, "easy"),)))
    assert len(sent) < 1000
    name, (job,) = decode(sent)
    assert (name, job.state, job.state.game) == ("think", state, state.game)


def test_a_job_is_answered_once_and_dropped_when_nobody_waits(redis_url: str, prefix: str) -> None:
    """The worker's side (`run`): a job whose wanted key is gone (answered, or its asker
    left) is dropped unthought; delivered twice, it is answered once."""
    client = redis.Redis.from_url(redis_url)
    use_in_worker(client)
    wanted, replies = f"{prefix}thinking:wanted:j1", f"{prefix}thinking:replies:s1"
    work = encode(("think", (ThinkJob(replay("classic", None, ["5"]).state, "max"),)))

    run("j1", wanted, replies, work)  # nobody wants it
    assert client.llen(replies) == 0

    client.set(wanted, "s1")
    run("j1", wanted, replies, work)
    run("j1", wanted, replies, work)  # delivered again after its answer
    said = [decode(item) for item in client.lrange(replies, 0, -1)]
    assert [kind for kind, _, _ in said] == ["started", "done"]
    assert said[1][2].moves[0].text in {"1", "3", "7", "9"}  # the corners answer the centre
    assert not client.exists(wanted)


def test_a_bad_job_is_its_askers_error(redis_url: str, prefix: str) -> None:
    """An error in the worker is sent back as the answer, not retried."""
    client = redis.Redis.from_url(redis_url)
    use_in_worker(client)
    wanted, replies = f"{prefix}thinking:wanted:j2", f"{prefix}thinking:replies:s1"
    client.set(wanted, "s1")
    run("j2", wanted, replies, encode(("judge_puzzle", ({"spec": "classic"}, ["5"], 1.0))))
    kind, _, error = decode(client.lrange(replies, -1, -1)[0])
    assert kind == "failed" and isinstance(error, Exception)


@pytest.mark.integration
@pytest.mark.slow  # a worker loads the compiled kernels first: half a minute on a busy machine
def test_a_worker_takes_a_move_from_a_server(redis_url: str, prefix: str, tmp_path: Path) -> None:
    """`noughts serve --workers-on` answers a computer move thought by a `noughts worker`."""
    environment = {"NOUGHTS_WORKERS_ON": redis_url}
    database = f"sqlite:///{tmp_path / 'noughts.db'}"
    with (
        workers(redis_url, prefix, "move,analysis,review,mining") as (worker,),
        serving(database, prefix=prefix, env=environment) as (_, address),
    ):
        status, answer = post(address, "/api/computer", {"spec": "classic", "moves": ["5"], "level": "max"})
    assert status == 200 and answer["move"] in {"1", "3", "7", "9"}
    assert len(worker.started()) == 1


@pytest.mark.integration
@pytest.mark.slow  # a worker's death is noticed after its heartbeat's 10 s
def test_a_review_survives_its_worker_killed(redis_url: str, prefix: str, tmp_path: Path) -> None:
    """kill -9 of the worker thinking a review's position: the position is thought
    again by the other worker, and the review completes, kept once."""
    database = tmp_path / "noughts.db"
    environment = {"NOUGHTS_WORKERS_ON": redis_url}
    moves = ["55", "51", "15", "52", "25", "58", "85", "54", "45", "56"]
    body = {"spec": "ultimate", "moves": moves, "level": "max", "time": 1.0}
    with (
        workers(redis_url, prefix, "review", "review") as pair,
        serving(f"sqlite:///{database}", prefix=prefix, env=environment) as (_, address),
    ):
        status, progress = post(address, "/api/review", body)
        assert status == 202
        deadline = time.monotonic() + 60
        while sum(len(w.started()) for w in pair) < 3 and time.monotonic() < deadline:
            time.sleep(0.05)
        # The worker that started the latest position thinks it for a second more.
        victim = max(pair, key=lambda w: w.starts[-1][0] if w.starts else -1.0)
        killed_job = victim.started()[-1]
        os.kill(victim.process.pid, signal.SIGKILL)
        survivor = next(w for w in pair if w is not victim)
        deadline = time.monotonic() + 120
        while (status := get(address, f"/api/review/{progress['key']}")[0]) == 202:
            assert time.monotonic() < deadline, "the review did not finish"
            time.sleep(0.5)
        status, review = get(address, f"/api/review/{progress['key']}")
    assert status == 200 and len(review["moves"]) == len(moves)
    assert killed_job in survivor.started()  # delivered again
    assert survivor.started().count(killed_job) == 1
    with sqlite3.connect(database) as db:
        assert db.execute("SELECT count(*) FROM kept_reviews WHERE key = ?", (progress["key"],)).fetchone() == (1,)


@pytest.mark.integration
@pytest.mark.slow  # a worker loads the compiled kernels first: half a minute on a busy machine
def test_the_lanes_hold_across_the_queue(redis_url: str, prefix: str) -> None:
    """In one worker of every lane, busy with a long move and a long review: a move sent
    last is answered first, beside them (moves have threads of their own), and the jobs
    waiting behind the review start most urgent lane first, whatever order they were
    sent in."""

    async def scenario(worker: Worker) -> list[str]:
        thinking = QueueThinking(redis_url, prefix)
        finished: list[str] = []
        quick = ThinkJob(replay("classic", None, ["5"]).state, "easy")
        long = ThinkJob(replay("ultimate", None, ["55"]).state, "max", time=2.0)

        async def ask(job: ThinkJob, lane: Lane) -> None:
            await thinking.analyze(job, lane, SERVER)
            finished.append(f"{'long' if job is long else 'quick'} {lane.name.lower()}")

        try:
            busy = [asyncio.create_task(ask(long, lane)) for lane in (Lane.MOVE, Lane.REVIEW)]
            while len(worker.started()) < 2:
                await asyncio.sleep(0.02)
            others = []
            for lane in (Lane.MINING, Lane.REVIEW, Lane.ANALYSIS, Lane.MOVE):
                others.append(asyncio.create_task(ask(quick, lane)))
                await asyncio.sleep(0.1)
            await asyncio.gather(*busy, *others)
        finally:
            thinking.shutdown()
        return finished

    with workers(redis_url, prefix, "move,analysis,review,mining") as (worker,):
        finished = asyncio.run(scenario(worker))
    assert finished[0] == "quick move"
    behind_the_review = [job for job in finished if job.startswith("quick") and job != "quick move"]
    assert behind_the_review == ["quick analysis", "quick review", "quick mining"]
    assert finished.index("long review") < finished.index("quick analysis")
