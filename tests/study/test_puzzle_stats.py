"""`noughts puzzles stats`: each game's count, wins in one, lengths and themes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from noughts.cli import main
from noughts.study.puzzle_stats import spread_by_game
from noughts.study.puzzles import Puzzle

PUZZLES = [
    Puzzle("classic", "xx./oo./... x", ["3"], 1, ["win in 1", "block and win"]),
    Puzzle("classic", "x../.o./... x", ["9", "5", "3", "7", "2"], 5, ["win in 3", "fork"]),
    Puzzle("qubic", "p", ["1", "2", "3", "4", "5", "6", "7", "8", "9"], 9, ["win in at most 5", "fork"], bound=True),
    Puzzle("qubic", "q", ["1", "2", "3"], 3, ["win in at most 2", "double threat"], bound=True),
    Puzzle("qubic", "r", ["1", "2", "3"], 3, ["win in at most 2"], bound=True),
]


def test_the_spread_counts_each_games_lengths_and_themes() -> None:
    qubic, classic = spread_by_game(PUZZLES)
    assert (qubic.spec, qubic.count, qubic.plies) == ("qubic", 3, {1: 0, 3: 2, 5: 0, 7: 1})
    assert dict(qubic.themes) == {"fork": 1, "double threat": 1}
    assert (classic.count, classic.one_move_share, dict(classic.themes)) == (2, 0.5, {"block and win": 1, "fork": 1})


def test_the_command_prints_a_row_a_game(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "puzzles.jsonl"
    path.write_text("".join(json.dumps(p.to_json()) + "\n" for p in PUZZLES), encoding="utf-8")
    assert main(["puzzles", "stats", str(path)]) == 0
    rows = capsys.readouterr().out.splitlines()
    assert rows[2] == "| `qubic` | 3 | 0 (0%) | 2 | 0 | 1 | double threat 1, fork 1 |"
    assert rows[3] == "| `classic` | 2 | 1 (50%) | 0 | 1 | 0 | block and win 1, fork 1 |"
    assert rows[4] == "| all | 5 | 1 | | | | |"
