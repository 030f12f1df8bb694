"""Does max, as x, win gobblet from the start against every reply? Gobblet Gobblers is
x's win in 13 plies; `max` plays it exactly from the solved table once ``noughts solve
gobblet`` has built it, and before that from the shipped opening book (the first two
plies) and then from the shipped winning strategy (`noughts.ai.gobblet_strategy`).

This plays one game for each of o's replies to max's first move, o then played on by
OPPONENT (a level or a player spec, hard by default; seeded by the game's number), and
prints how each ended, and x's moves and values in the games x did not win.

    .venv/bin/python bench/gobblet_first_win.py [OPPONENT] [--fresh] [--jobs 1]

With `--fresh` the cache folder is a new empty one, as on a new installation: no table.
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor

from kernel_levels import make  # bench/, this script's folder: a level or a player spec
from noughts.ai.base import Limits
from noughts.core import Player
from noughts.games.gobblet import Gobblet

GAME = Gobblet()


def play(job: tuple[str, int]) -> tuple[str, str, list[str]]:
    """One game from o's `index`-th reply to max's first move: (the reply, the result,
    the moves after it, x's with its values)."""
    opponent, index = job
    x, o = make(GAME.spec, "max", 1), make(GAME.spec, opponent, 10_000 + index)
    start = GAME.initial()
    state = start.play(x.decide(start, Limits()).best)
    reply = state.legal_moves()[index]
    text = state.move_text(reply)
    state = state.play(reply)
    moves: list[str] = []
    while not state.is_over:
        if state.turn is Player.X:
            analysis = x.decide(state, Limits())
            moves.append(f"{analysis.moves[0].text} ({analysis.value.text})")
            move = analysis.best
        else:
            move = o.choose(state, Limits())
            moves.append(state.move_text(move))
        state = state.play(move)
    assert state.outcome is not None
    winner = state.outcome.winner
    return text, "draw" if winner is None else f"{winner.value}-wins", moves


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("opponent", nargs="?", default="hard")
    parser.add_argument("--fresh", action="store_true", help="an empty cache folder: no table")
    parser.add_argument("--jobs", type=int, default=1)
    args = parser.parse_args()
    if args.fresh:
        os.environ["NOUGHTS_CACHE_DIR"] = tempfile.mkdtemp(prefix="noughts-fresh-")
    from noughts.ai import gobblet_table

    built = gobblet_table.is_built(GAME)
    x = make(GAME.spec, "max", 1)
    start = GAME.initial()
    first = x.decide(start, Limits())
    replies = len(start.play(first.best).legal_moves())
    print(f"x: max ({'the table' if built else 'no table: the book, then the strategy'}); o: {args.opponent}")
    print(f"x's first move {first.moves[0].text} ({first.value.text}); o's replies: {replies}")
    started = time.perf_counter()
    won = 0
    with ProcessPoolExecutor(args.jobs) as pool:
        for reply, result, moves in pool.map(play, [(args.opponent, i) for i in range(replies)]):
            print(f"o {reply}: {result} after {len(moves) + 2} plies", flush=True)
            if result == "x-wins":
                won += 1
            else:
                print(f"  then: {' '.join(moves)}", flush=True)
    print(f"\nx won {won} of {replies} games ({time.perf_counter() - started:.0f} s)")


if __name__ == "__main__":
    main()
