"""The compiled kernels side by side with OpenSpiel's C++ and our readable engine, in
one run on one core: perft, MCTS iterations per second, and first-move latency with a
cold and a warm compilation cache.

* perft 7 of ultimate (33,782,544 leaves) on the kernels; perft 5 on the kernels, the
  readable engine and OpenSpiel (its perft driven from Python, as bench/perft_openspiel.py).
* MCTS iterations per second from the opening: kmcts with random playouts against
  OpenSpiel's C++ MCTSBot (random-rollout evaluator, one rollout, solver on), alternated
  `--rounds` times so that a busy machine hurts both alike; the ratio is the median of
  the rounds' ratios. nine-board and qubic: kmcts alone (OpenSpiel has neither game);
  last, kmcts with its default guided playouts.
* latency: a fresh process makes kmcts's first move (0.1 s search) with an empty
  NUMBA_CACHE_DIR (cold: compiles) and again with the cache it left (warm: loads).

    .venv/bin/python bench/kernel_speed.py [--time 1.0] [--rounds 3]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from typing import Any

import pyspiel

from noughts import parse_spec
from noughts.ai.base import Limits
from noughts.ai.compiled import KernelMCTSPlayer, prepare
from noughts.kernels.games import perft
from noughts.perft import perft as readable_perft
from perft_openspiel import spiel_perft  # this folder: OpenSpiel perft counted in our plies

FIRST_MOVE = """
import time
started = time.perf_counter()
from noughts import parse_spec
from noughts.ai.compiled import KernelMCTSPlayer
from noughts.ai.base import Limits
KernelMCTSPlayer(seed=1).choose(parse_spec("ultimate").initial(), Limits(time=0.1))
print(time.perf_counter() - started)
"""


def timed(fn: Any, *args: Any) -> tuple[Any, float]:
    started = time.perf_counter()
    out = fn(*args)
    return out, time.perf_counter() - started


def kmcts_rate(spec: str, seconds: float, guided: bool = False) -> float:
    """kmcts iterations per second from the opening; random playouts unless `guided`
    (like for like with OpenSpiel's random rollouts)."""
    player = KernelMCTSPlayer(seed=1, reuse=False, guided=guided)
    analysis = player.analyze(parse_spec(spec).initial(), Limits(time=seconds))
    return analysis.nodes / analysis.time


def openspiel_rate(seconds: float, guess: float) -> float:
    simulations = max(1000, int(guess * seconds))
    game = pyspiel.load_game("ultimate_tic_tac_toe")
    bot = pyspiel.MCTSBot(game, pyspiel.RandomRolloutEvaluator(1, 1), 2.0, simulations, 1000, True, 1, False)
    _, took = timed(bot.step, game.new_initial_state())
    return simulations / took


def first_move(cache: str) -> float:
    env = {**os.environ, "NUMBA_CACHE_DIR": cache}
    out = subprocess.run([sys.executable, "-c", FIRST_MOVE], env=env, capture_output=True, text=True, check=True)
    return float(out.stdout.strip())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--time", type=float, default=1.0, help="seconds per MCTS measurement")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as cache:
        cold, warm = first_move(cache), first_move(cache)
    print(f"first kmcts move in a fresh process: cold cache {cold:.1f} s, warm cache {warm:.2f} s")
    print(f"prepare() in this process: {prepare():.2f} s\n")

    ultimate = parse_spec("ultimate").initial()
    leaves, took = timed(perft, ultimate, 7)
    print(f"perft 7 ultimate, kernels: {leaves:,} leaves in {took:.2f} s")
    kernel5, k_time = timed(perft, ultimate, 5)
    readable5, r_time = timed(readable_perft, ultimate, 5)
    spiel5, s_time = timed(spiel_perft, pyspiel.load_game("ultimate_tic_tac_toe").new_initial_state(), 5)
    assert kernel5 == readable5 == spiel5
    print(
        f"perft 5 ultimate ({kernel5:,}): kernels {k_time:.3f} s, readable {r_time:.2f} s,"
        f" OpenSpiel (Python-driven) {s_time:.2f} s -> kernels {r_time / k_time:,.0f}x readable,"
        f" {s_time / k_time:,.0f}x OpenSpiel\n"
    )

    print(f"{'MCTS iterations/s, opening':<30} {'kmcts':>10} {'OpenSpiel C++':>14} {'ratio':>7}")
    ratios = []
    ours_rates, theirs_rates = [], []
    for round_ in range(args.rounds):
        ours = kmcts_rate("ultimate", args.time)
        theirs = openspiel_rate(args.time, theirs_rates[-1] if theirs_rates else 60_000)
        ours_rates.append(ours)
        theirs_rates.append(theirs)
        ratios.append(ours / theirs)
        print(f"{'ultimate, round ' + str(round_ + 1):<30} {ours:>10,.0f} {theirs:>14,.0f} {ours / theirs:>6.1f}x")
    print(
        f"{'ultimate, median':<30} {statistics.median(ours_rates):>10,.0f}"
        f" {statistics.median(theirs_rates):>14,.0f} {statistics.median(ratios):>6.1f}x"
    )
    for spec in ("nine-board", "qubic"):
        print(f"{spec:<30} {kmcts_rate(spec, args.time):>10,.0f} {'-':>14} {'-':>7}")
    # The players' default: guided playouts, dearer per iteration, stronger at equal time.
    for spec in ("ultimate", "nine-board"):
        print(f"{spec + ', guided playouts':<30} {kmcts_rate(spec, args.time, guided=True):>10,.0f} {'-':>14} {'-':>7}")


if __name__ == "__main__":
    main()
