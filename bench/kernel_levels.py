"""A match between two players or levels in one game, for the level mapping of the
compiled players: colours alternate, pairs of games share random first plies.

A side is a level name (easy, medium, hard, max: that level for the game) or a player
spec (``kmcts:time=0.5``). Games run in `--jobs` processes.

    .venv/bin/python bench/kernel_levels.py GAME FIRST SECOND [--games 20] [--time S]
        [--opening-plies 2] [--jobs 1] [--seed 1]

e.g. ``bench/kernel_levels.py qubic max hard --games 20``. Without --time each side
plays with its own budget (the level's or the spec's).
"""

from __future__ import annotations

import argparse
import random
import time
from concurrent.futures import ProcessPoolExecutor

from noughts import parse_spec
from noughts.ai.base import AIPlayer, Limits, parse_player
from noughts.ai.levels import LEVELS, level_player, level_spec
from noughts.match import play_game, random_opening


def make(game_spec: str, side: str, seed: int) -> AIPlayer:
    game = parse_spec(game_spec)
    return level_player(game, side, seed) if side in LEVELS else parse_player(f"{side}:seed={seed}")


def play_one(job: tuple[str, str, str, int, list[int], float | None]) -> tuple[int, str]:
    """One game; (index, result for FIRST: win/draw/loss)."""
    game_spec, first, second, index, opening, seconds = job
    game = parse_spec(game_spec)
    a, b = make(game_spec, first, index), make(game_spec, second, 10_000 + index)
    first_is_x = index % 2 == 0
    x, o = (a, b) if first_is_x else (b, a)
    record = play_game(game, x, o, Limits(time=seconds) if seconds else Limits(), opening)
    if record.result == "draw":
        return index, "draw"
    return index, "win" if (record.result == "x-wins") == first_is_x else "loss"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("game")
    parser.add_argument("first")
    parser.add_argument("second")
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--time", type=float, default=None, help="seconds per move for both")
    parser.add_argument("--opening-plies", type=int, default=2)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    from noughts.ai.compiled import prepare

    prepare()
    game = parse_spec(args.game)
    for side in (args.first, args.second):
        print(f"{side}: {level_spec(game, side) if side in LEVELS else side}")
    jobs = []
    for index in range(args.games):
        opening = random_opening(game, args.opening_plies, random.Random(args.seed * 100_003 + index // 2))
        jobs.append((args.game, args.first, args.second, index, opening, args.time))
    tally = {"win": 0, "draw": 0, "loss": 0}
    started = time.perf_counter()
    with ProcessPoolExecutor(args.jobs) as pool:
        for index, result in pool.map(play_one, jobs):
            tally[result] += 1
            print(f"game {index + 1:>3} ({args.first} {'x' if index % 2 == 0 else 'o'}): {result}", flush=True)
    games = sum(tally.values())
    score = (tally["win"] + tally["draw"] / 2) / games
    print(
        f"\n{args.game}: {args.first} vs {args.second}: +{tally['win']} ={tally['draw']} -{tally['loss']}"
        f" -> {100 * score:.1f}% over {games} games ({time.perf_counter() - started:.0f} s)"
    )


if __name__ == "__main__":
    main()
