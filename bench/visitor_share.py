"""One visitor's share of a server: another user's move acknowledgements (p50, p99) and
a short review's time, alone and while one visitor attacks, side by side in one run
against one `noughts serve` (SQLite, two thinking workers):

- `resync`: 100 spectator sockets from one address, each asking for the whole state
  18 times a second (under the per-socket frame rate);
- `headers`: 1,100 connections from one client whose request headers never end;
- `review`: a long anonymous review (a 40-ply ultimate game, `max` at 5 s a position).

    .venv/bin/python bench/visitor_share.py [--moves 60]

The probe that found the holes (2026-12, before the bounds): resync 6-60x slower acks
(p50 7-54 ms -> 295-1,488 ms on SQLite), the 1,100 connections denied every other
request, a 9-move review took 42.5 s behind the long one instead of 1.1 s. A ratio
column compares each attack's figure with the quiet one of this run.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import random
import re
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from http.cookiejar import CookieJar, DefaultCookiePolicy
from typing import Any

import httpx2
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

COOKIE = "noughts_session"
#: The long review's game: 40 random plies of ultimate, by `max` at 5 s a position; the
#: short one's: 9, by `hard` (20,000 iterations, 0.08 s a position on an idle machine).
ULTIMATE_PLIES = 40
SHORT_PLIES = 9


def ultimate_game(plies: int, seed: int) -> list[str]:
    """`plies` random moves of ultimate."""
    from noughts.registry import parse_spec

    state = parse_spec("ultimate").initial()
    rng = random.Random(seed)
    moves: list[str] = []
    while len(moves) < plies and not state.is_over:
        move = rng.choice(state.legal_moves())
        moves.append(state.move_text(move))
        state = state.play(move)
    return moves


@contextlib.contextmanager
def serving() -> Iterator[str]:
    """`noughts serve` on a free port with a fresh SQLite file; its address."""
    folder = tempfile.mkdtemp()
    command = [sys.executable, "-m", "noughts.cli", "serve", "--port", "0", "--workers", "2"]
    # The other user's games are between new guests, more than an address may make.
    env = {**os.environ, "NOUGHTS_GUESTS_PER_ADDRESS": "1000000", "NOUGHTS_SIGNUPS_PER_ADDRESS": "1000000"}
    process = subprocess.Popen(
        [*command, "--database", f"sqlite:///{folder}/online.db"], stdout=subprocess.PIPE, text=True, env=env
    )
    assert process.stdout is not None
    for line in process.stdout:
        found = re.search(r"http://[\d.]+:\d+", line)
        if found:
            break
    else:
        raise SystemExit("noughts serve did not start")
    threading.Thread(target=process.stdout.read, daemon=True).start()
    try:
        yield found.group(0)
    finally:
        process.terminate()
        process.wait(30)


class Pair:
    """Two guests playing classic games on their sockets; moves timed to their ack."""

    def __init__(self, base: str) -> None:
        self.base = base
        # No cookie jar: each request says whose it is (a jar would send the last guest's).
        jar = CookieJar(policy=DefaultCookiePolicy(allowed_domains=[]))
        self.http = httpx2.Client(base_url=base, timeout=60, cookies=jar)

    def guest(self) -> str:
        answer = self.http.post("/api/online/guest")
        answer.raise_for_status()
        return str(answer.cookies[COOKIE])

    def game(self) -> tuple[str, ClientConnection, ClientConnection]:
        x, o = self.guest(), self.guest()
        room = self.http.post("/api/online/rooms", json={"spec": "classic", "side": "x"}, headers=self._as(x))
        game_id = str(room.json()["game"]["id"])
        self.http.post(f"/api/online/games/{game_id}/join", headers=self._as(o)).raise_for_status()
        url = self.base.replace("http", "ws", 1) + f"/api/online/games/{game_id}/ws"
        return (
            game_id,
            connect(url, additional_headers={"Cookie": f"{COOKIE}={x}"}),
            connect(url, additional_headers={"Cookie": f"{COOKIE}={o}"}),
        )

    @staticmethod
    def _as(session: str) -> dict[str, str]:
        return {"Cookie": f"{COOKIE}={session}"}

    def acks(self, moves: int) -> list[float]:
        """Milliseconds from sending each of `moves` moves to its acknowledgement."""
        taken: list[float] = []
        while len(taken) < moves:
            _, x, o = self.game()
            with x, o:
                free = list("123456789")
                random.shuffle(free)
                for ply, (move, sock) in enumerate(zip(free[:4], (x, o, x, o), strict=True)):
                    asked = time.perf_counter()
                    sock.send(json.dumps({"type": "move", "move": move, "ply": ply, "id": ply}))
                    while True:
                        frame = json.loads(sock.recv(timeout=60))
                        if frame["type"] in ("ack", "error") and frame.get("id") == ply:
                            break
                    if frame["type"] == "ack":
                        taken.append((time.perf_counter() - asked) * 1000)
        return taken[:moves]


def resync_flood(base: str, game_id: str, stop: threading.Event) -> None:
    """100 anonymous spectator sockets on `game_id`, each sending resync 18 times a second."""

    def spectator() -> None:
        url = base.replace("http", "ws", 1) + f"/api/online/games/{game_id}/ws"
        with contextlib.suppress(OSError, ConnectionClosed, TimeoutError), connect(url, open_timeout=30) as ws:
            while not stop.is_set():
                ws.send('{"type": "resync"}')
                with contextlib.suppress(TimeoutError):
                    while True:
                        ws.recv(timeout=0)
                time.sleep(1 / 18)

    for _ in range(100):
        threading.Thread(target=spectator, daemon=True).start()


def endless_headers(base: str, stop: threading.Event) -> None:
    """1,100 connections sending a header byte every few seconds, never ending them."""
    host, port = base.removeprefix("http://").split(":")

    def trickle() -> None:
        held: list[socket.socket] = []
        for _ in range(1100):
            with contextlib.suppress(OSError):
                sock = socket.create_connection((host, int(port)), timeout=5)
                sock.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n")
                held.append(sock)
        while not stop.is_set():
            for sock in held:
                with contextlib.suppress(OSError):
                    sock.sendall(b"X")
            time.sleep(2)
        for sock in held:
            sock.close()

    threading.Thread(target=trickle, daemon=True).start()


def long_review(base: str, stop: threading.Event) -> None:
    """An anonymous visitor's review of a 40-ply ultimate game at 5 s a position."""
    body = {"spec": "ultimate", "moves": ultimate_game(ULTIMATE_PLIES, 7), "level": "max", "time": 5.0, "wait": 0}

    def ask() -> None:
        with httpx2.Client(base_url=base, timeout=600) as http:
            http.post("/api/review", json=body)

    threading.Thread(target=ask, daemon=True).start()


def short_review(base: str, seconds: float) -> float:
    """Seconds another visitor's 9-move review takes (`seconds` a position: each
    scenario its own, since a review is computed once and kept)."""
    body = {"spec": "ultimate", "moves": ultimate_game(SHORT_PLIES, 8), "level": "hard", "time": seconds, "wait": 30}
    with httpx2.Client(base_url=base, timeout=600) as http:
        # A user of their own (the attacker is an address without an account).
        name = f"reader{random.randrange(10**9)}"
        http.post("/api/online/signup", json={"name": name, "password": "a long enough password"}).raise_for_status()
        started = time.perf_counter()
        while (answer := http.post("/api/review", json=body)).status_code == 202:
            pass
        answer.raise_for_status()
        return time.perf_counter() - started


def measure(
    base: str, moves: int, attack: Callable[[threading.Event], None] | None, warm: float, seconds: float
) -> dict[str, Any]:
    stop = threading.Event()
    if attack is not None:
        attack(stop)
        time.sleep(warm)  # the attack under way
    try:
        pair = Pair(base)
        refused = 0
        try:
            acks = pair.acks(moves)
        except (httpx2.HTTPError, OSError, ConnectionClosed, TimeoutError) as e:
            acks, refused = [], 1
            print(f"  the other user was refused: {type(e).__name__}: {e}", file=sys.stderr)
        review = short_review(base, seconds)
    finally:
        stop.set()
    p50 = statistics.median(acks) if acks else float("nan")
    p99 = statistics.quantiles(acks, n=100)[98] if len(acks) > 1 else float("nan")
    return {"p50": p50, "p99": p99, "review": review, "refused": refused}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--moves", type=int, default=60)
    args = parser.parse_args()
    rows: list[tuple[str, dict[str, Any]]] = []
    with serving() as base:
        Pair(base).acks(8)  # warm: the first games, the first pages
        rows.append(("quiet", measure(base, args.moves, None, 0, 0.10)))
        watched, _, _ = Pair(base).game()
        rows.append(("resync", measure(base, args.moves, lambda stop: resync_flood(base, watched, stop), 5, 0.101)))
        rows.append(("headers", measure(base, args.moves, lambda stop: endless_headers(base, stop), 8, 0.102)))
        rows.append(("review", measure(base, args.moves, lambda stop: long_review(base, stop), 3, 0.103)))
    quiet = rows[0][1]
    print(f"{'attack':<9} {'ack p50 ms':>10} {'p99 ms':>8} {'x quiet':>8} {'9-move review s':>16} {'x quiet':>8}")
    for name, row in rows:
        ratio = row["p99"] / quiet["p99"] if quiet["p99"] else float("nan")
        print(
            f"{name:<9} {row['p50']:>10.1f} {row['p99']:>8.1f} {ratio:>8.1f} "
            f"{row['review']:>16.2f} {row['review'] / quiet['review']:>8.1f}"
            + ("  (refused)" if row["refused"] else "")
        )


if __name__ == "__main__":
    main()
