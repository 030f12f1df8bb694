"""Build matryoshka's opening book (src/noughts/ai/books/matryoshka.npz): the exact
value of every reachable unfinished class of the first `BOOK_PLIES` plies.

The last ply's classes are searched exactly (`noughts.ai.matryoshka.ExactSearch`, its
bounds shared between them); every earlier class is the best of its children, read from
the book itself. ``--check`` then proves the written book again, every entry searched.

    .venv/bin/python tools/matryoshka_book/build.py [--out PATH] [--check]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from noughts.ai.exact import value_code
from noughts.ai.matryoshka import BOOK, BOOK_PLIES, Book, ExactSearch, best_code, check_book, classes, state_key


def build(plies: int = BOOK_PLIES) -> Book:
    started = time.perf_counter()
    layers = list(classes(plies))
    print(f"classes per ply: {[len(layer) for layer in layers]} ({time.perf_counter() - started:.0f} s)", flush=True)
    codes: dict[int, int] = {}
    search = ExactSearch(use_book=False)
    last = sorted(layers[plies].items())
    for n, (key, state) in enumerate(last, 1):
        codes[key] = value_code(search.value(state))
        if n % 5000 == 0 or n == len(last):
            print(f"ply {plies}: {n}/{len(last)} searched ({time.perf_counter() - started:.0f} s)", flush=True)
    for ply in range(plies - 1, -1, -1):
        for key, state in layers[ply].items():
            codes[key] = best_code(state, lambda child: codes[state_key(child)])
    print(f"{len(codes)} entries, {search.nodes} nodes searched, {time.perf_counter() - started:.0f} s", flush=True)
    return Book.from_codes(plies, codes)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=BOOK)
    parser.add_argument("--check", action="store_true", help="prove the written book again, every entry searched")
    args = parser.parse_args()
    book = build()
    book.write(args.out)
    print(f"wrote {args.out} ({args.out.stat().st_size:,} bytes)", flush=True)
    if args.check:
        started = time.perf_counter()
        found = check_book(Book.read(args.out))
        seconds = time.perf_counter() - started
        print(f"checked: {found.checked} classes per ply, {found.searched} searched, {seconds:.0f} s")
        for line in found.wrong[:20]:
            print("WRONG", line)
        return 0 if found.ok else 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
