"""Search speed per game: alpha-beta against plain minimax at the same depth, in one run.

For each game, from a seeded position a few random plies into the game, prints the
nodes, seconds and nodes per second of

* ``alphabeta`` ``analyze`` (every root move searched with a full window),
* ``alphabeta`` ``choose`` (ordinary alpha-beta at the root), and
* ``minimax`` (every node, no pruning; skipped where it would take minutes),

all with the same depth limit (columns ab and mm: the depth each finished; a search
stops early once every root move is proven), then the ratios minimax / alpha-beta of nodes and time,
and finally how deep alpha-beta gets within a fixed time.

    .venv/bin/python bench/search_speed.py [--plies 2] [--seed 1] [--time 1.0]
"""

from __future__ import annotations

import argparse
import random
import time
from typing import Any

from noughts import State, parse_spec
from noughts.ai import Limits
from noughts.ai.search import AlphaBetaPlayer, MinimaxPlayer

AIPlayerT = AlphaBetaPlayer | MinimaxPlayer

#: (game spec, depth for the comparison, whether minimax can afford that depth)
CASES = [
    ("classic", 6, True),
    ("classic:forget=true", 6, True),
    ("mnk:m=4:n=4:k=4", 4, True),
    ("mnk:m=15:n=15:k=5", 2, False),
    ("nine-board", 4, True),
    ("ultimate", 4, True),
    ("qubic", 3, True),
    ("matryoshka", 4, True),
    ("gobblet", 3, True),
]


def position(spec: str, plies: int, seed: int) -> State[Any]:
    rng = random.Random(seed)
    state: State[Any] = parse_spec(spec).initial()
    for _ in range(plies):
        moves = state.legal_moves()
        if not moves:
            break
        after = state.play(rng.choice(moves))
        if after.is_over:
            break
        state = after
    return state


def measure(player: AIPlayerT, state: State[Any], limits: Limits, choose: bool = False) -> tuple[int, float, int]:
    """Nodes, seconds and finished depth of one decision by a fresh player (a search
    stops before its depth limit once every root move is proven)."""
    started = time.perf_counter()
    if choose:
        player.choose(state, limits)
        depth = 0
    else:
        depth = player.analyze(state, limits).depth or 0
    return player.nodes, time.perf_counter() - started, depth


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--plies", type=int, default=2, help="random plies played before the measured position")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--time", type=float, default=1.0, help="seconds for the fixed-time column")
    args = parser.parse_args()

    header = (
        f"{'game':<22}{'d':>2} {'ab':>2} {'ab-analyze n':>12} {'s':>6} {'n/s':>7}  {'ab-choose n':>11} {'s':>6}  "
        f"{'mm':>2} {'minimax n':>10} {'s':>6} {'n/s':>7}  {'mm/ab nodes':>11} {'mm/ab time':>10}  "
        f"{f'depth in {args.time}s':>12}"
    )
    print(header)
    print("-" * len(header))
    for spec, depth, minimax_ok in CASES:
        state = position(spec, args.plies, args.seed)
        limits = Limits(depth=depth)
        ab_nodes, ab_time, ab_depth = measure(AlphaBetaPlayer(), state, limits)
        ch_nodes, ch_time, _ = measure(AlphaBetaPlayer(), state, limits, choose=True)
        timed = AlphaBetaPlayer().analyze(state, Limits(time=args.time))
        row = (
            f"{spec:<22}{depth:>2} {ab_depth:>2} {ab_nodes:>12} {ab_time:>6.2f} {ab_nodes / ab_time:>7.0f}  "
            f"{ch_nodes:>11} {ch_time:>6.2f}  "
        )
        if minimax_ok:
            mm_nodes, mm_time, mm_depth = measure(MinimaxPlayer(), state, limits)
            row += (
                f"{mm_depth:>2} {mm_nodes:>10} {mm_time:>6.2f} {mm_nodes / mm_time:>7.0f}  "
                f"{mm_nodes / ab_nodes:>11.1f} {mm_time / ab_time:>10.1f}  "
            )
        else:
            row += f"{'-':>2} {'-':>10} {'-':>6} {'-':>7}  {'-':>11} {'-':>10}  "
        row += f"{timed.depth:>12}"
        print(row, flush=True)


if __name__ == "__main__":
    main()
