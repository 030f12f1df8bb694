"""Qubic's proof in parts (tools/qubic_proof/qubic_frontier.py), on a small frontier: a book of
one move at a position four plies in, every position after o's replies proven on its
own and stored checked, the parts assembled and checked whole; a corrupt or unproven
part is refused."""

from __future__ import annotations

import dataclasses
import functools
import multiprocessing
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import qubic_build
from noughts.ai import qubic_proof
from noughts.ai.qubic_proof import THREATS, Budget, ProofError, Strategy, check, key_of
from qubic_build import FORCED_COST, SHALLOW, Builder, Node
from qubic_frontier import (
    Book,
    Key,
    Store,
    _record,
    builds,
    default_folder,
    frontier,
    join,
    main,
    measure,
    moves_tried,
    name,
    parents,
    split,
    status,
    unpack,
    work,
)

#: x's and o's marks four plies in (canonical), x to move, where x wins with a small
#: proof (test_qubic_build.py's first small position), and x's move there that the
#: builder finds: o's replies then leave twelve positions to prove.
ROOT = (0x200008, 0x4080)
MOVE = 63
BUDGET = Budget(expansions=(100, 400))
#: The command, run as its README says.
TOOL = Path(__file__).resolve().parents[3] / "tools" / "qubic_proof" / "qubic_frontier.py"


@pytest.fixture(scope="module")
def proven(tmp_path_factory: pytest.TempPathFactory) -> tuple[Store, Book]:
    root, _ = key_of(*ROOT)
    assert root == ROOT
    book = Book(root, BUDGET, {root: MOVE})
    store = Store(tmp_path_factory.mktemp("qubic") / "proof")
    book.save(store.book_path)
    work(store, 60, 20)
    return store, book


def _unproven_copy(store: Store, book: Book, folder: Path) -> Store:
    """A store in `folder` with `store`'s book and remembered searches, no proof yet: a
    new session's, or another worker's."""
    copy = Store(folder)
    book.save(copy.book_path)
    for path in store.leaves_files:
        target = copy.folder / path.relative_to(store.folder)
        target.parent.mkdir(exist_ok=True)
        shutil.copy(path, target)
    return copy


def test_the_frontier_is_proven_part_by_part_and_assembles_into_a_checked_proof(proven: tuple[Store, Book]) -> None:
    store, book = proven
    assert Book.load(store.book_path) == book
    positions = frontier(book)
    assert len(positions) > 1 and book.root not in positions
    assert all(store.proven(key) for key in positions)
    progress = store.progress()
    assert {progress["positions"][f"{k[0]:016x}-{k[1]:016x}"]["status"] for k in positions} == {"proven"}
    assert progress["runs"][0]["proven"] == len(positions)
    for key in positions:
        store.verify(key, BUDGET)
    assert set(parents(book).values()) == {book.root}
    assert status(store) == (len(positions), len(positions))
    strategy, report = store.assemble(book)
    assert strategy.entries[book.root] == book.moves[book.root]
    assert report.moves >= 1
    check(strategy, book.root)
    # A later run has nothing left to do.
    work(store, 10, 5)
    assert store.progress()["runs"][-1]["tried"] == 0


def test_a_later_build_goes_through_the_positions_searched_before_at_once(
    proven: tuple[Store, Book], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store, book = proven
    known = store.leaves(BUDGET)
    assert known and all(kind < 0 or pn > 0 for pn, _, kind in known.values())
    assert store.leaves(Budget()) == {}  # found with another budget: not used
    # The frontier again from the book and the remembered searches alone (as in a new
    # session: no checkpoint): the same parts, and no search made a second time. (The
    # build is lazy, so a position remembered after its first level may be deepened now,
    # and where the numbers it meets are deeper than the first time the build may take
    # another way, to positions not searched before.)
    again = _unproven_copy(store, book, tmp_path / "again")
    searched: list[tuple[int, int, int]] = []
    real = Builder._inner

    def counted(builder: Builder, x: int, o: int, first: int, levels: int) -> Node:
        searched.append((x, o, first))
        return real(builder, x, o, first, levels)

    monkeypatch.setattr(Builder, "_inner", counted)
    work(again, 60, 20)
    assert all(again.proven(key) for key in frontier(book))
    assert len(searched) < len(known) / 2
    assert len(set(searched)) == len(searched)
    assert all(known[(x, o)][2] == SHALLOW and first > 0 for x, o, first in searched if (x, o) in known)
    now = again.leaves(BUDGET)
    assert all(now[k] == result for k, result in known.items() if result[2] != SHALLOW)


def test_a_turn_saves_the_searches_it_made_and_no_more(
    proven: tuple[Store, Book], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store, book = proven
    known = store.leaves(BUDGET)
    # A new session that remembers every other search of the first one.
    here = Store(tmp_path / "here")
    book.save(here.book_path)
    kept = dict(sorted(known.items())[::2])
    here.save_leaves(kept, BUDGET)
    here.compact_leaves(BUDGET)
    saved: list[dict[tuple[int, int], tuple[int, int, int]]] = []
    real = Store.save_leaves

    def saving(self: Store, leaves: dict[tuple[int, int], tuple[int, int, int]], budget: Budget) -> None:
        saved.append(dict(leaves))
        real(self, leaves, budget)

    monkeypatch.setattr(Store, "save_leaves", saving)
    work(here, 60, 20)
    assert all(here.proven(key) for key in frontier(book))
    new = {key: value for turn in saved for key, value in turn.items()}
    assert new and sum(map(len, saved)) == len(new), "each search saved once"
    # Saved: the positions not remembered, and remembered ones deepened; not the rest.
    assert all(key not in kept or kept[key][2] == SHALLOW for key in new)
    assert here.leaves(BUDGET) == kept | new
    assert not list((here.folder / "work").glob("leaves-*")), "compacted when the work ended"


def test_a_corrupt_or_unproven_part_is_refused(proven: tuple[Store, Book], tmp_path: Path) -> None:
    store, book = proven
    positions = frontier(book)
    # A stored part whose position is no leaf of the searches, but claimed as one.
    key = next(k for k in positions if store.load(k, BUDGET).entries[k] >= 0)
    good = store.proof_path(key).read_bytes()
    Strategy({key: THREATS}, BUDGET).save(store.proof_path(key))
    try:
        with pytest.raises(ProofError, match="not proven again"):
            store.verify(key, BUDGET)
        with pytest.raises(ProofError):
            store.assemble(book)
    finally:
        store.proof_path(key).write_bytes(good)
    store.verify(key, BUDGET)
    # Nothing unchecked is stored: not a wrong claim, nor a part built with another budget.
    other = Store(tmp_path / "other")
    with pytest.raises(ProofError):
        other.store(key, Strategy({key: THREATS}, BUDGET), BUDGET)
    with pytest.raises(ProofError, match="budget"):
        other.store(key, dataclasses.replace(store.load(key, BUDGET), budget=Budget()), BUDGET)
    assert not other.proof_path(key).exists()
    # Nor is the whole assembled while a part is missing.
    with pytest.raises(ProofError, match="not proven"):
        other.assemble(book)


def test_a_second_workers_folder_is_merged_part_by_part_each_checked(
    proven: tuple[Store, Book], tmp_path: Path
) -> None:
    store, book = proven
    positions = frontier(book)
    # This folder: the book alone; the other worker's: every part, one of them corrupt.
    here = Store(tmp_path / "here")
    book.save(here.book_path)
    other = Store(tmp_path / "other")
    shutil.copytree(store.folder, other.folder)
    bad = next(k for k in positions if store.load(k, BUDGET).entries[k] >= 0)
    Strategy({bad: THREATS}, BUDGET).save(other.proof_path(bad))
    added, refused = here.merge(other)
    assert set(refused) == {bad} and "not proven again" in refused[bad]
    assert sorted(added) == sorted(k for k in positions if k != bad)
    assert not here.proven(bad) and all(here.proven(k) for k in added)
    merged, theirs = here.progress(), other.progress()
    assert merged["positions"].pop(name(bad))["status"] == "refused"
    del theirs["positions"][name(bad)]
    assert merged == theirs
    assert here.leaves(BUDGET) == store.leaves(BUDGET)
    # Again: nothing new, the runs not doubled.
    assert here.merge(other) == ([], {bad: refused[bad]})
    assert here.progress()["runs"] == other.progress()["runs"]
    # A folder with another book is not merged at all.
    stranger = Store(tmp_path / "stranger")
    taken = book.root[0] | book.root[1]
    elsewhere = next(c for c in range(64) if c != MOVE and not taken >> c & 1)
    Book(book.root, BUDGET, {book.root: elsewhere}).save(stranger.book_path)
    with pytest.raises(ProofError, match="another book"):
        here.merge(stranger)


def test_what_another_writer_adds_to_the_progress_meanwhile_is_kept(
    proven: tuple[Store, Book], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store, book = proven
    here = _unproven_copy(store, book, tmp_path / "here")
    real = Builder.run
    others: list[str] = []

    def meanwhile(builder: Builder, *args: Any, **kwargs: Any) -> None:
        # During each turn a merge (or a second worker on the folder) writes its rows.
        progress = here.progress()
        others.append(f"elsewhere-{len(others)}")
        progress["positions"][others[-1]] = {"seconds": 9.0, "status": "open"}
        progress["runs"].append({"started": "2026-01-01T00:00:00+00:00", "id": others[-1], "tried": 1})
        here.save_progress(progress)
        real(builder, *args, **kwargs)

    monkeypatch.setattr(Builder, "run", meanwhile)
    work(here, 60, 20)
    positions = frontier(book)
    assert len(others) == len(positions) and all(here.proven(k) for k in positions)
    progress = here.progress()
    assert {progress["positions"][name(k)]["status"] for k in positions} == {"proven"}
    assert all(progress["positions"][other]["seconds"] == 9.0 for other in others)
    ids = [run["id"] for run in progress["runs"]]
    assert sorted(ids[:-1]) == sorted(others) and len(set(ids)) == len(ids)
    assert progress["runs"][-1]["tried"] == progress["runs"][-1]["proven"] == len(positions)


def _run_at_once(*calls: tuple[Any, tuple[Any, ...]]) -> None:
    """Each (function, arguments) in a process of its own (forked), all at once; each
    must end well within two minutes."""
    fork = multiprocessing.get_context("fork")
    processes = [fork.Process(target=function, args=args) for function, args in calls]
    for process in processes:
        process.start()
    for process in processes:
        process.join(120)
        assert process.exitcode == 0


def _write_turns(folder: Path, worker: int, turns: int) -> None:
    store = Store(folder)
    run = {"started": f"2026-01-0{worker}T00:00:00+00:00", "id": f"worker-{worker}", "tried": 0}
    for turn in range(turns):
        store.save_leaves({(worker, turn): (turn + 1, 1, 0)}, BUDGET)
        run["tried"] = turn + 1
        _record(store, run, (worker, turn), 1.0, {"status": "open"})


def test_workers_sharing_a_folder_lose_none_of_each_others_writes(tmp_path: Path) -> None:
    turns = 40
    _run_at_once(*[(_write_turns, (tmp_path, worker, turns)) for worker in (1, 2)])
    store = Store(tmp_path)
    assert store.leaves(BUDGET) == {(w, t): (t + 1, 1, 0) for w in (1, 2) for t in range(turns)}
    progress = store.progress()
    assert set(progress["positions"]) == {name((w, t)) for w in (1, 2) for t in range(turns)}
    assert [(run["id"], run["tried"]) for run in progress["runs"]] == [("worker-1", turns), ("worker-2", turns)]
    # Each turn's searches are a shard of their own until they are compacted into the
    # one file that is committed.
    assert len(list((tmp_path / "work").glob("leaves-*.npz"))) == 2 * turns
    assert store.compact_leaves(BUDGET) == 2 * turns
    assert store.leaves(BUDGET) == {(w, t): (t + 1, 1, 0) for w in (1, 2) for t in range(turns)}
    assert sorted(p.name for p in tmp_path.iterdir()) == [".lock", "leaves.npz", "progress.json", "work"]
    assert not list((tmp_path / "work").iterdir())


def _work(folder: Path) -> None:
    work(Store(folder), 60, 20)


def test_two_workers_started_on_one_folder_share_its_positions(proven: tuple[Store, Book], tmp_path: Path) -> None:
    store, book = proven
    here = _unproven_copy(store, book, tmp_path / "here")
    _run_at_once((_work, (here.folder,)), (_work, (here.folder,)))
    positions = frontier(book)
    assert all(here.proven(k) for k in positions)
    runs = here.progress()["runs"]
    assert len(runs) == 2
    assert sum(run["tried"] for run in runs) == len(positions), "each position built once"
    assert not list((here.folder / "work").iterdir()), "no claim or checkpoint left"


def test_a_claim_holds_while_its_process_lives(tmp_path: Path) -> None:
    store = Store(tmp_path)
    key = (0x200008, 0x4080)
    claim = store.checkpoint(key).with_suffix(".claim")
    claim.parent.mkdir(parents=True)
    other = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        claim.write_text(str(other.pid))
        with store.claim(key) as mine:
            assert not mine
        assert claim.read_text() == str(other.pid)
        with pytest.raises(ProofError, match="a worker is building"):
            split(store, key)
    finally:
        other.kill()
        other.wait()
    with store.claim(key) as mine:  # the holder died: taken over
        assert mine and claim.read_text() == str(os.getpid())
    assert not claim.exists()


def test_a_shallow_search_does_not_replace_a_finished_one_in_the_remembered_searches(tmp_path: Path) -> None:
    store = Store(tmp_path)
    finished, shallow = (3, 0, 0), (1, 1, SHALLOW)
    store.save_leaves({(1, 1): finished, (2, 2): shallow}, BUDGET)
    store.save_leaves({(1, 1): shallow, (2, 2): finished, (3, 3): shallow}, BUDGET)
    assert store.leaves(BUDGET) == {(1, 1): finished, (2, 2): finished, (3, 3): shallow}
    store.compact_leaves(BUDGET)
    store.save_leaves({(1, 1): shallow}, BUDGET)
    assert store.leaves(BUDGET) == {(1, 1): finished, (2, 2): finished, (3, 3): shallow}
    store.compact_leaves(BUDGET)
    assert store.leaves(BUDGET) == {(1, 1): finished, (2, 2): finished, (3, 3): shallow}
    assert len(store.leaves_files) == 1, "a compaction that changes nothing writes nothing"
    # Nor does an open result replace a disproof a build found (`Builder.disproven_inside`).
    lost = (1 << 40, 0, 1)
    store.save_leaves({(4, 4): lost}, BUDGET)
    store.save_leaves({(4, 4): (5, 5, 0)}, BUDGET)
    assert store.leaves(BUDGET)[(4, 4)] == lost


def test_a_compaction_writes_only_what_it_adds_or_changes(tmp_path: Path) -> None:
    store = Store(tmp_path)
    first = {(k, k): (k + 1, 1, SHALLOW) for k in range(100)}
    store.save_leaves(first, BUDGET)
    assert store.compact_leaves(BUDGET) == 1
    assert store.leaves_files == [store.leaves_path]
    # A later session deepens two of them and searches a new one.
    later = {(5, 5): (7, 2, 0), (6, 6): (0, 1 << 40, -1), (500, 500): (3, 3, 0), (7, 7): first[(7, 7)]}
    store.save_leaves(later, BUDGET)
    assert store.compact_leaves(BUDGET) == 1
    base, added = store.leaves_files
    assert base == store.leaves_path
    assert added.parent.name == "leaves"
    with np.load(added) as data:
        assert sorted(zip(data["x"].tolist(), data["pn"].tolist(), strict=True)) == [(5, 7), (6, 0), (500, 3)]
    assert store.leaves(BUDGET) == first | later
    assert Store(tmp_path).leaves(Budget()) == {}, "found with another budget: not used"


@functools.cache
def small() -> int:
    """tests/ai/test_qubic_proof.py's first small position: with a book without moves
    it is the frontier, and its build takes about 70 steps. (A function: its key is
    computed by a compiled kernel, whose loading would cost every test process that
    collects this module four seconds.)"""
    return key_of(1 << 48 | 1 << 22, 1 << 8 | 1 << 16)[0]


def _halfway(builder: Builder, seconds: float, checkpoint: Path | None = None, **_: Any) -> None:
    """`Builder.run` in a turn whose time ends before the proof."""
    for _ in range(35):
        builder.step()
    if checkpoint is not None:
        builder.save(checkpoint)


def _open_turn(folder: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Store, Book]:
    """A store in `folder` whose frontier is `small()` alone, after a turn there that
    ended before the proof."""
    book = Book(small(), BUDGET, {})
    store = Store(folder)
    book.save(store.book_path)
    real_run = Builder.run
    monkeypatch.setattr(Builder, "run", _halfway)
    work(store, 60, 20, width=8)
    monkeypatch.setattr(Builder, "run", real_run)
    return store, book


def test_a_turn_that_ends_open_keeps_what_it_proved_on_the_way(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = small()
    store, book = _open_turn(tmp_path / "first", monkeypatch)
    assert not store.proven(root) and store.lemma_path(root).exists()
    lemmas = store.lemmas(BUDGET)
    assert lemmas.entries and root not in lemmas.entries
    for key in lemmas.entries:
        check(lemmas, key)
    assert store.progress()["positions"][name(root)]["lemmas added"] == len(lemmas.entries)
    assert store.lemmas(Budget()).entries == {}, "found with another budget: not used"
    # The next session: the searches and the lemmas, no checkpoint.
    spliced: list[list[Key]] = []
    real_subtree = qubic_build.subtree

    def splicing(strategy: Strategy, roots: list[Key]) -> Strategy:
        spliced.append(list(roots))
        return real_subtree(strategy, roots)

    monkeypatch.setattr(qubic_build, "subtree", splicing)
    later = _unproven_copy(store, book, tmp_path / "later")
    shutil.copytree(store.folder / "lemmas", later.folder / "lemmas")
    work(later, 60, 20, width=8)
    assert later.proven(root) and spliced and spliced[0]
    assert set(later.load(root, BUDGET).entries) & set(lemmas.entries)
    later.verify(root, BUDGET)
    assert not later.lemma_path(root).exists(), "in the proof now"


def test_a_build_goes_on_on_another_machine_from_the_one_kept(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    store, book = _open_turn(tmp_path / "first", monkeypatch)
    first = store.progress()["positions"][name(small())]
    assert first["status"] == "open" and store.kept_path(small()).exists()
    assert store.kept_path(small()).stat().st_size < store.checkpoint(small()).stat().st_size / 3
    # Another machine: the committed files only (no work/).
    later = _unproven_copy(store, book, tmp_path / "later")
    shutil.copytree(store.folder / "builds", later.folder / "builds")
    assert not later.checkpoint(small()).exists()
    real_run = Builder.run
    monkeypatch.setattr(Builder, "run", _halfway)
    work(later, 60, 20, width=8)
    again = later.progress()["positions"][name(small())]
    assert again["expansions"] > first["expansions"] and again["nodes"] > first["nodes"]
    assert Builder.load(later.checkpoint(small())).expansions == again["expansions"]
    # It goes on to the proof, and then nothing of the build is kept.
    monkeypatch.setattr(Builder, "run", real_run)
    work(later, 60, 20, width=8)
    assert later.proven(small()) and not later.kept_path(small()).exists()
    assert not later.checkpoint(small()).exists()
    # `builds` and `split` read a kept build too.
    assert builds(store) == [small()]
    store.checkpoint(small()).unlink()
    move, _, _ = split(store, small())
    assert Book.load(store.book_path).moves == {small(): move} and not store.kept_path(small()).exists()


def test_a_kept_build_by_replies_alone_is_started_again_when_work_is_mixed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store, _ = _open_turn(tmp_path, monkeypatch)
    old = Builder.load(store.checkpoint(small()))
    assert not old.mixed
    old.seconds = 1e6  # marked: a build gone on keeps it, a new one starts at 0
    old.save(store.checkpoint(small()))
    real_run = Builder.run
    monkeypatch.setattr(Builder, "run", _halfway)
    work(store, 60, 20, width=8, mixed=True)
    build = Builder.load(store.checkpoint(small()))
    assert build.mixed and build.forced_cost == FORCED_COST and build.seconds < 1e6
    # A mixed build is gone on with the next time (a few steps: it is near the proof),
    # then to the proof.

    def few_steps(builder: Builder, seconds: float, checkpoint: Path | None = None, **_: Any) -> None:
        for _ in range(3):
            builder.step()
        assert checkpoint is not None
        builder.save(checkpoint)

    monkeypatch.setattr(Builder, "run", few_steps)
    work(store, 60, 20, width=8, mixed=True)
    assert Builder.load(store.checkpoint(small())).expansions > build.expansions
    monkeypatch.setattr(Builder, "run", real_run)
    work(store, 60, 20, width=8, mixed=True)
    assert store.proven(small())
    store.verify(small(), BUDGET)


def test_work_can_be_given_the_positions_to_work_on(proven: tuple[Store, Book], tmp_path: Path) -> None:
    store, book = proven
    here = _unproven_copy(store, book, tmp_path / "here")
    chosen = frontier(book)[-2:]
    work(here, 60, 20, only=chosen)
    assert [k for k in frontier(book) if here.proven(k)] == chosen
    assert set(here.progress()["positions"]) == {name(k) for k in chosen}


def test_a_position_another_worker_proved_meanwhile_is_not_built_again(
    proven: tuple[Store, Book], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store, book = proven
    here = _unproven_copy(store, book, tmp_path / "here")
    chosen = frontier(book)[-2:]
    built: list[Key] = []
    real = Builder.run

    def run_while_another_worker_proves_the_other(builder: Builder, *args: Any, **kwargs: Any) -> None:
        built.append(builder.root)
        real(builder, *args, **kwargs)
        for key in chosen:  # the other worker stores its proof of the position not built
            if key not in built:
                here.proof_path(key).parent.mkdir(parents=True, exist_ok=True)
                shutil.copy(store.proof_path(key), here.proof_path(key))

    monkeypatch.setattr(Builder, "run", run_while_another_worker_proves_the_other)
    work(here, 60, 20, only=chosen)
    assert len(built) == 1
    assert all(here.proven(k) for k in chosen)
    assert set(here.progress()["positions"]) == set(map(name, built))


@pytest.mark.slow  # searches a hard position on every core for seconds by design: make test-slow
def test_a_worker_asked_to_stop_ends_its_turn_and_keeps_what_it_searched(tmp_path: Path) -> None:
    # An open position of the real proof (no proof within minutes), as an empty book's
    # whole frontier.
    hard = (0x0000002004000000, 0x0000000000048000)
    store = Store(tmp_path / "proof")
    Book(hard, BUDGET, {}).save(store.book_path)
    command = [sys.executable, str(TOOL), "--data", str(store.folder)]
    worker = subprocess.Popen(
        [*command, "work", "--minutes", "30", "--per-position", "1800"], stdout=subprocess.PIPE, text=True
    )
    assert worker.stdout is not None
    assert "1 of 1 frontier positions to prove" in worker.stdout.readline()
    time.sleep(3)
    worker.send_signal(signal.SIGTERM)
    said = worker.communicate(timeout=120)[0]
    assert worker.returncode == 0
    assert f"{name(hard)}: open after" in said
    row = store.progress()["positions"][name(hard)]
    assert row["status"] == "open" and 2 < row["seconds"] < 100
    assert store.progress()["runs"][-1]["tried"] == 1
    assert store.checkpoint(hard).exists() and len(store.leaves(BUDGET)) > 0


def test_a_split_position_keeps_what_its_build_proved_and_the_rest_is_proven_apart(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    store = Store(tmp_path / "proof")
    Book(ROOT, BUDGET, {}).save(store.book_path)
    # A build of the one frontier position, stopped once one of x's moves has replies
    # proven and the position is not.
    builder = Builder(ROOT, BUDGET, pn_from=6, width=8, lazy=True)
    while not any(builder.nodes[k].pn == 0 for k in builder.nodes if k[0].bit_count() == 3):
        builder.step()
    assert builder.nodes[ROOT].pn != 0
    store.checkpoint(ROOT).parent.mkdir(parents=True)
    builder.save(store.checkpoint(ROOT))
    # `builds` says what split will choose from: the build's moves, the likeliest first.
    tried = moves_tried(builder)
    assert tried[0]["move"] == MOVE and tried[0]["proven"] > 0
    assert [t["pn"] for t in tried] == sorted(t["pn"] for t in tried)
    assert all(t["proven"] <= t["searched"] <= t["replies"] for t in tried)
    assert builds(store) == [ROOT]
    said = capsys.readouterr().out.splitlines()
    assert said[0].startswith(f"{name(ROOT)}: ") and f"root pn {builder.nodes[ROOT].pn} " in said[0]
    assert said[1].startswith(f"  move {MOVE}: pn {tried[0]['pn']:>6} ")
    assert len(said) == 1 + len(tried)
    move, done, left = split(store, ROOT)
    assert move == MOVE  # the build's lowest proof number
    book = store.book()
    assert book.moves == {ROOT: MOVE} and book.why[ROOT]["split"]["proven"] == len(done)
    assert done and left and sorted(frontier(book)) == sorted(done + left)
    for key in done:
        store.verify(key, BUDGET)
    assert not any(store.proven(k) for k in left)
    # Each position left goes on from the part of the build below it (the whole build's
    # checkpoint is gone).
    assert not store.checkpoint(ROOT).exists()
    for key in left:
        part = Builder.load(store.checkpoint(key))
        assert part.root == key and part.nodes[key] is not builder.nodes[key]
        assert (part.nodes[key].pn, part.nodes[key].children) == (builder.nodes[key].pn, builder.nodes[key].children)
        assert set(part.nodes) < set(builder.nodes) and part.seconds == 0
    with pytest.raises(ProofError, match="not a frontier position"):
        split(store, ROOT)
    assert builds(store) == sorted(k for k in left if store.checkpoint(k).exists())
    work(store, 60, 20)
    assert all(store.proven(k) for k in left)
    check(store.assemble(book)[0], ROOT)


def test_a_split_is_undone_by_join_and_what_was_proven_below_stays_a_lemma(tmp_path: Path) -> None:
    store = Store(tmp_path / "proof")
    Book(ROOT, BUDGET, {}).save(store.book_path)
    builder = Builder(ROOT, BUDGET, pn_from=6, width=8, lazy=True)
    while not any(builder.nodes[k].pn == 0 for k in builder.nodes if k[0].bit_count() == 3):
        builder.step()
    store.checkpoint(ROOT).parent.mkdir(parents=True)
    builder.save(store.checkpoint(ROOT))
    move, done, left = split(store, ROOT)
    # A position left open, built on until it has moves, split again: two levels of
    # book below the root.
    deeper = left[0]
    part = Builder.load(store.checkpoint(deeper))
    while part.nodes[deeper].children is None:
        part.step()
    part.save(store.checkpoint(deeper))
    _, _, below = split(store, deeper)
    book = store.book()
    assert set(book.moves) == {ROOT, deeper} and set(below) <= set(frontier(book))
    open_parts = [k for k in frontier(book) if not store.proven(k)]
    assert open_parts
    # What a build of an open part proved on the way: its lemmas, to be kept.
    found = store.load(done[0], BUDGET)
    store.save_lemmas(open_parts[0], found)
    for key in open_parts:
        if store.checkpoint(key).exists():
            store.keep(key)
    # Refused while a worker holds a position that would drop off, and for a position
    # outside the book; nothing changes.
    claim = store.checkpoint(open_parts[-1]).with_suffix(".claim")
    with subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"]) as other:
        claim.write_text(str(other.pid))
        with pytest.raises(ProofError, match="a worker is building"):
            join(store, ROOT)
        other.kill()
    claim.unlink()
    assert store.book().moves == book.moves
    with pytest.raises(ProofError, match="not a position of the book"):
        join(store, open_parts[0])
    dropped = join(store, ROOT)
    # The root is the frontier again; the book move below it went too.
    assert store.book().moves == {} and frontier(store.book()) == [ROOT]
    assert set(dropped) == set(done) | set(left) - {deeper} | set(below)
    for key in open_parts:
        assert not store.checkpoint(key).exists() and not store.kept_path(key).exists()
        assert not store.lemma_path(key).exists()
    assert store.lemma_path(ROOT).exists()
    assert Strategy.load(store.lemma_path(ROOT)).entries.items() >= found.entries.items()
    # The proofs stay, read as lemmas by every build.
    assert all(store.proof_path(k).exists() for k in done)
    assert store.lemmas(BUDGET).entries.items() >= store.load(done[-1], BUDGET).entries.items()
    assert store.progress()["runs"][-1] | {"started": "", "id": ""} == {
        "started": "", "id": "", "seconds": 0.0, "tried": 0, "proven": 0,
        "join": name(ROOT), "move": move, "dropped": len(dropped),
    }  # fmt: skip
    # The root is built and proven again, and the proof checks.
    work(store, 120, 60)
    assert store.proven(ROOT)
    store.verify(ROOT, BUDGET)


def test_the_book_move_is_chosen_by_its_measured_figures(proven: tuple[Store, Book]) -> None:
    _, book = proven
    rows = measure(book.root, BUDGET, candidates=2)
    assert rows == sorted(rows, key=lambda r: (-r["proven"], r["pn_left"], -r["lines"]))
    assert all(r["replies"] >= r["proven"] for r in rows)


def test_a_whole_proof_unpacks_into_a_book_and_its_proven_parts(proven: tuple[Store, Book], tmp_path: Path) -> None:
    store, book = proven
    whole, _ = store.assemble(book)
    marks = ROOT[0].bit_count() + ROOT[1].bit_count()
    # The book down to the fifth mark: the move at the root, and its twelve parts.
    here = Store(tmp_path / "five")
    parts = unpack(here, whole, marks + 1, ROOT)
    assert here.book().moves == {ROOT: MOVE} and sorted(parts) == sorted(frontier(book))
    assert all(here.proven(k) for k in parts)
    assert here.progress()["runs"][-1]["unpacked"] == len(parts)
    again, report = here.assemble(here.book())
    assert again.entries == whole.entries and report.moves > 0
    # No book: the root is the one part.
    alone = Store(tmp_path / "four")
    assert unpack(alone, whole, marks, ROOT) == [ROOT]
    assert alone.book().moves == {} and alone.load(ROOT, BUDGET).entries == whole.entries
    with pytest.raises(ProofError, match="holds a book already"):
        unpack(alone, whole, marks, ROOT)
    # A proof with a reply left unanswered is not unpacked.
    first = key_of(ROOT[0] | 1 << MOVE, ROOT[1])[0]
    child = next(k for k in whole.entries if k != ROOT and k[0] & first[0] == first[0])
    holed = dataclasses.replace(whole, entries={k: c for k, c in whole.entries.items() if k != child})
    with pytest.raises(ProofError):
        unpack(Store(tmp_path / "holed"), holed, marks + 1, ROOT)


def test_the_command_reports_verifies_and_assembles(
    proven: tuple[Store, Book], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    store, _ = proven
    data = ["--data", str(store.folder)]
    assert main([*data, "status"]) == 0
    assert "proven 12, " in capsys.readouterr().out
    assert main([*data, "verify"]) == 0
    assert capsys.readouterr().out.count(": checked in ") == 12
    out = tmp_path / "whole.npz"
    assert main([*data, "assemble", "--out", str(out)]) == 0
    assert "the whole proof passes the check" in capsys.readouterr().out
    check(Strategy.load(out), ROOT)
    # unpack refuses a folder that holds a book.
    assert main([*data, "unpack", "--proof", str(out)]) == 1
    assert "holds a book already" in capsys.readouterr().out


def test_the_work_folder_is_in_the_cache_folder(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("NOUGHTS_CACHE_DIR", str(tmp_path))
    assert default_folder() == tmp_path / "qubic-proof"


@pytest.mark.slow
@pytest.mark.timeout(3600)  # every leaf of the shipped proof proven again: minutes of one core, more under load
def test_the_shipped_proof_unpacks_into_checked_parts_that_make_it_whole(tmp_path: Path) -> None:
    """What a new machine starts with (tools/qubic_proof/README.md): the shipped proof
    unpacked by the command into a work folder, each part checked as it is stored; the
    book and the parts hold the entries of the shipped proof that its walk from the
    empty board reaches, no more and no fewer (so `assemble` would write those again;
    the whole is checked by tests/ai/test_qubic_proof.py::test_the_shipped_proof_holds)."""
    folder = tmp_path / "proof"
    unpacked = subprocess.run(
        [sys.executable, str(TOOL), "--data", str(folder), "unpack"], capture_output=True, text=True, timeout=3500
    )
    assert unpacked.returncode == 0, unpacked.stdout + unpacked.stderr
    assert "parts proven" in unpacked.stdout
    store = Store(folder)
    book = store.book()
    shipped = qubic_proof.shipped()
    assert shipped is not None and book.budget == shipped.budget
    entries = dict(book.moves)
    for key in frontier(book):
        entries |= store.load(key, book.budget).entries
    assert entries == qubic_proof.subtree(shipped, [(0, 0)]).entries
