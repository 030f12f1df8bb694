"""The compiled alpha-beta (`kalphabeta`: `max` in ultimate, nine-board and qubic) in
the working tree against an earlier revision, in one run: the same positions searched
to the same depth, the same moves, values and node counts demanded, the CPU time
compared (`bench/revisions.py`: each tree in processes of its own, alternating).

The positions: `--positions` per game, each `--plies` random moves (seeded) into the
game; each is analyzed (every move valued exactly) to the game's depth with a fresh
player, qubic without its threat searches (the alpha-beta alone).

    PYTHONPATH=src nice -n 10 .venv/bin/python bench/kalphabeta_speed.py [--reference REV] [--positions 6] [--rounds 3]
"""

from __future__ import annotations

import argparse
import json
import random
import tempfile
import time
from pathlib import Path

import revisions  # bench/revisions.py, beside this script

#: Game and search depth: a few seconds in all on the reference.
GAMES = {"ultimate": 8, "nine-board": 8, "qubic": 5}


def _searches(positions: int, plies: int, seed: int) -> tuple[float, list[object]]:
    """Run in a worker: every position's analysis, the CPU seconds and what it found."""
    from noughts.ai import Limits
    from noughts.ai.compiled import KernelAlphaBetaPlayer, prepare
    from noughts.registry import parse_spec

    prepare()  # compiled (or loaded) before the clock
    rng = random.Random(seed)
    spent = 0.0
    found: list[object] = []
    for spec, depth in GAMES.items():
        for _ in range(positions):
            state = parse_spec(spec).initial()
            for _ in range(plies):
                state = state.play(rng.choice(state.legal_moves()))
            player = KernelAlphaBetaPlayer(seed=0, threats=False)
            started = time.process_time()
            analysis = player.analyze(state, Limits(depth=depth))
            spent += time.process_time() - started
            found.append([spec, analysis.depth, analysis.nodes, [[str(m.move), str(m.value)] for m in analysis.moves]])
    return spent, found


def _worker(out: Path, positions: str, plies: str, seed: str) -> None:
    spent, found = _searches(int(positions), int(plies), int(seed))
    out.write_text(json.dumps({"seconds": spent, "found": found}))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--reference", default="HEAD", help="the revision to compare with (git)")
    parser.add_argument("--positions", type=int, default=6, help="per game")
    parser.add_argument("--plies", type=int, default=4, help="random moves into the game")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--worker", nargs=4, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        _worker(Path(args.worker[0]), *args.worker[1:])
        return
    with tempfile.TemporaryDirectory() as folder:
        compared = revisions.compare(
            __file__,
            args.reference,
            Path(folder),
            args.rounds,
            [str(args.positions), str(args.plies), str(args.seed)],
        )
    nodes = sum(row[2] for row in compared.found)
    print(
        f"{len(compared.found)} positions ({', '.join(f'{g} at depth {d}' for g, d in GAMES.items())}), "
        f"{nodes:,} nodes, the same moves, values and nodes in both; " + compared.summary(args.reference)
    )


if __name__ == "__main__":
    main()
