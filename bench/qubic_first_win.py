"""Does max find Qubic's first-player win? Qubic is a proven win for the first player
(Patashnik 1980, Allis 1994), but the proofs took weeks of computer time and an
opening book; this shows how far from the empty board max, as x, proves a win.

It first analyses the empty board with x's own budget, then plays `--games` games
from the empty board, x (`--player`, max by default) against OPPONENT as o (a level or
a player spec, max by default), and prints for each the first x move that x valued as
a forced win, and how the game ended (a game x does not win with its moves, to replay).

    .venv/bin/python bench/qubic_first_win.py [OPPONENT] [--player max] [--games 4] [--jobs 1]
        [--random-plies 0] [--first 0]

With `--random-plies N` o's first 1 to N moves (how many drawn per game) are random
cells, and OPPONENT plays the rest: the games leave the lines the players' own searches
prefer, as an opponent varying its openings would. Both sides' tie-breaks and the
random moves are seeded by the game's number (`--first` is the first game's), so the
games differ and each can be played again alone.
"""

from __future__ import annotations

import argparse
import random
import time
from concurrent.futures import ProcessPoolExecutor

from kernel_levels import make  # bench/, this script's folder: a level or a player spec
from noughts import parse_spec
from noughts.ai.base import Kind, Limits
from noughts.ai.levels import LEVELS, level_spec
from noughts.core import Player

GAME = parse_spec("qubic")


def play(job: tuple[str, str, int, int]) -> tuple[int, int | None, str, list[str]]:
    """One game: (index, the ply of x's first proven win or None, result, moves)."""
    player, opponent, index, random_plies = job
    x, o = make(GAME.spec, player, index), make(GAME.spec, opponent, 10_000 + index)
    rng = random.Random(index)
    o_random = rng.randint(1, random_plies) if random_plies else 0
    state = GAME.initial()
    first_win = None
    moves: list[str] = []
    while not state.is_over:
        if state.turn is Player.X:
            analysis = x.decide(state, Limits())
            if first_win is None and analysis.value.kind is Kind.WIN:
                first_win = len(moves)
            move = analysis.best
        elif len(moves) < 2 * o_random:
            move = rng.choice(list(state.legal_moves()))
        else:
            move = o.choose(state, Limits())
        moves.append(state.move_text(move))
        state = state.play(move)
    assert state.outcome is not None
    winner = state.outcome.winner
    return index, first_win, "draw" if winner is None else f"{winner.value}-wins", moves


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("opponent", nargs="?", default="max")
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--player", default="max", help="x: a level or a player spec (default: max)")
    parser.add_argument("--random-plies", type=int, default=0, help="o's first 1 to N moves random (0: none)")
    parser.add_argument("--first", type=int, default=0, help="the first game's number (its seeds)")
    args = parser.parse_args()

    from noughts.ai.compiled import prepare

    prepare()
    player = level_spec(GAME, args.player) if args.player in LEVELS else args.player
    opponent = level_spec(GAME, args.opponent) if args.opponent in LEVELS else args.opponent
    varied = f", after 1 to {args.random_plies} random moves" if args.random_plies else ""
    print(f"x: {player}; o: {opponent}{varied}")
    analysis = make(GAME.spec, args.player, 0).decide(GAME.initial(), Limits())
    print(
        f"empty board: best {analysis.moves[0].text}, {analysis.value.text}"
        f" (depth {analysis.depth}, {analysis.nodes:,} nodes, {analysis.time:.1f} s)"
    )
    started = time.perf_counter()
    found = []
    won = 0
    with ProcessPoolExecutor(args.jobs) as pool:
        jobs = [(args.player, args.opponent, i, args.random_plies) for i in range(args.first, args.first + args.games)]
        for index, first_win, result, moves in pool.map(play, jobs):
            seen = "never" if first_win is None else f"at ply {first_win} (x's move {first_win // 2 + 1})"
            print(f"game {index + 1}: x proved a win {seen}; {result} after {len(moves)} plies", flush=True)
            if result == "x-wins":
                won += 1
            else:
                print(f"  moves: {' '.join(moves)}", flush=True)
            if first_win is not None:
                found.append(first_win)
    print(
        f"\nx won {won} of {args.games} games and proved a win in {len(found)}"
        + (f", first at ply {min(found)}, on average at ply {sum(found) / len(found):.1f}" if found else "")
        + f" ({time.perf_counter() - started:.0f} s)"
    )


if __name__ == "__main__":
    main()
