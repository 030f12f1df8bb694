"""What the games played by putting marks on cells share: classic/mnk, qubic (and, for
the position text, the nine boards of ultimate).

A `MarksState` is two bitmasks, ``x`` and ``o`` (bit i = cell i); its game says how many
cells there are and how a cell is written.
"""

from __future__ import annotations

from abc import abstractmethod
from typing import Any, TypeVar

from noughts.core import Game, IllegalMoveError, InvalidMoveError, InvalidPositionError, Player, State
from noughts.games.geometry import bits

__all__ = ["MarksGame", "MarksState", "parse_marks", "parse_turn"]

S = TypeVar("S", bound="MarksState")


class MarksGame(Game[S, int]):
    """A game whose moves are cell indices 0..cells-1."""

    #: The number of cells, and the mask with a bit for each.
    cells: int
    full: int

    @abstractmethod
    def move_text(self, move: int) -> str: ...


class MarksState(State[int]):
    """A position as the cells of each player; a move puts a mark on an empty cell."""

    __slots__ = ("o", "x")

    game: MarksGame[Any]
    x: int
    """X's cells, as a bitmask (bit i: cell i)."""
    o: int
    """O's cells, as a bitmask."""

    def _set_marks(self, x: int, o: int) -> None:
        set_ = object.__setattr__
        set_(self, "x", x)
        set_(self, "o", o)

    def legal_moves(self) -> list[int]:
        if self.outcome is not None:
            return []
        return bits(self.game.full & ~(self.x | self.o))

    def _check(self, move: int) -> None:
        if not isinstance(move, int) or isinstance(move, bool) or not 0 <= move < self.game.cells:
            raise InvalidMoveError(f"{move!r} is not a cell of this board")
        if (self.x | self.o) >> move & 1:
            raise IllegalMoveError(f"cell {self.game.move_text(move)} is taken")

    def cell(self, index: int) -> Player | None:
        """Whose mark is on cell `index`, if anyone's."""
        if self.x >> index & 1:
            return Player.X
        if self.o >> index & 1:
            return Player.O
        return None


def parse_marks(cells: str) -> tuple[int, int]:
    """The x and o masks of the cells of a position text (``x``, ``o``, ``.`` or ``-``),
    already cut out of their rows, in index order."""
    x = o = 0
    for i, ch in enumerate(cells.lower()):
        if ch == "x":
            x |= 1 << i
        elif ch == "o":
            o |= 1 << i
        elif ch not in ".-":
            raise InvalidPositionError(f"{ch!r} is not a cell: use x, o or .")
    return x, o


def parse_turn(text: str) -> Player:
    """The player to move of a position text."""
    try:
        return Player.from_text(text)
    except ValueError as e:
        raise InvalidPositionError(str(e)) from None
