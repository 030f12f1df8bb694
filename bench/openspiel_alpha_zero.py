"""OpenSpiel's Python AlphaZero (open_spiel.python.algorithms.alpha_zero: JAX and Flax
in open-spiel 2.0.2, no longer TensorFlow) trained on our registered noughts_classic for
a few steps, then its MCTS with the network against OpenSpiel's uniform random bot, both
colours, beside the same MCTS with the untrained network (checkpoint 0).

    pip install jax==0.10.2 flax==0.12.8 optax==0.2.8 orbax-checkpoint==0.12.8 chex==0.1.92
    python bench/openspiel_alpha_zero.py [--steps 4] [--games 50] [--simulations 20]

Those packages (about 800 MB in a venv, jaxlib 350 MB of it) are not among the
project's extras: the script shows that AlphaZero runs on our games, and nothing of the
library needs them. AlphaZero's actors run in processes of their own (multiprocessing,
spawn), which import this script and with it noughts.spiel, so that noughts_classic is
registered there too.

Measured (2026-11-25, two loaded cores, CPU): 4 learner steps in 248 s (about 60 games
of self-play a step); with 20 simulations a move, the untrained network's MCTS scored
+42 =5 -3 against random and the trained one +37 =7 -6. 16 steps in 789 s: the
learner's loss fell from 2.05 to 1.07 (policy 1.73 to 0.95, value 0.29 to 0.09), and the
score stayed where it was, +41 =6 -3: against random the 20-simulation search does the
winning, with or without the network; a real test of what it learnt needs far longer
runs (OpenSpiel's own tic-tac-toe example trains for hours) and a stronger opponent.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from typing import Any

import numpy as np
import pyspiel
from open_spiel.python.algorithms import mcts
from open_spiel.python.algorithms.alpha_zero import alpha_zero
from open_spiel.python.algorithms.alpha_zero import evaluator as evaluator_lib

import noughts.spiel  # noqa: F401 - registers noughts_classic, here and in AlphaZero's processes

GAME = "noughts_classic"


def config(path: str, steps: int, simulations: int) -> alpha_zero.Config:
    """A small run: one actor, one evaluator, a small MLP, a few learner steps."""
    game = pyspiel.load_game(GAME)
    return alpha_zero.Config(
        game=GAME,
        path=path,
        learning_rate=0.01,
        weight_decay=1e-4,
        decouple_weight_decay=False,
        train_batch_size=128,
        replay_buffer_size=2**10,
        replay_buffer_reuse=4,
        max_steps=steps,
        checkpoint_freq=1,
        actors=1,
        evaluators=1,
        evaluation_window=10,
        eval_levels=2,
        uct_c=2.0,
        max_simulations=simulations,
        policy_alpha=1.0,
        policy_epsilon=0.25,
        temperature=1.0,
        temperature_drop=4,
        nn_model="mlp",
        nn_width=64,
        nn_depth=2,
        observation_shape=game.observation_tensor_shape(),
        output_size=game.num_distinct_actions(),
        verbose=False,
        quiet=True,
    )


def score(game: Any, bot: Any, games: int, seed: int) -> dict[str, int]:
    """`bot` against OpenSpiel's uniform random bot, half the games as each colour."""
    results = {"won": 0, "drawn": 0, "lost": 0}
    for number in range(games):
        side = number % 2
        random_bot = pyspiel.make_uniform_random_bot(1 - side, seed + number)
        state = game.new_initial_state()
        while not state.is_terminal():
            mover = bot if state.current_player() == side else random_bot
            state.apply_action(mover.step(state))
        value = state.returns()[side]
        results["won" if value > 0 else "lost" if value < 0 else "drawn"] += 1
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--steps", type=int, default=4, help="learner steps (default 4)")
    parser.add_argument("--games", type=int, default=50, help="games against random, per network (default 50)")
    parser.add_argument("--simulations", type=int, default=20, help="MCTS simulations a move (default 20)")
    args = parser.parse_args()

    path = tempfile.mkdtemp(prefix="noughts-az-")
    settings = config(path, args.steps, args.simulations)
    started = time.perf_counter()
    alpha_zero.alpha_zero(settings)
    print(f"trained {args.steps} steps in {time.perf_counter() - started:.0f} s ({path})")

    game = pyspiel.load_game(GAME)
    for step, label in ((0, "untrained network"), (args.steps, f"after {args.steps} steps")):
        model = alpha_zero._init_model_from_config(settings)
        model.load_checkpoint(step)
        evaluator = evaluator_lib.AlphaZeroEvaluator(game, model)
        bot = mcts.MCTSBot(
            game,
            settings.uct_c,
            args.simulations,
            evaluator,
            random_state=np.random.RandomState(0),
            solve=False,
            child_selection_fn=mcts.SearchNode.puct_value,
        )
        print(
            f"AlphaZero MCTS ({args.simulations} simulations), {label}, against random:",
            score(game, bot, args.games, 0),
        )


if __name__ == "__main__":
    main()
