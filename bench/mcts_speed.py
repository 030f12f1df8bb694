"""MCTS iterations per second from the opening of each game, in one run.

For each game: the MCTS player's iterations/s (random playouts, solver on, a fresh tree),
a plain loop of the same random playouts with no tree at all, and their ratio, so the
cost of the tree (selection, expansion, backup) shows as the distance from 1.0. Each
MCTS iteration is one playout from a leaf that is deeper than the opening, so a ratio a
little above 1.0 is possible too.

When OpenSpiel is installed (``pip install 'noughts[openspiel]'``, which make's set-up installs),
its Python MCTSBot (open_spiel.python.algorithms.mcts, RandomRolloutEvaluator with one
rollout, solve=True) is timed on tic_tac_toe and ultimate_tic_tac_toe for the same
games, and the ratio ours / theirs is printed (above 1.0: we are faster).

    .venv/bin/python bench/mcts_speed.py [--time 1.0] [--openspiel-simulations 1000]
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable
from typing import Any

from noughts import parse_spec
from noughts.ai.base import Limits
from noughts.ai.mcts import MCTSPlayer, random_playout

GAMES = ["classic", "mnk:m=5:n=5:k=4", "nine-board", "ultimate", "qubic", "gobblet"]
#: Our spec -> OpenSpiel's game name, for the side-by-side run.
OPENSPIEL = {"classic": "tic_tac_toe", "ultimate": "ultimate_tic_tac_toe"}


def mcts_rate(spec: str, seconds: float) -> float:
    state = parse_spec(spec).initial()
    analysis = MCTSPlayer(seed=1, reuse=False).analyze(state, Limits(time=seconds))
    return analysis.nodes / analysis.time


def playout_rate(spec: str, seconds: float) -> float:
    """Playouts/s of a loop with no tree: the evaluator alone."""
    state = parse_spec(spec).initial()
    rng = random.Random(1)
    count = 0
    started = time.perf_counter()
    end = started + seconds
    while time.perf_counter() < end:
        random_playout(state, rng)
        count += 1
    return count / (time.perf_counter() - started)


def openspiel_rate(name: str, simulations: int) -> float:
    import numpy as np
    import pyspiel
    from open_spiel.python.algorithms import mcts

    game = pyspiel.load_game(name)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(1))
    bot: Any = mcts.MCTSBot(
        game,
        uct_c=2.0,
        max_simulations=simulations,
        evaluator=evaluator,
        solve=True,
        random_state=np.random.RandomState(1),
    )
    state = game.new_initial_state()
    started = time.perf_counter()
    bot.step(state)
    return simulations / (time.perf_counter() - started)


def best_of(repeat: int, measure: Callable[..., float], *args: Any) -> float:
    # Other work on the machine only ever slows a measurement down: keep the fastest.
    return max(measure(*args) for _ in range(repeat))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--time", type=float, default=1.0, help="seconds per measurement (default 1.0)")
    parser.add_argument("--repeat", type=int, default=3, help="best of this many measurements (default 3)")
    parser.add_argument("--openspiel-simulations", type=int, default=1000, help="MCTSBot simulations per timing")
    args = parser.parse_args()

    ours: dict[str, float] = {}
    print(f"{'game':<18} {'mcts it/s':>10} {'playouts/s':>11} {'ratio':>6}")
    for spec in GAMES:
        tree = best_of(args.repeat, mcts_rate, spec, args.time)
        plain = best_of(args.repeat, playout_rate, spec, args.time)
        ours[spec] = tree
        print(f"{spec:<18} {tree:>10,.0f} {plain:>11,.0f} {tree / plain:>6.2f}")

    try:
        import pyspiel  # noqa: F401
    except ImportError:
        print("\npyspiel is not installed: `pip install open-spiel` and run again to time OpenSpiel's MCTSBot")
        return
    print(f"\n{'game':<18} {'ours it/s':>10} {'openspiel':>10} {'ratio':>6}   (OpenSpiel MCTSBot, random rollouts)")
    for spec, name in OPENSPIEL.items():
        theirs = best_of(args.repeat, openspiel_rate, name, args.openspiel_simulations)
        print(f"{spec:<18} {ours[spec]:>10,.0f} {theirs:>10,.0f} {ours[spec] / theirs:>6.2f}")


if __name__ == "__main__":
    main()
