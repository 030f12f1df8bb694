"""How often a Swiss breaks FIDE's colour rules (one colour three times in a row, or a
colour difference above 2), and how even the colours end, over many simulated
tournaments: random fields of 4 to 24 players and 3 to 9 rounds, x winning half the
games, o a quarter, a quarter drawn (the first player's edge of most games of the
family). A player breaks a rule only when no pairing of their round could avoid it.

    .venv/bin/python bench/swiss_colours.py [--tournaments 400] [--seed 1]
"""

from __future__ import annotations

import argparse
import random
import time

from noughts.competition.tournaments.swiss import (
    BYE_POINTS,
    NoPairingError,
    SwissGame,
    entrants,
    pair_round,
)

POINTS = {"x": (1.0, 0.0), "o": (0.0, 1.0), "draw": (0.5, 0.5)}


def breaks_rules(colours: str) -> bool:
    for end in range(1, len(colours) + 1):
        head = colours[:end]
        if abs(head.count("x") - head.count("o")) > 2 or head[-3:] in ("xxx", "ooo"):
            return True
    return False


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tournaments", type=int, default=400)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    players = broke = rounds_paired = 0
    spread: dict[int, int] = {}
    started = time.perf_counter()
    for _ in range(args.tournaments):
        n, rounds = rng.randint(4, 24), rng.randint(3, 9)
        ratings = {i: float(rng.randint(1000, 2000)) for i in range(n)}
        games: list[SwissGame] = []
        for number in range(1, rounds + 1):
            try:
                r = pair_round(entrants(ratings, games))
            except NoPairingError:
                break
            rounds_paired += 1
            for x, o in r.pairs:
                games.append(SwissGame(number, x, o, *POINTS[rng.choice(["x", "x", "o", "draw"])]))
            if r.bye is not None:
                games.append(SwissGame(number, r.bye, None, BYE_POINTS))
        for e in entrants(ratings, games):
            players += 1
            broke += breaks_rules(e.colours)
            spread[abs(e.balance)] = spread.get(abs(e.balance), 0) + 1
    seconds = time.perf_counter() - started
    print(f"{args.tournaments} Swisses, {rounds_paired} rounds, {players} players, {seconds:.1f} s")
    print(f"players who broke a colour rule: {broke} ({100 * broke / players:.2f}%)")
    print("final |x - o|: " + ", ".join(f"{d}: {spread[d]}" for d in sorted(spread)))


if __name__ == "__main__":
    main()
