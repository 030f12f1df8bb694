"""tools/connect4_book on 5x4, where it takes seconds: the book is a whole strategy for
both sides, each column the best, `check` proves it again, a second run resumes from
the work file, and the reader turns a mirrored position's column back."""

from __future__ import annotations

from pathlib import Path
from types import ModuleType

import pytest

from noughts.games.connect4 import solver

from support import load_file

TOOL = Path(__file__).resolve().parents[3] / "tools" / "connect4_book" / "build.py"
M, N, PLIES = 5, 4, 7


def _tool() -> ModuleType:
    return load_file("connect4_book_build", TOOL)


def test_the_book_holds_the_best_column_of_every_position_it_meets(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    build = _tool()
    work = tmp_path / "work.jsonl"
    book = build.build(PLIES, M, N, work)
    assert len(book) > 50
    for x, o in build.book_positions(PLIES, M, N, _Reader(book)):
        found = book.move(x, o)
        assert found is not None
        col, score = found
        scores = solver.column_scores(x, o, M, N)
        assert scores[col] == score == max(s for s in scores if s is not None)
    path = tmp_path / "book.npz"
    book.write(path)
    assert build.check(solver.OpeningBook.read(path), PLIES) == []
    lines = work.read_text().splitlines()
    again = build.build(PLIES, M, N, work)
    assert work.read_text().splitlines() == lines  # nothing solved twice
    assert list(again.keys) == list(book.keys) and list(again.columns) == list(book.columns)
    assert "0 solved in this run" in capsys.readouterr().out


def test_check_finds_a_wrong_entry(tmp_path: Path) -> None:
    build = _tool()
    book = build.build(5, M, N, tmp_path / "work.jsonl")
    book.scores[0] += 1
    assert build.check(book, 5) != []


def test_a_mirrored_position_reads_the_mirrored_column() -> None:
    # x in column 1, o in column 2 on 5x4 (bottom row is row 3: bits 15..19).
    x, o = 1 << 15, 1 << 16
    mirror_x, mirror_o = 1 << 19, 1 << 18
    key, mirrored = solver.position_key(x, o, M, N)
    assert solver.position_key(mirror_x, mirror_o, M, N) == (key, not mirrored)
    book = solver.OpeningBook.from_entries(M, N, {key: (1, 3)})
    col = book.move(x, o)
    other = book.move(mirror_x, mirror_o)
    assert col is not None and other is not None
    assert col[0] == M - 1 - other[0] and col[1] == other[1] == 3
    assert book.move(0, 0) is None


class _Reader(dict[int, tuple[int, int]]):
    """The walk's `best` read from a finished book, keyed side's columns."""

    def __init__(self, book: solver.OpeningBook) -> None:
        super().__init__(
            (int(k), (int(c), int(s))) for k, c, s in zip(book.keys, book.columns, book.scores, strict=True)
        )
