"""Matryoshka's exact answers on a new installation, timed: reading the shipped book in
a new process, then the perfect player's full analysis (every move's exact value and
the principal line) of sampled positions of every ply, each by a new player (an empty
search table, as in a new worker), and the search alone with the book off.

    .venv/bin/python bench/matryoshka_exact.py [--positions 40] [--seed 1] [--without-book 3]

Positions come from seeded random games, one per class; a second table takes only the
drawn ones of the book's last plies (the hardest to prove past the book). Run it with
``NOUGHTS_CACHE_DIR=$(mktemp -d) NUMBA_CACHE_DIR=$(mktemp -d)`` for an empty cache: the
matryoshka player reads neither. Prints, per ply, the slowest and the median analysis,
and how many of them were not exact (it must be none).
"""

from __future__ import annotations

import argparse
import random
import statistics
import subprocess
import sys
import time

from noughts.ai.base import Kind
from noughts.ai.matryoshka import BOOK_PLIES, ExactSearch, book, state_key
from noughts.ai.solve import PerfectPlayer
from noughts.core import Player
from noughts.games.gobblet import GobbletState
from noughts.registry import parse_spec

_READ = "import time; from noughts.ai.matryoshka import book; t = time.perf_counter(); b = book(); "
_READ += "print(f'{time.perf_counter() - t:.3f} {len(b)}')"


def sample(ply: int, count: int, rng: random.Random, drawn: bool = False) -> list[GobbletState]:
    """Up to `count` unfinished positions of `ply` plies, one per class; with `drawn`,
    only those the book calls a draw."""
    found: dict[int, GobbletState] = {}
    for _ in range(200 * count):
        state = parse_spec("matryoshka").initial()
        for _ in range(ply):
            if state.is_over:
                break
            state = state.play(rng.choice(state.legal_moves()))
        if state.is_over or not isinstance(state, GobbletState):
            continue
        if drawn and book().code(state.board, 0 if state.turn is Player.X else 1) != 0:
            continue
        found.setdefault(state_key(state), state)
        if len(found) >= count:
            break
    return list(found.values())


def table(title: str, plies: range, count: int, rng: random.Random, drawn: bool = False) -> None:
    print(title)
    print("ply  positions  slowest analysis  median  nodes (most)  not exact")
    for ply in plies:
        states = sample(ply, count, rng, drawn)
        if not states:
            continue
        times, nodes, inexact = [], [], 0
        for state in states:
            started = time.perf_counter()
            analysis = PerfectPlayer().analyze(state)
            times.append(time.perf_counter() - started)
            nodes.append(analysis.nodes)
            inexact += any(info.value.kind in (Kind.SCORE, Kind.UNKNOWN) for info in analysis.moves)
        print(
            f"{ply:3}  {len(states):9}  {max(times):14.3f} s  {statistics.median(times):.3f} s"
            f"  {max(nodes):12,}  {inexact:9}",
            flush=True,
        )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--positions", type=int, default=40, help="positions per ply")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--without-book", type=int, default=3, metavar="N", help="positions per ply searched without it"
    )
    args = parser.parse_args()
    reads = [
        subprocess.run([sys.executable, "-c", _READ], capture_output=True, text=True, check=True).stdout.split()
        for _ in range(3)
    ]
    print(f"book read in a new process: {max(float(r[0]) for r in reads):.3f} s at most of 3 ({reads[0][1]} entries)")
    rng = random.Random(args.seed)
    table("random positions:", range(12), args.positions, rng)
    table("drawn positions of the book's last plies:", range(BOOK_PLIES - 1, BOOK_PLIES + 1), args.positions, rng, True)
    if args.without_book:
        print("the value alone by search, the book off (a new search each):")
        for ply in (4, 3, 2, 1, 0):
            states = sample(ply, args.without_book, rng)
            times = []
            for state in states:
                started = time.perf_counter()
                ExactSearch(use_book=False).value(state)
                times.append(time.perf_counter() - started)
            print(f"  ply {ply}: slowest {max(times):.2f} s, median {statistics.median(times):.2f} s ({len(states)})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
