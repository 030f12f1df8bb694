"""What the games played by putting marks on cells share: classic/mnk, qubic (and, for
the position text, the nine boards of ultimate).

A `MarksState` is two bitmasks, ``x`` and ``o`` (bit i = cell i); its game says how many
cells there are and how a cell is written.
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Sequence
from typing import Any, TypeVar

from noughts.core import Game, IllegalMoveError, InvalidMoveError, InvalidPositionError, Outcome, Player, State, shown
from noughts.games.geometry import bits, has_line

__all__ = [
    "MarksGame",
    "MarksState",
    "check_forget_turn",
    "check_turn",
    "line_outcome",
    "parse_marks",
    "parse_rows",
    "parse_turn",
]

S = TypeVar("S", bound="MarksState")


class MarksGame(Game[S, int]):
    """A game whose positions are marks on cells 0..cells-1; its moves are those cells
    (Connect Four's are columns, and its state says so)."""

    #: The number of cells, and the mask with a bit for each.
    cells: int
    full: int

    @abstractmethod
    def move_text(self, move: int) -> str: ...

    def _map_move(self, move: int, cells: Sequence[int]) -> int:
        # A move is a cell (in Connect Four a column: the cell of its top row, which a
        # mirror keeps in the top row).
        return cells[move]


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
            raise InvalidMoveError(f"{shown(move)} is not a cell of this board")
        if (self.x | self.o) >> move & 1:
            raise IllegalMoveError(f"cell {self.game.move_text(move)} is taken")

    def rows_text(self, m: int, n: int) -> str:
        """The board as a position text writes it: `n` rows of `m` cells from the top
        (``x``, ``o``, ``.``), joined by ``/``."""
        cells = "".join("." if (p := self.cell(i)) is None else p.value for i in range(m * n))
        return "/".join(cells[r * m : (r + 1) * m] for r in range(n))

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


def parse_rows(text: str, m: int, n: int) -> tuple[int, int]:
    """The x and o masks of a board written as `n` rows of `m` cells joined by ``/``."""
    rows = text.split("/")
    if len(rows) != n or any(len(r) != m for r in rows):
        raise InvalidPositionError(f"the board needs {n} rows of {m} cells separated by '/', got {shown(text)}")
    return parse_marks("".join(rows))


def check_turn(x: int, o: int, turn: Player) -> None:
    """Refuse mark counts that alternate moves from x's first cannot give."""
    difference = x.bit_count() - o.bit_count()
    if difference not in (0, 1) or (difference == 1) != (turn is Player.O):
        raise InvalidPositionError("x moves first: x has as many marks as o (o to move: one more)")


def check_forget_turn(x: int, o: int, turn: Player) -> None:
    """Forget mode keeps the number of marks, not of moves (a mark vanishes only as its
    owner puts down another): only "who has moved at all" is left to check."""
    if (x == 0 and (o != 0 or turn is Player.O)) or (turn is Player.X and (x == 0) != (o == 0)):
        raise InvalidPositionError("x moves first: a player with no marks has not moved yet")


def line_outcome(x: int, o: int, turn: Player, lines: tuple[int, ...]) -> Outcome | None:
    """The game's end where the player who just moved has a line (`lines`: masks);
    refuse lines a game cannot have reached (both players', the mover's)."""
    x_line, o_line = has_line(x, lines), has_line(o, lines)
    if x_line and o_line:
        raise InvalidPositionError("both players have a line")
    if (x_line and turn is Player.X) or (o_line and turn is Player.O):
        raise InvalidPositionError("the player to move cannot already have a line")
    return Outcome(turn.other) if x_line or o_line else None
