"""What a build of an open Qubic frontier position started again on a new machine
gets from the first one's work, in one run: three builds of `--seconds` each from the
same position (the frontier's settings, lazy), printing each one's root numbers every
quarter of its time and the new inner searches it made.

* A, the first: from the remembered searches (the work folder's, `qubic_frontier.default_folder`).
* B, started again with A's searches remembered too: what a new machine had before
  builds were kept (`Store.keep`). Were it to retrace A, it would make next to no new
  search.
* C, as B, with A's proofs and disproofs found on the way (`Builder.proven_inside`,
  `Builder.disproven_inside`): the lemmas and disproofs a new machine now has for the
  positions whose build it does not have.

    nice -n 10 .venv/bin/python tools/qubic_proof/bench_rebuild.py 0000002004200080-0000040002008010 [--seconds 240]
"""

from __future__ import annotations

import argparse
import collections
import time
from collections.abc import Mapping

from noughts.ai.compiled import prepare
from noughts.ai.qubic_proof import Budget, Strategy
from qubic_build import INF, LOST, Builder
from qubic_frontier import Key, Store, default_folder, parse


def build(
    label: str,
    key: Key,
    budget: Budget,
    known: Mapping[Key, tuple[int, int, int]],
    seconds: float,
    lemmas: Strategy | None = None,
) -> tuple[Builder, dict[Key, tuple[int, int, int]]]:
    """A build of `seconds` reading `known` (not changed: its own searches go to the
    dictionary returned), its figures printed."""
    fresh: dict[Key, tuple[int, int, int]] = {}
    builder = Builder(
        key,
        budget,
        pn_from=6,
        width=8,
        known=collections.ChainMap(fresh, dict(known)),
        lazy=True,
        lemmas=lemmas,
    )
    marks = []
    started = time.perf_counter()
    mark = seconds / 4
    while not builder.solved() and time.perf_counter() - started < seconds:
        builder.step()
        if time.perf_counter() - started >= mark:
            root = builder.nodes[builder.root]
            marks.append(f"{mark:.0f} s: pn {root.pn} dn {root.dn}")
            mark += seconds / 4
    root = builder.nodes[builder.root]
    print(
        f"{label}: {'; '.join(marks)}; at the end pn {root.pn} dn {root.dn}, "
        f"{builder.leaf_searches:,} new inner searches, solved {builder.solved()}",
        flush=True,
    )
    return builder, fresh


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("position", type=parse, help="a frontier position (X-O, hex)")
    parser.add_argument("--seconds", type=float, default=240.0, help="each build's time")
    args = parser.parse_args()
    prepare()
    store = Store(default_folder())
    budget = store.book().budget
    known = store.leaves(budget)
    first, fresh = build("A (first)", args.position, budget, known, args.seconds)
    lemmas, lost = first.proven_inside(), first.disproven_inside()
    print(f"A found {len(lemmas.entries):,} lemma positions and {len(lost):,} disproofs on the way", flush=True)
    again = {**known, **fresh}
    build("B (started again, A's searches remembered)", args.position, budget, again, args.seconds)
    told = {**again, **dict.fromkeys(lost, (INF, 0, LOST))}
    build("C (as B, with A's lemmas and disproofs)", args.position, budget, told, args.seconds, lemmas)


if __name__ == "__main__":
    main()
