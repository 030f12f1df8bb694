"""Perft side by side: our readable engine against OpenSpiel's C++ rules, in one run.

Prints, per game and depth, both counts (they must agree: that is how the pinned
tables in tests/data/perft were cross-checked) and the time each took, with the ratio.

    .venv/bin/python bench/perft_openspiel.py [--depth-classic 9] [--depth-ultimate 5]

OpenSpiel splits a free ultimate move into "choose board" then "cell"; its perft here
counts our plies (a board choice is not a ply).
"""

from __future__ import annotations

import argparse
import time
from typing import Any

import pyspiel

from noughts import parse_spec
from noughts.perft import perft


def spiel_perft(state: Any, depth: int) -> int:
    if depth == 0:
        return 1
    if state.is_terminal():
        return 0
    total = 0
    for action in state.legal_actions():
        child = state.child(action)
        if state.action_to_string(state.current_player(), action).startswith("Choose local board"):
            total += spiel_perft(child, depth)  # not a ply of ours
        else:
            total += spiel_perft(child, depth - 1)
    return total


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--depth-classic", type=int, default=9)
    parser.add_argument("--depth-mnk", type=int, default=6)
    parser.add_argument("--depth-ultimate", type=int, default=5)
    args = parser.parse_args()
    cases = [
        ("classic", "tic_tac_toe", {}, args.depth_classic),
        ("mnk:m=4:n=4:k=4", "mnk", {"m": 4, "n": 4, "k": 4}, args.depth_mnk),
        ("mnk:m=5:n=5:k=4", "mnk", {"m": 5, "n": 5, "k": 4}, min(args.depth_mnk, 5)),
        ("ultimate", "ultimate_tic_tac_toe", {}, args.depth_ultimate),
    ]
    print(f"{'game':<18} {'d':>2} {'noughts':>12} {'openspiel':>12} {'ours s':>8} {'theirs s':>8} {'ratio':>6}")
    for spec, name, params, max_depth in cases:
        for depth in range(1, max_depth + 1):
            t0 = time.perf_counter()
            ours = perft(parse_spec(spec).initial(), depth)
            t1 = time.perf_counter()
            theirs = spiel_perft(pyspiel.load_game(name, params).new_initial_state(), depth)
            t2 = time.perf_counter()
            flag = "" if ours == theirs else "  MISMATCH"
            ratio = (t1 - t0) / max(t2 - t1, 1e-9)
            print(
                f"{spec:<18} {depth:>2} {ours:>12,} {theirs:>12,} {t1 - t0:>8.2f} {t2 - t1:>8.2f} {ratio:>6.1f}{flag}"
            )


if __name__ == "__main__":
    main()
