"""Snapshot tests: the boards of every game, as plain text (what a terminal without
colour shows), compared exactly with the files in snapshots/.

After a deliberate change of the drawing, regenerate them with

    UPDATE_SNAPSHOTS=1 .venv/bin/pytest tests/terminal/test_render.py

and read the diff before keeping it.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

import pytest

from noughts import parse_spec
from noughts.terminal.render import render

from support import playout

SNAPSHOTS = Path(__file__).parent / "snapshots"
WIDTH = 100


def check_snapshot(name: str, text: str) -> None:
    """Compare `text` with snapshots/NAME.txt, or write it there with UPDATE_SNAPSHOTS=1."""
    path = SNAPSHOTS / f"{name}.txt"
    if os.environ.get("UPDATE_SNAPSHOTS") == "1":
        path.write_text(text, encoding="utf-8")
        return
    if not path.exists():
        pytest.fail(f"no snapshot {path.name}: run with UPDATE_SNAPSHOTS=1 and check the file")
    assert text == path.read_text(encoding="utf-8")


def drawn(spec: str, moves: list[str]) -> str:
    state: Any = parse_spec(spec).initial()
    last = None
    for text in moves:
        last = state.game.parse_move(text)
        state = state.play(last)
    return render(state, last, WIDTH).plain + "\n"


def drawn_playout(spec: str, seed: int, plies: int | None = None) -> str:
    """A seeded random game, `plies` into it (None: to its end)."""
    steps = playout(spec, seed)
    moves = [steps[i][0].move_text(steps[i][1]) for i in range(len(steps) - 1)]
    return drawn(spec, moves[:plies] if plies is not None else moves)


CASES: dict[str, tuple[str, list[str]]] = {
    "classic-start": ("classic", []),
    "classic-middle": ("classic", ["5", "1", "9"]),
    "classic-x-wins": ("classic", ["1", "4", "2", "5", "3"]),
    "classic-draw": ("classic", ["5", "1", "9", "3", "2", "8", "4", "6", "7"]),
    "classic-forget": ("classic:forget", ["5", "1", "9", "3", "7"]),
    "classic-forget-both": ("classic:forget", ["5", "1", "9", "3", "7", "4"]),
    "mnk-5x4": ("mnk:m=5:n=4:k=4", ["c2", "a1", "d3"]),
    "gomoku": ("mnk:m=15:n=15:k=5", ["h8", "h9", "i8"]),
    "nine-board-start": ("nine-board", []),
    "nine-board-sent": ("nine-board", ["55", "51"]),
    "ultimate-sent": ("ultimate", ["55", "51", "15"]),
    "ultimate-forget": ("ultimate:forget", ["55", "51", "15", "59", "95", "54", "45", "52"]),
    "qubic-start": ("qubic", []),
    "qubic-middle": ("qubic", ["111", "222", "112", "233"]),
    "qubic-won": ("qubic", ["111", "211", "112", "212", "113", "213", "114"]),
    "qubic-3x3": ("qubic:n=3:d=2", ["22", "11"]),
    "qubic-hypercube": ("qubic:n=3:d=4", ["1111", "2222"]),
    "matryoshka-stacks": ("matryoshka", ["S5", "M5", "L5", "S1"]),
    "gobblet-start": ("gobblet", []),
    "gobblet-shift": ("gobblet", ["L5", "M1", "5-1", "L5"]),
    "connect4-middle": ("connect4", ["4", "4", "3", "5"]),
    "connect4-won": ("connect4", ["1", "1", "2", "2", "3", "3", "4"]),
}

PLAYOUTS: dict[str, tuple[str, int, int | None]] = {
    "ultimate-decided-boards": ("ultimate", 3, 60),
    "ultimate-finished": ("ultimate", 3, None),
    "ultimate-forget-later": ("ultimate:forget", 3, 60),
    "nine-board-finished": ("nine-board", 5, None),
    "gobblet-finished": ("gobblet", 2, None),
}


@pytest.mark.parametrize("name", CASES)
def test_board(name: str) -> None:
    spec, moves = CASES[name]
    check_snapshot(name, drawn(spec, moves))


@pytest.mark.parametrize("name", PLAYOUTS)
def test_board_later_in_a_game(name: str) -> None:
    check_snapshot(name, drawn_playout(*PLAYOUTS[name]))


def test_every_game_has_a_snapshot() -> None:
    from noughts import GAMES

    specs = {spec.split(":")[0] for spec, _ in CASES.values()}
    assert specs >= set(GAMES) - {"mnk"}
    assert any(spec.startswith("mnk:") for spec, _ in CASES.values())


def test_qubic_layers_wrap_in_a_narrow_terminal() -> None:
    state = parse_spec("qubic").initial()
    wide, narrow = render(state, None, 100).plain, render(state, None, 40).plain
    assert wide.splitlines()[0].count("layer") == 4
    assert narrow.splitlines()[0].count("layer") == 2
    assert max(map(len, narrow.splitlines())) <= 40


def test_colour_marks_the_same_things_as_the_characters() -> None:
    """The last move is highlighted (reverse) exactly where the parentheses are."""
    state = parse_spec("classic").initial().play_text("5")
    text = render(state, 4, WIDTH)
    reversed_spans = [text.plain[s.start : s.end] for s in text.spans if "reverse" in str(s.style)]
    assert reversed_spans == ["(X)"]


@pytest.mark.parametrize(
    ("spec", "moves", "marks"),
    [
        ("classic", ["1", "4", "2", "5", "3"], ["[X]"] * 3),
        ("gobblet", ["L1", "L4", "L2", "L5", "M3"], ["[XL]", "[XL]", "[XM]"]),
        ("connect4", ["1", "1", "2", "2", "3", "3", "4"], ["[X]"] * 4),
    ],
)
def test_the_winning_move_is_bracketed_as_the_rest_of_its_line(spec: str, moves: list[str], marks: list[str]) -> None:
    # Gobblet drew the winning move as "(XM)" beside "[XL] [XL]" (issue 56).
    state: Any = parse_spec(spec).initial()
    last = None
    for text in moves:
        last = state.game.parse_move(text)
        state = state.play(last)
    board = render(state, last=last).plain
    assert re.findall(r"\[\w+\]", board.split("last move")[0]) == marks, board
    assert "(" not in board.split("last move")[0], board
