"""Connect Four: the m,n,k-game with gravity. A mark drops to the lowest empty cell of
the column chosen; k in a line (a row, a column or a diagonal) wins. ``connect4`` is 7
columns, 6 rows, four in a row; other sizes are options (``connect4:m=8:n=7``).

Moves are columns, 0 to m-1; a move's text is the column's number, 1 to m from the
left (``4`` is the centre of seven columns), as Pascal Pons's solver and John Tromp's
tables write a game (a game is the string of its columns, ``4453``). Cells are numbered
in reading order from the top row, as on every board of the family, so a column fills
from its bottom row up.

Position text: the rows from the top joined by ``/`` (``x``, ``o``, ``.``), a space and
the player to move; a mark never floats above an empty cell::

    ......./......./......./......./......./...x... o

>>> state = ConnectFour().initial().play_text("4").play_text("4")
>>> state.to_text()
'......./......./......./......./...o.../...x... x'
>>> state.landing(3), state.legal_move_texts()
(24, ['1', '2', '3', '4', '5', '6', '7'])
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import ClassVar

from noughts.core import (
    IllegalMoveError,
    InvalidMoveError,
    InvalidOptionError,
    InvalidPositionError,
    Outcome,
    Player,
    Reason,
    check_whole_numbers,
    shown,
)
from noughts.games.geometry import board_symmetries, full_line, has_line, line_masks, mapped_mask, masks_through
from noughts.games.marks import MarksGame, MarksState, check_turn, line_outcome, parse_rows, parse_turn
from noughts.variant import OptionSpec, Trait, Variant

__all__ = ["MAX_COLUMNS", "ConnectFour", "ConnectFourState"]

#: Columns are numbered 1 to 26 (a move's text is its number).
MAX_COLUMNS = 26
MAX_ROWS = 26


@dataclass(frozen=True)
class ConnectFour(MarksGame["ConnectFourState"]):
    """`m` columns, `n` rows, `k` in a row wins; marks drop to the bottom of a column."""

    m: int = 7
    """Columns."""
    n: int = 6
    """Rows."""
    k: int = 4
    """Marks in a line that win."""

    title: ClassVar[str] = "Connect Four"
    variants: ClassVar[tuple[Variant, ...]] = ()  # below the class: they name its rules

    def __post_init__(self) -> None:
        check_whole_numbers(self, "m", "n", "k")
        if not (1 <= self.m <= MAX_COLUMNS and 1 <= self.n <= MAX_ROWS):
            raise InvalidOptionError(f"m (columns) and n (rows) must be between 1 and {MAX_COLUMNS}")
        if not 2 <= self.k <= max(self.m, self.n):
            raise InvalidOptionError(
                f"k must be between 2 and {max(self.m, self.n)} on {self.m} columns, {self.n} rows"
            )
        set_ = object.__setattr__
        set_(self, "cells", self.m * self.n)
        set_(self, "full", (1 << (self.m * self.n)) - 1)
        set_(self, "through", masks_through((self.n, self.m), self.k))
        set_(self, "lines", line_masks((self.n, self.m), self.k))
        set_(self, "column_masks", tuple(sum(1 << (r * self.m + c) for r in range(self.n)) for c in range(self.m)))

    # Derived from the options in __post_init__: not options, not compared.
    cells: int = field(init=False, repr=False, compare=False)
    """Derived: the number of cells, ``m * n``, in reading order from the top row."""
    full: int = field(init=False, repr=False, compare=False)
    """Derived: the mask of every cell."""
    through: tuple[tuple[int, ...], ...] = field(init=False, repr=False, compare=False)
    """Derived: for every cell, the masks of the lines through it."""
    lines: tuple[int, ...] = field(init=False, repr=False, compare=False)
    """Derived: every winning line as a bitmask of its cells."""
    column_masks: tuple[int, ...] = field(init=False, repr=False, compare=False)
    """Derived: every column's cells as a bitmask."""

    @property
    def key(self) -> str:
        return "connect4"

    def initial(self) -> ConnectFourState:
        return ConnectFourState._make(self, 0, 0, Player.X)

    def _symmetries(self) -> tuple[tuple[int, ...], ...]:
        # Only the mirror (columns reversed): gravity has an up and a down.
        identity, mirror = board_symmetries(self.m, self.n)[:2]
        return tuple(dict.fromkeys((tuple(identity), tuple(mirror))))

    # -- notation -----------------------------------------------------------------

    def move_text(self, move: int) -> str:
        if not isinstance(move, int) or isinstance(move, bool) or not 0 <= move < self.m:
            raise InvalidMoveError(f"{shown(move)} is not a column of this board (0 to {self.m - 1})")
        return str(move + 1)

    def parse_move(self, text: str) -> int:
        t = text.strip()
        if t.isascii() and t.isdigit() and len(t) <= 2:
            number = int(t)
            if 1 <= number <= self.m:
                return number - 1
        raise InvalidMoveError(f"{shown(t)} is not a column: give its number, 1 to {self.m}")

    def parse_position(self, text: str) -> ConnectFourState:
        parts = text.split()
        if len(parts) != 2:
            raise InvalidPositionError(f"a {self.spec} position is 'ROWS TURN', got {shown(text)}")
        x, o = parse_rows(parts[0], self.m, self.n)
        turn = parse_turn(parts[1])
        taken = x | o
        for cell in range(self.cells - self.m):  # every row but the bottom one
            if taken >> cell & 1 and not taken >> (cell + self.m) & 1:
                column = cell % self.m + 1
                raise InvalidPositionError(f"a mark floats in column {column}: marks drop to the lowest empty cell")
        check_turn(x, o, turn)
        return ConnectFourState._make(self, x, o, turn, line_outcome(x, o, turn, self.lines))


def _rules(game: ConnectFour | None) -> list[str]:
    if game is None or (game.m, game.n, game.k) == (7, 6, 4):
        size = "A board of 7 columns and 6 rows, standing up (other sizes are options)."
        k = "Four"
    else:
        size = f"A board of {game.m} columns and {game.n} rows, standing up."
        k = str(game.k)
    return [
        size + " Players take turns dropping their mark, X or O, into a column that is not full: it falls to "
        "the lowest empty cell. X moves first.",
        f"{k} marks in a straight line (a row, a column or a diagonal) win. A full board without a line is a "
        "draw. On the usual board the first player can force a win, starting in the centre column.",
    ]


def _notation(game: ConnectFour | None) -> str:
    m = 7 if game is None else game.m
    centre = f": {(m + 1) // 2} is the centre" if m % 2 else ""
    return f"A move is the column's number, 1-{m} from the left{centre}; a game is its columns in order (4453...)."


ConnectFour.variants = (
    Variant(
        key="connect4",
        name="Connect Four",
        summary="marks drop down the columns, four in a row wins",
        board="grid",
        traits=frozenset({Trait.GRAVITY}),
        knowledge="noughts.games.connect4.knowledge:ConnectFourKnowledge",
        rules=_rules,
        notation=_notation,
        options=(
            OptionSpec("m", "columns (m)", "board width", 4, 12),
            OptionSpec("n", "rows (n)", "board height", 4, 10),
            OptionSpec("k", "in a row (k)", "marks in a line to win", 3, 6),
        ),
        examples=("connect4", "connect4:m=8:n=7"),
    ),
)


class ConnectFourState(MarksState):
    """A Connect Four position: each player's cells as a bitmask (bit i: cell i, in
    reading order from the top row); a move is a column."""

    __slots__ = ()

    game: ConnectFour

    @classmethod
    def standard_game(cls) -> ConnectFour:
        """Connect Four on 7 columns, 6 rows (``ConnectFour()``)."""
        return ConnectFour()

    @classmethod
    def _make(cls, game: ConnectFour, x: int, o: int, turn: Player, outcome: Outcome | None = None) -> ConnectFourState:
        self = object.__new__(cls)
        if outcome is None and (x | o) == game.full:
            outcome = Outcome(None, Reason.FULL)
        self._init(game, turn, outcome, (x, o, turn))
        self._set_marks(x, o)
        return self

    def landing(self, column: int) -> int:
        """The cell a mark dropped into `column` lands on (IllegalMoveError when the
        column is full)."""
        game = self.game
        empty = game.column_masks[column] & ~(self.x | self.o)
        if not empty:
            raise IllegalMoveError(f"column {column + 1} is full")
        return empty.bit_length() - 1  # the lowest empty cell: the highest index

    def top(self, column: int) -> int | None:
        """The cell of the column's top mark (the last one dropped there), None when the
        column is empty."""
        taken = self.game.column_masks[column] & (self.x | self.o)
        return (taken & -taken).bit_length() - 1 if taken else None

    def legal_moves(self) -> list[int]:
        if self.outcome is not None:
            return []
        taken = self.x | self.o
        return [c for c in range(self.game.m) if not taken >> c & 1]  # the top cell of the column is free

    def _check(self, move: int) -> None:
        if not isinstance(move, int) or isinstance(move, bool) or not 0 <= move < self.game.m:
            raise InvalidMoveError(f"{shown(move)} is not a column of this board (0 to {self.game.m - 1})")
        if (self.x | self.o) >> move & 1:
            raise IllegalMoveError(f"column {move + 1} is full")

    def _mapped(self, cells: Sequence[int]) -> ConnectFourState:
        x, o = mapped_mask(self.x, cells), mapped_mask(self.o, cells)
        return ConnectFourState._make(self.game, x, o, self.turn, self.outcome)

    def _apply(self, move: int) -> ConnectFourState:
        cell = self.landing(move)
        mine = (self.x if self.turn is Player.X else self.o) | 1 << cell
        outcome = Outcome(self.turn) if has_line(mine, self.game.through[cell]) else None
        x, o = (mine, self.o) if self.turn is Player.X else (self.x, mine)
        return ConnectFourState._make(self.game, x, o, self.turn.other, outcome)

    def winning_line(self) -> tuple[int, ...] | None:
        """The cells of the winner's line, in order along it; None unless the game was won."""
        if self.outcome is None or self.outcome.winner is None:
            return None
        return full_line(self.x if self.outcome.winner is Player.X else self.o, self.game.lines)

    # -- text ---------------------------------------------------------------------

    def to_text(self) -> str:
        return f"{self.rows_text(self.game.m, self.game.n)} {self.turn.value}"

    def diagram(self) -> str:
        game = self.game
        width = len(str(game.m))
        lines = [" ".join(f"{c + 1:>{width}}" for c in range(game.m))]
        for r in range(game.n):
            marks = (self.cell(r * game.m + c) for c in range(game.m))
            lines.append(" ".join(f"{p.value.upper() if p else '.':>{width}}" for p in marks))
        return "\n".join(lines)
