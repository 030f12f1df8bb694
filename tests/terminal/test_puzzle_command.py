"""``noughts puzzle`` as a person uses it (a real terminal through pexpect): a wrong
move refuted, the right one answered by the defender, the puzzle solved; hints, the
solution and the filters."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pexpect
import pytest

from noughts.registry import parse_spec
from noughts.study.answer_keys import answer_key
from noughts.study.puzzles import Puzzle, mine, shipped


@pytest.fixture
def puzzle_file(tmp_path: Path) -> tuple[Path, Puzzle]:
    """Classic puzzles (its exact table proves them at once), one of two moves."""
    found = list(mine(parse_spec("classic"), 6, seed=3))
    path = tmp_path / "puzzles.jsonl"
    path.write_text("".join(json.dumps(p.to_json()) + "\n" for p in found), encoding="utf-8")
    return path, next(p for p in found if len(p.solution) >= 3)


def test_a_wrong_move_is_refuted_then_the_puzzle_solved(
    spawn: Callable[..., Any], puzzle_file: tuple[Path, Puzzle]
) -> None:
    path, puzzle = puzzle_file
    state = parse_spec(puzzle.spec).parse_position(puzzle.position)
    wrong = next(t for t in state.legal_move_texts() if t != puzzle.solution[0])
    child = spawn("puzzle", "--file", str(path), "--id", puzzle.id)
    child.expect_exact(f"puzzle 1 of 1 · {puzzle.id} · Tic-tac-toe · rating")  # the game's name, as the site says it
    child.expect_exact("find the winning move")
    child.expect_exact("puzzle> ")
    child.sendline("55")
    child.expect_exact("puzzle> ")  # not a move: said, and asked again
    child.sendline(wrong)
    child.expect_exact(f"✗ {wrong} is not the move")
    child.expect_exact("puzzle> ")
    for ply in range(0, len(puzzle.solution), 2):
        child.sendline(puzzle.solution[ply])
        if ply + 1 < len(puzzle.solution):
            child.expect_exact(f"answers {puzzle.solution[ply + 1]}")
            child.expect_exact("puzzle> ")
    # The wrong move came first, and no hint (issue 56: this said "with help").
    child.expect_exact("✓ solved, after 1 wrong move: not counted as solved at the first try")
    child.expect_exact("0 of 1 solved at the first try")
    child.expect(pexpect.EOF)


def test_a_shipped_gobblet_puzzle_is_judged_off_its_line_without_the_table(spawn: Callable[..., Any]) -> None:
    """The tests' cache folder has no gobblet table: a wrong move, and a second winning
    move off the stored line, are judged from the puzzle's answer key."""
    keyed = []
    for puzzle in (p for p in shipped() if p.spec == "gobblet" and p.plies >= 3):
        key = answer_key(puzzle)
        assert key is not None
        after = key[puzzle.solution[0]]["next"]
        alternatives = [m for m, e in after.items() if "value" not in e and m != puzzle.solution[2]]
        if alternatives:
            keyed.append((puzzle, alternatives[0]))
    puzzle, other = keyed[0]
    wrong = next(m for m, e in answer_key(puzzle).items() if e.get("line"))  # type: ignore[union-attr]
    child = spawn("puzzle", "--id", puzzle.id)
    child.expect_exact(f"puzzle 1 of 1 · {puzzle.id}")
    child.expect_exact("puzzle> ")
    child.sendline(wrong)
    child.expect_exact(f"✗ {wrong} is not the move")
    child.expect_exact("puzzle> ")
    child.sendline(puzzle.solution[0])
    child.expect_exact(f"answers {puzzle.solution[1]}")
    child.expect_exact("puzzle> ")
    child.sendline(other)
    child.expect("✓ (solved, after 1 wrong move|best move)")
    child.sendline("q")
    child.expect(pexpect.EOF)


def test_solved_at_once_hints_and_the_solution(spawn: Callable[..., Any], puzzle_file: tuple[Path, Puzzle]) -> None:
    path, _ = puzzle_file
    child = spawn("puzzle", "--file", str(path), "--game", "classic", "--seed", "1")
    child.expect_exact("puzzle 1 of 6")
    child.expect_exact("puzzle> ")
    child.sendline("h")
    child.expect_exact("hint: ")
    child.expect_exact("puzzle> ")
    child.sendline("s")
    child.expect_exact("solution: ")
    child.expect_exact("puzzle 2 of 6")
    child.sendline("q")
    child.expect_exact("0 of 2 solved at the first try")
    child.expect(pexpect.EOF)


def test_a_puzzle_solved_after_a_hint_says_so(spawn: Callable[..., Any], puzzle_file: tuple[Path, Puzzle]) -> None:
    path, puzzle = puzzle_file
    child = spawn("puzzle", "--file", str(path), "--id", puzzle.id)
    child.expect_exact("puzzle> ")
    child.sendline("h")
    child.expect_exact(f"hint: {puzzle.solution[0]}")
    for ply in range(0, len(puzzle.solution), 2):
        child.sendline(puzzle.solution[ply])
    child.expect_exact("✓ solved, with a hint: not counted as solved at the first try")
    child.expect_exact("0 of 1 solved at the first try")
    child.expect(pexpect.EOF)


def test_a_solved_puzzle_names_the_help_it_had() -> None:
    from noughts.terminal.solving import solved_words

    assert solved_words(False, 0) == "✓ solved!"
    assert solved_words(False, 2) == "✓ solved, after 2 wrong moves: not counted as solved at the first try"
    assert solved_words(True, 1).startswith("✓ solved, with a hint and after 1 wrong move: ")


def test_no_puzzle_of_a_filter_is_said(spawn: Callable[..., Any], puzzle_file: tuple[Path, Puzzle]) -> None:
    path, _ = puzzle_file
    child = spawn("puzzle", "--file", str(path), "--theme", "no such theme")
    child.expect_exact("no puzzle matches")
    child.expect(pexpect.EOF)


def test_a_race_puzzle_shows_its_themes_and_says_its_length_is_a_bound(spawn: Callable[..., Any]) -> None:
    """A gomoku puzzle's length is its searches' bound: "in at most N moves"; the
    themes computed from its solution are shown above it."""
    puzzle = next(p for p in shipped() if p.spec == "mnk:m=15:n=15:k=5" and p.bound)
    child = spawn("puzzle", "--id", puzzle.id, "--game", puzzle.spec)
    child.expect_exact(f"themes: {', '.join(puzzle.themes)}")
    child.expect_exact(f"wins by force in at most {(puzzle.plies + 1) // 2} move")
    child.expect_exact("puzzle> ")
    child.sendline("q")
    child.expect(pexpect.EOF)
