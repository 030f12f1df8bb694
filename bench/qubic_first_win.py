"""Does max find Qubic's first-player win? Qubic is a proven win for the first player
(Patashnik 1980, Allis 1994), but the proofs took weeks of computer time and an
opening book; this shows how far from the empty board max, as x, proves a win.

It first analyses the empty board with x's own budget, then plays `--games` games
from the empty board, x (`--player`, max by default) against OPPONENT as o (a level or
a player spec, max by default), and prints for each the first x move that x valued as
a forced win, and how the game ended.

    .venv/bin/python bench/qubic_first_win.py [OPPONENT] [--player max] [--games 4] [--jobs 1]

Both sides' tie-breaks are seeded by the game's number, so the games differ.
"""

from __future__ import annotations

import argparse
import time
from concurrent.futures import ProcessPoolExecutor

from kernel_levels import make  # bench/, this script's folder: a level or a player spec
from noughts import parse_spec
from noughts.ai.base import Kind, Limits
from noughts.ai.levels import LEVELS, level_spec
from noughts.core import Player

GAME = parse_spec("qubic")


def play(job: tuple[str, str, int]) -> tuple[int, int | None, str, int]:
    """One game: (index, the ply of x's first proven win or None, result, plies)."""
    player, opponent, index = job
    x, o = make(GAME.spec, player, index), make(GAME.spec, opponent, 10_000 + index)
    state = GAME.initial()
    first_win = None
    ply = 0
    while not state.is_over:
        if state.turn is Player.X:
            analysis = x.decide(state, Limits())
            if first_win is None and analysis.value.kind is Kind.WIN:
                first_win = ply
            move = analysis.best
        else:
            move = o.choose(state, Limits())
        state = state.play(move)
        ply += 1
    assert state.outcome is not None
    winner = state.outcome.winner
    return index, first_win, "draw" if winner is None else f"{winner.value}-wins", ply


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("opponent", nargs="?", default="max")
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--player", default="max", help="x: a level or a player spec (default: max)")
    args = parser.parse_args()

    from noughts.ai.compiled import prepare

    prepare()
    player = level_spec(GAME, args.player) if args.player in LEVELS else args.player
    opponent = level_spec(GAME, args.opponent) if args.opponent in LEVELS else args.opponent
    print(f"x: {player}; o: {opponent}")
    analysis = make(GAME.spec, args.player, 0).decide(GAME.initial(), Limits())
    print(
        f"empty board: best {analysis.moves[0].text}, {analysis.value.text}"
        f" (depth {analysis.depth}, {analysis.nodes:,} nodes, {analysis.time:.1f} s)"
    )
    started = time.perf_counter()
    found = []
    with ProcessPoolExecutor(args.jobs) as pool:
        jobs = [(args.player, args.opponent, i) for i in range(args.games)]
        for index, first_win, result, plies in pool.map(play, jobs):
            seen = "never" if first_win is None else f"at ply {first_win} (x's move {first_win // 2 + 1})"
            print(f"game {index + 1}: x proved a win {seen}; {result} after {plies} plies", flush=True)
            if first_win is not None:
                found.append(first_win)
    print(
        f"\nx proved a win in {len(found)} of {args.games} games"
        + (f", first at ply {min(found)}, on average at ply {sum(found) / len(found):.1f}" if found else "")
        + f" ({time.perf_counter() - started:.0f} s)"
    )


if __name__ == "__main__":
    main()
