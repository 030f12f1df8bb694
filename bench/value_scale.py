"""How a searching player's scores map to win chances, measured on self-play.

Every estimate the browser, the review and the puzzles show is a chance:
``(1 + tanh(score / scale)) / 2`` with the evaluator's scale (`noughts.ai.base.win_chance`).
This plays a player against itself from seeded random openings, records the score it
reported for the side to move at each of its decisions with how that game ended for that
side (1, 0.5 or 0), and fits the scale that predicts the results best (least log loss).
It prints the scale the evaluator registers now, the fitted one, and both losses, so the
registry (`noughts.ai.evaluation`, `_register(..., scale=...)`) can hold the measured one.

    .venv/bin/python bench/value_scale.py GAME PLAYER [--games 40] [--time 0.1]
        [--opening-plies 4] [--jobs 2] [--seed 1]

e.g. ``bench/value_scale.py ultimate kalphabeta --games 40``; PLAYER is a player spec or
a level (its analysis' scale is the one checked).
"""

from __future__ import annotations

import argparse
import random
from concurrent.futures import ProcessPoolExecutor

from noughts import parse_spec
from noughts.ai.base import AIPlayer, Kind, Limits, parse_player
from noughts.ai.levels import LEVELS, level_player
from noughts.study.calibration import fit_scale, log_loss


def make(game_spec: str, spec: str, seed: int) -> AIPlayer:
    game = parse_spec(game_spec)
    return level_player(game, spec, seed, mistakes=False) if spec in LEVELS else parse_player(f"{spec}:seed={seed}")


def play(job: tuple[str, str, int, int, float]) -> tuple[list[tuple[float, float]], float | None]:
    """One self-play game: (score for the mover, result for the mover) at every
    decision whose value was an estimate, and the analysis' scale."""
    game_spec, spec, seed, plies, seconds = job
    rng = random.Random(seed)
    state = parse_spec(game_spec).initial()
    for _ in range(plies):
        if state.is_over:
            break
        state = state.play(rng.choice(state.legal_moves()))
    player = make(game_spec, spec, seed)
    seen: list[tuple[float, object]] = []
    scale: float | None = None
    while not state.is_over:
        analysis = player.decide(state, Limits(time=seconds))
        scale = analysis.scale
        if analysis.value.kind is Kind.SCORE:
            seen.append((analysis.value.score, state.turn))
        state = state.play(analysis.best)
    winner = state.outcome.winner if state.outcome else None
    return [(score, 0.5 if winner is None else float(winner is turn)) for score, turn in seen], scale


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("game")
    parser.add_argument("player")
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--time", type=float, default=0.1, help="seconds a decision")
    parser.add_argument("--opening-plies", type=int, default=4)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    jobs = [(args.game, args.player, args.seed * 100_000 + i, args.opening_plies, args.time) for i in range(args.games)]
    points: list[tuple[float, float]] = []
    scale: float | None = None
    with ProcessPoolExecutor(args.jobs) as pool:
        for found, used in pool.map(play, jobs):
            points += found
            scale = used if used is not None else scale
    if not points:
        raise SystemExit("no estimate was reported: every decision was proven (or the player has no scores)")
    fitted = fit_scale(points)
    print(f"game {args.game}, player {args.player}: {len(points)} estimates in {args.games} games")
    if scale is None:
        print("its scores are mean results in [-1, 1] (no scale); the best scale for them would be:")
    else:
        print(f"registered scale {scale:g}: log loss {log_loss(points, scale):.4f}")
    print(f"fitted scale     {fitted:.4g}: log loss {log_loss(points, fitted):.4f}")
    if scale is not None:
        print(f"ratio fitted / registered: {fitted / scale:.2f}")


if __name__ == "__main__":
    main()
