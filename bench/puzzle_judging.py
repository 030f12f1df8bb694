"""How long judging a solver's move off a puzzle's stored line takes with the live race
prover (`noughts.study.puzzles.judge` with `ThreatProver`), for the shipped qubic and
gomoku puzzles: the cost an answer key (`noughts.study.answer_keys`) saves a server.

For each puzzle it judges every wrong first move, and at every later turn of the
solver on the stored line every move other than the line's (a different winning
follow-up, or a wrong one). It prints, per game and kind of move, how many were judged
and the median, 90th percentile and largest time, and the slowest puzzles. Times are
the process's CPU seconds (`time.process_time`): what a move costs an idle worker,
whatever else the machine runs.

    PYTHONPATH=src .venv/bin/python bench/puzzle_judging.py [--game qubic] [--sample N] [--keys [--check]]

`--sample N`: N puzzles of each game, spread over the file (gomoku's 74 puzzles have
some 200 moves a turn: all of them take an hour). `--keys`: judge the same moves from
the shipped answer keys instead (`judge_by_key`; qubic's, gomoku has none);
`--check`: and count the judgements that differ from the live prover's (the prover's
time is then spent too, but not counted).
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections import defaultdict

from noughts import parse_spec
from noughts.study.answer_keys import judge_by_key, keyed_game
from noughts.study.puzzles import Puzzle, judge, prover, shipped

GAMES = ("qubic", "mnk:m=15:n=15:k=5")


def moves_off_the_line(puzzle: Puzzle) -> list[tuple[str, list[str]]]:
    """(kind, moves played) for every move of the solver off the stored line, at each of
    its turns on the line: "first" at the first turn, "later" after."""
    game = parse_spec(puzzle.spec)
    state = game.parse_position(puzzle.position)
    found = []
    for ply in range(0, len(puzzle.solution), 2):
        kind = "first" if ply == 0 else "later"
        for move in state.legal_moves():
            text = state.move_text(move)
            if text != puzzle.solution[ply]:
                found.append((kind, [*puzzle.solution[:ply], text]))
        state = state.play_text(puzzle.solution[ply])
        if ply + 1 < len(puzzle.solution):
            state = state.play_text(puzzle.solution[ply + 1])
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", choices=GAMES, action="append", help="only this game (default both)")
    parser.add_argument("--keys", action="store_true", help="judge from the shipped answer keys instead")
    parser.add_argument("--check", action="store_true", help="with --keys: compare with the live prover")
    parser.add_argument("--sample", type=int, help="this many puzzles of each game, spread over the file")
    args = parser.parse_args()
    for spec in args.game or GAMES:
        if args.keys and not keyed_game(parse_spec(spec)):
            print(f"{spec}: no answer keys (judged live)")
            continue
        puzzles = [p for p in shipped() if p.spec == spec]
        if args.sample:
            puzzles = puzzles[:: max(1, len(puzzles) // args.sample)][: args.sample]
        player = prover(parse_spec(spec))
        # Warm up the compiled searches (their first call compiles or loads them) and
        # the keys (read at their first use).
        judge(puzzles[0], moves_off_the_line(puzzles[0])[0][1], player)
        judge_by_key(puzzles[0], moves_off_the_line(puzzles[0])[0][1])
        times: dict[str, list[float]] = defaultdict(list)
        slowest: list[tuple[float, str, str]] = []
        mismatches = 0
        for puzzle in puzzles:
            for kind, played in moves_off_the_line(puzzle):
                started = time.process_time()
                judged = judge_by_key(puzzle, played) if args.keys else judge(puzzle, played, player)
                took = time.process_time() - started
                if args.keys and args.check:
                    mismatches += judged != judge(puzzle, played, player)
                assert judged is not None
                label = f"{kind} {'correct' if judged.correct else 'wrong'}"
                times[label].append(took)
                slowest.append((took, puzzle.id, " ".join(played)))
        print(f"{spec}: {len(puzzles)} puzzles, judged {'by key' if args.keys else 'by the live prover'}")
        for label, found in sorted(times.items()):
            found.sort()
            p90 = found[int(0.9 * (len(found) - 1))]
            print(
                f"  {label:14} {len(found):5} moves  median {statistics.median(found) * 1000:8.1f} ms  "
                f"p90 {p90 * 1000:8.1f} ms  max {found[-1] * 1000:8.1f} ms  total {sum(found):7.1f} s"
            )
        for took, puzzle_id, played in sorted(slowest, reverse=True)[:5]:
            print(f"  slow: {took * 1000:8.1f} ms  {puzzle_id}  {played}")
        if args.keys and args.check:
            print(f"  judgements that differ from the prover's: {mismatches}")


if __name__ == "__main__":
    main()
