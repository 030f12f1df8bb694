"""The 3x3 board's cells by name: integer moves from 0, their texts from 1."""

from __future__ import annotations

import pytest

from noughts import Cell, InvalidMoveError, parse_spec


def test_each_cell_is_the_integer_move_its_text_names_in_every_3x3_game() -> None:
    classic = parse_spec("classic")
    assert [cell.text for cell in Cell] == [classic.move_text(move) for move in range(9)]
    assert [Cell.parse(cell.text) for cell in Cell] == list(Cell) == list(range(9))
    ultimate = parse_spec("ultimate")
    for board in Cell:
        for cell in Cell:
            assert ultimate.move_text(board * 9 + cell) == board.text + cell.text
    # A Cell plays as the int it is, and leaves the same position (its hash too).
    forget = parse_spec("classic:forget").initial()
    assert forget.play(Cell.CENTRE) == forget.play(4) and hash(forget.play(Cell.CENTRE)) == hash(forget.play(4))
    assert forget.play(Cell.CENTRE).to_text() == forget.play_text("5").to_text()


@pytest.mark.parametrize("text", ["0", "10", "", "a1", "５"])
def test_a_text_that_is_no_cell_is_refused(text: str) -> None:
    with pytest.raises(InvalidMoveError, match="not a cell of a 3x3 board"):
        Cell.parse(text)
