"""Past the leaves of Qubic's shipped proof: does x still find its proven move?

The proof stores x's moves down to leaves that a search proves; past a leaf x's moves
come from searching again. This walks the proof from the empty board (o's replies at
random among those the proof answers, so the positions come in every orientation), and
past the leaf lets o reply at random (blocking x's single threat when there is one)
while x plays as `max` does: the threat search in the position's frame, then
`Strategy.move`. At each x position past a leaf it counts whether the proof-number
search of the position itself, in its canonical frame, finds a move, and whether
`Strategy.move` does (which, where that search fails, follows the leaf's own proof).

    PYTHONPATH=src .venv/bin/python bench/qubic_past_leaves.py [--games 100] [--seed 1]
"""

from __future__ import annotations

import argparse
import random
import time

import numpy as np

from noughts.ai import qubic_proof as qp
from noughts.ai.compiled import prepare
from noughts.kernels import threats
from noughts.kernels.cube import signed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    prepare()
    strategy = qp.shipped()
    assert strategy is not None, f"no proof shipped at {qp.SHIPPED}"
    rng = random.Random(args.seed)
    past = own_failed = none = won = 0
    started = time.perf_counter()
    for _ in range(args.games):
        x = o = 0
        beyond = False
        while True:
            if qp.threat_cells(x, o):
                won += 1
                break
            key, _ = qp.key_of(x, o)
            code = strategy.entries.get(key)
            beyond = beyond or code is None or code < 0
            if code is None:
                past += 1
                own_failed += qp.leaf_move(*key, strategy.budget) is None
            stats = np.zeros(3, dtype=np.float64)
            threat = int(threats.forced_win(signed(x), signed(o), 16, stats, 0.0, 1e6))
            move = threat if threat >= 0 else strategy.move(x, o)
            if move is None:
                none += 1
                print(f"no move: x {x:#018x} o {o:#018x}", flush=True)
                break
            x |= 1 << move
            if qp.completes(x):
                won += 1
                break
            mine = qp.threat_cells(x, o)
            if mine & (mine - 1):
                won += 1
                break
            empty = [c for c in range(64) if not (x | o) >> c & 1]
            if mine:
                reply = mine.bit_length() - 1
            elif not beyond:
                answered = [c for c in empty if qp.key_of(x, o | 1 << c)[0] in strategy.entries]
                if not answered:
                    won += 1  # every reply loses at once or to the null-move sequence
                    break
                reply = rng.choice(answered)
            else:
                reply = rng.choice(empty)
            o |= 1 << reply
            if qp.completes(o):
                print(f"o won: x {x:#018x} o {o:#018x}", flush=True)
                break
    print(
        f"{args.games} games, x won {won}; {past} x positions past a leaf: the position's own search"
        f" found no move at {own_failed}, Strategy.move at {none} ({time.perf_counter() - started:.0f} s)"
    )


if __name__ == "__main__":
    main()
