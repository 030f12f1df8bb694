"""How long the exact tables take to build, from an empty cache (`noughts.ai.solve`).

    .venv/bin/python bench/table_builds.py [--readable] [SPEC ...]

Prints, per game, its positions and stored classes, the wall-clock and the CPU seconds
of the build (the CPU figure holds on a machine busy with other work, the wall-clock
does not), and the peak memory of the process so far. The default list is every table
built on first use that the docs quote. ``--readable``: the Python builder only, as on a
machine without numba (by default plain boards from 12 cells build in the compiled
kernel, `noughts.kernels.mnk_table`).
"""

from __future__ import annotations

import os
import resource
import sys
import tempfile
import time

DEFAULT = [
    "classic",
    "mnk:m=4:n=3:k=3",
    "mnk:m=3:n=4:k=4",
    "classic:forget",
    "mnk:m=5:n=3:k=3",
    "mnk:m=4:n=4:k=3",
    "mnk:m=4:n=4:k=4",
    "mnk:m=8:n=2:k=3",
]


def main(specs: list[str], readable: bool) -> None:
    os.environ["NOUGHTS_CACHE_DIR"] = tempfile.mkdtemp(prefix="noughts-table-builds-")
    from noughts.ai import solve as solver
    from noughts.ai.solve import solve
    from noughts.registry import parse_spec

    if readable:
        solver._COMPILED_FROM_CELLS = 1 << 10

    print(f"{'game':<22}{'positions':>12}{'classes':>12}{'wall s':>9}{'CPU s':>9}{'peak MB':>9}  start")
    for spec in specs:
        game = parse_spec(spec)
        wall, cpu = time.perf_counter(), time.process_time()
        table = solve(game)
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        print(
            f"{game.spec:<22}{table.positions:>12,}{table.classes:>12,}{wall:>9.1f}{cpu:>9.1f}{peak:>9.0f}  "
            f"{table.start_value.text}",
            flush=True,
        )


if __name__ == "__main__":
    args = sys.argv[1:]
    readable = "--readable" in args
    main([a for a in args if a != "--readable"] or DEFAULT, readable)
