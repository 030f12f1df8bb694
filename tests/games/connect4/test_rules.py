"""Connect Four's rules as tables, and move for move against OpenSpiel's own
``connect_four`` over random games."""

from __future__ import annotations

import random
from typing import Any

import pytest

from noughts import IllegalMoveError, InvalidMoveError, InvalidOptionError, InvalidPositionError, Reason, parse_spec
from noughts.games.connect4.rules import ConnectFour, ConnectFourState


def play(spec: str, moves: str) -> Any:
    state = parse_spec(spec).initial()
    for move in moves.split():
        state = state.play_text(move)
    return state


@pytest.mark.parametrize(
    ("moves", "status", "line"),
    [
        ("4 4 4 4 4 4", "ongoing", None),  # a column fills from the bottom
        ("1 1 2 2 3 3 4", "x-wins", (35, 36, 37, 38)),  # the bottom row
        ("4 5 4 5 4 5 4", "x-wins", (17, 24, 31, 38)),  # a column
        ("1 2 2 3 3 4 3 4 4 7 4", "x-wins", (17, 23, 29, 35)),  # a diagonal up to the right
        ("7 6 6 5 5 4 5 4 4 1 4", "x-wins", (17, 25, 33, 41)),  # and up to the left
        ("1 2 1 2 1 2 7 2", "o-wins", (15, 22, 29, 36)),
    ],
)
def test_marks_drop_and_lines_win(moves: str, status: str, line: tuple[int, ...] | None) -> None:
    state = play("connect4", moves)
    assert state.status == status
    assert state.winning_line() == line


def test_a_full_board_without_a_line_is_a_draw() -> None:
    # Columns filled in pairs of pairs (1 1 2 2 ... then shifted) never line up four.
    order = "1 2 1 2 1 2 2 1 2 1 2 1 3 4 3 4 3 4 4 3 4 3 4 3 5 6 5 6 5 6 6 5 6 5 6 5 7 7 7 7 7 7"
    state = play("connect4", order)
    assert state.status == "draw" and state.outcome is not None and state.outcome.reason is Reason.FULL
    assert state.legal_moves() == []


def test_the_text_is_the_board_from_the_top() -> None:
    state = play("connect4", "4 4 3")
    assert state.to_text() == "......./......./......./......./...o.../..xx... o"
    assert ConnectFourState.from_text(state.to_text()) == state
    assert state.diagram().splitlines()[0] == "1 2 3 4 5 6 7"
    assert state.landing(3) == 24 and state.landing(0) == 35


@pytest.mark.parametrize(
    ("moves", "move", "error", "says"),
    [
        ("4 4 4 4 4 4", "4", IllegalMoveError, "column 4 is full"),
        ("", "8", InvalidMoveError, "1 to 7"),
        ("", "0", InvalidMoveError, "1 to 7"),
        ("", "d", InvalidMoveError, "give its number"),
        ("", "44", InvalidMoveError, "not a column"),
        ("", "", InvalidMoveError, "not a column"),
    ],
)
def test_bad_moves_say_why_and_change_nothing(moves: str, move: str, error: type[Exception], says: str) -> None:
    state = play("connect4", moves)
    before = state.to_text()
    with pytest.raises(error, match=says):
        state.play_text(move)
    assert state.to_text() == before


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("......./......./......./......./...x.../....... o", "floats in column 4"),
        ("......./......./......./......./......./...x... x", "x moves first"),
        ("......./......./......./......./......./...x..", "'ROWS TURN'"),
        ("....../......./......./......./......./....... x", "6 rows of 7"),
        ("......./......./......./o....../oo.o.../xxxx... x", "the player to move"),
    ],
)
def test_impossible_positions_are_refused(text: str, says: str) -> None:
    with pytest.raises(InvalidPositionError, match=says):
        parse_spec("connect4").parse_position(text)


@pytest.mark.parametrize(
    ("options", "says"),
    [({"m": 0}, "between 1 and"), ({"k": 9}, "k must be"), ({"m": "7"}, "whole number"), ({"n": True}, "whole")],
)
def test_bad_options_are_refused(options: dict[str, Any], says: str) -> None:
    with pytest.raises(InvalidOptionError, match=says):
        ConnectFour(**options)


def test_other_sizes_are_options() -> None:
    game = parse_spec("connect4:m=8:n=7:k=5")
    assert (game.m, game.n, game.k) == (8, 7, 5)  # type: ignore[attr-defined]
    assert game.spec == "connect4:m=8:n=7:k=5"
    assert parse_spec("connect4").spec == "connect4"
    assert game.variant.notation(game).startswith("A move is the column's number, 1-8")


def _against_openspiel(games: int, seed: int) -> int:
    """Random games played move for move here and in OpenSpiel's connect_four: the same
    legal moves, board and turn at every step, the same result at the end."""
    pyspiel = pytest.importorskip("pyspiel", reason="open-spiel is a test dependency: pip install -e '.[dev]'")
    spiel = pyspiel.load_game("connect_four")
    rng = random.Random(seed)
    plies = 0
    for _ in range(games):
        state, theirs = parse_spec("connect4").initial(), spiel.new_initial_state()
        while True:
            assert state.is_over == theirs.is_terminal()
            board = state.to_text().split()[0].replace("/", "\n") + "\n"
            assert board == str(theirs)
            if state.is_over:
                break
            assert state.legal_moves() == theirs.legal_actions()
            assert theirs.current_player() == (0 if state.turn.value == "x" else 1)
            move = rng.choice(state.legal_moves())
            state, plies = state.play(move), plies + 1
            theirs.apply_action(move)
        winner = state.outcome.winner if state.outcome else None
        assert theirs.returns() == (
            [0.0, 0.0] if winner is None else [1.0, -1.0] if winner.value == "x" else [-1.0, 1.0]
        )
    return plies


def test_the_same_game_as_openspiels_connect_four() -> None:
    assert _against_openspiel(300, seed=1) > 300 * 7


@pytest.mark.slow
def test_the_same_game_as_openspiels_connect_four_over_10000_games() -> None:
    assert _against_openspiel(10_000, seed=2) > 10_000 * 7
