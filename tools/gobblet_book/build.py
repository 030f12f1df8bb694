"""Build gobblet's winning strategy for x (src/noughts/ai/books/gobblet_x.npz) from the
solved table: past the opening book, a move to the quickest win at every position x meets
when following it, whatever o plays (`noughts.ai.gobblet_strategy.build`).

Needs the table (``noughts solve gobblet``, in the cache folder). ``--check`` then proves
the written strategy again from the rules alone, every position (`gobblet_strategy.check`).

    .venv/bin/python tools/gobblet_book/build.py [--out PATH] [--check]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from noughts.ai import gobblet_strategy, gobblet_table
from noughts.games.gobblet import Gobblet


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=gobblet_strategy.STRATEGY)
    parser.add_argument("--check", action="store_true", help="prove the written strategy again, every position")
    args = parser.parse_args()
    table = gobblet_table.load(Gobblet())
    if table is None:
        print(f"no gobblet table in the cache folder: {gobblet_table.BUILD_NOTE}", file=sys.stderr)
        return 1
    started = time.perf_counter()
    strategy = gobblet_strategy.build(table)
    strategy.write(args.out)
    plies = sorted({int(p) for p in strategy.plies})
    print(
        f"wrote {args.out}: {len(strategy):,} classes (x's wins in {plies[0]}-{plies[-1]} plies), "
        f"{args.out.stat().st_size:,} bytes, {time.perf_counter() - started:.0f} s",
        flush=True,
    )
    if args.check:
        started = time.perf_counter()
        found = gobblet_strategy.check(gobblet_strategy.Strategy.read(args.out))
        seconds = time.perf_counter() - started
        print(f"checked: {found.positions:,} positions of x, {found.replies:,} replies of o, {seconds:.0f} s")
        for line in found.wrong[:20]:
            print("WRONG", line)
        return 0 if found.ok else 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
