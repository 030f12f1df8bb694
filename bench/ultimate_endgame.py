"""Where ultimate's endgame is solved exactly within a move's budget: positions from
seeded self-play (kmcts, from random first plies), grouped by their empty cells; for
each, the exact alpha-beta (``kalphabeta``, the search `kmcts:endgame=N` runs first)
with the budget's share, as `max` would spend it. Prints, per group, how many it
proved (the decision: a win, or every move exact), the median and 90th percentile of
the time and nodes of those proofs, and the largest group where at least `--enough`
of the positions were proved: the threshold `max`'s ``endgame`` option uses.

    .venv/bin/python bench/ultimate_endgame.py [--games 12] [--budget 1.0]
        [--game ultimate] [--enough 0.8] [--seed 1]

The kernel's speed (nodes a second, printed) depends on the machine and its load: the
time columns scale with it, the node columns do not.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import time

from noughts import parse_spec
from noughts.ai.base import Kind, Limits
from noughts.ai.compiled import KernelAlphaBetaPlayer, KernelMCTSPlayer, empty_cells, prepare
from noughts.core import State


def self_play(game_spec: str, games: int, seed: int) -> list[State]:
    """Every position of `games` self-play games of kmcts (3,000 iterations a move)
    from two random first plies each."""
    rng = random.Random(seed)
    positions: list[State] = []
    for index in range(games):
        state = parse_spec(game_spec).initial()
        for _ in range(2):
            state = state.play(rng.choice(state.legal_moves()))
        player = KernelMCTSPlayer(iterations=3000, seed=seed * 1000 + index)
        while not state.is_over:
            positions.append(state)
            state = state.play(player.choose(state))
    return positions


def p90(values: list[float] | list[int]) -> float:
    """The 90th percentile by nearest rank (of two values, the larger)."""
    return sorted(values)[max(0, math.ceil(0.9 * len(values)) - 1)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="ultimate", choices=["ultimate", "nine-board"])
    parser.add_argument("--games", type=int, default=12)
    parser.add_argument("--budget", type=float, default=1.0, help="seconds for the exact search (max: half of 2 s)")
    parser.add_argument("--enough", type=float, default=0.8, help="the share of a group that must be proved")
    parser.add_argument("--per-group", type=int, default=8)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    prepare()
    groups: dict[int, list[State]] = {}
    for state in self_play(args.game, args.games, args.seed):
        groups.setdefault(empty_cells(state) // 4 * 4, []).append(state)
    solver = KernelAlphaBetaPlayer(seed=0)
    print(f"{args.game}: exact alpha-beta with {args.budget:g} s a position, {args.games} self-play games")
    print("| empty cells | positions | proved | time p50 / p90 (proved) | nodes p50 / p90 (proved) |")
    print("|---|---|---|---|---|")
    threshold, total_nodes, total_time = 0, 0, 0.0
    for empties in sorted(groups):
        if empties < 16:
            continue
        sample = random.Random(empties).sample(groups[empties], min(args.per_group, len(groups[empties])))
        times, nodes, proved = [], [], 0
        for state in sample:
            started = time.perf_counter()
            found = solver.search(state, Limits(time=args.budget), exact=False)
            seconds = time.perf_counter() - started
            total_nodes, total_time = total_nodes + found.nodes, total_time + seconds
            if found.moves[0].value.kind is Kind.WIN or all(info.value.exact for info in found.moves):
                proved += 1
                times.append(seconds)
                nodes.append(found.nodes)
        share = proved / len(sample)
        if share >= args.enough:
            threshold = empties + 3
        quantiles = (statistics.median(times), p90(times), statistics.median(nodes), p90(nodes)) if times else None
        cells = f"{empties}-{empties + 3}"
        if quantiles:
            t50, t90, n50, n90 = quantiles
            print(f"| {cells} | {len(sample)} | {share:.0%} | {t50:.2f} / {t90:.2f} s | {n50:,.0f} / {n90:,.0f} |")
        else:
            print(f"| {cells} | {len(sample)} | 0% | - | - |")
        if not proved and empties > threshold + 8:
            break  # the deeper groups only get harder
    print(f"kernel speed in this run: {total_nodes / max(total_time, 1e-9):,.0f} nodes a second")
    print(f"proved in at least {args.enough:.0%} of the positions up to {threshold} empty cells")


if __name__ == "__main__":
    main()
