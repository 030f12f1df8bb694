"""How far the plies of a bound (`Value.bound`) are from the exact distance, measured
against the solved tables.

A win proven without looking at every move (MCTS-Solver; threat and proof-number
searches) is certain, but its plies only bound the distance. This takes seeded random
positions of solved games, has each player value every move, and compares each proven
win or loss with the table's: how many are exact distances and how many bounds, how
many bounds equal the distance and how far the others are above it, and how many claims
are wrong (a bound below the distance, an exact value other than the table's: must be 0).

    .venv/bin/python bench/value_bounds.py [--positions 100] [--seed 1]
        [--games classic mnk:m=4:n=3:k=3] [--players mcts:iterations=1000 alphabeta:depth=12]
"""

from __future__ import annotations

import argparse
import random
from typing import Any

from noughts import parse_spec
from noughts.ai.base import Kind, Limits, make_player, parse_player
from noughts.core import State


def positions(spec: str, count: int, seed: int) -> list[State[Any]]:
    """`count` different positions 1 to 6 random plies from the start, none over."""
    rng = random.Random(seed)
    game = parse_spec(spec)
    found: dict[str, State[Any]] = {}
    for _ in range(count * 50):
        if len(found) == count:
            break
        state = game.initial()
        for _ in range(rng.randrange(1, 7)):
            state = state.play(rng.choice(state.legal_moves()))
            if state.is_over:
                break
        if not state.is_over:
            found.setdefault(state.to_text(), state)
    return list(found.values())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--positions", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--games", nargs="+", default=["classic", "mnk:m=4:n=3:k=3"])
    parser.add_argument("--players", nargs="+", default=["mcts:iterations=1000", "alphabeta:depth=12"])
    args = parser.parse_args()
    perfect = make_player("perfect")
    print("game                player                 proven  exact  bound  =dist  above  mean+  max+  wrong")
    for spec in args.games:
        states = positions(spec, args.positions, args.seed)
        tables = [{info.move: info.value for info in perfect.analyze(s).moves} for s in states]
        for name in args.players:
            exact = bound = equal = wrong = 0
            excess: list[int] = []
            for i, (state, table) in enumerate(zip(states, tables, strict=True)):
                player = parse_player(name + ("" if ":seed=" in name or name.startswith("alphabeta") else f":seed={i}"))
                for info in player.analyze(state, Limits()).moves:
                    value, truth = info.value, table[info.move]
                    if value.kind not in (Kind.WIN, Kind.LOSS):
                        continue
                    if value.kind is not truth.kind:
                        wrong += 1
                    elif not value.bound:
                        exact += 1
                        wrong += value != truth
                    else:
                        bound += 1
                        over = (value.plies or 0) - (truth.plies or 0)
                        wrong += over < 0
                        equal += over == 0
                        if over > 0:
                            excess.append(over)
            proven = exact + bound
            mean = sum(excess) / len(excess) if excess else 0.0
            print(
                f"{spec:<19} {name:<22} {proven:>6} {exact:>6} {bound:>6} {equal:>6} {len(excess):>6}"
                f" {mean:>6.1f} {max(excess, default=0):>5} {wrong:>6}"
            )


if __name__ == "__main__":
    main()
