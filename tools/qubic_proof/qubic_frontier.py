"""Qubic's proof (`noughts.ai.qubic_proof`) split into sub-proofs that accumulate
across runs and machines: a book of x's first moves, and each position past it proven
on its own.

One build from the empty board does not finish in one run, and a checkpoint is lost
with its machine. So the proof is decomposed:

* the *book* (``book.json``): x's chosen move at a few positions near the root (x to
  move, canonical keys, moves in the key's frame), each with the measurements that
  chose it (`measure`: for every candidate move, o's replies left to answer and how
  many of the positions after them a short leaf search proves);
* the *frontier*: x's positions reached from the root through the book's moves and
  every reply of o that must be answered (the same walk as the checker's: replies
  after which x completes a line at once, or that the null-move sequence beats,
  `open_replies`, need nothing), not themselves in the book;
* one *sub-proof* per frontier position (``proofs/X-O.npz``, a `Strategy` from that
  position, built by `qubic_build.Builder`), stored only after `check` passed on it
  from that position, and checked again by ``verify``;
* ``builds/X-O.ckpt.xz``: the build of each open frontier position, compressed
  (`Store.keep`), so that another machine goes on from it;
* ``lemmas/X-O.npz``: for a frontier position still open, every position its builds
  proved on the way, with its proof (`Builder.proven_inside`), which every later
  build takes as proven (`Builder.lemmas`); dropped once the position is proven;
* ``progress.json``: the work spent on each frontier position (seconds, the build's
  size, its root's numbers) and a log of the runs, so that the next run knows what was
  tried and at what rate.

When every frontier position is proven, ``assemble`` merges the book and the
sub-proofs into one strategy and checks it from the root: that, and only that, is a
proof of the win (the library ships it, `qubic_proof.SHIPPED`). All parts share the
book's `Budget` (the checker re-proves leaves with one budget). ``unpack`` writes a
book and its proven parts back from such a whole proof (the shipped one by default).

    .venv/bin/python tools/qubic_proof/qubic_frontier.py COMMAND ...   (--help: the commands)

(``--data DIR`` before the command: the folder, `default_folder` by default, in the
cache folder: nothing of it is in git.) A build runs on one core; to use more, start a
worker per core, with the same arguments or not: workers on one machine share the
folder and make their passes together, each position built by one of them at a time
(`Store.claim`) and given one turn a pass. A turn's new searches go to a shard of its
own in work/, merged into the folder's files of remembered searches when a worker's
time ends (or by ``compact``): leaves.npz, and a file in leaves/ per compaction with
what it added or changed, so that a copy of the folder kept elsewhere takes only
that. Every read-modify-write of progress.json and the searches' files holds the
folder's lock (`Store.locked`), and every file is written under a temporary name of
the process's own first, then renamed. A copy worked on elsewhere (``--data COPY``, on
another machine) comes back with ``merge COPY``: its checked parts, progress and
remembered searches.
"""

from __future__ import annotations

import argparse
import collections
import contextlib
import dataclasses
import datetime
import fcntl
import json
import lzma
import os
import signal
import sys
import threading
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from noughts.ai.exact import cache_dir
from noughts.ai.qubic_proof import (
    MASK64,
    Budget,
    CheckReport,
    ProofError,
    Strategy,
    _proof_tree,
    check,
    completes,
    key_of,
    leaf_proven,
    open_replies,
    shipped,
    subtree,
    threat_cells,
)
from qubic_build import INF, LOST, SHALLOW, Builder, lines_score

__all__ = ["Book", "Store", "default_folder", "frontier", "measure", "name", "parents", "status", "unpack", "work"]

Key = tuple[int, int]


def default_folder() -> Path:
    """The work folder when none is named: qubic-proof in the cache folder
    (`noughts.ai.exact.cache_dir`: ``$NOUGHTS_CACHE_DIR``, else ``~/.cache/noughts``)."""
    return cache_dir() / "qubic-proof"


def name(key: Key) -> str:
    return f"{key[0]:016x}-{key[1]:016x}"


def _budget_text(budget: Budget) -> str:
    """The budget as the book and the remembered searches write it (JSON)."""
    return json.dumps(dataclasses.asdict(budget))


def parse(text: str) -> Key:
    x, o = text.split("-")
    return int(x, 16), int(o, 16)


@dataclass
class Book:
    """x's moves near the root: canonical key -> cell in the key's frame, and why."""

    root: Key = (0, 0)
    budget: Budget = field(default_factory=Budget)
    moves: dict[Key, int] = field(default_factory=dict)
    why: dict[Key, dict[str, Any]] = field(default_factory=dict)

    def save(self, path: Path) -> None:
        # A line per move (the measurements that chose it included), to keep diffs short.
        rows = [
            json.dumps({"position": name(key), "move": self.moves[key], "why": self.why.get(key, {})})
            for key in sorted(self.moves, key=lambda k: (k[0].bit_count() + k[1].bit_count(), k))
        ]
        head = f'{{"root": "{name(self.root)}", "budget": {_budget_text(self.budget)},'
        _write(path, head + '\n"moves": [\n' + ",\n".join(rows) + "\n]}\n")

    @classmethod
    def load(cls, path: Path) -> Book:
        data = json.loads(path.read_text())
        b = data["budget"]
        budget = Budget(int(b["threat_nodes"]), int(b["threat_depth"]), tuple(int(e) for e in b["expansions"]))
        book = cls(parse(data["root"]), budget)
        for row in data["moves"]:
            key = parse(row["position"])
            book.moves[key] = int(row["move"])
            if row.get("why"):
                book.why[key] = row["why"]
        return book


def _write(path: Path, text: str | bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    # Written beside, under a name of this process's own (two workers may share the
    # folder), then renamed: a reader sees the old file or the new one, never a mix.
    partial = path.with_name(f"{path.name}.{os.getpid()}.part")
    if isinstance(text, bytes):
        partial.write_bytes(text)
    else:
        partial.write_text(text)
    os.replace(partial, path)


def _save_strategy(path: Path, strategy: Strategy) -> None:
    """`Strategy.save`, written beside first as `_write` does (the name ends in .npz,
    which globs of finished files leave out by its .part.npz)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(f"{path.stem}.{os.getpid()}.part.npz")
    strategy.save(partial)
    os.replace(partial, path)


def answers(x: int, o: int, budget: Budget) -> Iterator[Key]:
    """o to move in (x, o) (x just moved, no line of its own complete): the canonical
    positions after each of o's replies that the strategy must answer, as `check`
    walks them (not those after which x completes a line at once, nor those the null
    move's sequence beats); ProofError when o can complete a line."""
    from noughts.kernels import symmetry

    if threat_cells(o, x):
        raise ProofError(f"o completes a line after x's move ({name((x, o))})")
    mine = threat_cells(x, o)
    (cx, co), s = key_of(x, o)
    left = MASK64 if mine else open_replies(cx, co, budget)
    seen: set[Key] = set()
    for reply in range(64):
        bit = 1 << reply
        if (x | o) & bit or mine & ~bit & MASK64:
            continue
        if not left >> int(symmetry.IMAGE[s, reply]) & 1:
            continue
        child, _ = key_of(x, o | bit)
        if child not in seen:
            seen.add(child)
            yield child


def frontier(book: Book) -> list[Key]:
    """x's positions past the book, in the order first reached (breadth first)."""
    return list(parents(book))


def parents(book: Book) -> dict[Key, Key]:
    """x's positions past the book (breadth first), each with the book's position it
    was first reached from (itself for the root when the book is empty)."""
    return _walk(book)[0]


def _walk(book: Book) -> tuple[dict[Key, Key], set[Key]]:
    """`parents`, and the book's positions the walk from the root reaches (a book move
    below a move taken out, `join`, is reached no more)."""
    start, _ = key_of(*book.root)
    found: dict[Key, Key] = {}
    seen: set[Key] = set()
    reached: set[Key] = set()
    todo = [(start, start)]
    while todo:
        later: list[tuple[Key, Key]] = []
        for key, parent in todo:
            if key in seen:
                continue
            seen.add(key)
            move = book.moves.get(key)
            if move is None:
                found[key] = parent
                continue
            reached.add(key)
            x, o = key
            if (x | o) >> move & 1:
                raise ProofError(f"the book's move {move} at {name(key)} is not legal")
            x2 = x | 1 << move
            if not completes(x2):
                later.extend((child, key) for child in answers(x2, o, book.budget))
        todo = later
    return found, reached


def _probe(x: int, o: int, budget: Budget) -> tuple[bool, int]:
    """A short leaf search (threats, then the proof-number search's first level): proven,
    and if not the proof number it ended with (how much it thinks is left)."""
    if leaf_proven(x, o, budget, levels=1) is not None:
        return True, 0
    return False, int(_proof_tree(budget.expansions[0]).numbers[0, 0])


def measure(key: Key, budget: Budget, candidates: int = 8) -> list[dict[str, Any]]:
    """x's candidate moves at `key` (x to move), each measured: o's replies left to
    answer up to symmetry (`replies`), how many of the positions after them the short
    leaf search proves (`proven`) and the proof numbers it left on the others
    (`pn_left`, summed), and the lines evaluation after the move (`lines`). Best first:
    most proven, then least left, then the lines evaluation. The candidates: the
    `candidates` best by the lines evaluation and the `candidates` // 2 leaving the
    fewest replies (all are counted; only these are probed)."""
    x, o = key
    forced = threat_cells(o, x)
    cells = forced if forced else ~(x | o) & MASK64
    moves: dict[Key, int] = {}
    for cell in range(64):
        if cells >> cell & 1:
            moves.setdefault(key_of(x | 1 << cell, o)[0], cell)
    rows: list[dict[str, Any]] = []
    kids: dict[int, list[Key]] = {}
    for cell in moves.values():
        x2 = x | 1 << cell
        if completes(x2):
            return [{"move": cell, "replies": 0, "proven": 0, "pn_left": 0, "lines": lines_score(x2, o)}]
        try:
            kids[cell] = list(answers(x2, o, budget))
        except ProofError:
            continue  # o would complete a line
        rows.append({"move": cell, "replies": len(kids[cell]), "lines": lines_score(x2, o)})
    by_lines = sorted(rows, key=lambda r: -r["lines"])[:candidates]
    by_replies = sorted(rows, key=lambda r: (r["replies"], -r["lines"]))[: max(1, candidates // 2)]
    probed: list[dict[str, Any]] = []
    for row in by_lines + [r for r in by_replies if r not in by_lines]:
        started = time.perf_counter()
        proven = left = 0
        for child in kids[row["move"]]:
            done, pn = _probe(*child, budget)
            proven += done
            left += pn
        probed.append(row | {"proven": proven, "pn_left": left, "seconds": round(time.perf_counter() - started, 1)})
    probed.sort(key=lambda r: (-r["proven"], r["pn_left"], -r["lines"]))
    return probed


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # another user's process
        return True
    return True


def _keep(merged: dict[Key, tuple[int, int, int]], leaves: dict[Key, tuple[int, int, int]]) -> None:
    """Adds `leaves` to `merged`, where both hold a position the deeper search: a
    `SHALLOW` result does not replace a finished one, nor an open one a settled one
    (a disproof by a build, `Builder.disproven_inside`)."""
    for key, value in leaves.items():
        if _depth(value) >= _depth(merged.get(key, value)):
            merged[key] = value


def _depth(value: tuple[int, int, int]) -> int:
    pn, dn, kind = value
    return 0 if kind == SHALLOW else 2 if pn == 0 or dn == 0 else 1


def _save_leaves(path: Path, leaves: dict[Key, tuple[int, int, int]], budget: Budget) -> None:
    """Writes `leaves` (found with `budget`) to `path`, under a temporary name first."""
    keys = sorted(leaves)
    values = [leaves[k] for k in keys]
    partial = path.with_name(f"{path.stem}.{os.getpid()}.part.npz")  # see `_write`
    np.savez_compressed(
        partial,
        x=np.array([k[0] for k in keys], dtype=np.uint64),
        o=np.array([k[1] for k in keys], dtype=np.uint64),
        pn=np.array([v[0] for v in values], dtype=np.int64),
        dn=np.array([v[1] for v in values], dtype=np.int64),
        kind=np.array([v[2] for v in values], dtype=np.int16),
        budget=np.array(_budget_text(budget)),
    )
    os.replace(partial, path)


@dataclass
class Store:
    """The folder of the decomposed proof: book, sub-proofs, progress, checkpoints."""

    folder: Path

    @property
    def book_path(self) -> Path:
        return self.folder / "book.json"

    @property
    def progress_path(self) -> Path:
        return self.folder / "progress.json"

    def proof_path(self, key: Key) -> Path:
        return self.folder / "proofs" / f"{name(key)}.npz"

    def checkpoint(self, key: Key) -> Path:
        return self.work_folder / f"{name(key)}.ckpt"

    def kept_path(self, key: Key) -> Path:
        return self.folder / "builds" / f"{name(key)}.ckpt.xz"

    def keep(self, key: Key) -> None:
        """Copies the checkpoint of `key`'s build (work/, this machine's) into builds/,
        compressed (a tenth of the size), to be carried to another machine. A build started again, even
        with every inner search of the first remembered, does not retrace it (a lazy
        build meets the deepened results where the first met shallow ones, and goes
        another way): on 0000002004200080-0000040002008010, a first build made 26,250
        new searches in 240 s, and one started again with all of them remembered made
        30,855 new ones in its own 240 s. The caller holds the claim."""
        _write(self.kept_path(key), lzma.compress(self.checkpoint(key).read_bytes(), preset=6))

    def resume(self, key: Key) -> Path | None:
        """The checkpoint of `key`'s build, restored from builds/ (`keep`) when this
        machine has none; None when neither has one."""
        path = self.checkpoint(key)
        kept = self.kept_path(key)
        if not path.exists() and kept.exists():
            _write(path, lzma.decompress(kept.read_bytes()))
        return path if path.exists() else None

    @property
    def work_folder(self) -> Path:
        """This machine's own files: checkpoints, claims, shards of searches."""
        return self.folder / "work"

    @property
    def leaves_path(self) -> Path:
        """The first of the folder's files of remembered searches (`leaves_files`)."""
        return self.folder / "leaves.npz"

    @property
    def leaves_files(self) -> list[Path]:
        """The folder's files of remembered searches (not a worker's shards), in the
        order they are read: leaves.npz, then the additions of later compactions
        (leaves/, by date), each holding only what changed, so that a copy of the folder
        kept elsewhere takes the new file, not the whole of leaves.npz again (38.8 MB at
        7 million searches) for a few percent of new entries."""
        added = sorted(p for p in (self.folder / "leaves").glob("*.npz") if not p.name.endswith(".part.npz"))
        return [p for p in [self.leaves_path, *added] if p.exists()]

    def leaves(self, budget: Budget) -> dict[Key, tuple[int, int, int]]:
        """The inner search's results at x's positions from earlier work
        (`Builder.known`), if they were found with `budget`; else none: the folder's
        files (`leaves_files`) with the shards workers have added since they were last
        compacted (`save_leaves`)."""
        with self.locked():
            stored = self._read(self.leaves_files, budget)
            _keep(stored, self._read(self._shards(), budget))
            return stored

    def _shards(self) -> list[Path]:
        # Not a shard still being written (`_save_leaves`), nor one left half written.
        return sorted(p for p in self.work_folder.glob("leaves-*.npz") if not p.name.endswith(".part.npz"))

    @staticmethod
    def _read(paths: list[Path], budget: Budget) -> dict[Key, tuple[int, int, int]]:
        """The searches in `paths` found with `budget`, merged in order (`_keep`)."""
        merged: dict[Key, tuple[int, int, int]] = {}
        for path in paths:
            with np.load(path) as data:
                if str(data["budget"]) != _budget_text(budget):
                    continue
                x, o, pn, dn, kind = (data[column].tolist() for column in ("x", "o", "pn", "dn", "kind"))
            _keep(merged, {(a, b): (c, d, e) for a, b, c, d, e in zip(x, o, pn, dn, kind, strict=True)})
        return merged

    @contextlib.contextmanager
    def locked(self) -> Iterator[None]:
        """Holds the folder's lock (an exclusive `flock` on .lock): every
        read-modify-write of a shared file (progress.json, leaves.npz) runs under it, so
        workers sharing the folder never drop each other's writes. Not re-entrant."""
        self.folder.mkdir(parents=True, exist_ok=True)
        with open(self.folder / ".lock", "a") as handle:
            fcntl.flock(handle, fcntl.LOCK_EX)  # released when the file is closed
            yield

    @contextlib.contextmanager
    def claim(self, key: Key) -> Iterator[bool]:
        """Whether this process may build (or split) `key` now: no other live process
        sharing the folder holds it. The claim, work/X-O.claim with the holder's pid,
        lasts until the block ends; one left by a process that died is taken over."""
        path = self.checkpoint(key).with_suffix(".claim")
        path.parent.mkdir(parents=True, exist_ok=True)
        with self.locked():
            holder = int(path.read_text() or 0) if path.exists() else 0
            mine = holder in (0, os.getpid()) or not _alive(holder)
            if mine:
                path.write_text(str(os.getpid()))
        try:
            yield mine
        finally:
            if mine:
                with self.locked():  # not between another's look and its read
                    path.unlink(missing_ok=True)

    def save_leaves(self, leaves: dict[Key, tuple[int, int, int]], budget: Budget) -> None:
        """Keeps `leaves` with those already stored (another worker's too; where both
        hold a position, the deeper search: a worker's `SHALLOW` entry does not replace
        another's finished one): 25 bytes a position, against the 0.1-1 s its search
        costs, so that the next run's builds of unproven positions go through what
        was searched before at once. Written as a shard of their own in work/ (a turn's
        new searches: a fraction of a second, where rewriting the whole of leaves.npz
        took 24 s at 5.8 million), merged into the folder's files by `compact_leaves`."""
        if not leaves:
            return
        shard = self.work_folder / f"leaves-{os.getpid()}-{uuid.uuid4().hex[:8]}.npz"
        shard.parent.mkdir(parents=True, exist_ok=True)
        with self.locked():
            _save_leaves(shard, leaves, budget)

    def compact_leaves(self, budget: Budget) -> int:
        """Merges the shards of `save_leaves` into the folder's files and deletes
        them; the number merged. What they add to or change in the folder's searches
        goes to a new file in leaves/ (leaves.npz itself, the first time), so that a
        copy kept elsewhere takes only that."""
        with self.locked():
            shards = self._shards()
            stored = self._read(self.leaves_files, budget)
            merged = dict(stored)
            _keep(merged, self._read(shards, budget))
            added = {key: value for key, value in merged.items() if stored.get(key) != value}
            if not self.leaves_path.exists():
                _save_leaves(self.leaves_path, merged, budget)
            elif added:
                stamp = datetime.datetime.now(datetime.UTC).strftime("%Y%m%dT%H%M%S")
                path = self.folder / "leaves" / f"{stamp}-{uuid.uuid4().hex[:8]}.npz"
                path.parent.mkdir(exist_ok=True)
                _save_leaves(path, added, budget)
            for shard in shards:
                shard.unlink()
        return len(shards)

    def book(self) -> Book:
        return Book.load(self.book_path) if self.book_path.exists() else Book()

    def progress(self) -> dict[str, Any]:
        if self.progress_path.exists():
            loaded: dict[str, Any] = json.loads(self.progress_path.read_text())
            return loaded
        return {"positions": {}, "runs": []}

    def save_progress(self, progress: dict[str, Any]) -> None:
        _write(self.progress_path, json.dumps(progress, indent=1, sort_keys=True) + "\n")

    @contextlib.contextmanager
    def updating_progress(self) -> Iterator[dict[str, Any]]:
        """progress.json as it is on disk now (not as a worker loaded it: another may
        have written it since), to change in place and saved on leaving, all under the
        folder's lock."""
        with self.locked():
            progress = self.progress()
            yield progress
            self.save_progress(progress)

    def proven(self, key: Key) -> bool:
        return self.proof_path(key).exists()

    def lemma_path(self, key: Key) -> Path:
        return self.folder / "lemmas" / f"{name(key)}.npz"

    def lemmas(self, budget: Budget) -> Strategy:
        """Every x position the builds of open frontier positions proved on the way
        (`Builder.proven_inside`), with its proof: one file per frontier position
        (`save_lemmas`), each whole on its own, read together (either entry of a
        position two files hold will do); and every position of the stored sub-proofs,
        those of positions no longer on the frontier (`join`) included, whose subtrees
        are whole too. Not checked when saved (like the remembered searches they only
        guide builds): a proof that splices one in is checked as a whole before it is
        stored."""
        entries: dict[Key, int] = {}
        paths = sorted((self.folder / "lemmas").glob("*.npz")) + sorted((self.folder / "proofs").glob("*.npz"))
        for path in paths:
            if path.name.endswith(".part.npz"):
                continue
            lemmas = Strategy.load(path)
            if lemmas.budget == budget:
                for key, code in lemmas.entries.items():
                    entries.setdefault(key, code)
        return Strategy(entries, budget)

    def save_lemmas(self, key: Key, found: Strategy) -> int:
        """Adds `found` (proofs from a build of `key`, whose claim the caller holds) to
        `key`'s file of lemmas; the number of positions added."""
        path = self.lemma_path(key)
        old = Strategy.load(path).entries if path.exists() else {}
        new = {k: code for k, code in found.entries.items() if k not in old}
        if new:
            _save_strategy(path, Strategy(old | new, found.budget))
        return len(new)

    def store(self, key: Key, strategy: Strategy, budget: Budget) -> CheckReport:
        """Check `strategy` from `key` and write it; ProofError (nothing written) when
        it does not prove the win or was built with another budget than the book's."""
        if strategy.budget != budget:
            raise ProofError(f"the sub-proof of {name(key)} has budget {strategy.budget}, the book {budget}")
        report = check(strategy, key)
        _save_strategy(self.proof_path(key), strategy)
        return report

    def load(self, key: Key, budget: Budget) -> Strategy:
        strategy = Strategy.load(self.proof_path(key))
        if strategy.budget != budget:
            raise ProofError(f"the sub-proof of {name(key)} has budget {strategy.budget}, the book {budget}")
        return strategy

    def verify(self, key: Key, budget: Budget) -> CheckReport:
        """The stored sub-proof of `key`, checked again from `key`."""
        return check(self.load(key, budget), key)

    def merge(self, other: Store) -> tuple[list[Key], dict[Key, str]]:
        """Takes in another worker's folder (a copy of this one, worked on other
        positions): its sub-proofs missing here, each checked from its position before it
        is written; its progress rows where it spent more time on a position, and its
        runs; its remembered searches. The parts added, and those refused with why
        (not written). ProofError when the other folder has another book."""
        book = self.book()
        theirs = other.book()
        if (theirs.root, theirs.budget, theirs.moves) != (book.root, book.budget, book.moves):
            raise ProofError(f"{other.folder} holds another book than {self.folder}")
        added: list[Key] = []
        refused: dict[Key, str] = {}
        for key in frontier(book):
            if self.proven(key) or not other.proven(key):
                continue
            try:
                self.store(key, other.load(key, book.budget), book.budget)
            except ProofError as error:
                refused[key] = str(error)
            else:
                added.append(key)
        extra = other.progress()
        with self.updating_progress() as progress:
            rows = progress["positions"]
            for position, row in extra["positions"].items():
                if position not in rows or row.get("seconds", 0.0) > rows[position].get("seconds", 0.0):
                    rows[position] = row
            for key, why in refused.items():
                rows[name(key)] |= {"status": "refused", "error": why[:300]}
            progress["runs"].extend(run for run in extra["runs"] if run not in progress["runs"])
            progress["runs"].sort(key=lambda run: run["started"])
        self.save_leaves(other.leaves(book.budget), book.budget)
        self.compact_leaves(book.budget)
        return added, refused

    def assemble(self, book: Book) -> tuple[Strategy, CheckReport]:
        """The book and every frontier position's sub-proof as one strategy, checked
        from the root; ProofError when a frontier position is unproven or the whole
        does not pass."""
        positions = frontier(book)
        missing = [key for key in positions if not self.proven(key)]
        if missing:
            raise ProofError(f"{len(missing)} of {len(positions)} frontier positions are not proven")
        entries: dict[Key, int] = {}
        # Any stored code for a position will do: each sub-proof holds the whole subtree
        # of each of its entries, so the union does too (positions only gain marks).
        for key in positions:
            for k, code in self.load(key, book.budget).entries.items():
                entries.setdefault(k, code)
        entries.update(book.moves)
        strategy = Strategy(entries, book.budget)
        return strategy, check(strategy, book.root)


def status(store: Store, verbose: bool = False) -> tuple[int, int]:
    book = store.book()
    positions = frontier(book)
    progress = store.progress()["positions"]
    proven = sum(store.proven(k) for k in positions)
    disproven = sum(progress.get(name(k), {}).get("status") == "disproven" for k in positions)
    spent = sum(progress.get(name(k), {}).get("seconds", 0.0) for k in positions)
    tried = sum(name(k) in progress for k in positions)
    by_ply: dict[int, list[int]] = {}
    for k in positions:
        counts = by_ply.setdefault(k[0].bit_count() + k[1].bit_count(), [0, 0])
        counts[0] += 1
        counts[1] += store.proven(k)
    plies = ", ".join(f"{p} marks: {c[1]} of {c[0]}" for p, c in sorted(by_ply.items()))
    print(
        f"book: {len(book.moves)} positions; frontier: {len(positions)} positions ({plies}); "
        f"proven {proven}, disproven {disproven}, tried {tried}, {spent / 60:,.1f} min of build spent on them; "
        f"{len(store.leaves(book.budget)):,} leaf searches remembered"
    )
    # By the book's position before them (the branch: o's first replies, and deeper).
    branches: dict[Key, list[Key]] = {}
    for k, parent in parents(book).items():
        branches.setdefault(parent, []).append(k)
    for parent, kids in branches.items():
        done = [k for k in kids if store.proven(k)]
        seconds = sum(progress.get(name(k), {}).get("seconds", 0.0) for k in kids)
        print(
            f"  after {name(parent)} (x's move {book.moves.get(parent)}): proven {len(done)} of {len(kids)}, "
            f"tried {sum(name(k) in progress for k in kids)}, {seconds / 60:,.1f} min spent"
        )
        if verbose:
            for k in kids:
                row = progress.get(name(k), {})
                state = "proven" if store.proven(k) else row.get("status", "untried")
                print(f"    {name(k)}  {state:9}  {row.get('seconds', 0.0):8.1f} s  pn {row.get('pn', '-')}")
    return proven, len(positions)


def work(
    store: Store,
    seconds: float,
    per_position: float,
    width: int = 8,
    pn_from: int = 6,
    branches: list[Key] | None = None,
    lazy: bool = True,
    only: list[Key] | None = None,
    stop: threading.Event | None = None,
    mixed: bool = False,
) -> None:
    """Build sub-proofs of the unproven frontier positions for `seconds`: each in turn,
    least worked on first, for at most `per_position` seconds (its checkpoint kept in
    work/ until it is proven), every proof checked before it is stored. With `branches`
    (book positions) only the positions first reached from them; with `only`, only
    those frontier positions. `lazy`: the builder's inner search deepens only the
    positions it picks (`Builder.lazy`; 1.3-1.5 times faster to the same proofs,
    tools/qubic_proof/bench_build.py --lazy). When `stop` is set, the turn under way ends
    after its step, as at the end of its time (checkpoint, searches and row kept), and
    no other begins. `mixed`: x's moves tried half by the replies they leave, half by
    the lines evaluation, and o's forced replies charged (`Builder.mixed`,
    `Builder.forced_cost`; 1.47 times as fast on six hard parts, tools/qubic_proof/bench_build.py
    --mixed; the command's default); a kept build made without it is started again
    that way."""
    book = store.book()
    positions = [
        k for k, parent in parents(book).items() if (not branches or parent in branches) and (not only or k in only)
    ]
    rows = store.progress()["positions"]
    run = _new_run()
    started = time.perf_counter()
    order = sorted(
        (k for k in positions if not store.proven(k) and rows.get(name(k), {}).get("status") != "disproven"),
        key=lambda k: rows.get(name(k), {}).get("seconds", 0.0),
    )
    known = store.leaves(book.budget)
    lemmas = store.lemmas(book.budget)
    print(
        f"{len(order)} of {len(positions)} frontier positions to prove ({len(known):,} leaf searches, "
        f"{len(lemmas.entries):,} positions of proofs found on the way remembered)",
        flush=True,
    )
    for key in order:
        left = seconds - (time.perf_counter() - started)
        if left <= 1 or (stop and stop.is_set()):
            break
        with store.claim(key) as mine:
            # Workers sharing the folder make their passes together, each position one
            # turn: one another worker is building, has proven or has had its turn
            # since this pass began is left alone.
            if not mine or store.proven(key) or store.progress()["positions"].get(name(key)) != rows.get(name(key)):
                continue
            turn_seconds = min(per_position, left)
            _turn(store, book, key, (known, lemmas), run, started, turn_seconds, stop, width, pn_from, lazy, mixed)
    run["seconds"] = round(time.perf_counter() - started, 1)
    _record(store, run)
    store.compact_leaves(book.budget)


def _turn(
    store: Store,
    book: Book,
    key: Key,
    remembered: tuple[dict[Key, tuple[int, int, int]], Strategy],
    run: dict[str, Any],
    started: float,
    seconds: float,
    stop: threading.Event | None,
    width: int,
    pn_from: int,
    lazy: bool,
    mixed: bool,
) -> None:
    """One turn of `work` (its `run`, begun at `started`) at `key`: its build from its
    checkpoint, or a new one, for `seconds`, with the `remembered` searches and lemmas
    (`Builder.known`, `Builder.lemmas`); its new searches, disproofs and proofs found on
    the way saved, a proof checked and stored, the turn recorded and printed."""
    known, lemmas = remembered
    ckpt = store.checkpoint(key)
    ckpt.parent.mkdir(parents=True, exist_ok=True)
    store.resume(key)
    # The turn's searches go to `fresh`, read through with the remembered ones, so that
    # the turn saves only what it added.
    fresh: dict[Key, tuple[int, int, int]] = {}
    builder = Builder.load(ckpt) if ckpt.exists() else None
    if builder is not None and mixed and not builder.mixed:
        # Its x positions hold the moves chosen by replies alone, quiet ones left out:
        # only a new build tries them (its searches and lemmas are remembered).
        builder = None
    if builder is not None:
        builder.known, builder.lazy, builder.lemmas = collections.ChainMap(fresh, known), lazy, lemmas
    else:
        builder = Builder(
            key,
            book.budget,
            pn_from=pn_from,
            width=width,
            known=collections.ChainMap(fresh, known),
            lazy=lazy,
            lemmas=lemmas,
            mixed=mixed,
        )
    before = builder.seconds
    builder.run(seconds, ckpt, report=None, stop=stop)
    root = builder.nodes[builder.root]
    added = 0
    if root.pn != 0:
        # What the turn settled below the root, for the builds of other positions that
        # meet it and for this one's should its kept build be dropped.
        fresh.update(dict.fromkeys(builder.disproven_inside(), (INF, 0, LOST)))
        inside = builder.proven_inside()
        added = store.save_lemmas(key, inside)
        lemmas.entries.update({k: code for k, code in inside.entries.items() if k not in lemmas.entries})
        store.keep(key)
    store.save_leaves(fresh, book.budget)
    known.update(fresh)
    turn: dict[str, Any] = {
        "nodes": len(builder.nodes),
        "expansions": builder.expansions,
        "pn": root.pn,
        "dn": root.dn,
        "status": "open",
        "lemmas added": added,
    }
    run["tried"] += 1
    if root.pn == 0:
        try:
            report = store.store(key, builder.strategy(), book.budget)
        except ProofError as error:
            # The builder believed it, the checker does not: nothing is stored, and
            # the position stays to be proven (and looked into).
            turn |= {"status": "refused", "error": str(error)[:300]}
        else:
            turn |= {"status": "proven", "entries": report.moves + sum(report.leaves.values())}
            run["proven"] += 1
            ckpt.unlink()
            store.kept_path(key).unlink(missing_ok=True)
            store.lemma_path(key).unlink(missing_ok=True)  # in the proof now
    elif root.dn == 0:
        turn["status"] = "disproven"  # by the builder: the book's move before it is suspect
    run["seconds"] = round(time.perf_counter() - started, 1)
    row = _record(store, run, key, builder.seconds - before, turn)
    print(
        f"{name(key)}: {row['status']} after {row['seconds']:.0f} s in all "
        f"({len(builder.nodes):,} positions); run: {run['proven']} proven of {run['tried']} tried "
        f"in {run['seconds']:.0f} s",
        flush=True,
    )


def _new_run(**figures: Any) -> dict[str, Any]:
    """A row of progress.json's runs, begun now: `work`'s, `split`'s or `join`'s."""
    run: dict[str, Any] = {
        "started": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
        "id": uuid.uuid4().hex[:12],
        "seconds": 0.0,
        "tried": 0,
        "proven": 0,
    }
    return run | figures


def _record(
    store: Store, run: dict[str, Any], key: Key | None = None, spent: float = 0.0, turn: dict[str, Any] | None = None
) -> dict[str, Any]:
    """Writes `run` and a turn's figures at `key` into progress.json
    (`Store.updating_progress`). The position's row after it."""
    row: dict[str, Any] = {}
    with store.updating_progress() as progress:
        if key is not None:
            row = progress["positions"].setdefault(name(key), {"seconds": 0.0})
            row |= (turn or {}) | {"seconds": round(row.get("seconds", 0.0) + spent, 1)}
        progress["runs"] = [r for r in progress["runs"] if r.get("id") != run["id"]] + [run]
        progress["runs"].sort(key=lambda r: r["started"])
    return row


def choose(store: Store, plies: int, candidates: int, limit: int | None) -> None:
    """Add to the book x's move at the unproven frontier positions of `plies` marks
    (at most `limit` of them), each the best by `measure`, with its figures."""
    book = store.book()
    chosen = 0
    for key in frontier(book):
        if key[0].bit_count() + key[1].bit_count() != plies or store.proven(key):
            continue
        if limit is not None and chosen >= limit:
            break
        started = time.perf_counter()
        rows = measure(key, book.budget, candidates)
        book.moves[key] = rows[0]["move"]
        book.why[key] = {"measured": rows, "seconds": round(time.perf_counter() - started, 1)}
        book.save(store.book_path)
        chosen += 1
        best = rows[0]
        print(
            f"{name(key)}: move {best['move']} (replies {best['replies']}, proven {best['proven']}, "
            f"pn left {best['pn_left']}; {len(rows)} candidates probed in {time.perf_counter() - started:.0f} s)",
            flush=True,
        )


def moves_tried(builder: Builder) -> list[dict[str, int]]:
    """x's moves at the root of a build, the likeliest to be proven first (lowest proof
    number; on a tie, the most positions after o's replies proven), each with its
    numbers, o's replies to search (cells), the positions after them searched so far
    (up to symmetry) and how many of those are proven."""
    root = builder.nodes[builder.root]
    tried = []
    for cell, child in zip(root.moves, root.children or [], strict=True):
        node = builder.nodes[child]
        kids = node.children or []
        tried.append(
            {
                "move": cell,
                "pn": node.pn,
                "dn": node.dn,
                "replies": node.replies.bit_count(),
                "searched": len(kids),
                "proven": sum(builder.nodes[k].pn == 0 for k in kids),
            }
        )
    return sorted(tried, key=lambda t: (t["pn"], -t["proven"]))


def builds(store: Store) -> list[Key]:
    """Say how far each build (work/, or builds/) of an open frontier position got: its
    time, size and root numbers, and x's moves as `moves_tried` orders them, so that
    one can see which to `split` (a move with most replies proven). The positions, in
    the order said."""
    book = store.book()
    shown = []
    for key in sorted(parents(book), key=name):
        path = None if store.proven(key) else store.resume(key)
        if path is None:
            continue
        builder = Builder.load(path)
        root = builder.nodes[builder.root]
        print(
            f"{name(key)}: {builder.seconds:,.0f} s of build, {len(builder.nodes):,} positions, "
            f"root pn {root.pn} dn {root.dn}"
        )
        for t in moves_tried(builder):
            print(
                f"  move {t['move']:2}: pn {t['pn']:>6} dn {t['dn']:>6}; replies {t['replies']:2}, "
                f"positions after them searched {t['searched']:2}, proven {t['proven']:2}"
            )
        shown.append(key)
    return shown


def split(store: Store, key: Key, move: int | None = None) -> tuple[int, list[Key], list[Key]]:
    """Make x's move at the frontier position `key` a book move, chosen by the build
    of `key` kept in its checkpoint (work/, or builds/): `move`, or the one the
    build would expand next (its lowest proof number; on a tie, the most replies
    proven). Every position after o's replies to it that the build proved is stored at
    once (its strategy extracted from the build and checked); the others become
    frontier positions of their own, each with the part of the build below it as its
    checkpoint (`Builder.subtree`). Split, each part proven is stored for good, and two
    workers can share what was one position. The move, the build's figures for every
    move it tried, and what the split stored go into the book. Returns (the move, the
    positions proven now, those left to prove)."""
    with store.claim(key) as mine:
        if not mine:
            raise ProofError(f"a worker is building {name(key)} now: split it when its turn is over")
        return _split(store, key, move)


def _split(store: Store, key: Key, move: int | None) -> tuple[int, list[Key], list[Key]]:
    book = store.book()
    if key in book.moves or key not in parents(book):
        raise ProofError(f"{name(key)} is not a frontier position")
    if store.proven(key):
        raise ProofError(f"{name(key)} is proven already")
    path = store.resume(key)
    if path is None:
        raise ProofError(f"no build of {name(key)} on this machine or in {store.kept_path(key).parent}")
    builder = Builder.load(path)
    builder.lemmas = store.lemmas(book.budget)
    if builder.root != key or builder.nodes[key].children is None:
        raise ProofError(f"the build of {name(key)} has not expanded it yet")
    tried = moves_tried(builder)
    if move is None:
        move = tried[0]["move"]
    elif move not in builder.nodes[key].moves:
        raise ProofError(f"the build of {name(key)} did not try x's move {move}")
    x, o = key
    after = list(answers(x | 1 << move, o, book.budget))
    done = [k for k in after if not store.proven(k) and k in builder.nodes and builder.nodes[k].pn == 0]
    for reply in done:
        store.store(reply, builder.strategy(reply), book.budget)
    book.moves[key] = move
    book.why[key] = {"split": {"build seconds": round(builder.seconds, 1), "tried": tried, "proven": len(done)}}
    book.save(store.book_path)
    run = _new_run(split=name(key), proven=len(done))
    with store.updating_progress() as progress:
        for reply in done:
            progress["positions"].setdefault(name(reply), {"seconds": 0.0}).update(status="proven", split=name(key))
        progress["runs"].append(run)
    left = [k for k in after if not store.proven(k)]
    for reply in left:
        # Each goes on from where the build left it (a fresh build of a reply, even
        # with the remembered searches, was at proof number 486 after 899 s where the
        # build of its parent had it at 24).
        if reply in builder.nodes and store.resume(reply) is None:
            builder.subtree(reply).save(store.checkpoint(reply))
            store.keep(reply)
    path.unlink()  # no longer a frontier position: its parts carry the build on
    store.kept_path(key).unlink(missing_ok=True)
    return move, done, left


def join(store: Store, key: Key) -> list[Key]:
    """The reverse of `split`: take x's move at the book position `key` out of the book,
    so that `key` is a frontier position again and its next build may choose another
    move (a split's move whose parts will not fall, their x moves disproved one after
    another, was likely the wrong one). Book moves the walk from the root no longer
    reaches go too. Of the frontier positions that drop off, the open ones give their
    lemmas to `key`'s file and their builds are deleted; the proven ones' sub-proofs
    stay in proofs/, where every build reads them as lemmas (`Store.lemmas`). Refused
    for a position not in the book, and while a worker holds a claim on `key` or on a
    position that would drop off. The positions that dropped off the frontier."""
    book = store.book()
    if key not in book.moves:
        raise ProofError(f"{name(key)} is not a position of the book")
    before = parents(book)
    move = book.moves.pop(key)
    book.why.pop(key, None)
    after, reached = _walk(book)
    for gone in [k for k in book.moves if k not in reached]:
        del book.moves[gone]
        book.why.pop(gone, None)
    dropped = [k for k in before if k not in after]
    with contextlib.ExitStack() as claims:
        for held in [key, *(k for k in dropped if not store.proven(k))]:
            if not claims.enter_context(store.claim(held)):
                raise ProofError(f"a worker is building {name(held)} now: join {name(key)} when its turn is over")
        for gone in dropped:
            if store.proven(gone):
                continue
            lemmas = store.lemma_path(gone)
            if lemmas.exists():
                store.save_lemmas(key, Strategy.load(lemmas))
                lemmas.unlink()
            store.checkpoint(gone).unlink(missing_ok=True)
            store.kept_path(gone).unlink(missing_ok=True)
        book.save(store.book_path)
        with store.updating_progress() as progress:
            progress["runs"].append(_new_run(join=name(key), move=move, dropped=len(dropped)))
    return dropped


def unpack(store: Store, strategy: Strategy, plies: int, root: Key = (0, 0)) -> list[Key]:
    """Writes a book and its proven parts from `strategy`, a whole proof from `root`
    (the shipped one, `qubic_proof.shipped`), into the empty folder of `store`: the
    book holds the strategy's moves at x's positions of fewer than `plies` marks that
    the walk from `root` reaches, and each frontier position past it gets the
    strategy's subtree there as its sub-proof, checked as it is stored (`Store.store`).
    So a new machine starts from the proven state without the work that found it, and
    ``assemble`` proves the whole again. The frontier positions; ProofError when the
    folder holds a book already or the strategy does not answer a reply."""
    if store.book_path.exists():
        raise ProofError(f"{store.folder} holds a book already")
    book = Book(root, strategy.budget)
    start, _ = key_of(*root)
    todo, seen = [start], set()
    while todo:
        key = todo.pop()
        if key in seen:
            continue
        seen.add(key)
        code = strategy.entries.get(key)
        if code is None:
            raise ProofError(f"the proof does not answer {name(key)}")
        x, o = key
        if code < 0 or x.bit_count() + o.bit_count() >= plies:
            continue  # a leaf, or a frontier position
        book.moves[key] = code
        if not completes(x | 1 << code):
            todo.extend(answers(x | 1 << code, o, book.budget))
    book.save(store.book_path)
    positions = frontier(book)
    for key in positions:
        store.store(key, subtree(strategy, [key]), book.budget)
    with store.updating_progress() as progress:
        for key in positions:
            progress["positions"].setdefault(name(key), {"seconds": 0.0}).update(status="proven", unpacked=True)
        progress["runs"].append(_new_run(unpacked=len(positions)))
    return positions


# The commands: each takes the folder's store and its arguments and returns the exit code.


def _status(store: Store, args: argparse.Namespace) -> int:
    status(store, args.verbose)
    return 0


def _builds(store: Store, args: argparse.Namespace) -> int:
    builds(store)
    return 0


def _choose(store: Store, args: argparse.Namespace) -> int:
    choose(store, args.plies, args.candidates, args.limit)
    return 0


def _split_command(store: Store, args: argparse.Namespace) -> int:
    move, done, left = split(store, args.position, args.move)
    print(
        f"{name(args.position)}: x's move {move} is in the book; "
        f"{len(done)} positions after it proven, {len(left)} to prove:"
    )
    for key in left:
        print(f"  {name(key)}")
    return 0


def _join(store: Store, args: argparse.Namespace) -> int:
    dropped = join(store, args.position)
    print(
        f"{name(args.position)}: no longer a book position, a frontier position again; "
        f"{len(dropped)} positions below it off the frontier (their proofs kept as lemmas)"
    )
    return 0


def _work(store: Store, args: argparse.Namespace) -> int:
    # A worker asked to stop (kill, Ctrl-C) ends its turn as if its time were up: what
    # it searched is kept, where a kill would lose the turn since its last checkpoint
    # and its row.
    stop = threading.Event()
    for signum in (signal.SIGTERM, signal.SIGINT):
        signal.signal(signum, lambda *_: stop.set())
    work(
        store,
        args.minutes * 60,
        args.per_position,
        args.width,
        branches=args.branch,
        lazy=not args.eager,
        only=args.position,
        stop=stop,
        mixed=not args.by_replies,
    )
    status(store)
    return 0


def _compact(store: Store, args: argparse.Namespace) -> int:
    print(f"{store.compact_leaves(store.book().budget)} shards merged into the searches of {store.folder}")
    return 0


def _verify(store: Store, args: argparse.Namespace) -> int:
    book = store.book()
    for key in frontier(book):
        if store.proven(key):
            started = time.perf_counter()
            try:
                report = store.verify(key, book.budget)
            except ProofError as error:
                print(f"{name(key)}: the stored sub-proof fails: {error}")
                return 1
            print(f"{name(key)}: checked in {time.perf_counter() - started:.1f} s ({report})", flush=True)
    return 0


def _merge(store: Store, args: argparse.Namespace) -> int:
    try:
        added, refused = store.merge(Store(args.other))
    except ProofError as error:
        print(f"not merged: {error}")
        return 1
    for key, why in refused.items():
        print(f"{name(key)}: refused, {why}")
    print(f"{len(added)} sub-proofs added (each checked), {len(refused)} refused")
    status(store)
    return 1 if refused else 0


def _assemble(store: Store, args: argparse.Namespace) -> int:
    try:
        strategy, report = store.assemble(store.book())
    except ProofError as error:
        print(f"not a proof: {error}")
        return 1
    print(f"the whole proof passes the check: {len(strategy.entries):,} entries, {report}")
    if args.out is not None:
        strategy.save(args.out)
    return 0


def _unpack(store: Store, args: argparse.Namespace) -> int:
    strategy = Strategy.load(args.proof) if args.proof is not None else shipped()
    if strategy is None:
        print("no proof to unpack: none is shipped, and none was named (--proof)")
        return 1
    try:
        positions = unpack(store, strategy, args.plies)
    except ProofError as error:
        print(f"not unpacked: {error}")
        return 1
    print(f"{store.folder}: a book of {len(store.book().moves)} positions, {len(positions)} parts proven")
    return 0


def _add_book_commands(commands: Any) -> None:
    """The commands that read or change the book: status, choose, builds, split, join."""
    shown = commands.add_parser("status", help="the frontier and which positions are proven")
    shown.add_argument("--verbose", action="store_true", help="a line per frontier position")
    shown.set_defaults(run=_status)
    picked = commands.add_parser("choose", help="add x's measured best move at frontier positions to the book")
    picked.add_argument("--plies", type=int, required=True, help="at the frontier positions of this many marks")
    picked.add_argument("--candidates", type=int, default=8, help="x's moves probed (by the lines evaluation)")
    picked.add_argument("--limit", type=int, help="at most this many positions")
    picked.set_defaults(run=_choose)
    commands.add_parser("builds", help="how far the builds kept on this machine got, move by move").set_defaults(
        run=_builds
    )
    divided = commands.add_parser(
        "split", help="make the best move of a frontier position's build a book move, keeping what it proved"
    )
    divided.add_argument("position", type=parse, help="the frontier position (X-O, hex), built on this machine")
    divided.add_argument("--move", type=int, help="x's move (default: the one the build would expand next)")
    divided.set_defaults(run=_split_command)
    undone = commands.add_parser(
        "join",
        help="take x's move at a book position out of the book (the reverse of split): a frontier position again",
    )
    undone.add_argument("position", type=parse, help="the book position (X-O, hex)")
    undone.set_defaults(run=_join)


def _add_work_command(commands: Any) -> None:
    """`work`, the builds, with their settings."""
    worked = commands.add_parser("work", help="build sub-proofs of unproven frontier positions")
    worked.add_argument("--minutes", type=float, default=60.0)
    worked.add_argument("--per-position", type=float, default=60.0, help="seconds per position per turn")
    worked.add_argument(
        "--width",
        type=int,
        default=32,
        help="x's moves tried per position by a new build (a kept build keeps its own; default 32: new builds "
        "32 wide proved 8 of the 14 positions that builds 8 wide had stood on for 1,300-4,100 s, in a 300-s turn "
        "each, docs/strength.md)",
    )
    worked.add_argument(
        "--eager", action="store_true", help="every new position gets the inner search's every level at once"
    )
    worked.add_argument(
        "--branch", action="append", type=parse, help="only the positions after these book positions (X-O, hex)"
    )
    worked.add_argument("--position", action="append", type=parse, help="only these frontier positions (X-O, hex)")
    worked.add_argument(
        "--by-replies",
        action="store_true",
        help="x's moves by the replies they leave alone, threats free (the way before `Builder.mixed`)",
    )
    worked.set_defaults(run=_work)


def _add_proof_commands(commands: Any) -> None:
    """The commands on the proven parts: verify, compact, merge, assemble, unpack."""
    commands.add_parser("verify", help="check every stored sub-proof again").set_defaults(run=_verify)
    commands.add_parser("compact", help="merge the searches workers saved since into leaves/").set_defaults(
        run=_compact
    )
    merged = commands.add_parser("merge", help="take in another worker's folder (its parts checked first)")
    merged.add_argument("other", type=Path, help="the other folder (a copy of this one, worked on elsewhere)")
    merged.set_defaults(run=_merge)
    built = commands.add_parser("assemble", help="merge book and sub-proofs, check from the root")
    built.add_argument("--out", type=Path, help="where to write the checked whole")
    built.set_defaults(run=_assemble)
    unpacked = commands.add_parser(
        "unpack", help="write a book and its proven parts from a whole proof (the shipped one) into an empty folder"
    )
    unpacked.add_argument("--proof", type=Path, help="the whole proof's file (default: the shipped one)")
    unpacked.add_argument("--plies", type=int, default=4, help="the book's moves at positions of fewer marks")
    unpacked.set_defaults(run=_unpack)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data", type=Path, help="the folder of book, sub-proofs and progress (default: in the cache)")
    commands = parser.add_subparsers(dest="command", required=True)
    _add_book_commands(commands)
    _add_work_command(commands)
    _add_proof_commands(commands)
    args = parser.parse_args(argv)
    from noughts.ai.compiled import prepare

    prepare()
    return int(args.run(Store(args.data or default_folder()), args))


if __name__ == "__main__":
    # Through the module's own name (this folder is on sys.path when run as a script), so
    # that checkpoints pickle the builder's classes under it.
    from qubic_frontier import main as _main

    sys.exit(_main())
