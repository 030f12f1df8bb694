"""The Connect Four solver against Pascal Pons's (github.com/PascalPons/connect4), on the
same 7x6 positions in one run: per set, the mean time a position for each, their ratio,
and whether every score agrees.

Pons's program is built outside the repository and its path given here; it runs without
its opening book (there is none in his repository: it says "Unable to load opening
book" and solves from nothing, as ours does). Each keeps its transposition table from
one position to the next, as his program does. His times are the round trip of one line
through its pipe (his program flushes each answer). The positions are drawn by random
play from the empty board, no move of them a win, at the depths of his published test
sets' levels (end: 28 and more stones, middle: 14 to 28, beginning: fewer).

    git clone <fetched PascalPons/connect4> /work/ext/connect4 && make -C /work/ext/connect4 c4solver
    PYTHONPATH=src .venv/bin/python bench/connect4_solver.py /work/ext/connect4/c4solver

2026-12-02 05:46 UTC, 2 cores shared with other work (load about 4), the default run
(27 s) and ``--depths 8 --positions 10``:

    stones positions    Pons ms    ours ms ours/Pons  scores
        32        40       0.14       0.07      0.48  all agree
        24        40       0.16       0.16      1.02  all agree
        18        40       1.91       1.68      0.88  all agree
        14        40      17.83      17.59      0.99  all agree
        10        40     268.71     259.82      0.97  all agree
         8        10     638.19     606.57      0.95  all agree

Runs under heavier load moved each ratio by up to a factor of two either way (10 stones:
0.69 and 1.76 in two earlier runs): read them as "as fast as Pons's", not finer.

``--by-depth`` measures ours alone: `best_move` and `column_scores` by stones played,
each position from an empty table (the figures: tools/connect4_book/README.md).
"""

from __future__ import annotations

import argparse
import random
import statistics
import subprocess
import tempfile
import time

from noughts.games.connect4 import solver

M, N = 7, 6


def masks(moves: str) -> tuple[int, int]:
    """x and o of a move text (columns 1..7), in the project's convention."""
    heights = [0] * M
    x = o = 0
    for ply, ch in enumerate(moves):
        col = int(ch) - 1
        bit = 1 << ((N - 1 - heights[col]) * M + col)
        heights[col] += 1
        if ply % 2 == 0:
            x |= bit
        else:
            o |= bit
    return x, o


def _four(stones: int) -> bool:
    # Reading order, m = 7: a four across must not wrap from one row to the next.
    for shift, cols in ((1, range(M - 3)), (M, range(M)), (M + 1, range(M - 3)), (M - 1, range(3, M))):
        for start in range(M * N):
            if start % M in cols and all(stones >> (start + i * shift) & 1 for i in range(4)):
                return True
    return False


def draw(rng: random.Random, depth: int) -> str:
    """A random game of `depth` plies in which no move wins."""
    while True:
        moves = ""
        for _ in range(depth):
            options = [c for c in range(1, M + 1) if moves.count(str(c)) < N]
            rng.shuffle(options)
            for c in options:
                x, o = masks(moves + str(c))
                if not (_four(x) or _four(o)):
                    moves += str(c)
                    break
            else:
                break
        if len(moves) == depth:
            return moves


class Pons:
    """Pons's program, one process for the whole run (its table lives as long)."""

    def __init__(self, path: str) -> None:
        self._cwd = tempfile.TemporaryDirectory()
        self._proc = subprocess.Popen(
            [path], cwd=self._cwd.name, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL, text=True,
        )  # fmt: skip

    def run(self, positions: list[str]) -> tuple[list[int], list[float]]:
        stdin, stdout = self._proc.stdin, self._proc.stdout
        assert stdin is not None and stdout is not None
        scores, times = [], []
        for moves in positions:
            started = time.perf_counter()
            stdin.write(moves + "\n")
            stdin.flush()
            line = stdout.readline()
            times.append(time.perf_counter() - started)
            scores.append(int(line.split()[1]))
        return scores, times

    def close(self) -> None:
        assert self._proc.stdin is not None
        self._proc.stdin.close()
        self._proc.wait()
        self._cwd.cleanup()


def run_ours(positions: list[str]) -> tuple[list[int], list[float]]:
    scores, times = [], []
    for moves in positions:
        x, o = masks(moves)
        started = time.perf_counter()
        score = solver.solve(x, o)
        times.append(time.perf_counter() - started)
        assert score is not None
        scores.append(score)
    return scores, times


def by_depth(rng: random.Random, depths: list[int], count: int, cap: float) -> None:
    """What a move costs at each depth, each position from an empty table and cut at
    `cap` seconds: `best_move` (what `max` needs) and `column_scores` (every column's
    exact score, what the analysis shows)."""
    print(f"by stones played, {count} positions a depth, each from an empty table, cut at {cap:g} s")
    print(f"{'stones':>6} {'call':>13} {'median s':>9} {'90% s':>8} {'max s':>8} {'within 1 s':>10}")
    for depth in depths:
        positions = [masks(draw(rng, depth)) for _ in range(count)]
        for name in ("best_move", "column_scores"):
            times = []
            for x, o in positions:
                solver.clear_table()
                started = time.perf_counter()
                if name == "best_move":
                    finished = solver.best_move(x, o, deadline=cap) is not None
                else:
                    finished = None not in _playable(solver.column_scores(x, o, deadline=cap), x | o)
                times.append(time.perf_counter() - started if finished else float("inf"))
            times.sort()
            within = sum(t <= 1.0 for t in times)

            def show(t: float) -> str:
                return f">{cap:g}" if t == float("inf") else f"{t:.3f}"

            median, p90, worst = times[len(times) // 2], times[(len(times) * 9) // 10], times[-1]
            print(f"{depth:>6} {name:>13} {show(median):>9} {show(p90):>8} {show(worst):>8} {within:>5}/{count}")


def _playable(scores: list[int | None], stones: int) -> list[int | None]:
    # A full column's None is not an unfinished one: its top cell (row 0) is taken.
    return [s for col, s in enumerate(scores) if not stones >> col & 1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("pons", nargs="?", help="the path of Pons's compiled c4solver")
    parser.add_argument("--depths", type=int, nargs="+", default=[32, 24, 18, 14, 10])
    parser.add_argument("--positions", type=int, default=40, help="positions a set")
    parser.add_argument("--seed", type=int, default=54)
    parser.add_argument("--by-depth", action="store_true", help="ours only: column_scores's time by depth")
    parser.add_argument("--cap", type=float, default=30.0, help="--by-depth: seconds a position at most")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    solver.prepare()  # compiled (or read from numba's cache), the table allocated
    if args.by_depth:
        by_depth(rng, args.depths, args.positions, args.cap)
        return
    if args.pons is None:
        parser.error("the path of Pons's c4solver is needed, except with --by-depth")
    pons = Pons(args.pons)
    # Its table allocated and the pipe warm before any clock; then what a round trip
    # costs when there is nothing to solve (the mover wins at once), part of its times.
    pons.run([draw(random.Random(0), 34)])
    _, trips = pons.run(["112233"] * 50)
    print(f"Pons's pipe round trip, nothing to solve: {statistics.median(trips) * 1e3:.3f} ms")
    print(f"{'stones':>6} {'positions':>9} {'Pons ms':>10} {'ours ms':>10} {'ours/Pons':>9}  scores")
    for depth in args.depths:
        positions = [draw(rng, depth) for _ in range(args.positions)]
        theirs, their_times, ours, our_times = [], [], [], []
        for moves in positions:  # in turn, so that both see the machine's same moments
            for run, scores, times in ((pons.run, theirs, their_times), (run_ours, ours, our_times)):
                score, spent = run([moves])
                scores += score
                times += spent
        pons_ms = statistics.fmean(their_times) * 1e3
        ours_ms = statistics.fmean(our_times) * 1e3
        agree = sum(a == b for a, b in zip(theirs, ours, strict=True))
        verdict = "all agree" if agree == len(positions) else f"{len(positions) - agree} DIFFER"
        print(f"{depth:>6} {len(positions):>9} {pons_ms:>10.2f} {ours_ms:>10.2f} {ours_ms / pons_ms:>9.2f}  {verdict}")
    pons.close()


if __name__ == "__main__":
    main()
