"""OpenSpiel's CFR on our games: the NashConv of the average policy (the sum of what
each player could gain by a best response against it) as the iterations go; it goes to
0, at a Nash equilibrium. Classic is a draw: its equilibrium value is 0 for both.

    .venv/bin/python bench/openspiel_cfr.py [--game classic] [--iterations 64] [--every 8]
    .venv/bin/python bench/openspiel_cfr.py --game mnk:m=3:n=2:k=3 --direct --solver cfr

By default CFR+ (OpenSpiel's C++ CFRPlusSolver) runs on `noughts.spiel.tree_game`: our
game's tree, walked once through the Python game, as a C++ extensive-form game (the
Python game itself costs about 40 s an iteration of classic). `--direct` runs OpenSpiel's
Python CFR on the registered Python game (`noughts_mnk`...) as it is: fine for games of
a few thousand nodes. The first line checks the tree against OpenSpiel's own
tic_tac_toe when the game is classic: the same NashConv at every iteration.
"""

from __future__ import annotations

import argparse
import time
from typing import Any

import pyspiel
from open_spiel.python.algorithms import cfr, exploitability

from noughts.spiel import load, tree_game


def solver_and_nash_conv(game: Any, kind: str, direct: bool) -> tuple[Any, Any]:
    """The solver (CFR or CFR+) and the function giving the NashConv of its average policy."""
    if direct:
        solver = (cfr.CFRPlusSolver if kind == "cfr+" else cfr.CFRSolver)(game)
        return solver, lambda: exploitability.nash_conv(game, solver.average_policy())
    solver = (pyspiel.CFRPlusSolver if kind == "cfr+" else pyspiel.CFRSolver)(game)
    return solver, lambda: pyspiel.nash_conv(game, solver.average_policy())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", default="classic", help="a small game spec (default classic)")
    parser.add_argument("--iterations", type=int, default=64)
    parser.add_argument("--every", type=int, default=8, help="report the NashConv every N iterations (default 8)")
    parser.add_argument("--solver", choices=("cfr+", "cfr"), default="cfr+")
    parser.add_argument("--direct", action="store_true", help="Python CFR on the Python game itself")
    args = parser.parse_args()

    started = time.perf_counter()
    game = load(args.game) if args.direct else tree_game(args.game)
    print(
        f"{args.game}: {'the Python game' if args.direct else 'its tree as an EFG game'}, "
        f"built in {time.perf_counter() - started:.1f} s; {args.solver}"
    )
    solver, nash_conv = solver_and_nash_conv(game, args.solver, args.direct)
    reference = None
    if args.game == "classic" and not args.direct:
        reference = solver_and_nash_conv(pyspiel.load_game("tic_tac_toe"), args.solver, False)
    print(f"{'iterations':>10} {'seconds':>8} {'NashConv':>10}" + (f" {'tic_tac_toe':>12}" if reference else ""))
    spent = 0.0
    for iteration in range(1, args.iterations + 1):
        started = time.perf_counter()
        solver.evaluate_and_update_policy()
        spent += time.perf_counter() - started
        if reference:
            reference[0].evaluate_and_update_policy()
        if iteration == 1 or iteration % args.every == 0 or iteration == args.iterations:
            theirs = f" {reference[1]():12.6f}" if reference else ""
            print(f"{iteration:>10} {spent:8.1f} {nash_conv():10.6f}{theirs}", flush=True)


if __name__ == "__main__":
    main()
