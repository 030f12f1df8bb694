"""Online play under load: many websocket clients playing many games at once against
one `noughts serve` process, reporting moves per second and round-trip latencies.

Each game is two guests on two sockets; a player answers each move after a think time
(uniform between 0.5 and 1.5 times --think), picking a random legal move, and keeps
the game's state as the web page does (a move's event is a patch on the state before).
Measured per move, in this process (one clock): `ack`, from sending the move to the
mover's acknowledgement (validated and committed), and `seen`, from sending it to the
opponent's socket receiving the event (committed, then published). The last line says
whether the issue's target is met: 1,000 games (2,000 sockets) on one process with the
p99 of both under 100 ms.

    .venv/bin/python bench/online_load.py [--games 1000] [--seconds 30] [--think 1.0]
        [--spec ultimate] [--database sqlite:///...|postgresql://...] [--redis URL]
        [--url http://host:port  (an already running server instead of starting one)]
        [--timeline  (the acks' latency second by second)]

The server process is started here (a fresh SQLite file by default). Its CPU time
while playing is reported (per move, too), and so is how long the server and the
clients waited for a core: on a shared machine, latency says as much about the other
work as about the server.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass, field
from http.cookiejar import CookieJar, DefaultCookiePolicy
from typing import Any

import httpx2
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

COOKIE = "noughts_session"
#: The issue's target on one process: this many concurrent games, moves answered within
#: this p99 (both the mover's acknowledgement and the opponent's event).
TARGET_GAMES = 1000
TARGET_P99_MS = 100.0


@dataclass
class Stats:
    ack: list[float] = field(default_factory=list)
    #: (when sent, relative to the start of play; ack latency) for --timeline.
    sent: list[tuple[float, float]] = field(default_factory=list)
    began: float = 0.0
    seen: list[float] = field(default_factory=list)
    errors: dict[str, int] = field(default_factory=dict)
    finished: int = 0
    moves: int = 0
    #: Seconds of play, and the server's CPU seconds over them (None: not our process).
    elapsed: float = 0.0
    server_cpu: float | None = None
    server_waited: float = 0.0
    client_waited: float = 0.0
    client_cpu: float = 0.0


@dataclass
class Game:
    id: str
    sockets: dict[str, ClientConnection] = field(default_factory=dict)
    #: The "state" message each socket got on opening (what came before it is in it).
    opening: dict[str, str] = field(default_factory=dict)
    #: When the move of each ply was sent, until the mover's ack and until the opponent's
    #: event (the two sockets are read in any order).
    unacked: dict[int, float] = field(default_factory=dict)
    unseen: dict[int, float] = field(default_factory=dict)


def cookieless_client(base: str, **options: Any) -> httpx2.AsyncClient:
    """A client that keeps no cookies: every request names its player's session itself.
    A client's cookie jar keeps the last guest's cookie, and a request's own cookie was
    sent beside it, so that concurrent set-ups acted as each other's guests (and joined
    their own rooms: 409)."""
    return httpx2.AsyncClient(base_url=base, cookies=CookieJar(DefaultCookiePolicy(allowed_domains=[])), **options)


async def post(http: httpx2.AsyncClient, path: str, cookie: str | None = None, **body: Any) -> httpx2.Response:
    """A POST as the player of session `cookie` (None: nobody), tried again when a
    kept-alive connection was closed under it (the server drops idle ones after a few
    seconds, and setting up is slow on a busy machine)."""
    failures = 0
    headers = {"Cookie": f"{COOKIE}={cookie}"} if cookie else {}
    while True:
        try:
            answer = await http.post(path, json=body or None, headers=headers)
            answer.raise_for_status()
            return answer
        except httpx2.TransportError:
            failures += 1
            if failures == 3:
                raise


async def setup_game(http: httpx2.AsyncClient, spec: str, gate: asyncio.Semaphore) -> tuple[str, str, str]:
    """A game of `spec` between two new guests, in play: its id and their sessions."""
    async with gate:
        x = (await post(http, "/api/online/guest")).cookies[COOKIE]
        o = (await post(http, "/api/online/guest")).cookies[COOKIE]
        room = await post(http, "/api/online/rooms", x, spec=spec, side="x")
        game_id = room.json()["game"]["id"]
        await post(http, f"/api/online/games/{game_id}/join", o)
        return game_id, x, o


async def setup_games(base: str, specs: list[str]) -> list[tuple[str, str, str]]:
    """A game in play for each of `specs`, set up 32 at a time: (id, x's and o's sessions)."""
    limits = httpx2.Limits(max_connections=64)
    async with cookieless_client(base, limits=limits, timeout=60) as http:
        gate = asyncio.Semaphore(32)
        return await asyncio.gather(*(setup_game(http, spec, gate) for spec in specs))


async def player(
    game: Game, side: str, ws: ClientConnection, stats: Stats, think: float, stop: float, rng: random.Random
) -> None:
    with contextlib.suppress(ConnectionClosed):
        await play(game, side, ws, stats, think, stop, rng)
    if ws.close_code is not None and time.perf_counter() < stop:
        closed = f"socket closed by the server ({ws.close_code})"
        stats.errors[closed] = stats.errors.get(closed, 0) + 1


async def messages(first: str, ws: ClientConnection) -> AsyncIterator[str | bytes]:
    yield first
    async for raw in ws:
        yield raw


async def play(
    game: Game, side: str, ws: ClientConnection, stats: Stats, think: float, stop: float, rng: random.Random
) -> None:
    other = "o" if side == "x" else "x"
    state: dict[str, Any] = {}
    async for raw in messages(game.opening[side], ws):
        message = json.loads(raw)
        kind = message["type"]
        now = time.perf_counter()
        if kind == "ack":
            sent = game.unacked.pop(message["ply"], None)
            if sent is not None:
                stats.ack.append(now - sent)
                stats.sent.append((sent - stats.began, now - sent))
            continue
        if kind == "error":
            stats.errors[message["error"]] = stats.errors.get(message["error"], 0) + 1
            continue
        if kind not in ("state", "event"):
            continue
        if "patch" in message:
            if not state or message["version"] <= state["version"]:
                continue  # the state read on connecting holds it already
            if message["version"] > state["version"] + 1:
                stats.errors["gap"] = stats.errors.get("gap", 0) + 1
                await ws.send(json.dumps({"type": "resync"}))
                continue
            # What the page does, but for the move list (a player here needs none).
            view = {**state["view"], **message["patch"]["view"]}
            state = {**state, **message["patch"], "ply": message["ply"], "version": message["version"], "view": view}
        else:
            state = message["game"]
        if kind == "event" and message.get("kind") == "move" and message["by"] == other:
            sent = game.unseen.pop(message["ply"], None)
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
        game.unacked[state["ply"] + 1] = game.unseen[state["ply"] + 1] = time.perf_counter()
        stats.moves += 1
        await ws.send(json.dumps({"type": "move", "move": move, "ply": state["ply"]}))


def p99(values: list[float]) -> float:
    return statistics.quantiles(values, n=100, method="inclusive")[98] * 1000 if len(values) > 1 else float("inf")


def percentiles(values: list[float]) -> str:
    if len(values) < 2:
        return "no samples"
    ms = sorted(v * 1000 for v in values)
    q = statistics.quantiles(ms, n=100, method="inclusive")
    return f"p50 {q[49]:.1f} ms  p90 {q[89]:.1f} ms  p99 {q[98]:.1f} ms  max {ms[-1]:.1f} ms  ({len(ms)} samples)"


def report(args: argparse.Namespace, stats: Stats) -> None:
    moves = len(stats.ack)
    print(f"games: {args.games} ({2 * args.games} sockets), {args.spec}, think {args.think} s; {os.cpu_count()} cores")
    print(f"moves: {moves} acknowledged in {stats.elapsed:.1f} s, {moves / args.seconds:.0f} moves/s")
    print(f"ack  (send -> mover's ack):       {percentiles(stats.ack)}")
    print(f"seen (send -> opponent's event):  {percentiles(stats.seen)}")
    print(f"errors: {stats.errors or 'none'}; games finished: {stats.finished}")
    if args.timeline:
        print("second: moves sent, ack p50 / max ms")
        for second in range(int(args.seconds) + 1):
            ms = sorted(1000 * lag for at, lag in stats.sent if second <= at < second + 1)
            if ms:
                print(f"  {second:3d}: {len(ms):5d}  {ms[len(ms) // 2]:8.1f} / {ms[-1]:8.1f}")
    if stats.server_cpu is not None:
        per_move = f", {1000 * stats.server_cpu / moves:.2f} ms a move" if moves else ""
        share = 100 * stats.server_cpu / stats.elapsed
        print(f"CPU while playing: server {stats.server_cpu:.1f} s{per_move} ({share:.0f}% of a core); "
              f"clients {stats.client_cpu:.1f} s")  # fmt: skip
        print(f"waiting for a core while playing (other work on the machine): server {stats.server_waited:.1f} s, "
              f"clients {stats.client_waited:.1f} s")  # fmt: skip
    worst = max(p99(stats.ack), p99(stats.seen))
    met = args.games >= TARGET_GAMES and worst < TARGET_P99_MS and not stats.errors
    print(
        f"target ({TARGET_GAMES} games, p99 < {TARGET_P99_MS} ms, no errors): "
        f"{'MET' if met else 'NOT MET'} (worse p99 {worst:.1f} ms at {args.games} games)"
    )


async def run(args: argparse.Namespace, base: str, pid: int | None) -> Stats:
    stats = Stats()
    started = time.perf_counter()
    made = await setup_games(base, [args.spec] * args.games)
    print(f"set up {args.games} games ({2 * args.games} guests) in {time.perf_counter() - started:.1f} s", flush=True)
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
            # Play starts once every socket has its state: the server is done with
            # the openings (measured apart, above).
            while json.loads(opening := await game.sockets[side].recv())["type"] != "state":
                pass
            game.opening[side] = str(opening)

    await asyncio.gather(
        *(open_socket(g, side, c) for g, (_, x, o) in zip(games, made, strict=True) for side, c in (("x", x), ("o", o)))
    )
    opened = time.perf_counter() - started
    print(f"opened {2 * len(games)} websockets (each with its state) in {opened:.1f} s", flush=True)
    rng = random.Random(1)
    cpu_before = cpu_seconds(pid) if pid else None
    waited_before = (waited_seconds(pid) if pid else 0.0), waited_seconds(os.getpid())
    client_before = time.process_time()
    began = stats.began = time.perf_counter()
    stop = began + args.seconds
    tasks = [
        asyncio.create_task(player(g, side, g.sockets[side], stats, args.think, stop, random.Random(rng.random())))
        for g in games
        for side in ("x", "o")
    ]
    await asyncio.wait(tasks, timeout=args.seconds)
    # Nothing is sent after `stop`: wait for the answers to what was.
    drained = time.perf_counter() + 5
    while len(stats.ack) + sum(stats.errors.values()) < stats.moves and time.perf_counter() < drained:
        await asyncio.sleep(0.01)
    elapsed = time.perf_counter() - began
    if pid and cpu_before is not None:
        stats.server_cpu = cpu_seconds(pid) - cpu_before
        stats.server_waited = waited_seconds(pid) - waited_before[0]
    stats.client_waited = waited_seconds(os.getpid()) - waited_before[1]
    stats.elapsed = elapsed
    stats.client_cpu = time.process_time() - client_before
    for task in tasks:
        task.cancel()
    await asyncio.gather(*(ws.close() for g in games for ws in g.sockets.values()), return_exceptions=True)
    stats.moves = min(stats.moves, len(stats.ack))
    print(f"played for {elapsed:.1f} s")
    return stats


def start_server(database: str, redis: str | None, said: list[str]) -> tuple[subprocess.Popen[str], str]:
    """`noughts serve` on a free port; what it prints after its address goes to `said`."""
    command = [sys.executable, "-m", "noughts.cli", "serve", "--port", "0", "--workers", "1", "--database", database]
    if redis:
        command += ["--redis", redis]
    # Every guest comes from this one address: the brake on guests per address is lifted.
    env = {**os.environ, "NOUGHTS_GUESTS_PER_ADDRESS": "1000000", "NOUGHTS_SIGNUPS_PER_ADDRESS": "1000000"}
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env)
    assert process.stdout is not None
    # Up to its address: on a checkout whose fast engine is not compiled yet, the server
    # first says that it compiles it (one line read, then `read()` waited for its end).
    line = ""
    while "http://" not in line:
        said_first = process.stdout.readline()
        if not said_first:
            break
        line += said_first
    match = re.search(r"http://[\d.]+:\d+", line)
    if match is None:
        raise SystemExit(f"the server did not start: {line}")
    # Read on, or a server with much to say would block on a full pipe.
    threading.Thread(target=lambda: said.extend(process.stdout or ()), daemon=True).start()
    print(f"server: {' '.join(command[2:])}  (pid {process.pid}, database {database})", flush=True)
    return process, match.group(0)


def server_options(parser: argparse.ArgumentParser) -> None:
    """The options of `servers`: the database, Redis, and how many server processes."""
    parser.add_argument("--database")
    parser.add_argument("--redis")
    parser.add_argument("--servers", type=int, default=1, help="server processes (more than one: PostgreSQL)")


@contextlib.contextmanager
def servers(args: argparse.Namespace, name: str, said: list[str]) -> Iterator[tuple[str, list[str]]]:
    """`args.servers` `noughts serve` processes on `args.database` (else a scratch SQLite
    file named for `name`) and `args.redis`: (the database, their addresses), stopped
    on leaving. What they print goes to `said`. Raises the open-files limit first, for
    the bench's many sockets."""
    if args.servers > 1 and not (args.database or "").startswith("postgresql"):
        raise SystemExit("several servers share a PostgreSQL database: give --database postgresql://...")
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    with tempfile.TemporaryDirectory(prefix=f"noughts-{name}-") as scratch:
        database = args.database or f"sqlite:///{scratch}/{name}.db"
        started = [start_server(database, args.redis, said) for _ in range(args.servers)]
        try:
            yield database, [base for _, base in started]
        finally:
            for process, _ in started:
                process.terminate()
                process.wait(10)


def p50_p99(values: list[float]) -> str:
    """The median and the 99th percentile of `values` (seconds), in milliseconds."""
    ordered = sorted(values)
    if not ordered:
        return "no samples"
    p50, p99 = (1000 * ordered[min(len(ordered) - 1, int(q * len(ordered)))] for q in (0.5, 0.99))
    return f"p50 {p50:.0f} ms, p99 {p99:.0f} ms"


def cpu_seconds(pid: int) -> float:
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def waited_seconds(pid: int) -> float:
    """How long the threads of process `pid` have been ready to run but waiting for a
    core (the scheduler's run-queue time): what other work on a shared machine costs."""
    total = 0
    for task in os.listdir(f"/proc/{pid}/task"):
        try:
            with open(f"/proc/{pid}/task/{task}/schedstat") as stat:
                total += int(stat.read().split()[1])
        except (FileNotFoundError, ProcessLookupError):
            continue  # a thread that ended meanwhile
    return total / 1e9


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--seconds", type=float, default=30)
    parser.add_argument("--think", type=float, default=1.0, help="average seconds a player takes per move")
    parser.add_argument("--spec", default="ultimate")
    parser.add_argument("--database")
    parser.add_argument("--redis")
    parser.add_argument("--url", help="use this running server instead of starting one")
    parser.add_argument("--timeline", action="store_true", help="print the acknowledgements' latency second by second")
    args = parser.parse_args()
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    if args.url:
        report(args, asyncio.run(run(args, args.url, None)))
        return
    said: list[str] = []
    with tempfile.TemporaryDirectory(prefix="noughts-load-") as scratch:
        process, base = start_server(args.database or f"sqlite:///{scratch}/load.db", args.redis, said)
        try:
            report(args, asyncio.run(run(args, base, process.pid)))
        finally:
            process.terminate()
            process.wait(10)
    if said:
        print(f"the server said ({len(said)} lines, the last ones):", *said[-10:], sep="\n  ", end="")


if __name__ == "__main__":
    main()
