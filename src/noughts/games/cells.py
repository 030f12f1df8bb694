"""Names for the nine cells of a 3x3 board, as the integer moves the API plays.

An integer move counts from 0, in reading order; its text, as players write it, counts
from 1: cell 4 is the centre, written ``5``. `Cell` names the nine, so that code need
not count: ``state.play(Cell.CENTRE)`` is ``state.play_text("5")`` in tic-tac-toe. A
`Cell` is an `int`, and a move the API returns compares equal to it.

>>> from noughts import parse_spec
>>> state = parse_spec("classic").initial()
>>> state.play(Cell.CENTRE) == state.play_text("5") == state.play(4)
True
>>> Cell.CENTRE.text, Cell.parse("3"), [Cell(move).name for move in state.legal_moves()[:2]]
('5', <Cell.TOP_RIGHT: 2>, ['TOP_LEFT', 'TOP_CENTRE'])

Ultimate's and nine-board's local boards are numbered as the cells are, and a move there
is ``board * 9 + cell`` (its text is the board's digit then the cell's):

>>> ultimate = parse_spec("ultimate").initial()
>>> move = Cell.CENTRE * 9 + Cell.TOP_RIGHT
>>> move, ultimate.move_text(move), ultimate.play(move) == ultimate.play_text("53")
(38, '53', True)
"""

from __future__ import annotations

import enum

from noughts.core import InvalidMoveError, shown

__all__ = ["Cell"]


class Cell(enum.IntEnum):
    """The cells of a 3x3 board by where they sit, valued as integer moves (0-8 in
    reading order); `text` is the move's text (1-9)."""

    TOP_LEFT = 0
    """Move 0, written ``1``."""
    TOP_CENTRE = 1
    """Move 1, written ``2``."""
    TOP_RIGHT = 2
    """Move 2, written ``3``."""
    MIDDLE_LEFT = 3
    """Move 3, written ``4``."""
    CENTRE = 4
    """Move 4, written ``5``."""
    MIDDLE_RIGHT = 5
    """Move 5, written ``6``."""
    BOTTOM_LEFT = 6
    """Move 6, written ``7``."""
    BOTTOM_CENTRE = 7
    """Move 7, written ``8``."""
    BOTTOM_RIGHT = 8
    """Move 8, written ``9``."""

    @property
    def text(self) -> str:
        """The cell as a move text: its digit, counted from 1 (``"5"`` for the centre)."""
        return str(self.value + 1)

    @classmethod
    def parse(cls, text: str) -> Cell:
        """The cell a digit 1-9 names; InvalidMoveError for any other text."""
        digit = text.strip()
        if len(digit) != 1 or not "1" <= digit <= "9":
            raise InvalidMoveError(f"{shown(text)} is not a cell of a 3x3 board: write a digit 1 to 9")
        return cls(int(digit) - 1)
