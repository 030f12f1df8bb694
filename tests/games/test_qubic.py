"""Rules, notation and a differential check against tests/reference/qubic_ref.py for
qubic (a cube of side n in d dimensions)."""

from __future__ import annotations

import json
import random
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from noughts.core import (
    IllegalMoveError,
    InvalidMoveError,
    InvalidOptionError,
    InvalidPositionError,
    Outcome,
    Player,
    Reason,
)
from noughts.games.qubic import Qubic, QubicState
from noughts.perft import perft
from noughts.registry import make_game, parse_spec

from support import load_file


def _load_reference() -> ModuleType:
    return load_file("qubic_ref", Path(__file__).resolve().parents[1] / "reference" / "qubic_ref.py")


ref = _load_reference()

PERFT_FILE = Path(__file__).resolve().parents[1] / "data" / "perft" / "qubic.json"

QUBIC = Qubic()


def _play(game: Qubic, moves: list[str]) -> list[QubicState]:
    """Every state along `moves` from the start, the start included."""
    states = [game.initial()]
    for move in moves:
        states.append(states[-1].play_text(move))
    return states


def _reference_for(state: QubicState) -> Any:
    mirror = ref.RefQubic(state.game.n, state.game.d)
    cells = "".join("." if p is None else p.value for p in map(state.cell, range(state.game.cells)))
    mirror.set_position(cells, state.turn.value)
    return mirror


# -- geometry -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("n", "d", "count"),
    [(3, 2, 8), (4, 2, 10), (9, 2, 20), (2, 3, 28), (3, 3, 49), (4, 3, 76), (5, 3, 109), (2, 4, 120), (3, 4, 272)],
)
def test_line_count(n: int, d: int, count: int) -> None:
    game = Qubic(n=n, d=d)
    assert count == ((n + 2) ** d - n**d) // 2
    assert len(game.lines) == len(game.line_cells) == count
    assert len(set(game.lines)) == count
    assert all(len(cells) == n for cells in game.line_cells)


def test_qubic_lines_by_kind() -> None:
    """48 rows, columns and pillars, 24 plane diagonals, 4 space diagonals."""
    kinds: dict[int, int] = {}
    for cells in QUBIC.line_cells:
        a, b = QUBIC.coordinates(cells[0]), QUBIC.coordinates(cells[1])
        moving_axes = sum(x != y for x, y in zip(a, b, strict=True))
        kinds[moving_axes] = kinds.get(moving_axes, 0) + 1
    assert kinds == {1: 48, 2: 24, 3: 4}


# -- winning and drawing -----------------------------------------------------------


def _filler(game: Qubic, avoid: set[int], count: int) -> list[int]:
    """`count` cells off `avoid` with no line among them (checked by the reference)."""
    mirror = ref.RefQubic(game.n, game.d)
    chosen: list[int] = []
    for cell in reversed(range(game.cells)):
        if len(chosen) == count:
            break
        if cell in avoid:
            continue
        trial = {*chosen, cell}
        if not any({mirror.index(c) for c in line} <= trial for line in mirror.lines):
            chosen.append(cell)
    return chosen


WINS = [
    # (spec, the line as move texts, its kind)
    ("qubic", "111 112 113 114", "row"),
    ("qubic", "321 322 323 324", "row"),
    ("qubic", "113 123 133 143", "column"),
    ("qubic", "232 332 132 432", "pillar"),
    ("qubic", "111 122 133 144", "layer diagonal"),
    ("qubic", "414 423 432 441", "layer anti-diagonal"),
    ("qubic", "121 222 323 424", "vertical diagonal (layer, column)"),
    ("qubic", "413 323 233 143", "vertical diagonal (layer, row)"),
    ("qubic", "111 222 333 444", "space diagonal"),
    ("qubic", "114 223 332 441", "space diagonal"),
    ("qubic", "141 232 323 414", "space diagonal"),
    ("qubic:n=3", "111 222 333", "space diagonal"),
    ("qubic:n=3", "213 222 231", "layer anti-diagonal"),
    ("qubic:d=2", "31 32 33 34", "row"),
    ("qubic:d=2", "14 23 32 41", "anti-diagonal"),
    ("qubic:n=3:d=4", "1111 2222 3333", "4-D diagonal"),
    ("qubic:n=3:d=4", "3113 2213 1313", "diagonal in one plane of 4-D"),
]


@pytest.mark.parametrize(("spec", "line", "kind"), WINS)
@pytest.mark.parametrize("winner", [Player.X, Player.O])
def test_each_kind_of_line_wins(spec: str, line: str, kind: str, winner: Player) -> None:
    game = parse_spec(spec)
    assert isinstance(game, Qubic)
    cells = [game.parse_move(t) for t in line.split()]
    assert tuple(sorted(cells)) in {tuple(sorted(c)) for c in game.line_cells}, kind
    other = _filler(game, set(cells), len(cells) if winner is Player.O else len(cells) - 1)
    if winner is Player.X:
        order = [m for pair in zip(cells, [*other, None], strict=True) for m in pair if m is not None]
    else:
        order = [m for pair in zip(other, cells, strict=True) for m in pair]
    states = _play(game, [game.move_text(m) for m in order])
    assert all(s.outcome is None for s in states[:-1])
    final = states[-1]
    assert final.outcome == Outcome(winner, Reason.LINE)
    assert final.legal_moves() == []
    line_cells = final.winning_line()
    assert line_cells is not None and sorted(line_cells) == sorted(cells)
    assert _reference_for(final).outcome() == winner.value


# Full boards without a line, one of x, o per cell in index order; the 4x4x4 one was found
# by a local search (swapping cells to remove monochrome lines) and is checked here.
DRAWS = [
    ("qubic:n=3:d=2", "xoxxoooxx"),
    ("qubic:d=2", "xoxoxoxooxoxoxox"),
    ("qubic", "oooxxxxoxoxxoooxxxoxxoxoxxoooxxoxoooxoxooxxxxxxoxoxooooxxxoooxoo"),
]


@pytest.mark.parametrize(("spec", "cells"), DRAWS)
def test_full_board_without_a_line_is_a_draw(spec: str, cells: str) -> None:
    game = parse_spec(spec)
    assert isinstance(game, Qubic)
    xs = [i for i, ch in enumerate(cells) if ch == "x"]
    os_ = [i for i, ch in enumerate(cells) if ch == "o"]
    order = [m for pair in zip(xs, [*os_, None][: len(xs)], strict=True) for m in pair if m is not None]
    states = _play(game, [game.move_text(m) for m in order])
    assert all(s.outcome is None for s in states[:-1])
    final = states[-1]
    assert final.outcome == Outcome(None, Reason.FULL)
    assert final.winning_line() is None
    assert final.legal_moves() == []
    assert _reference_for(final).outcome() == "draw"


def test_three_by_three_by_three_cannot_be_drawn() -> None:
    """Every full 3x3x3 board has a line, so a 3x3x3 game never ends in a draw."""
    game = Qubic(n=3)
    for seed in range(50):
        rng = random.Random(seed)
        state = game.initial()
        while not state.is_over:
            state = state.play(rng.choice(state.legal_moves()))
        assert state.outcome is not None and state.outcome.winner is not None


def test_line_on_the_last_empty_cell_wins() -> None:
    game = Qubic(n=3, d=2)
    state = game.parse_position("xox/oxo/ox. x").play_text("33")
    assert state.outcome == Outcome(Player.X, Reason.LINE)
    assert state.winning_line() == (0, 4, 8)


def test_no_move_after_a_win() -> None:
    state = QUBIC.parse_position("xxxx/o.../o.../o...|" + "|".join(["..../..../..../...."] * 3) + " o")
    assert state.outcome == Outcome(Player.X)
    with pytest.raises(IllegalMoveError, match="the game is over"):
        state.play_text("444")


# -- notation -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("spec", "text", "move"),
    [
        ("qubic", "111", 0),
        ("qubic", "444", 63),
        ("qubic", "213", 18),
        ("qubic", "1-1-1", 0),
        ("qubic", "4,4,4", 63),
        ("qubic", "2 1 3", 18),
        ("qubic", " 2 - 1 - 3 ", 18),
        ("qubic", "1-2,3", 6),
        ("qubic:d=2", "11", 0),
        ("qubic:d=2", "23", 6),
        ("qubic:n=3:d=4", "3333", 80),
        ("qubic:n=9:d=2", "99", 80),
    ],
)
def test_parse_move(spec: str, text: str, move: int) -> None:
    assert parse_spec(spec).parse_move(text) == move


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "is not a move: give 3 digits 1-4 \\(layer row column\\), like 111"),
        ("abc", "is not a move"),
        ("a11", "is not a move"),
        ("1-11", "is not a move"),
        ("1--1-1", "is not a move"),
        ("1.1.1", "is not a move"),
        ("²11", "is not a move"),
        ("１１１", "is not a move"),
        ("11", "not a cell of this board: give 3 digits 1-4"),
        ("1111", "not a cell of this board"),
        ("011", "not a cell of this board"),
        ("151", "not a cell of this board"),
    ],
)
def test_bad_move_text(text: str, message: str) -> None:
    with pytest.raises(InvalidMoveError, match=message):
        QUBIC.parse_move(text)


def test_move_form_names_the_axes() -> None:
    with pytest.raises(InvalidMoveError, match=r"2 digits 1-3 \(row column\), like 11"):
        Qubic(n=3, d=2).parse_move("x")
    with pytest.raises(InvalidMoveError, match=r"4 digits 1-3 \(block layer row column\), like 1111"):
        Qubic(n=3, d=4).parse_move("x")


@pytest.mark.parametrize("spec", ["qubic", "qubic:n=3", "qubic:d=2", "qubic:n=2:d=4", "qubic:n=9:d=2"])
def test_move_text_round_trips(spec: str) -> None:
    game = parse_spec(spec)
    assert isinstance(game, Qubic)
    texts = [game.move_text(m) for m in range(game.cells)]
    assert len(set(texts)) == len(texts)
    assert [game.parse_move(t) for t in texts] == list(range(len(texts)))
    assert texts == sorted(texts)


def test_taken_cell() -> None:
    state = QUBIC.initial().play_text("213")
    with pytest.raises(IllegalMoveError, match=r"^cell 213 is taken$"):
        state.play_text("2-1-3")


@pytest.mark.parametrize("move", [-1, 64, True, "111", 1.0, None])
def test_values_that_are_not_cells(move: Any) -> None:
    with pytest.raises(InvalidMoveError):
        QUBIC.initial().play(move)


EMPTY_LAYER = "..../..../..../...."
EMPTY = "|".join([EMPTY_LAYER] * 4)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "position is 'CELLS TURN'"),
        (EMPTY, "position is 'CELLS TURN'"),
        (f"{EMPTY} x x", "position is 'CELLS TURN'"),
        (f"{EMPTY_LAYER} x", "4 layers separated by '\\|', each 4 rows separated by '/', each of 4 cells"),
        ("|".join([EMPTY_LAYER] * 3) + " x", "4 layers"),
        ("|".join([EMPTY_LAYER] * 5) + " x", "4 layers"),
        (EMPTY.replace("|", "||", 1) + " x", "4 layers"),
        (EMPTY.replace("/", "", 1) + " x", "4 layers"),
        ("/".join([EMPTY_LAYER] * 4) + " x", "4 layers"),
        ("...../..../..../...." + EMPTY[len(EMPTY_LAYER) :] + " x", "4 layers"),
        ("z" + EMPTY[1:] + " x", "'z' is not a cell"),
        (f"{EMPTY} z", "is not a player"),
        (f"{EMPTY} o", "x moves first"),
        ("x" + EMPTY[1:] + " x", "x moves first"),
        ("o" + EMPTY[1:] + " x", "x moves first"),
        ("xx" + EMPTY[2:] + " o", "x moves first"),
        ("xxxx/oooo" + EMPTY[9:] + " x", "both players have a line"),
        ("oooo/xxx./xx../...." + EMPTY[19:] + " o", "the player to move cannot already have a line"),
        ("xxxx/ooo./..../....|xxxx/ooo./o.../...." + EMPTY[2 * len(EMPTY_LAYER) + 1 :] + " o", "no single last move"),
    ],
)
def test_bad_position(text: str, message: str) -> None:
    with pytest.raises(InvalidPositionError, match=message):
        QUBIC.parse_position(text)


@pytest.mark.parametrize(
    ("spec", "text", "o_move"),
    [
        ("qubic:d=2", "x.../.o../..../.... x", "22"),
        ("qubic:n=3", "x../.../...|.o./.../...|.../.../... x", "212"),
        ("qubic:n=2:d=4", "x./..|../..||../.o|../.. x", "2122"),
    ],
)
def test_position_layout(spec: str, text: str, o_move: str) -> None:
    game = parse_spec(spec)
    state = game.initial().play(0).play_text(o_move)
    assert state.to_text() == text
    assert game.parse_position(text) == state


def test_position_aliases() -> None:
    canonical = QUBIC.initial().play_text("111")
    assert QUBIC.parse_position("X---" + EMPTY[4:] + "  O ") == canonical


def test_winning_position_has_its_line_shared() -> None:
    """Two lines crossing at the last move are a legal win."""
    text = "xxxx/x.../x.../x...|ooo./o.../o.../.o..|" + "|".join([EMPTY_LAYER] * 2) + " o"
    state = QUBIC.parse_position(text)
    assert state.outcome == Outcome(Player.X)
    assert state.winning_line() is not None


@pytest.mark.parametrize(
    ("spec", "seeds"),
    [("qubic", range(40)), ("qubic:n=3", range(20)), ("qubic:d=2", range(20)), ("qubic:n=3:d=4", range(10))],
)
def test_positions_round_trip(spec: str, seeds: range) -> None:
    game = parse_spec(spec)
    for seed in seeds:
        rng = random.Random(seed)
        state = game.initial()
        while True:
            text = state.to_text()
            again = game.parse_position(text)
            assert again == state
            assert hash(again) == hash(state)
            assert again.to_text() == text
            assert again.outcome == state.outcome
            assert again.legal_moves() == state.legal_moves()
            assert repr(state) == f"parse_position({game.spec!r}, {text!r})"
            if state.is_over:
                break
            state = state.play(rng.choice(state.legal_moves()))


# -- options and registry ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"d": 1}, "d must be between 2 and 4: below 2 there are no diagonals"),
        ({"d": 5}, "d must be between 2 and 4"),
        ({"n": 1}, "n must be between 2 and 9: a line needs two cells"),
        ({"n": 10}, "each coordinate of a move is one digit"),
        ({"n": "4"}, "option n takes a whole number"),
        ({"d": True}, "option d takes a whole number"),
        ({"d": 3.0}, "option d takes a whole number"),
    ],
)
def test_options_are_validated(options: dict[str, Any], message: str) -> None:
    with pytest.raises(InvalidOptionError, match=message):
        Qubic(**options)


def test_registry() -> None:
    assert QUBIC.key == "qubic"
    assert QUBIC.spec == "qubic"
    assert QUBIC.options == {"n": 4, "d": 3}
    assert parse_spec("qubic") == QUBIC
    assert parse_spec("qubic:n=3:d=4") == Qubic(n=3, d=4)
    assert Qubic(n=3, d=4).spec == "qubic:n=3:d=4"
    assert make_game("qubic", d="2").spec == "qubic:d=2"
    assert repr(QUBIC) == "Qubic(n=4, d=3)"
    assert Qubic.title == "Qubic"
    with pytest.raises(InvalidOptionError):
        parse_spec("qubic:n=12")


# -- diagram --------------------------------------------------------------------------


def test_diagram_3d() -> None:
    state = QUBIC.initial().play_text("111").play_text("234").play_text("444")
    assert state.diagram() == "\n".join(
        [
            "   layer 1   layer 2   layer 3   layer 4",
            "   1 2 3 4   1 2 3 4   1 2 3 4   1 2 3 4",
            "1  X . . .   . . . .   . . . .   . . . .",
            "2  . . . .   . . . .   . . . .   . . . .",
            "3  . . . .   . . . O   . . . .   . . . .",
            "4  . . . .   . . . .   . . . .   . . . X",
        ]
    )


def test_diagram_2d() -> None:
    assert Qubic(n=3, d=2).initial().play_text("23").diagram() == "   1 2 3\n1  . . .\n2  . . X\n3  . . ."


@pytest.mark.parametrize("spec", ["qubic", "qubic:n=9", "qubic:n=4:d=4", "qubic:n=5:d=4", "qubic:n=2:d=2"])
def test_diagram_fits_80_columns(spec: str) -> None:
    game = parse_spec(spec)
    state = game.initial().play(game.cells - 1)
    diagram = state.diagram()
    assert max(map(len, diagram.splitlines())) <= 80
    assert diagram.count("X") == 1
    assert diagram.count(".") == game.cells - 1


# -- the reference implementation --------------------------------------------------


@pytest.mark.parametrize(
    ("spec", "games"),
    [
        ("qubic", 30),
        pytest.param("qubic", 150, marks=pytest.mark.slow),
        ("qubic:n=3", 60),
        ("qubic:d=2", 60),
        ("qubic:n=2", 40),
        # The larger shapes in make test-slow: the same rules, ten times the cells.
        pytest.param("qubic:n=3:d=4", 20, marks=pytest.mark.slow),
        pytest.param("qubic:n=5", 10, marks=pytest.mark.slow),
    ],
)
def test_matches_reference_on_random_playouts(spec: str, games: int) -> None:
    game = parse_spec(spec)
    for seed in range(games):
        rng = random.Random(seed)
        state = game.initial()
        mirror = ref.RefQubic(game.n, game.d)
        while True:
            moves = state.legal_moves()
            assert moves == mirror.legal_moves(), (seed, state.to_text())
            expected = mirror.outcome()
            assert state.status == {None: "ongoing", "draw": "draw", "x": "x-wins", "o": "o-wins"}[expected]
            if not moves:
                break
            move = rng.choice(moves)
            state = state.play(move)
            mirror.play(move)


def _perft_entries() -> list[dict[str, Any]]:
    entries: list[dict[str, Any]] = json.loads(PERFT_FILE.read_text())
    return entries


@pytest.mark.parametrize("entry", _perft_entries(), ids=lambda e: f"{e['spec']} {e['position']}")
def test_perft_table(entry: dict[str, Any]) -> None:
    """The engine reproduces every count; the (slow) reference the small ones: all of
    them were checked against it when the file was written."""
    game = parse_spec(entry["spec"])
    assert isinstance(game, Qubic)
    start = game.initial() if entry["position"] is None else game.parse_position(entry["position"])
    assert [perft(start, depth) for depth in range(1, len(entry["counts"]) + 1)] == entry["counts"]
    mirror = _reference_for(start)
    for depth, count in enumerate(entry["counts"], start=1):
        if count <= 5000:
            assert mirror.perft(depth) == count


def test_perft_table_has_wins_within_depth() -> None:
    """Some entries must reach positions where a game ends early, or they test nothing
    about lines."""
    reduced = 0
    for entry in _perft_entries():
        game = parse_spec(entry["spec"])
        start = game.initial() if entry["position"] is None else game.parse_position(entry["position"])
        empty = len(start.legal_moves())
        paths = 1
        for depth, count in enumerate(entry["counts"]):
            paths *= empty - depth
            reduced += count < paths
    assert reduced >= 2
