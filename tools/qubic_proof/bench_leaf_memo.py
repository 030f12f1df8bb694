"""What the proof search's memo (`noughts.kernels.proof.Memo`) saves on the leaf
searches of Qubic's proof, against the same searches without it, in one run.

The leaves: `--leaves` positions drawn (`--seed`) from those the proof's builds have
searched (leaves.npz in the work folder, `qubic_frontier.default_folder`), in the order drawn, as a build meets
positions of different branches. Each is searched twice in turn by
`qubic_proof.leaf_proven` with the proof's budget: with trees whose memo has a single
slot (the reference: next to no memo), and with the trees every leaf search of a
build uses (one memo of 2**22 slots, filled by the leaves before). The two must give
the same result on every leaf; it prints both times and their ratio.

With ``--build X-O`` it measures a build instead, where the leaves are close to each
other: the builder (`qubic_build.Builder`, the frontier's settings, no remembered
searches) from that position for `--seconds` without the memo, then as long with a
fresh one; the build goes the same way, so the leaf searches done in that time compare.

    nice -n 10 .venv/bin/python tools/qubic_proof/bench_leaf_memo.py [--leaves 200] [--seed 1]
    nice -n 10 .venv/bin/python tools/qubic_proof/bench_leaf_memo.py --build 0000000000000009-0000000002000080
"""

from __future__ import annotations

import argparse
import functools
import time
from typing import Any

import numpy as np

from noughts.ai import qubic_proof
from noughts.ai.compiled import prepare
from noughts.kernels.proof import Memo, ProofTree
from qubic_frontier import Store, default_folder, parse


@functools.lru_cache(maxsize=4)
def _tree_without_memo(expansions: int) -> Any:
    return ProofTree(64 * (expansions + 1), Memo(0))


def _build(key: tuple[int, int], seconds: float) -> None:
    from qubic_build import Builder

    budget = Store(default_folder()).book().budget
    with_memo = qubic_proof._proof_tree
    searched = {}
    for label, trees in (("without", _tree_without_memo), ("with", _fresh_memo_trees())):
        qubic_proof._proof_tree = trees
        builder = Builder(key, budget, pn_from=6, width=8)
        builder.run(seconds, report=None)
        searched[label] = builder.leaf_searches
        print(
            f"{label} the memo: {builder.leaf_searches:,} leaf searches, "
            f"{builder.expansions:,} expansions in {seconds:.0f} s"
        )
    qubic_proof._proof_tree = with_memo
    print(f"{searched['with'] / searched['without']:.2f} times the leaf searches with the memo")


def _fresh_memo_trees() -> Any:
    memo = Memo(22)
    return functools.lru_cache(maxsize=4)(lambda expansions: ProofTree(64 * (expansions + 1), memo))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--leaves", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--build", type=parse, help="measure a build from this position (X-O, hex) instead")
    parser.add_argument("--seconds", type=float, default=60.0, help="each build's time")
    args = parser.parse_args()
    prepare()
    if args.build is not None:
        _build(args.build, args.seconds)
        return
    store = Store(default_folder())
    budget = store.book().budget
    known = sorted(store.leaves(budget))
    rng = np.random.default_rng(args.seed)
    leaves = [known[i] for i in rng.choice(len(known), min(args.leaves, len(known)), replace=False)]
    with_memo = qubic_proof._proof_tree
    spent = {"without": 0.0, "with": 0.0}
    proven = 0
    for x, o in leaves:
        results = []
        for label, trees in (("without", _tree_without_memo), ("with", with_memo)):
            # leaf_proven takes its trees from the module: the reference's for one call.
            qubic_proof._proof_tree = trees
            started = time.perf_counter()
            results.append(qubic_proof.leaf_proven(x, o, budget))
            spent[label] += time.perf_counter() - started
        qubic_proof._proof_tree = with_memo
        if results[0] != results[1]:
            raise SystemExit(f"different results on {x:016x}-{o:016x}: {results}")
        proven += results[0] is not None
    print(
        f"{len(leaves)} leaves ({proven} proven), the same result on each: without the memo "
        f"{spent['without']:.1f} s, with it {spent['with']:.1f} s: {spent['without'] / spent['with']:.2f} times faster"
    )


if __name__ == "__main__":
    main()
