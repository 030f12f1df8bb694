"""The Qubic proof's leaf searches (the compiled threat and proof-number searches, 97%
of a build's time) in the working tree against the same searches at an earlier
revision, in one run: the same leaves, the same results and statistics demanded, the
CPU time compared.

The leaves: `--leaves` positions drawn (`--seed`) from those the proof's builds have
searched (leaves.npz in the work folder of tools/qubic_proof, which its builds fill:
tools/README.md). Each tree runs in its own process, with its
own empty numba cache (numba checks a cached kernel against its own source file only,
so a cache shared by two revisions could hand one the other's inlined code), first
once to compile, then `--rounds` times alternating with the other, so that a busy
machine slows both alike. Every leaf gets what a build gives it (`qubic_proof.
leaf_proven`'s searches: the threat search, then the proof-number search at each of
the budget's levels until one proves it) on one memo shared by all, as in a build; the
results, tree sizes, expansions and threat-search nodes of both must be identical, or
it stops. It prints each tree's CPU seconds per round and the median ratio.

    PYTHONPATH=src nice -n 10 .venv/bin/python bench/qubic_leaf_speed.py [--reference REV] [--leaves 300] [--rounds 3]

The default reference is the last revision before the threat search kept line counts.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

import revisions  # bench/revisions.py, beside this script

REFERENCE = "c9ec337"


def _searches(positions: list[tuple[int, int]]) -> tuple[float, list[object]]:
    """Run in a worker: every leaf's searches, the CPU seconds they took and what they found."""
    from noughts.ai import qubic_proof
    from noughts.kernels import threats
    from noughts.kernels.proof import NULL_SETTLE_DEPTH, Memo, ProofTree

    budget = qubic_proof.Budget()
    memo = Memo(22)
    trees = {e: ProofTree(64 * (e + 1), memo) for e in budget.expansions}
    found: list[object] = []
    spent = 0.0
    for x, o in positions:
        sx, so = qubic_proof._signed(x), qubic_proof._signed(o)
        stats = np.zeros(3)
        started = time.process_time()
        move = threats.forced_win(sx, so, budget.threat_depth, stats, 0.0, float(budget.threat_nodes))
        spent += time.process_time() - started
        row: list[object] = [int(move), stats.tolist()]
        if move < 0:
            for expansions in budget.expansions:
                tree = trees[expansions]
                started = time.process_time()
                move = tree.prove(sx, so, 0.0, expansions, NULL_SETTLE_DEPTH)
                spent += time.process_time() - started
                row.append([int(move), tree.stats.tolist(), int(tree.numbers[0, 0]), int(tree.numbers[0, 1])])
                if tree.numbers[0, 0] == 0:
                    break
        found.append(row)
    return spent, found


def _worker(out: Path, leaves: Path) -> None:
    positions = [(int(x), int(o)) for x, o in np.load(leaves).tolist()]
    _searches(positions[:2])  # compiled (or loaded) before the clock
    spent, found = _searches(positions)
    out.write_text(json.dumps({"seconds": spent, "found": found}))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--reference", default=REFERENCE, help="the revision to compare with (git)")
    parser.add_argument("--leaves", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--worker", nargs=2, type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        _worker(*args.worker)
        return
    # The proof's tool keeps the leaves (tools/qubic_proof, outside the package).
    sys.path.insert(0, str(revisions.ROOT / "tools" / "qubic_proof"))
    from qubic_frontier import Store, default_folder

    store = Store(default_folder())
    known = sorted(store.leaves(store.book().budget))
    rng = np.random.default_rng(args.seed)
    picked = [known[i] for i in rng.choice(len(known), min(args.leaves, len(known)), replace=False)]
    with tempfile.TemporaryDirectory() as folder:
        work = Path(folder)
        leaves = work / "leaves.npy"
        np.save(leaves, np.array(picked, dtype=np.uint64))
        compared = revisions.compare(__file__, args.reference, work, args.rounds, [str(leaves)])
        proven = sum(1 for row in compared.found if _proven(row))
        print(
            f"{len(picked)} leaves ({proven} proven), the same results and statistics in both; "
            + compared.summary(args.reference)
        )


def _proven(row: list[object]) -> bool:
    """Whether a leaf's searches proved it (the threat search's move, or a level's proof number 0)."""
    if isinstance(row[0], int) and row[0] >= 0:
        return True
    return any(isinstance(level, list) and level[2] == 0 for level in row[2:])


if __name__ == "__main__":
    main()
