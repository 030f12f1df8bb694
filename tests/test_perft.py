"""Perft tables (tests/data/perft/*.json) recomputed with the engine, and the command."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from noughts import parse_spec
from noughts.cli import main
from noughts.perft import divide, perft

DATA = Path(__file__).parent / "data" / "perft"
#: Counts above this are pinned but only checked by the slow run (make test-slow): each
#: game keeps its smaller depths in the quick runs.
QUICK_LIMIT = 100_000


def _cases() -> list[tuple[str, str | None, int, int]]:
    cases = []
    for path in sorted(DATA.glob("*.json")):
        for entry in json.loads(path.read_text()):
            for depth, count in enumerate(entry["counts"], 1):
                marks = [pytest.mark.slow] if count > QUICK_LIMIT else []
                cases.append(pytest.param(entry["spec"], entry["position"], depth, count, marks=marks))
    return cases


@pytest.mark.parametrize(("spec", "position", "depth", "count"), _cases())
def test_pinned_counts(spec: str, position: str | None, depth: int, count: int) -> None:
    game = parse_spec(spec)
    state = game.initial() if position is None else game.parse_position(position)
    assert perft(state, depth) == count


def test_every_game_has_a_table() -> None:
    from noughts import GAMES

    specs = {entry["spec"].split(":")[0] for p in DATA.glob("*.json") for entry in json.loads(p.read_text())}
    assert specs == set(GAMES)


_LINES = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]


def _list_perft(board: list[str], turn: str, depth: int) -> int:
    """A second, independent counter for classic: a list of nine characters."""
    if depth == 0:
        return 1
    if any(board[a] == board[b] == board[c] != "." for a, b, c in _LINES) or "." not in board:
        return 0
    total = 0
    for i in range(9):
        if board[i] == ".":
            board[i] = turn
            total += _list_perft(board, "o" if turn == "x" else "x", depth - 1)
            board[i] = "."
    return total


def test_classic_table_agrees_with_an_independent_counter() -> None:
    for entry in json.loads((DATA / "classic.json").read_text()):
        rows, turn = (entry["position"] or ".../.../... x").split()
        board = list(rows.replace("/", ""))
        assert [_list_perft(board, turn, d) for d in range(1, len(entry["counts"]) + 1)] == entry["counts"]


def test_divide_sums_to_perft() -> None:
    state = parse_spec("classic").initial().play_text("5")
    rows = divide(state, 3)
    assert [move for move, _ in rows] == ["1", "2", "3", "4", "6", "7", "8", "9"]
    assert sum(count for _, count in rows) == perft(state, 3)


def _noughts(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "noughts.cli", *args], capture_output=True, text=True, timeout=120, check=False
    )


@pytest.mark.integration
def test_the_command_prints_the_count_alone_on_the_last_line() -> None:
    out = _noughts("perft", "classic", "9")
    assert out.returncode == 0
    assert out.stdout.splitlines()[-1] == "127872"
    out = _noughts("perft", "classic", "3", "--moves", "5", "1", "--divide")
    lines = out.stdout.splitlines()
    assert lines[0].split() == [
        "2",
        str(perft(parse_spec("classic").initial().play_text("5").play_text("1").play_text("2"), 2)),
    ]
    assert int(lines[-1]) == sum(int(line.split()[1]) for line in lines[:-1])
    out = _noughts("perft", "classic", "2", "--position", "xxx/oo./... o")
    assert out.stdout.splitlines()[-1] == "0"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["perft", "chess", "2"], "unknown game 'chess'"),
        (["perft", "classic", "2", "--moves", "5", "5"], "cell 5 is taken"),
        (["perft", "classic", "2", "--position", "xx"], "position is 'ROWS TURN'"),
        (["perft", "classic", "2", "--position", "xx/.../... x"], "3 rows of 3 cells"),
        (["perft", "classic", "-1"], "DEPTH must be 0 or more"),
    ],
)
def test_the_command_refuses_bad_input(args: list[str], message: str) -> None:
    out = _noughts(*args)
    assert out.returncode != 0
    assert message in out.stderr
    assert "Traceback" not in out.stderr


@pytest.mark.parametrize(
    ("spec", "moves", "depth"),
    [("ultimate", ["55", "51"], 3), ("nine-board", ["11"], 3), ("qubic", ["111", "444"], 2)],
)
def test_the_command_counts_alike_with_kernels_and_readable_rules(
    spec: str, moves: list[str], depth: int, capsys: pytest.CaptureFixture[str]
) -> None:
    # auto picks the kernels for these games; the readable rules are the reference.
    printed = {}
    for engine in ("auto", "kernels", "readable"):
        assert main(["perft", spec, str(depth), "--moves", *moves, "--divide", "--engine", engine]) == 0
        printed[engine] = capsys.readouterr().out
    assert printed["auto"] == printed["kernels"] == printed["readable"]
    state = parse_spec(spec).initial()
    for move in moves:
        state = state.play_text(move)
    assert int(printed["readable"].splitlines()[-1]) == perft(state, depth)


def test_the_kernels_refuse_a_game_they_do_not_play() -> None:
    with pytest.raises(SystemExit, match="the kernels count ultimate"):
        main(["perft", "classic", "2", "--engine", "kernels"])
