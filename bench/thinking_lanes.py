"""The computer's thinking under other work: lanes against first come first served.

Two measurements, side by side in one run:

1. Over HTTP, on a fresh `noughts serve --workers 2` (started here): the latency of a
   level-easy `/api/computer` move alone, then while six anonymous visitors (six
   addresses, 127.0.0.2-7) have each started a long review (ultimate, --plies plies,
   max, --review-time s a position), computed in the background. Goal: under 1 s.
2. In this process, on a `ThinkingPool` of two workers: --games house-bot games (level
   easy, as `app._online` asks for a bot's move; the opponent answers after 0.2-1.0 s)
   while six reviews of ultimate and the puzzle search of finished games run without
   pause; the bots' move latency p50/p99, with the lanes and with every job in one
   first-come-first-served queue (what the pool did before the lanes).

    .venv/bin/python bench/thinking_lanes.py [--games 50] [--seconds 20] [--plies 40] [--review-time 5]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx2

from noughts.registry import parse_spec
from noughts.server.replay import Replayed, replay
from noughts.thinking.jobs import ThinkJob, mine_position
from noughts.thinking.lanes import SERVER, Lane, LanedThinking
from noughts.thinking.pool import ThinkingPool

EASY_MOVE = {"spec": "classic", "moves": ["5"], "level": "easy"}


def _random_game(spec: str, plies: int, rng: random.Random) -> Replayed:
    state = parse_spec(spec).initial()
    moves = []
    while not state.is_over and len(moves) < plies:
        move = rng.choice(state.legal_moves())
        moves.append(state.game.move_text(move))
        state = state.play(move)
    return replay(spec, None, moves)


def _move_latencies(base: str, count: int) -> list[float]:
    took = []
    with httpx2.Client(base_url=base, timeout=120) as client:
        for _ in range(count):
            asked = time.monotonic()
            answer = client.post("/api/computer", json=EASY_MOVE)
            took.append(time.monotonic() - asked)
            assert answer.status_code == 200, answer.text
    return took


def over_http(plies: int, review_time: float) -> dict[str, Any]:
    """Part 1: a real server, easy moves alone and under six anonymous reviews."""
    folder = Path(tempfile.mkdtemp(prefix="thinking-lanes-"))
    command = [sys.executable, "-m", "noughts.cli", "serve", "--port", "0", "--workers", "2"]
    command += ["--database", f"sqlite:///{folder / 'noughts.db'}"]
    server = subprocess.Popen(command, stdout=subprocess.PIPE, text=True)
    try:
        assert server.stdout is not None
        found = re.search(r"http://[\d.]+:\d+", server.stdout.readline())
        assert found, "the server did not start"
        base = found[0]
        alone = _move_latencies(base, 10)
        statuses: list[int] = []
        for i in range(6):
            # Each from an address of its own: an anonymous visitor has one review at a time.
            transport = httpx2.HTTPTransport(local_address=f"127.0.0.{2 + i}")
            with httpx2.Client(base_url=base, transport=transport, timeout=20) as client:
                moves = list(_random_game("ultimate", plies, random.Random(i)).moves)
                asked = {"spec": "ultimate", "moves": moves, "level": "max", "time": review_time}
                statuses.append(client.post("/api/review", json=asked).status_code)
        time.sleep(2.0)
        under_reviews = _move_latencies(base, 10)
        return {"alone": alone, "under six reviews": under_reviews, "reviews": statuses}
    finally:
        server.terminate()
        server.wait(30)


async def _bot_games(pool: LanedThinking, games: int, seconds: float, fifo: bool) -> dict[str, Any]:
    """Part 2: bot games while reviews and mining go on, in `pool`."""
    rng = random.Random(2)
    waits: list[float] = []
    end = 0.0

    async def review_forever(seed: int) -> None:
        local = random.Random(seed)
        while True:
            game = _random_game("ultimate", 40, local)
            if fifo:  # each position in the one queue, as the pool did
                for state in game.states[:-1]:
                    await pool.analyze(ThinkJob(state, "max", 1.0, mistakes=False, every_move=True), Lane.MOVE, SERVER)
            else:
                await pool.review(game, "max", 1.0, SERVER)

    async def mine_forever(seed: int) -> None:
        local = random.Random(seed)
        while True:
            game = _random_game("classic", 9, local)
            if fifo:
                for state in game.states[-31:-1]:
                    await pool._run(Lane.MOVE, SERVER, (mine_position, state, 0.3, "bench"), 60, "late")
            else:
                await pool.mine_game(game, 0.3, "bench", 30)

    async def bot_game() -> None:
        nonlocal end
        while time.monotonic() < end:
            state = parse_spec("classic").initial()
            bot_turn = rng.random() < 0.5
            while not state.is_over and time.monotonic() < end:
                if bot_turn:
                    asked = time.monotonic()
                    analysis = await pool.analyze(ThinkJob(state, "easy"), Lane.MOVE, SERVER)
                    waits.append(time.monotonic() - asked)
                    state = state.play_text(analysis.moves[0].text)
                else:
                    await asyncio.sleep(rng.uniform(0.2, 1.0))
                    state = state.play(rng.choice(state.legal_moves()))
                bot_turn = not bot_turn

    await pool.start()
    background = [asyncio.ensure_future(review_forever(i)) for i in range(6)]
    background += [asyncio.ensure_future(mine_forever(100 + i)) for i in range(4)]
    await asyncio.sleep(1.0)
    end = time.monotonic() + seconds
    await asyncio.gather(*(bot_game() for _ in range(games)))
    for task in background:
        task.cancel()
    await asyncio.gather(*background, return_exceptions=True)
    waits.sort()
    return {
        "moves": len(waits),
        "p50": statistics.median(waits),
        "p99": waits[min(len(waits) - 1, int(len(waits) * 0.99))],
        "max": waits[-1],
    }


def in_the_pool(games: int, seconds: float) -> dict[str, dict[str, Any]]:
    found = {}
    for name, fifo in (("lanes", False), ("first come first served", True)):
        pool = ThinkingPool(workers=2, warm_kernels=True)
        try:
            found[name] = asyncio.run(_bot_games(pool, games, seconds, fifo))
        finally:
            pool.shutdown()
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--plies", type=int, default=40)
    parser.add_argument("--review-time", type=float, default=5.0)
    args = parser.parse_args()

    http = over_http(args.plies, args.review_time)
    print("easy /api/computer move on noughts serve --workers 2 (s):")
    for name in ("alone", "under six reviews"):
        took = http[name]
        print(f"  {name:<20} median {statistics.median(took):6.3f}  max {max(took):6.3f}")
    print(f"  the six reviews asked: {json.dumps(http['reviews'])} (202: being computed)", flush=True)
    pool = in_the_pool(args.games, args.seconds)
    print(f"house-bot moves (easy) in {args.games} games for {args.seconds:.0f} s, 2 workers, while six reviews")
    print("and the puzzle search run (s):")
    for name, found in pool.items():
        figures = f"p50 {found['p50']:6.3f}  p99 {found['p99']:6.3f}  max {found['max']:6.3f}"
        print(f"  {name:<24} {found['moves']:5d} moves  {figures}")
    goal = max(http["under six reviews"]) < 1.0
    print(f"goal (easy move under six reviews below 1 s): {'met' if goal else 'not met'}")


if __name__ == "__main__":
    main()
