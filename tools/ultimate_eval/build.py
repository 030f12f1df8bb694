"""Build ultimate's learned evaluation (`noughts.kernels.learned`) from seeded self-play.

    .venv/bin/python tools/ultimate_eval/build.py selfplay --seed 1 --games 4000
    .venv/bin/python tools/ultimate_eval/build.py selfplay --seed 2 --games 8000
    .venv/bin/python tools/ultimate_eval/build.py fit [--check]

``selfplay`` plays games of kmcts against itself at a fixed number of iterations a move
(3,000: the same games on any machine), from 0 to 8 random first plies, and keeps every
position after the opening with the game's result and the search's value of its move,
in ``ultimate-eval/`` in the cache folder. ``fit`` fits the weights, one per feature up
to symmetry, by logistic regression (Adam on the whole data, L2 penalty) to targets
halfway between the game's result and the search's value, reports their log-loss on
held-out games (every tenth) against a coin's, and writes
``src/noughts/ai/books/ultimate_eval.npz``. ``--check`` writes nothing: it fits again and
says how far the shipped weights are from the fit.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import numba
import numpy as np
import numpy.typing as npt

from noughts.ai.exact import cache_dir
from noughts.kernels import learned

#: The self-play the shipped weights are fit to: (seed, games), in this order.
RECIPE = ((1, 4000), (2, 8000))
ITERATIONS = 3000
OPENING_PLIES = 8
#: Targets: this share of the game's result, the rest the search's value.
RESULT_SHARE = 0.5
L2 = 3e-4
STEPS = 500
LEARNING_RATE = 0.05


def work_dir() -> Path:
    return cache_dir() / "ultimate-eval"


def selfplay_path(seed: int, games: int) -> Path:
    return work_dir() / f"selfplay-{seed}-{games}-{ITERATIONS}.npz"


def play_one(job: tuple[int, int]) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.float64], int]:
    """Game `index` of seed `seed`: its positions after the opening (the kernels'
    layout), the search's value of each move for its player, and the result for x."""
    index, seed = job
    from noughts.ai.base import Kind, Limits
    from noughts.ai.compiled import KernelMCTSPlayer
    from noughts.core import Player
    from noughts.kernels.games import encode
    from noughts.match import random_opening
    from noughts.registry import parse_spec

    game = parse_spec("ultimate")
    rng = random.Random(seed * 1_000_003 + index)
    opening = random_opening(game, rng.randint(0, OPENING_PLIES), rng)
    x = KernelMCTSPlayer(iterations=ITERATIONS, seed=rng.getrandbits(31))
    o = KernelMCTSPlayer(iterations=ITERATIONS, seed=rng.getrandbits(31))
    state = game.initial()
    for move in opening:
        state = state.play(move)
    rows, values = [], []
    while not state.is_over:
        best = (x if state.turn is Player.X else o).decide(state, Limits()).moves[0]
        value = best.value
        score = value.score if value.kind is Kind.SCORE else {Kind.WIN: 1.0, Kind.LOSS: -1.0}.get(value.kind, 0.0)
        rows.append(encode(state))
        values.append(score)
        state = state.play(best.move)
    result = {"x-wins": 1, "o-wins": -1}.get(state.status, 0)
    return np.array(rows), np.array(values), result


def selfplay(seed: int, games: int, jobs: int) -> Path:
    from noughts.ai.compiled import prepare

    prepare()
    states, values, results, numbers = [], [], [], []
    started = time.perf_counter()
    with ProcessPoolExecutor(jobs) as pool:
        jobs_list = [(i, seed) for i in range(games)]
        for i, (rows, scores, result) in enumerate(pool.map(play_one, jobs_list, chunksize=4)):
            states.append(rows)
            values.append(scores)
            results.append(np.full(len(rows), result))
            numbers.append(np.full(len(rows), i))
            if (i + 1) % 500 == 0:
                print(f"{i + 1} of {games} games, {time.perf_counter() - started:.0f} s", file=sys.stderr)
    path = selfplay_path(seed, games)
    path.parent.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(
        path,
        states=np.concatenate(states),
        values=np.concatenate(values),
        results=np.concatenate(results),
        games=np.concatenate(numbers),
    )
    return path


@numba.njit(cache=True)
def _features(states: npt.NDArray[np.int64], out: npt.NDArray[np.int64]) -> None:
    scratch = np.empty(learned.SCRATCH, dtype=np.int64)
    for i in range(states.shape[0]):
        learned.active(states[i], scratch)
        out[i] = scratch[: learned.ACTIVE]


def load() -> tuple[npt.NDArray[np.int64], npt.NDArray[np.float64], npt.NDArray[np.float64], npt.NDArray[np.int64]]:
    """The recipe's self-play: each position's features (numbered up to symmetry), its
    score for the player to move (1 a win, 0.5 a draw) and the search's, and its game."""
    classes, _ = learned.feature_classes()
    features, results, searched, games = [], [], [], []
    offset = 0
    for seed, count in RECIPE:
        path = selfplay_path(seed, count)
        if not path.exists():
            raise SystemExit(f"{path} is missing: run `build.py selfplay --seed {seed} --games {count}` first")
        with np.load(path) as data:
            states = data["states"]
            raw = np.empty((len(states), learned.ACTIVE), dtype=np.int64)
            _features(states, raw)
            features.append(classes[raw])
            x_moves = states[:, 22] == 0
            results.append(np.where(x_moves, (data["results"] + 1) / 2, (1 - data["results"]) / 2))
            searched.append((data["values"] + 1) / 2)
            games.append(data["games"] + offset)
        offset += count
    return np.concatenate(features), np.concatenate(results), np.concatenate(searched), np.concatenate(games)


def fit(features: npt.NDArray[np.int64], targets: npt.NDArray[np.float64], n: int) -> npt.NDArray[np.float64]:
    """Logistic regression on sparse binary features, by Adam on the whole data."""
    rows, active = features.shape
    flat = features.ravel()
    weights, first, second = np.zeros(n), np.zeros(n), np.zeros(n)
    for step in range(1, STEPS + 1):
        predicted = 1 / (1 + np.exp(-weights[features].sum(1)))
        gradient = np.bincount(flat, weights=np.repeat((predicted - targets) / rows, active), minlength=n)
        gradient += L2 * weights
        first = 0.9 * first + 0.1 * gradient
        second = 0.999 * second + 0.001 * gradient * gradient
        weights -= LEARNING_RATE * (first / (1 - 0.9**step)) / (np.sqrt(second / (1 - 0.999**step)) + 1e-8)
    return weights


def log_loss(
    weights: npt.NDArray[np.float64], features: npt.NDArray[np.int64], scores: npt.NDArray[np.float64]
) -> float:
    predicted = np.clip(1 / (1 + np.exp(-weights[features].sum(1))), 1e-6, 1 - 1e-6)
    return float(-(scores * np.log(predicted) + (1 - scores) * np.log(1 - predicted)).mean())


def build(check: bool) -> int:
    features, results, searched, games = load()
    _, n = learned.feature_classes()
    targets = RESULT_SHARE * results + (1 - RESULT_SHARE) * searched
    held = games % 10 == 0
    trial = fit(features[~held], targets[~held], n)
    print(
        f"{len(results)} positions of {games.max() + 1} games; log-loss against the results of the held-out "
        f"games: {log_loss(trial, features[held], results[held]):.4f} (a coin: "
        f"{log_loss(np.zeros(n), features[held], results[held]):.4f})"
    )
    weights = fit(features, targets, n)
    if check:
        with np.load(learned.SHIPPED) as book:
            shipped = book["weights"]
        gap = float(np.abs(shipped - weights).max())
        print(f"the shipped weights are within {gap:.2g} of the fit")
        return 0 if gap < 1e-4 else 1
    np.savez_compressed(learned.SHIPPED, weights=weights.astype(np.float32))
    print(f"wrote {learned.SHIPPED}")
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = parser.add_subparsers(dest="command", required=True)
    play = commands.add_parser("selfplay", help="play and keep seeded self-play games")
    play.add_argument("--seed", type=int, required=True)
    play.add_argument("--games", type=int, required=True)
    play.add_argument("--jobs", type=int, default=2)
    fitting = commands.add_parser("fit", help="fit the weights to the recipe's self-play")
    fitting.add_argument("--check", action="store_true", help="compare the shipped weights with a new fit")
    args = parser.parse_args()
    if args.command == "selfplay":
        print(f"wrote {selfplay(args.seed, args.games, args.jobs)}")
        return 0
    return build(args.check)


if __name__ == "__main__":
    sys.exit(main())
