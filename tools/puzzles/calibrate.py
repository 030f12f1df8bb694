"""Rate the shipped puzzles (src/noughts/study/data/puzzles.jsonl) from attempts: the
computer's levels, of strength measured against each other (docs/strength.md), try
every puzzle as a player would (their moves, the defender answering from the line or
by its longest resistance), and each puzzle's Glicko-2 rating is updated from those
attempts, starting from the search's guess (`noughts.study.puzzles.difficulty`), as the
server updates it from players' attempts. The result is written as the puzzle's
`rating` (where the database's rating starts); the guess stays, and a run again starts
from it, so rating twice gives the same ratings.

    .venv/bin/python tools/puzzles/calibrate.py [--seed S] [--jobs J] [--file PATH] [--dry-run]

The levels used search by depth, nodes or iterations, never seconds, each seeded from
`--seed` and the puzzle, and off-line moves are judged within budgets of nodes: the same
seed gives the same ratings on any machine. It ends with the report of predicted
against observed success of its own attempts (`noughts.server.online.puzzle_calibration`).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import sys
from concurrent.futures import ProcessPoolExecutor
from dataclasses import replace
from pathlib import Path

# The folder's mining tool, beside this one (a script's folder is on its path).
from build import deterministic

from noughts.ai.base import Limits
from noughts.ai.levels import level_player
from noughts.competition.ratings import Glicko, update
from noughts.core import NoughtsError
from noughts.registry import parse_spec
from noughts.server.online.puzzle_calibration import Attempt, calibration, log_loss
from noughts.study.answer_keys import judge_by_key
from noughts.study.puzzles import SHIPPED, Puzzle, accepts, on_line, prover, read_puzzles, reply

#: Each game's ladder as measured (docs/strength.md, "Each level beats the one below it
#: clearly", 2026-11-22): the score of medium against easy and of hard against medium,
#: with the games played. The m,n,k boards without a row of their own take the nearest
#: measured board's (5x5 k=4 the 7x7 k=4 row's, 4x4 k=3 classic's).
LADDERS: dict[str, tuple[tuple[float, int], tuple[float, int]]] = {
    "classic:forget=true": ((1.00, 20), (0.80, 40)),
    "ultimate": ((0.925, 20), (1.00, 20)),
    "nine-board": ((1.00, 20), (1.00, 40)),
    "qubic": ((1.00, 20), (0.925, 40)),
    "gobblet": ((1.00, 20), (0.70, 40)),
    "mnk:m=15:n=15:k=5": ((0.95, 20), (0.75, 40)),
    "mnk:m=5:n=5:k=4": ((0.90, 20), (0.825, 40)),
    "mnk:m=4:n=4:k=3": ((0.64, 60), (0.63, 60)),
}
#: The anchor of the scale: medium is rated as a new player is (1500); the ladder puts
#: easy and hard around it.
MEDIUM = 1500.0
#: The deviation of a level's rating: measured from 20 to 60 games, its uncertainty is
#: about that of a player with as many rated games.
LEVEL_DEVIATION = 100.0
#: The budget of the prover judging a move off the stored line (nodes, not seconds).
JUDGE_LIMITS = Limits(nodes=2_000_000)


def elo_gap(score: float, games: int) -> float:
    """The rating gap a score implies, one virtual draw added (as docs/strength.md's
    fits do) so that a clean sweep stays finite."""
    share = (score * games + 0.5) / (games + 1)
    return 400 * math.log10(share / (1 - share))


def level_ratings(spec: str) -> dict[str, float]:
    """The ratings of the levels that play `spec` the same on any machine (they search
    by depth, nodes or iterations), on the puzzles' scale."""
    (easy_medium, medium_hard) = LADDERS[spec]
    ratings = {"easy": MEDIUM - elo_gap(*easy_medium), "medium": MEDIUM, "hard": MEDIUM + elo_gap(*medium_hard)}
    return {level: r for level, r in ratings.items() if deterministic(spec, level)}


def _seed(puzzle: Puzzle, level: str, seed: int) -> int:
    return int.from_bytes(hashlib.sha256(f"{seed} {level} {puzzle.id}".encode()).digest()[:4], "big")


def attempt(puzzle: Puzzle, level: str, seed: int) -> bool:
    """Whether `level` (seeded by `seed` and the puzzle) solves `puzzle`: each of its
    moves judged as the server judges a player's (the line, the answer key, else the
    prover within `JUDGE_LIMITS`), the defender answering."""
    game = parse_spec(puzzle.spec)
    solver = level_player(game, level, seed=_seed(puzzle, level, seed))
    state = game.parse_position(puzzle.position)
    played: list[str] = []
    judge = None
    while True:
        played.append(state.move_text(solver.choose(state, Limits())))
        state = state.play_text(played[-1])
        known = on_line(puzzle, played) or judge_by_key(puzzle, played)
        if known is not None:
            correct, answer = known.correct, known.reply
        elif len(played) == 1:
            return False  # the first move is the puzzle's one answer (`accepts`)
        else:
            judge = judge or prover(game)
            correct = accepts(puzzle, played, judge, JUDGE_LIMITS)
            answer = reply(puzzle, played, judge, JUDGE_LIMITS) if correct and not state.is_over else None
        if not correct:
            return False
        if answer is None:
            return True
        played.append(answer)
        state = state.play_text(answer)


def rate(puzzle: Puzzle, seed: int) -> tuple[Puzzle, list[Attempt]]:
    """`puzzle` rated from its guess by the attempts of its game's levels, and those
    attempts (the solver's and the puzzle's rating before, the result)."""
    ratings = level_ratings(puzzle.spec)
    rating = Glicko(float(puzzle.difficulty))
    results = [(level, attempt(puzzle, level, seed)) for level in sorted(ratings)]
    attempts = [Attempt(ratings[level], rating.rating, solved) for level, solved in results]
    # One rating period holding every attempt: the order the levels came in is no matter.
    rated = update(
        rating, [(Glicko(ratings[level], LEVEL_DEVIATION), 0.0 if solved else 1.0) for level, solved in results]
    )
    return replace(puzzle, rating=round(rated.rating)), attempts


def _rate(job: tuple[Puzzle, int]) -> tuple[Puzzle, list[Attempt]]:
    return rate(*job)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--file", type=Path, default=SHIPPED, help="the puzzles (default: the shipped ones)")
    parser.add_argument("--seed", type=int, default=1, help="the levels' seed (default 1)")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--dry-run", action="store_true", help="print the report, write nothing")
    args = parser.parse_args(argv)
    puzzles = read_puzzles(args.file)
    unknown = sorted({p.spec for p in puzzles} - LADDERS.keys())
    if unknown:
        raise SystemExit(f"calibrate: no measured ladder for {', '.join(unknown)} (LADDERS)")
    jobs = [(p, args.seed) for p in puzzles]
    try:
        with ProcessPoolExecutor(args.jobs) as pool:
            done = list(pool.map(_rate, jobs, chunksize=8))
    except NoughtsError as e:
        raise SystemExit(f"calibrate: {e}") from None
    attempts = [a for _, tried in done for a in tried]
    print("| guessed rating | attempts | predicted | observed |")
    print("|---|---|---|---|")
    for band in calibration(attempts):
        print(f"| {band.low}-{band.low + band.width} | {band.attempts} | {band.predicted:.0%} | {band.observed:.0%} |")
    print(f"log loss of the guesses {log_loss(attempts):.3f} (a coin: 0.693), {len(attempts)} attempts")
    if not args.dry_run:
        args.file.write_text("".join(json.dumps(p.to_json()) + "\n" for p, _ in done), encoding="utf-8")
        print(f"wrote {args.file}: {len(done)} puzzles rated from their attempts")
    return 0


if __name__ == "__main__":
    sys.exit(main())
