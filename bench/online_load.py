"""Online play under load: many websocket clients playing many games at once against
one `noughts serve` process, reporting moves per second and round-trip latencies.

Each game is two guests on two sockets; a player answers each move after a think time
(uniform between 0.5 and 1.5 times --think), picking a random legal move. Measured per
move, in this process (one clock): `ack`, from sending the move to the mover's
acknowledgement (validated and committed), and `seen`, from sending it to the
opponent's socket receiving the event (committed, then published).

    .venv/bin/python bench/online_load.py [--games 1000] [--seconds 30] [--think 1.0]
        [--spec ultimate] [--database sqlite:///...|postgresql://...] [--redis URL]
        [--url http://host:port  (an already running server instead of starting one)]

The server process is started here (a fresh SQLite file by default) and its CPU time
is reported, so that the client's share of a shared machine is visible.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect

COOKIE = "noughts_session"


@dataclass
class Stats:
    ack: list[float] = field(default_factory=list)
    seen: list[float] = field(default_factory=list)
    errors: dict[str, int] = field(default_factory=dict)
    finished: int = 0
    moves: int = 0


@dataclass
class Game:
    id: str
    sockets: dict[str, ClientConnection] = field(default_factory=dict)
    sent_at: dict[int, float] = field(default_factory=dict)


async def post(http: httpx.AsyncClient, path: str, cookie: str | None = None, **body: Any) -> httpx.Response:
    """A POST, tried again when a kept-alive connection was closed under it (the server
    drops idle ones after a few seconds, and setting up is slow on a busy machine)."""
    failures = 0
    while True:
        try:
            answer = await http.post(path, json=body or None, cookies={COOKIE: cookie} if cookie else {})
            answer.raise_for_status()
            return answer
        except httpx.TransportError:
            failures += 1
            if failures == 3:
                raise


async def setup_game(http: httpx.AsyncClient, spec: str, gate: asyncio.Semaphore) -> tuple[str, str, str]:
    async with gate:
        x = (await post(http, "/api/online/guest")).cookies[COOKIE]
        o = (await post(http, "/api/online/guest")).cookies[COOKIE]
        room = await post(http, "/api/online/rooms", x, spec=spec, side="x")
        game_id = room.json()["game"]["id"]
        await post(http, f"/api/online/games/{game_id}/join", o)
        return game_id, x, o


async def player(
    game: Game, side: str, ws: ClientConnection, stats: Stats, think: float, stop: float, rng: random.Random
) -> None:
    other = "o" if side == "x" else "x"
    async for raw in ws:
        message = json.loads(raw)
        kind = message["type"]
        now = time.perf_counter()
        if kind == "ack":
            sent = game.sent_at.get(message["ply"])
            if sent is not None:
                stats.ack.append(now - sent)
            continue
        if kind == "error":
            stats.errors[message["error"]] = stats.errors.get(message["error"], 0) + 1
            continue
        if kind not in ("state", "event"):
            continue
        state = message["game"]
        if kind == "event" and message.get("kind") == "move" and message["by"] == other:
            sent = game.sent_at.pop(message["ply"], None)
            if sent is not None:
                stats.seen.append(now - sent)
        if state["state"] != "playing":
            if side == "x":
                stats.finished += 1
            return
        if state["view"]["turn"] != side or time.perf_counter() > stop:
            continue
        await asyncio.sleep(think * rng.uniform(0.5, 1.5))
        if time.perf_counter() > stop:
            return
        move = rng.choice(state["view"]["legal"])["text"]
        game.sent_at[state["ply"] + 1] = time.perf_counter()
        stats.moves += 1
        await ws.send(json.dumps({"type": "move", "move": move, "ply": state["ply"]}))


def percentiles(values: list[float]) -> str:
    if not values:
        return "no samples"
    ms = sorted(v * 1000 for v in values)
    q = statistics.quantiles(ms, n=100, method="inclusive")
    return f"p50 {q[49]:.1f} ms  p90 {q[89]:.1f} ms  p99 {q[98]:.1f} ms  max {ms[-1]:.1f} ms  ({len(ms)} samples)"


async def run(args: argparse.Namespace, base: str) -> Stats:
    stats = Stats()
    limits = httpx.Limits(max_connections=64)
    async with httpx.AsyncClient(base_url=base, limits=limits, timeout=60) as http:
        started = time.perf_counter()
        gate = asyncio.Semaphore(32)
        made = await asyncio.gather(*(setup_game(http, args.spec, gate) for _ in range(args.games)))
        print(
            f"set up {args.games} games ({2 * args.games} guests) in {time.perf_counter() - started:.1f} s", flush=True
        )
    ws_base = base.replace("http", "ws", 1)
    games = [Game(game_id) for game_id, _, _ in made]
    started = time.perf_counter()
    gate = asyncio.Semaphore(64)

    async def open_socket(game: Game, side: str, cookie: str) -> None:
        async with gate:
            game.sockets[side] = await connect(
                f"{ws_base}/api/online/games/{game.id}/ws", additional_headers={"Cookie": f"{COOKIE}={cookie}"},
                max_size=None, open_timeout=60, ping_interval=None,
            )  # fmt: skip

    await asyncio.gather(
        *(open_socket(g, side, c) for g, (_, x, o) in zip(games, made, strict=True) for side, c in (("x", x), ("o", o)))
    )
    print(f"opened {2 * len(games)} websockets in {time.perf_counter() - started:.1f} s", flush=True)
    rng = random.Random(1)
    began = time.perf_counter()
    stop = began + args.seconds
    tasks = [
        asyncio.create_task(player(g, side, g.sockets[side], stats, args.think, stop, random.Random(rng.random())))
        for g in games
        for side in ("x", "o")
    ]
    await asyncio.wait(tasks, timeout=args.seconds + 5)
    elapsed = time.perf_counter() - began
    for task in tasks:
        task.cancel()
    await asyncio.gather(*(ws.close() for g in games for ws in g.sockets.values()), return_exceptions=True)
    stats.moves = min(stats.moves, len(stats.ack))
    print(f"played for {elapsed:.1f} s")
    return stats


def start_server(args: argparse.Namespace) -> tuple[subprocess.Popen[str], str]:
    database = args.database or f"sqlite:///{tempfile.mkdtemp(prefix='noughts-load-')}/load.db"
    command = [sys.executable, "-m", "noughts.cli", "serve", "--port", "0", "--workers", "1", "--database", database]
    if args.redis:
        command += ["--redis", args.redis]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    assert process.stdout is not None
    line = process.stdout.readline()
    match = re.search(r"http://[\d.]+:\d+", line)
    if match is None:
        raise SystemExit(f"the server did not start: {line}{process.stdout.read()}")
    print(f"server: {' '.join(command[2:])}  (pid {process.pid}, database {database})", flush=True)
    return process, match.group(0)


def cpu_seconds(pid: int) -> float:
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--seconds", type=float, default=30)
    parser.add_argument("--think", type=float, default=1.0, help="average seconds a player takes per move")
    parser.add_argument("--spec", default="ultimate")
    parser.add_argument("--database")
    parser.add_argument("--redis")
    parser.add_argument("--url", help="use this running server instead of starting one")
    args = parser.parse_args()
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    process, base = (None, args.url) if args.url else start_server(args)
    try:
        server_cpu = cpu_seconds(process.pid) if process else 0.0
        client_cpu = time.process_time()
        stats = asyncio.run(run(args, base))
        print(
            f"games: {args.games} ({2 * args.games} sockets), {args.spec}, think {args.think} s; {os.cpu_count()} cores"
        )
        print(f"moves: {len(stats.ack)} acknowledged, {len(stats.ack) / args.seconds:.0f} moves/s")
        print(f"ack  (send -> mover's ack):       {percentiles(stats.ack)}")
        print(f"seen (send -> opponent's event):  {percentiles(stats.seen)}")
        print(f"errors: {stats.errors or 'none'}; games finished: {stats.finished}")
        if process:
            print(f"CPU over the whole run: server {cpu_seconds(process.pid) - server_cpu:.1f} s, "
                  f"clients {time.process_time() - client_cpu:.1f} s")  # fmt: skip
    finally:
        if process:
            process.terminate()
            process.wait(10)


if __name__ == "__main__":
    main()
