"""Rule edges of classic, m,n,k and Forget mode, as tables."""

from __future__ import annotations

from typing import Any

import pytest

from noughts import (
    IllegalMoveError,
    InvalidMoveError,
    InvalidOptionError,
    InvalidPositionError,
    Reason,
    make_game,
    parse_spec,
)


def play(spec: str, moves: str) -> Any:
    state = parse_spec(spec).initial()
    for move in moves.split():
        state = state.play_text(move)
    return state


@pytest.mark.parametrize(
    ("spec", "moves", "status"),
    [
        ("classic", "1 4 2 5 3", "x-wins"),  # top row
        ("classic", "1 2 4 3 7", "x-wins"),  # left column
        ("classic", "2 1 3 5 4 9", "o-wins"),  # diagonal
        ("classic", "3 1 5 2 7", "x-wins"),  # anti-diagonal
        ("classic", "1 2 3 5 4 6 8 7 9", "draw"),  # full board
        ("classic", "5 1 9 3 2 8 4 6", "ongoing"),
        ("mnk:m=4:n=4:k=4", "a1 a2 b1 b2 c1 c2 d1", "x-wins"),
        ("mnk:m=5:n=3:k=3", "c1 a1 d2 a2 e3", "x-wins"),  # diagonal on a wide board
        ("mnk:m=5:n=3:k=3", "a1 b1 a2 b2 e3 b3", "o-wins"),
        ("mnk:m=15:n=15:k=5", "h8 a1 i9 a2 j10 a3 k11 a4 l12", "x-wins"),
        ("mnk:m=15:n=15:k=5", "h8 a1 i9 a2 j10 a3 k11 a4 g7", "x-wins"),
        ("mnk:m=15:n=15:k=5", "a1 a2 b1 b2 c1 c2 d1 d2", "ongoing"),  # four is not five
    ],
)
def test_results(spec: str, moves: str, status: str) -> None:
    assert play(spec, moves).status == status


@pytest.mark.parametrize(
    ("spec", "moves", "text", "error", "message"),
    [
        ("classic", "5", "5", IllegalMoveError, "cell 5 is taken"),
        ("classic", "", "0", InvalidMoveError, "numbered 1 to 9"),
        ("classic", "", "10", InvalidMoveError, "numbered 1 to 9"),
        ("classic", "", "centre", InvalidMoveError, "not a move"),
        ("classic", "", "d1", InvalidMoveError, "off the board"),
        ("classic", "1 4 2 5 3", "9", IllegalMoveError, "game is over"),
        ("mnk:m=15:n=15:k=5", "h8", "H8", IllegalMoveError, "cell h8 is taken"),
        ("mnk:m=15:n=15:k=5", "", "p1", InvalidMoveError, "columns a-o, rows 1-15"),
        ("classic:forget=true", "1 2 3 4 5 6", "1", IllegalMoveError, "cell 1 is taken"),
    ],
)
def test_refusals(spec: str, moves: str, text: str, error: type[Exception], message: str) -> None:
    state = play(spec, moves)
    with pytest.raises(error, match=message):
        state.play_text(text)


def test_aliases() -> None:
    game = parse_spec("classic")
    assert game.parse_move(" 5 ") == 4
    assert game.parse_move("b2") == 4  # coordinates work on every m,n,k board
    assert parse_spec("mnk:m=4:n=4:k=4").parse_move("16") == 15


class TestForget:
    def test_the_oldest_mark_goes_before_the_line_is_checked(self) -> None:
        # x: 1, 5, 3 -> x plays 9: its mark on 1 vanishes first, so 1-5-9 is no line
        state = play("classic:forget=true", "1 2 5 4 3 8 9")
        assert state.status == "ongoing"
        assert state.to_text() == ".ox/ox./.ox o x=5,3,9 o=2,4,8"
        # x's line 3-5-7 with its three newest marks wins
        assert play("classic:forget=true", "1 2 3 4 5 6 7").status == "x-wins"

    def test_the_mark_about_to_vanish_still_blocks_its_cell(self) -> None:
        state = play("classic:forget=true", "1 2 3 4 5 6")
        with pytest.raises(IllegalMoveError, match="cell 1 is taken"):
            state.play_text("1")

    def test_a_board_never_fills(self) -> None:
        state = play("classic:forget=true", "5 1 9 3 2 8 4 6 7")
        assert state.x.bit_count() == 3
        assert state.o.bit_count() == 3

    def test_third_repetition_draws(self) -> None:
        # x cycles over 1 2 6 7 and o over 3 4 8 9, never making a line: the position
        # after ply 6 comes back every 8 plies, the third time after ply 22.
        cycle = ["1", "3", "2", "4", "6", "8", "7", "9"]
        state = parse_spec("classic:forget=true").initial()
        seen: dict[str, int] = {}
        for ply in range(200):
            if state.is_over:
                break
            seen[state.to_text()] = seen.get(state.to_text(), 0) + 1
            state = state.play_text(cycle[ply % len(cycle)])
        assert state.outcome is not None
        assert state.outcome.reason is Reason.REPETITION
        assert seen[state.to_text()] == 2  # this is its third occurrence
        assert ply == 22

    def test_keep_changes_the_memory(self) -> None:
        state = play("mnk:m=4:n=4:k=3:forget=true:keep=4", "1 2 3 4 5 6 7 8 9")
        assert state.x.bit_count() == 4


@pytest.mark.parametrize(
    ("key", "options", "message"),
    [
        ("mnk", {"m": 0}, "between 1 and 26"),
        ("mnk", {"m": 27}, "between 1 and 26"),
        ("mnk", {"k": 4}, "k must be between 1 and 3"),
        ("mnk", {"m": "four"}, "whole number"),
        ("classic", {"m": 4}, "classic has no option 'm'"),
        ("classic", {"keep": 4}, "only applies in Forget mode"),
        ("classic", {"forget": "maybe"}, "true or false"),
        ("classic", {"forget": True, "keep": 2}, "at least k=3"),
    ],
)
def test_bad_options(key: str, options: dict[str, object], message: str) -> None:
    with pytest.raises(InvalidOptionError, match=message):
        make_game(key, **options)


@pytest.mark.parametrize(
    ("spec", "text", "message"),
    [
        ("classic", "xxx/oo./... x", "x moves first"),
        ("classic", "xxx/ooo/... x", "both players have a line"),
        ("classic", "xxx/oo./o.. x", "player to move cannot already have a line"),
        ("classic", "xxx/ooo/x.. o", "both players have a line"),
        ("classic", "xx/oo./... x", "3 rows of 3 cells"),
        ("classic", "xq./.../... x", "'q' is not a cell"),
        ("classic", "x../.../... z", "not a player"),
        ("classic:forget=true", "x../.../... o x=2 o=-", "exactly the x marks"),
        ("classic:forget=true", "x../.../... o", "x=CELLS"),
        # Forget mode counts no moves, but a side with no mark has not moved yet.
        ("classic:forget=true", "x../.../... x x=1 o=-", "no marks has not moved yet"),
        ("classic:forget=true", "o../.../... o x=- o=1", "no marks has not moved yet"),
        ("classic:forget=true", ".../.../... o x=- o=-", "no marks has not moved yet"),
    ],
)
def test_bad_positions(spec: str, text: str, message: str) -> None:
    with pytest.raises(InvalidPositionError, match=message):
        parse_spec(spec).parse_position(text)


def test_a_parsed_finished_position_knows_its_result() -> None:
    state = parse_spec("classic").parse_position("xxx/oo./... o")
    assert state.status == "x-wins"
    assert state.legal_moves() == []
    assert parse_spec("classic").parse_position("xox/xoo/oxx o").status == "draw"
