"""The gobblet solver's kernels: CPU time per class for its children (the first pass)
and for its parents (each level), on a sample of the published game's slots, so that
the whole build's time can be estimated (times the 360 million classes) on a machine.

    .venv/bin/python bench/gobblet_solver.py [--sample 200000]
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from noughts.kernels import gobblet as kernels
from noughts.kernels.jit import kernel


@kernel
def _children_sum(lo: int, hi: int, tables: kernels.Tables) -> int:
    out = np.empty(kernels.MAX_MOVES, dtype=np.int64)
    total = 0
    for idx in range(lo, hi):
        total += kernels.children(idx, out, tables)
    return total


@kernel
def _parents_sum(lo: int, hi: int, tables: kernels.Tables) -> int:
    out = np.empty(kernels.MAX_MOVES, dtype=np.int64)
    total = 0
    for idx in range(lo, hi):
        total += kernels.parents(idx, out, tables)
    return total


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sample", type=int, default=200_000)
    args = parser.parse_args()
    lay = kernels.layout()
    tables = lay.arrays()
    for name, fn in (("children", _children_sum), ("parents", _parents_sum)):
        fn(0, 10, tables)  # compiled before the clock starts
        for where in (0.25, 0.5, 0.75):
            lo = int(lay.slots * where)
            started = time.process_time()
            fn(lo, lo + args.sample, tables)
            per = (time.process_time() - started) / args.sample * 1e6
            print(f"{name:8} at {where:.0%} of the slots: {per:.2f} us of CPU a slot")


if __name__ == "__main__":
    main()
