"""The puzzles' calibration tool (tools/puzzles/calibrate.py): the levels' ratings from
their measured ladder, attempts that come out the same from the same seed, and ratings
that move the way the attempts say."""

from __future__ import annotations

import json
from pathlib import Path
from types import ModuleType

import pytest

from noughts.study.puzzles import Puzzle, read_puzzles, shipped

TOOL = Path(__file__).resolve().parents[3] / "tools" / "puzzles"


@pytest.fixture
def calibrate(monkeypatch: pytest.MonkeyPatch) -> ModuleType:
    # Imported as its script is run: its folder first on the path (it imports build.py).
    monkeypatch.syspath_prepend(str(TOOL))
    monkeypatch.delitem(__import__("sys").modules, "build", raising=False)
    import calibrate

    return calibrate


def _forget_puzzles(count: int) -> list[Puzzle]:
    """Shipped Forget-mode puzzles of 3 plies or more (the solved table judges them)."""
    return [p for p in shipped() if p.spec == "classic:forget=true" and p.plies >= 3][:count]


def test_a_score_of_three_quarters_is_about_191_points(calibrate: ModuleType) -> None:
    assert calibrate.elo_gap(0.75, 10_000) == pytest.approx(191, abs=1)
    ratings = calibrate.level_ratings("classic:forget=true")
    assert ratings["easy"] < ratings["medium"] == 1500 < ratings["hard"]
    # Gomoku's hard searches by seconds: it plays differently on a busy machine.
    assert "hard" not in calibrate.level_ratings("mnk:m=15:n=15:k=5")


def test_the_same_seed_gives_the_same_attempts_and_ratings(calibrate: ModuleType) -> None:
    puzzles = _forget_puzzles(6)
    first = [calibrate.rate(p, 7) for p in puzzles]
    assert [calibrate.rate(p, 7) for p in puzzles] == first
    assert all(p.rating is not None for p, _ in first)
    # Every level tried every puzzle, rated as the ladder says, against the guess.
    levels = calibrate.level_ratings("classic:forget=true")
    for puzzle, (_, attempts) in zip(puzzles, first, strict=True):
        assert sorted(a.player_rating for a in attempts) == sorted(levels.values())
        assert {a.puzzle_rating for a in attempts} == {puzzle.difficulty}


@pytest.mark.parametrize("solved", [True, False])
def test_a_puzzle_every_level_solves_goes_down_and_one_none_solves_goes_up(
    calibrate: ModuleType, monkeypatch: pytest.MonkeyPatch, solved: bool
) -> None:
    monkeypatch.setattr(calibrate, "attempt", lambda puzzle, level, seed: solved)
    puzzle = _forget_puzzles(1)[0]
    rated, attempts = calibrate.rate(puzzle, 1)
    assert [a.solved for a in attempts] == [solved] * 3
    assert rated.rating is not None and (rated.rating < puzzle.difficulty) is solved


def test_the_tool_writes_the_ratings_and_a_second_run_gives_the_same(calibrate: ModuleType, tmp_path: Path) -> None:
    path = tmp_path / "puzzles.jsonl"
    puzzles = _forget_puzzles(3)
    path.write_text("".join(json.dumps(p.to_json()) + "\n" for p in puzzles), encoding="utf-8")
    assert calibrate.main(["--file", str(path), "--seed", "3"]) == 0
    written = read_puzzles(path)
    assert written == [calibrate.rate(p, 3)[0] for p in puzzles]
    assert [p.difficulty for p in written] == [p.difficulty for p in puzzles]  # the guess stays
    assert calibrate.main(["--file", str(path), "--seed", "3"]) == 0
    assert read_puzzles(path) == written


def test_the_shipped_ratings_are_the_tools_with_seed_1(calibrate: ModuleType) -> None:
    """The shipped file's ratings come from `calibrate.py --seed 1` (a sample of the
    games whose tables judge at once: the others' attempts take a search)."""
    from dataclasses import replace

    sample = _forget_puzzles(5) + [p for p in shipped() if p.spec == "mnk:m=4:n=4:k=3"][:5]
    for puzzle in sample:
        assert calibrate.rate(replace(puzzle, rating=None), 1)[0] == puzzle, puzzle.id
