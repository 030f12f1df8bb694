"""Build Connect Four's opening book: the best column of every position `max` meets in
the first PLIES plies, whichever side it plays and whatever its opponent plays (max's
own moves are the book's, so the book is a strategy: all the opponent's columns, one of
max's). A position and its mirror image are one entry.

    PYTHONPATH=src .venv/bin/python tools/connect4_book/build.py --plies 8 [--m 7 --n 6] [--out PATH] [--check]

Work data: ``connect4-book/<m>x<n>.jsonl`` in the cache folder, one solved position a line
(its key, best column, score), appended as each is solved: a run that stops goes on from
it. ``--check`` proves the written book again from an empty table: each entry's score is
the position's, and its column reaches it.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Iterator
from pathlib import Path

from noughts.ai.exact import cache_dir
from noughts.games.connect4 import solver


def work_file(m: int, n: int) -> Path:
    return cache_dir() / "connect4-book" / f"{m}x{n}.jsonl"


def play(x: int, o: int, col: int, m: int, n: int) -> tuple[int, int] | None:
    """The position after a stone in `col` for the side to move; None if it is full."""
    stones = x | o
    for row in range(n - 1, -1, -1):
        bit = 1 << (row * m + col)
        if not stones & bit:
            return (x | bit, o) if x.bit_count() == o.bit_count() else (x, o | bit)
    return None


def four(stones: int, m: int, n: int) -> bool:
    for cell in range(m * n):
        row, col = divmod(cell, m)
        for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
            cells = [(row + i * dr, col + i * dc) for i in range(4)]
            if all(0 <= r < n and 0 <= c < m and stones >> (r * m + c) & 1 for r, c in cells):
                return True
    return False


def book_positions(plies: int, m: int, n: int, best: dict[int, tuple[int, int]]) -> Iterator[tuple[int, int]]:
    """Each position where the book's side is to move, fewer stones first: a run that
    stops has every position of the levels it finished, so the deepest complete book
    can be written from its work file. `best` must hold a position's entry once its
    level has been yielded. The empty board comes after max-as-o's first positions
    (every first move of x), from whose entries `build` derives its entry instead of
    solving it."""
    fronts = {0: [(0, 0)], 1: _distinct(_replies([(0, 0)], m, n), m, n)}
    order = [1, 0] if plies > 1 else [0]
    order += list(range(2, plies))
    for level in order:
        side = level % 2
        if level >= 2:
            fronts[side] = _distinct(_replies(_book_children(fronts[side], m, n, best), m, n), m, n)
        if m * n > level:
            yield from fronts[side]


def _distinct(positions: list[tuple[int, int]], m: int, n: int) -> list[tuple[int, int]]:
    seen: set[int] = set()
    out = []
    for x, o in positions:
        key = solver.position_key(x, o, m, n)[0]
        if key not in seen:
            seen.add(key)
            out.append((x, o))
    return out


def _children(x: int, o: int, cols: list[int], m: int, n: int) -> list[tuple[int, int]]:
    """The positions after each of `cols` that the game goes on from."""
    out = []
    for c in cols:
        child = play(x, o, c, m, n)
        if child is None or four(child[0], m, n) or four(child[1], m, n):
            continue
        if (child[0] | child[1]).bit_count() < m * n:
            out.append(child)
    return out


def _replies(positions: list[tuple[int, int]], m: int, n: int) -> list[tuple[int, int]]:
    return [child for x, o in positions for child in _children(x, o, list(range(m)), m, n)]


def _book_children(
    positions: list[tuple[int, int]], m: int, n: int, best: dict[int, tuple[int, int]]
) -> list[tuple[int, int]]:
    out = []
    for x, o in positions:
        key, mirrored = solver.position_key(x, o, m, n)
        col = best[key][0]
        out += _children(x, o, [m - 1 - col if mirrored else col], m, n)
    return out


def derived(x: int, o: int, m: int, n: int, best: dict[int, tuple[int, int]]) -> tuple[int, int] | None:
    """The position's (best column, score) from its children's entries, None unless
    every child is known: a score is the best of minus the children's, so the empty
    board, whose seven children max-as-o's book solves anyway, costs no solve of its own
    (one exact solve of it took longer than 30 min). The column is the first in the
    solver's order (centre first) that reaches the score, for the position as given."""
    cells, stones = m * n, (x | o).bit_count()
    found: tuple[int, int] | None = None
    half = m // 2  # the solver's order: 3 2 4 1 5 0 6 on 7
    for c in [half + ((i + 1) // 2 if i % 2 == 0 else -((i + 1) // 2)) for i in range(m)]:
        child = play(x, o, c, m, n)
        if child is None:
            continue
        if four(child[0], m, n) or four(child[1], m, n):
            score = (cells + 1 - stones) // 2
        elif (child[0] | child[1]).bit_count() == cells:
            score = 0
        else:
            entry = best.get(solver.position_key(*child, m, n)[0])
            if entry is None:
                return None
            score = -entry[1]
        if found is None or score > found[1]:
            found = (c, score)
    return found


def build(plies: int, m: int, n: int, work: Path | None = None) -> solver.OpeningBook:
    work = work or work_file(m, n)
    work.parent.mkdir(parents=True, exist_ok=True)
    best: dict[int, tuple[int, int]] = {}
    if work.exists():
        for line in work.read_text().splitlines():
            entry = json.loads(line)
            best[entry["key"]] = (entry["column"], entry["score"])
    started = time.perf_counter()
    solver.prepare(m, n)
    done = solved = 0
    level = -1
    entries: dict[int, tuple[int, int]] = {}
    with work.open("a") as out:
        for x, o in book_positions(plies, m, n, best):
            stones = (x | o).bit_count()
            if stones != level:
                if level >= 0:
                    print(f"level {level} complete, {time.perf_counter() - started:.0f} s", flush=True)
                level = stones
            key, mirrored = solver.position_key(x, o, m, n)
            if key not in best:
                found = derived(x, o, m, n, best) or solver.best_move(x, o, m, n)
                if found is None:
                    raise RuntimeError("best_move gave up without a deadline")
                col, score = found
                best[key] = (m - 1 - col if mirrored else col, score)
                out.write(json.dumps({"key": key, "column": best[key][0], "score": score}) + "\n")
                out.flush()
                solved += 1
                print(
                    f"  {stones} stones x={x} o={o}: {col + 1} {score}, {time.perf_counter() - started:.0f} s",
                    flush=True,
                )
            entries[key] = best[key]
            done += 1
            if done % 100 == 0:
                print(
                    f"{done} positions, {solved} solved in this run, {time.perf_counter() - started:.0f} s", flush=True
                )
    print(f"{len(entries)} entries, {solved} solved in this run, {time.perf_counter() - started:.0f} s", flush=True)
    return solver.OpeningBook.from_entries(m, n, entries)


def check(book: solver.OpeningBook, plies: int) -> list[str]:
    """What is wrong with the book, proved again from an empty table: [] when nothing."""
    m, n = book.m, book.n
    solver.clear_table()
    wrong = []
    entries = {}
    for x, o in _walk_with(book, plies):
        found = book.move(x, o)
        if found is None:
            wrong.append(f"missing x={x} o={o}")
            continue
        col, score = found
        entries[solver.position_key(x, o, m, n)[0]] = found
        scores = solver.column_scores(x, o, m, n)
        if scores[col] != score or max(s for s in scores if s is not None) != score:
            wrong.append(f"x={x} o={o}: column {col + 1} scored {score}, the columns {scores}")
    if len(entries) != len(book):
        wrong.append(f"{len(book) - len(entries)} entries no walk reaches")
    return wrong


def _walk_with(book: solver.OpeningBook, plies: int) -> Iterator[tuple[int, int]]:
    best: dict[int, tuple[int, int]] = {}
    for x, o in book_positions(plies, book.m, book.n, best):
        key, mirrored = solver.position_key(x, o, book.m, book.n)
        found = book.move(x, o)
        col = 0 if found is None else found[0]
        best[key] = (book.m - 1 - col if mirrored else col, 0)
        yield x, o


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--plies", type=int, required=True, help="the book holds positions of fewer stones")
    parser.add_argument("--m", type=int, default=7)
    parser.add_argument("--n", type=int, default=6)
    parser.add_argument("--out", type=Path, help="where to write the book (.npz); else only the work file")
    parser.add_argument("--check", action="store_true", help="prove the written book again")
    args = parser.parse_args()
    book = build(args.plies, args.m, args.n)
    if args.out is None:
        return 0
    book.write(args.out)
    print(f"wrote {args.out}: {len(book)} entries, {args.out.stat().st_size:,} bytes", flush=True)
    if args.check:
        started = time.perf_counter()
        wrong = check(solver.OpeningBook.read(args.out), args.plies)
        print(f"checked in {time.perf_counter() - started:.0f} s: {len(wrong)} wrong", flush=True)
        for line in wrong[:20]:
            print("WRONG", line)
        return 1 if wrong else 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
