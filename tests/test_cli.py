"""The `noughts` command's own subcommands, run as a user runs them."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from noughts.records import GameRecord


def noughts(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "noughts.cli", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        env={**os.environ, "COLUMNS": "100"},
    )


def test_no_arguments_prints_an_overview() -> None:
    out = noughts()
    assert out.returncode == 0
    for key in ("classic", "mnk", "nine-board", "ultimate", "qubic", "matryoshka", "gobblet"):
        assert key in out.stdout


def test_games_lists_every_game_with_its_options() -> None:
    lines = noughts("games").stdout.splitlines()
    assert [line.split()[0] for line in lines] == [
        "classic",
        "mnk",
        "nine-board",
        "ultimate",
        "qubic",
        "matryoshka",
        "gobblet",
        "connect4",
    ]
    assert "tiebreak=none" in next(line for line in lines if line.startswith("ultimate"))


def test_show_draws_the_position() -> None:
    out = noughts("show", "classic", "--moves", "5", "1")
    assert out.returncode == 0
    assert " O | 2 | 3 " in out.stdout
    assert "position: o../.x./... x" in out.stdout
    assert "ongoing, x to move" in out.stdout


def test_solve_reports_positions_and_value(tmp_path: Path) -> None:
    out = subprocess.run(
        [sys.executable, "-m", "noughts.cli", "solve", "classic"],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "NOUGHTS_CACHE_DIR": str(tmp_path)},
        check=False,
    )
    assert "positions:   5,478 reachable (765 stored up to symmetry)" in out.stdout
    assert "start value: draw" in out.stdout
    assert list(tmp_path.iterdir()), "the table is cached"


def test_solve_refuses_what_has_no_table() -> None:
    out = noughts("solve", "ultimate")
    assert out.returncode == 2
    assert "no exact table" in out.stderr


def test_solve_answers_for_matryoshka_which_its_refusal_lists_as_solved() -> None:
    # The refusal names matryoshka among the solved games (issue 56: then exited 2 for it).
    assert "matryoshka (by search)" in noughts("solve", "ultimate").stderr
    out = noughts("solve", "matryoshka")
    assert out.returncode == 0, out.stderr
    assert "table:       none: the perfect player reads the shipped opening book" in out.stdout
    assert "start value: draw (for x, who moves first)" in out.stdout


# The same counts as tests/ai/test_gobblet_table.py's, through the command in a process
# of its own, which compiles gobblet's solver again (half a minute on a busy machine).
@pytest.mark.slow
def test_solve_reports_gobblets_counts(tmp_path: Path) -> None:
    # The smallest figure set, through the same build and count as the published game.
    out = subprocess.run(
        [sys.executable, "-m", "noughts.cli", "solve", "gobblet:copies=1"],
        capture_output=True,
        text=True,
        timeout=280,
        env={**os.environ, "NOUGHTS_CACHE_DIR": str(tmp_path)},
        check=False,
    )
    assert out.returncode == 0, out.stderr
    assert "positions:   1,494,118 reachable, 188,674 up to the board's symmetries, 94,342 up to" in out.stdout
    assert "finished:    94,080 of them" in out.stdout
    assert "start value: draw" in out.stdout


def test_record_converts_and_checks(tmp_path: Path) -> None:
    path = tmp_path / "game.txt"
    path.write_text('[Game "classic"]\n\n1. 5 1 2. 9 *\n')
    out = noughts("record", str(path), "--json")
    assert out.returncode == 0
    assert GameRecord.from_json(out.stdout).moves == ["5", "1", "9"]
    out = noughts("record", "-", stdin=out.stdout)
    assert "1. 5 1 2. 9 ongoing" in out.stdout
    path.write_text('[Game "classic"]\n\n1. 5 5 *\n')
    out = noughts("record", str(path))
    assert out.returncode == 2
    assert "move 2 (5): cell 5 is taken" in out.stderr


def test_a_missing_file_is_a_message(tmp_path: Path) -> None:
    out = noughts("record", str(tmp_path / "nowhere.txt"))
    assert out.returncode == 2
    assert out.stderr.startswith("noughts: No such file or directory")


@pytest.mark.parametrize("args", [["perft"], ["show"], ["bogus"]])
def test_usage_errors_do_not_crash(args: list[str]) -> None:
    out = noughts(*args)
    assert out.returncode == 2
    assert "usage:" in out.stderr
    assert "Traceback" not in out.stderr


@pytest.mark.parametrize("buffered", [True, False])
def test_a_reader_that_leaves_early_gets_no_complaint(buffered: bool) -> None:
    # `noughts ... | head -1`: the reader is gone before the output is written.
    read, write = os.pipe()
    os.close(read)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED" or not buffered}
    done = subprocess.run(
        [sys.executable, "-m", "noughts.cli", "perft", "mnk:m=19:n=19:k=5", "1", "--divide"],
        stdout=write,
        stderr=subprocess.PIPE,
        text=True,
        timeout=60,
        check=False,
        env=env,
    )
    os.close(write)
    assert done.stderr == ""
    assert done.returncode == 1


def test_games_lists_only_the_options_each_game_takes() -> None:
    listed = {line.split()[0]: line for line in noughts("games").stdout.splitlines()}
    assert "tiebreak" in listed["ultimate"]
    assert "tiebreak" not in listed["nine-board"]  # nine-board ends at its first line
    refused = noughts("show", "nine-board:tiebreak=boards")
    assert refused.returncode == 2 and "nine-board has no option 'tiebreak'" in refused.stderr


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["play", "classic", "--level", "meduim"], "'meduim' (did you mean 'medium'?) (choose from 'easy'"),
        (["pley"], "invalid choice: 'pley' (did you mean 'play'?)"),
    ],
)
def test_a_misspelt_choice_is_answered_with_the_nearest(args: list[str], said: str) -> None:
    refused = noughts(*args)
    assert refused.returncode == 2 and said in refused.stderr, refused.stderr
