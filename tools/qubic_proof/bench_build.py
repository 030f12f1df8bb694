"""How fast the Qubic proof builder (`qubic_build`) proves x's win from a
fixed set of positions near the start: the same set and the same time for each, so
two versions of the builder compare by a number.

The set: x's first move in a corner (cell 0), then each of o's 12 replies up to
symmetry, then x's and o's best moves by the lines evaluation (ties: the lowest cell),
`--plies` marks in all (x to move). Each position gets its own build of `--seconds`
(with the build's defaults: width 8, the inner search from six marks); a proven one
is extracted and checked. It prints a row per position and the totals: positions
proven, the build's positions and leaf searches per minute.

With ``--leaves`` it measures the leaf search alone (`qubic_proof.leaf_proven`, the
threat search, then the proof-number search at 500 and 3,000 expansions): on the
positions two plies after each of the set's (x's best move by the lines evaluation,
then every reply of o up to symmetry), how many each search proves, and how long
that takes.

With ``--lazy`` it compares the builder's two ways with the inner search's later
levels (`Builder.lazy`): at once on every new x position (eager, the reference) or
when the outer search picks the position to expand (lazy); the two run side by side,
a process each, on the same positions (`--positions X-O ...`, canonical keys in hex as
`qubic_frontier` names them; the set above by default), each for at most `--seconds`,
and it prints the time each took to prove each position and the ratio of the totals
(a position left unproven counts at `--seconds`). The same way, both lazy, ``--cutoff``
compares o's positions searched reply after reply to the end (the reference) with
the expansion that stops at the first refutation (`Builder.cutoff`), and
``--ordering`` x's moves tried by the replies they leave o (the reference) with the
lines evaluation alone (`Builder.by_replies`: the first puts sharp moves, which leave
o one reply, before the quiet ones).

    nice -n 10 .venv/bin/python tools/qubic_proof/bench_build.py [--plies 4] [--seconds 60] [--leaves]
    nice -n 10 .venv/bin/python tools/qubic_proof/bench_build.py --lazy [--positions X-O ...] [--seconds S]
    nice -n 10 .venv/bin/python tools/qubic_proof/bench_build.py --cutoff [--positions X-O ...] [--seconds S]
    nice -n 10 .venv/bin/python tools/qubic_proof/bench_build.py --ordering [--positions X-O ...] [--seconds S]
"""

from __future__ import annotations

import argparse
import time
from concurrent.futures import ProcessPoolExecutor

from noughts.ai.qubic_proof import Budget, check, key_of, leaf_proven
from qubic_build import FORCED_COST, Builder, lines_score
from qubic_frontier import name, parse

#: Builder attributes a side of a comparison sets.
Ways = dict[str, object]


def _best(x: int, o: int, x_moves: bool) -> int:
    empty = [c for c in range(64) if not (x | o) >> c & 1]
    if x_moves:
        return max(empty, key=lambda c: (lines_score(x | 1 << c, o), -c))
    return max(empty, key=lambda c: (-lines_score(x, o | 1 << c), -c))


def targets(plies: int) -> list[tuple[int, int]]:
    """The fixed set of positions (x's and o's marks, x to move), canonical."""
    found: list[tuple[int, int]] = []
    replies: dict[tuple[int, int], int] = {}
    for cell in range(64):
        if cell:
            replies.setdefault(key_of(1, 1 << cell)[0], cell)
    for x, o in sorted(replies):
        for ply in range(2, plies):
            if ply % 2 == 0:
                x |= 1 << _best(x, o, True)
            else:
                o |= 1 << _best(x, o, False)
        key = key_of(x, o)[0]
        if key not in found:
            found.append(key)
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--plies", type=int, default=4, help="marks on the board in each position (even)")
    parser.add_argument("--seconds", type=float, default=60.0, help="build time for each position")
    parser.add_argument("--width", type=int, default=8)
    parser.add_argument("--pn-from", type=int, default=6)
    parser.add_argument("--leaves", action="store_true", help="measure the leaf search alone")
    parser.add_argument("--lazy", action="store_true", help="inner search: eager against lazy")
    parser.add_argument("--cutoff", action="store_true", help="o's nodes: every reply against a cutoff (both lazy)")
    parser.add_argument("--positions", nargs="+", default=[], help="X-O keys in hex (qubic_frontier's names)")
    parser.add_argument("--by-lines", action="store_true", help="order x's moves by the lines evaluation alone")
    parser.add_argument(
        "--ordering", action="store_true", help="x's moves by replies left against by lines (both cutoff)"
    )
    parser.add_argument(
        "--mixed",
        action="store_true",
        help="x's moves by replies left against half by replies, half by lines, threats costing (both cutoff)",
    )
    parser.add_argument(
        "--expansions", type=int, nargs="+", default=Budget.expansions, help="the inner search's budget, by level"
    )
    args = parser.parse_args()
    from noughts.ai.compiled import prepare

    prepare()
    positions = [parse(text) for text in args.positions] or targets(args.plies)
    if args.leaves:
        leaf_searches(positions)
        return
    # Each comparison: the reference way first, then the way measured against it.
    lazy: Ways = {"lazy": True, "cutoff": False}
    cutoff: Ways = {"lazy": True, "cutoff": True}
    sides: tuple[tuple[str, Ways], tuple[str, Ways]] | None = None
    if args.lazy:
        sides = (("eager", {"lazy": False, "cutoff": False}), ("lazy", lazy))
    elif args.cutoff:
        sides = (("all replies", lazy), ("cutoff", cutoff))
    elif args.ordering:
        sides = (("by replies", cutoff), ("by lines", {**cutoff, "by_replies": False}))
    elif args.mixed:
        sides = (("by replies", cutoff), ("mixed", {**cutoff, "mixed": True, "forced_cost": FORCED_COST}))
    if sides is not None:
        compare(sides, positions, args.seconds, args.width, args.pn_from)
        return
    proven = nodes = leaves = 0
    spent = 0.0
    for x, o in positions:
        budget = Budget(expansions=tuple(args.expansions))
        builder = Builder((x, o), budget, pn_from=args.pn_from, width=args.width, by_replies=not args.by_lines)
        started = time.perf_counter()
        builder.run(args.seconds, report=None)
        took = time.perf_counter() - started
        spent += took
        nodes += len(builder.nodes)
        leaves += builder.leaf_searches
        row = f"x {x:#018x} o {o:#018x}: "
        if builder.nodes[builder.root].pn == 0:
            proven += 1
            strategy = builder.strategy()
            report = check(strategy, (x, o))
            row += f"proven in {took:.1f} s, {len(strategy.entries):,} entries, checked ({report})"
        else:
            root = builder.nodes[builder.root]
            row += f"not proven in {took:.0f} s (pn {root.pn} dn {root.dn})"
        print(f"{row}; {len(builder.nodes):,} positions, {builder.leaf_searches:,} leaf searches", flush=True)
    minutes = spent / 60
    print(
        f"proven {proven} of {len(positions)} in {spent:.0f} s; "
        f"{nodes / minutes:,.0f} positions and {leaves / minutes:,.0f} leaf searches a minute"
    )


def _builds(
    job: tuple[Ways, list[tuple[int, int]], float, int, int],
) -> list[tuple[bool, float, int, int, int]]:
    """One side of `compare`: each position built for at most `seconds` with the
    builder's attributes `ways`; for each, (proven, seconds, leaf searches, of them
    deepened, positions)."""
    from noughts.ai.compiled import prepare

    ways, positions, seconds, width, pn_from = job
    prepare()
    rows = []
    for key in positions:
        builder = Builder(key, Budget(), pn_from=pn_from, width=width)
        for attribute, value in ways.items():
            setattr(builder, attribute, value)
        builder.run(seconds, report=None)
        proven = builder.nodes[builder.root].pn == 0
        if proven:
            check(builder.strategy(), key)
        rows.append((proven, builder.seconds, builder.leaf_searches, builder.deepened, len(builder.nodes)))
    return rows


def compare(
    sides: tuple[tuple[str, Ways], tuple[str, Ways]],
    positions: list[tuple[int, int]],
    seconds: float,
    width: int,
    pn_from: int,
) -> None:
    """The builder two ways (named, with their attributes), side by side, a process each."""
    with ProcessPoolExecutor(2) as pool:
        results = list(pool.map(_builds, [(ways, positions, seconds, width, pn_from) for _, ways in sides]))
    names = [side for side, _ in sides]
    totals = [0.0, 0.0]
    for key, a, b in zip(positions, *results, strict=True):
        cells = []
        for side, (proven, took, searches, deepened, nodes) in enumerate((a, b)):
            totals[side] += took if proven else seconds
            state = f"proven in {took:5.1f} s" if proven else f"open after {took:5.1f} s"
            cells.append(
                f"{names[side]} {state} ({searches:,} leaf searches, {deepened:,} deepened, {nodes:,} positions)"
            )
        print(f"{name(key)}: {cells[0]}; {cells[1]}", flush=True)
    proven = [sum(r[0] for r in side) for side in results]
    print(
        f"proven: {names[0]} {proven[0]} of {len(positions)}, {names[1]} {proven[1]}; time (unproven at "
        f"{seconds:.0f} s): {names[0]} {totals[0]:.0f} s, {names[1]} {totals[1]:.0f} s: "
        f"{names[1]} {totals[0] / totals[1]:.2f} times as fast"
    )


def leaf_searches(positions: list[tuple[int, int]]) -> None:
    budget = Budget()
    found: dict[object, int] = {}
    count = 0
    started = time.perf_counter()
    for x, o in positions:
        x |= 1 << _best(x, o, True)
        after = {key_of(x, o | 1 << c)[0] for c in range(64) if not (x | o) >> c & 1}
        for child in sorted(after):
            code = leaf_proven(*child, budget)
            found[code] = found.get(code, 0) + 1
            count += 1
    took = time.perf_counter() - started
    print(f"{count} positions in {took:.0f} s ({took / count:.2f} s each); proven by (code: count) {found}")


if __name__ == "__main__":
    main()
