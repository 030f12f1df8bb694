"""The computer's thinking in the server's own processes against `noughts worker`
processes through Redis (`noughts serve --workers-on`), side by side in one run:

1. house-bot moves (easy, classic) in --games games for --seconds s while six reviews
   of ultimate and the puzzle search of finished games run without pause
   (`thinking_lanes._bot_games`): the embedded pool of two workers against one server
   and two workers on Redis (one kept for moves, `--lanes move`, as the pool keeps one,
   the other `--lanes analysis,review,mining`, its moves on one thread and on the
   default four; and two taking every lane);
2. reviews a minute (ultimate, 20 plies, max, 0.25 s a position, four asked at a time
   for --review-seconds s) with one worker and with two;
3. over HTTP, `noughts serve --workers 2` against `noughts serve --workers-on` with two
   workers (one kept for moves): an easy `/api/computer` move alone, then under six long
   anonymous reviews (ultimate, --plies plies, max, --review-time s a position). Goal:
   under 1 s.

    .venv/bin/python bench/scale_out.py [--redis redis://127.0.0.1:6379/0] [--games 200] [--seconds 20]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import re
import secrets
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx2
import redis

from noughts.thinking.lanes import SERVER, LanedThinking
from noughts.thinking.pool import ThinkingPool
from noughts.thinking.queue import QueueThinking
from thinking_lanes import _bot_games, _move_latencies, _random_game

EVERY_LANE = "move,analysis,review,mining"
#: Two workers, one kept for moves: the other takes no move, so that none waits behind its
#: long jobs.
ONE_FOR_MOVES = ("move", "analysis,review,mining")


@contextmanager
def workers(url: str, prefix: str, *lanes: str) -> Iterator[None]:
    """`noughts worker` processes, one for each of `lanes` (its lanes, then any options
    of `noughts worker`), started and warmed up."""
    started = []
    environment = {**os.environ, "NOUGHTS_REDIS_PREFIX": prefix}
    logs = Path(tempfile.mkdtemp(prefix="scale-out-workers-"))
    try:
        for i, each in enumerate(lanes):
            command = [sys.executable, "-m", "noughts.cli", "worker", "--redis", url, "--lanes", *each.split()]
            log = logs / f"worker-{i}.log"
            with log.open("w") as out:
                process = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT, env=environment)
            started.append(process)
            while "thinking for" not in log.read_text():
                assert process.poll() is None, f"noughts worker did not start: {log.read_text()}"
                time.sleep(0.1)
        yield
    finally:
        for process in started:
            process.terminate()
            process.wait(30)
        client = redis.Redis.from_url(url)
        keys = list(client.scan_iter(f"{prefix}*"))
        if keys:
            client.delete(*keys)


def fresh_prefix() -> str:
    return f"bench-{secrets.token_hex(3)}:"


def bot_moves(url: str, games: int, seconds: float) -> dict[str, dict[str, Any]]:
    """Part 1."""
    found = {}
    pool = ThinkingPool(workers=2, warm_kernels=True)
    try:
        found["embedded, 2 worker processes"] = asyncio.run(_bot_games(pool, games, seconds, fifo=False))
    finally:
        pool.shutdown()
    setups = (
        ("Redis, 2 workers (one for moves, on one thread)", ("move --move-threads 1", ONE_FOR_MOVES[1])),
        ("Redis, 2 workers (one for moves, on 4 threads)", ONE_FOR_MOVES),
        ("Redis, 2 workers of every lane", (EVERY_LANE,) * 2),
    )
    for name, lanes in setups:
        prefix = fresh_prefix()
        with workers(url, prefix, *lanes):
            found[name] = asyncio.run(_bot_games(QueueThinking(url, prefix), games, seconds, fifo=False))
    return found


async def _reviews(thinking: LanedThinking, seconds: float) -> float:
    """Reviews done a minute, four asked at a time for `seconds`."""
    done = 0
    end = time.monotonic() + seconds

    async def review_until_end(seed: int) -> None:
        nonlocal done
        local = random.Random(seed)
        while time.monotonic() < end:
            await thinking.review(_random_game("ultimate", 20, local), "max", 0.25, SERVER)
            done += 1

    began = time.monotonic()
    await thinking.start()
    try:
        await asyncio.gather(*(review_until_end(i) for i in range(4)))
    finally:
        thinking.shutdown()
    return done * 60 / (time.monotonic() - began)


def reviews_a_minute(url: str, seconds: float) -> dict[str, float]:
    """Part 2."""
    found = {}
    for count in (1, 2):
        prefix = fresh_prefix()
        with workers(url, prefix, *(EVERY_LANE,) * count):
            found[f"Redis, {count} worker(s)"] = asyncio.run(_reviews(QueueThinking(url, prefix), seconds))
    return found


def easy_moves_over_http(url: str, plies: int, review_time: float) -> dict[str, dict[str, list[float]]]:
    """Part 3."""
    found = {}
    prefix = fresh_prefix()
    found["noughts serve --workers 2"] = _easy_moves(["--workers", "2"], prefix, plies, review_time)
    with workers(url, prefix, *ONE_FOR_MOVES):
        found["noughts serve --workers-on, 2 workers (one for moves)"] = _easy_moves(
            ["--workers-on", url], prefix, plies, review_time
        )
    return found


def _easy_moves(options: list[str], prefix: str, plies: int, review_time: float) -> dict[str, list[float]]:
    folder = Path(tempfile.mkdtemp(prefix="scale-out-"))
    command = [sys.executable, "-m", "noughts.cli", "serve", "--port", "0", *options]
    command += ["--database", f"sqlite:///{folder / 'noughts.db'}"]
    environment = {**os.environ, "NOUGHTS_REDIS_PREFIX": prefix}
    server = subprocess.Popen(command, stdout=subprocess.PIPE, text=True, env=environment)
    try:
        assert server.stdout is not None
        found = re.search(r"http://[\d.]+:\d+", server.stdout.readline())
        assert found, "the server did not start"
        base = found[0]
        alone = _move_latencies(base, 10)
        for i in range(6):
            # Each from an address of its own: an anonymous visitor has one review at a time.
            transport = httpx2.HTTPTransport(local_address=f"127.0.0.{2 + i}")
            with httpx2.Client(base_url=base, transport=transport, timeout=20) as client:
                moves = list(_random_game("ultimate", plies, random.Random(i)).moves)
                asked = {"spec": "ultimate", "moves": moves, "level": "max", "time": review_time}
                assert client.post("/api/review", json=asked).status_code == 202
        time.sleep(2.0)
        return {"alone": alone, "under six reviews": _move_latencies(base, 10)}
    finally:
        server.terminate()
        server.wait(30)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--redis", default="redis://127.0.0.1:6379/0", help="keys under a prefix of the run's own")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--review-seconds", type=float, default=60.0)
    parser.add_argument("--plies", type=int, default=40)
    parser.add_argument("--review-time", type=float, default=5.0)
    args = parser.parse_args()
    loads = [os.getloadavg()[0]]

    bots = bot_moves(args.redis, args.games, args.seconds)
    loads.append(os.getloadavg()[0])
    print(f"\nhouse-bot moves (easy), {args.games} classic games for {args.seconds:.0f} s, six reviews and the puzzle")
    print("search running:\n\n| | moves | p50 | p99 |\n|---|---|---|---|")
    for name, row in bots.items():
        print(f"| {name} | {row['moves']:,} | {row['p50'] * 1000:,.0f} ms | {row['p99'] * 1000:,.0f} ms |", flush=True)

    reviews = reviews_a_minute(args.redis, args.review_seconds)
    loads.append(os.getloadavg()[0])
    print("\nreviews a minute (ultimate, 20 plies, max, 0.25 s a position, four at a time):\n")
    print("| | reviews a minute |\n|---|---|")
    for name, rate in reviews.items():
        print(f"| {name} | {rate:.1f} |", flush=True)

    http = easy_moves_over_http(args.redis, args.plies, args.review_time)
    loads.append(os.getloadavg()[0])
    print("\neasy /api/computer move, alone and under six reviews (median / max):\n")
    print("| | alone | under six reviews |\n|---|---|---|")
    for name, row in http.items():
        cells = [f"{statistics.median(took) * 1000:,.0f} ms / {max(took) * 1000:,.0f} ms" for took in row.values()]
        goal = "goal met" if max(row["under six reviews"]) < 1.0 else "goal (under 1 s) not met"
        print(f"| {name} | {' | '.join(cells)} | {goal}")
    print("load average (1 min) at the start and after each part:", " ".join(f"{load:.1f}" for load in loads))


if __name__ == "__main__":
    main()
