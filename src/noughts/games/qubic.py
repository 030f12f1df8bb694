"""Qubic: tic-tac-toe on a cube of side n in d dimensions, n in a line wins.

Qubic proper is 4x4x4 (n=4, d=3) with 76 lines; d=2 gives the flat n x n game and d=4
a hypercube. A cube of side n in d dimensions has ((n+2)^d - n^d) / 2 lines.

Moves are cell indices in row-major order with the last axis fastest: in 3-D the cell in
layer l, row r, column c (counted from 0) is ``l*n*n + r*n + c``. Notation: a move is d
digits, each 1 to n, from the highest axis down ("layer row column" in 3-D, "row column"
in 2-D, "block layer row column" in 4-D): ``111`` is the top-left cell of layer 1 and
``444`` the opposite corner of the cube. ``1-1-1``, ``1,1,1`` and ``1 1 1`` are aliases.

Position text: the cells (``x``, ``o``, ``.``) in rows of n separated by ``/``; in 3-D
the layers separated by ``|``, in 4-D the 3-D blocks separated by ``||``; then a space and
the player to move. After x on 111 and o on 122 of 4x4x4::

    x.../.o../..../....|..../..../..../....|..../..../..../....|..../..../..../.... x

>>> game = Qubic()
>>> state = game.initial().play_text("111").play_text("122")
>>> state.to_text().split("|")[0]
'x.../.o../..../....'
>>> len(game.line_cells)
76
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import ClassVar

from noughts.core import (
    InvalidMoveError,
    InvalidOptionError,
    InvalidPositionError,
    Outcome,
    Player,
    Reason,
    check_whole_numbers,
    shown,
)
from noughts.games.geometry import CubeSymmetries, has_line, line_masks, mapped_mask, masks_through
from noughts.games.geometry import lines as cell_lines
from noughts.games.marks import MarksGame, MarksState, parse_marks, parse_turn
from noughts.variant import OptionSpec, Trait, Variant

__all__ = ["MAX_DIMENSION", "MAX_SIDE", "Qubic", "QubicState"]

MAX_SIDE = 9  # one digit per coordinate
MAX_DIMENSION = 4
#: Separators between the slices of each axis in the position text, innermost last.
_SEPARATORS = ("||", "|", "/")
_AXIS_NAMES = ("block", "layer", "row", "column")
# ASCII digits (str.isdigit would accept superscripts), all together or one separator between each.
_MOVE = re.compile(r"^[0-9](?:\s*[-,\s]\s*[0-9])*$|^[0-9]+$", re.ASCII)
DIAGRAM_WIDTH = 80


@dataclass(frozen=True)
class Qubic(MarksGame["QubicState"]):
    """A cube of side `n` in `d` dimensions; n marks in a straight line win.

    >>> Qubic(n=3).spec
    'qubic:n=3'
    """

    n: int = 4
    """The side of the cube: cells per line, and marks in a line that win."""
    d: int = 3
    """Dimensions (3: a cube; 2: an n x n board)."""

    title: ClassVar[str] = "Qubic"
    variants: ClassVar[tuple[Variant, ...]] = ()  # below the class: they name its rules

    def __post_init__(self) -> None:
        check_whole_numbers(self, "n", "d")
        if not 2 <= self.d <= MAX_DIMENSION:
            raise InvalidOptionError(
                f"d must be between 2 and {MAX_DIMENSION}: below 2 there are no diagonals, "
                f"above {MAX_DIMENSION} the board cannot be written or drawn"
            )
        if not 2 <= self.n <= MAX_SIDE:
            raise InvalidOptionError(
                f"n must be between 2 and {MAX_SIDE}: a line needs two cells, "
                "and each coordinate of a move is one digit"
            )
        shape = (self.n,) * self.d
        set_ = object.__setattr__
        set_(self, "cells", self.n**self.d)
        set_(self, "full", (1 << self.n**self.d) - 1)
        set_(self, "line_cells", cell_lines(shape, self.n))
        set_(self, "lines", line_masks(shape, self.n))
        set_(self, "through", masks_through(shape, self.n))

    # Derived from the options in __post_init__: not options, not compared.
    cells: int = field(init=False, repr=False, compare=False)
    """Derived: the number of cells, ``n ** d``, numbered layer by layer."""
    full: int = field(init=False, repr=False, compare=False)
    """Derived: the mask of every cell."""
    line_cells: tuple[tuple[int, ...], ...] = field(init=False, repr=False, compare=False)
    """Derived: every winning line as its cells in order along the line, for UIs that draw
    it."""
    lines: tuple[int, ...] = field(init=False, repr=False, compare=False)
    """Derived: `line_cells` as bitmasks, in the same order."""
    through: tuple[tuple[int, ...], ...] = field(init=False, repr=False, compare=False)
    """Derived: for every cell, the masks of the lines through it (a move can only complete
    those)."""

    @property
    def key(self) -> str:
        return "qubic"

    def initial(self) -> QubicState:
        return QubicState._make(self, 0, 0, Player.X)

    def _symmetries(self) -> CubeSymmetries:
        return _cube_group(self.n, self.d)

    # -- notation -----------------------------------------------------------------

    def coordinates(self, move: int) -> tuple[int, ...]:
        """The 0-based coordinates of a cell, highest axis first."""
        out = []
        for _ in range(self.d):
            move, c = divmod(move, self.n)
            out.append(c)
        return tuple(reversed(out))

    def move_text(self, move: int) -> str:
        return "".join(str(c + 1) for c in self.coordinates(move))

    def _move_form(self) -> str:
        axes = " ".join(_AXIS_NAMES[-self.d :])
        return f"{self.d} digits 1-{self.n} ({axes}), like {'1' * self.d}"

    def parse_move(self, text: str) -> int:
        t = text.strip()
        if not _MOVE.match(t):
            raise InvalidMoveError(f"{shown(t)} is not a move: give {self._move_form()}")
        digits = [int(ch) for ch in t if ch.isdigit()]
        if len(digits) != self.d or not all(1 <= c <= self.n for c in digits):
            raise InvalidMoveError(f"{shown(t)} is not a cell of this board: give {self._move_form()}")
        move = 0
        for c in digits:
            move = move * self.n + c - 1
        return move

    def parse_position(self, text: str) -> QubicState:
        parts = text.split()
        if len(parts) != 2:
            raise InvalidPositionError(f"a {self.spec} position is 'CELLS TURN', got {shown(text)}")
        x, o = self._parse_cells(parts[0])
        turn = parse_turn(parts[1])
        surplus = x.bit_count() - o.bit_count()
        if surplus not in (0, 1) or (surplus == 1) != (turn is Player.O):
            raise InvalidPositionError("x moves first: x has as many marks as o (o to move: one more)")
        x_lines = [mask for mask in self.lines if x & mask == mask]
        o_lines = [mask for mask in self.lines if o & mask == mask]
        if x_lines and o_lines:
            raise InvalidPositionError("both players have a line")
        if (x_lines and turn is Player.X) or (o_lines and turn is Player.O):
            raise InvalidPositionError("the player to move cannot already have a line")
        won = x_lines or o_lines
        common = self.full
        for mask in won:
            common &= mask
        # The game stops at the first line, so every line of the winner was completed by
        # the same last move: they must all share a cell.
        if won and not common:
            raise InvalidPositionError(f"{turn.other} has lines that no single last move could have made")
        return QubicState._make(self, x, o, turn, Outcome(turn.other) if won else None)

    def _parse_cells(self, text: str) -> tuple[int, int]:
        separators = _SEPARATORS[-(self.d - 1) :]
        cells = _split(text.lower(), separators, self.n)
        if cells is None:
            raise InvalidPositionError(f"the board needs {self._layout(separators)}, got {shown(text)}")
        return parse_marks(cells)

    def _layout(self, separators: tuple[str, ...]) -> str:
        names = _AXIS_NAMES[-self.d :]
        parts = [f"{self.n} {names[a]}s separated by {sep!r}" for a, sep in enumerate(separators)]
        return ", each ".join(parts) + f", each of {self.n} cells"


def _split(text: str, separators: tuple[str, ...], n: int) -> str | None:
    """The cells of `text` in index order, or None unless it is n slices of n slices...
    along every axis, cut by `separators` from the highest axis down."""
    if not separators:
        return text if len(text) == n else None
    slices = text.split(separators[0])
    if len(slices) != n:
        return None
    out = ""
    for s in slices:
        inner = _split(s, separators[1:], n)
        if inner is None:
            return None
        out += inner
    return out


def _rules(game: Qubic | None) -> list[str]:
    if game is None or (game.n, game.d) == (4, 3):
        return [
            "Tic-tac-toe in a 4x4x4 cube: four layers of 4x4 cells, shown side by side and as a cube you can turn.",
            "Four in any straight line win: along a row, a column or a pillar through the layers, or any diagonal, "
            "76 lines in all. A full cube without a line is a draw. The first player can force a win.",
        ]
    shape = "x".join([str(game.n)] * game.d)
    return [
        f"Tic-tac-toe on a {shape} board: players take turns putting their mark in an empty cell, X first.",
        f"{game.n} in any straight line win, across a layer or through the layers, diagonals included. A full "
        "board without a line is a draw.",
    ]


def _notation(game: Qubic | None) -> str:
    n, d = (4, 3) if game is None else (game.n, game.d)
    axes = " ".join(_AXIS_NAMES[MAX_DIMENSION - d :])
    return f"A move is {axes}, each 1-{n}: {'1' * d} is a corner ({' '.join('1' * d)} works too)."


Qubic.variants = (
    Variant(
        key="qubic",
        name="Qubic",
        summary="4x4x4 cube, four in a line wins",
        board="qubic",
        traits=frozenset({Trait.PLACEMENT}),
        rules=_rules,
        notation=_notation,
        options=(
            OptionSpec("n", "side (n)", "the cube's side: n in a line wins", 2, 5),
            OptionSpec("d", "dimensions (d)", "2 is flat, 3 a cube", 2, 3),
        ),
        examples=("qubic", "qubic:n=3"),
    ),
)


class QubicState(MarksState):
    """A position of qubic: the cells of the cube, numbered layer by layer."""

    __slots__ = ()

    game: Qubic

    @classmethod
    def standard_game(cls) -> Qubic:
        """Qubic (``Qubic()``, the 4x4x4 cube)."""
        return Qubic()

    @classmethod
    def _make(cls, game: Qubic, x: int, o: int, turn: Player, outcome: Outcome | None = None) -> QubicState:
        self = object.__new__(cls)
        if outcome is None and (x | o) == game.full:
            outcome = Outcome(None, Reason.FULL)
        self._init(game, turn, outcome, (x, o, turn))
        self._set_marks(x, o)
        return self

    def _mapped(self, cells: Sequence[int]) -> QubicState:
        return QubicState._make(
            self.game, mapped_mask(self.x, cells), mapped_mask(self.o, cells), self.turn, self.outcome
        )

    def _apply(self, move: int) -> QubicState:
        game = self.game
        mine = (self.x if self.turn is Player.X else self.o) | 1 << move
        outcome = Outcome(self.turn) if has_line(mine, game.through[move]) else None
        x, o = (mine, self.o) if self.turn is Player.X else (self.x, mine)
        return QubicState._make(game, x, o, self.turn.other, outcome)

    def winning_line(self) -> tuple[int, ...] | None:
        """The cells of the winner's line (the first one, when the last move made
        several), in order along the line; None unless the game was won."""
        if self.outcome is None or self.outcome.winner is None:
            return None
        marks = self.x if self.outcome.winner is Player.X else self.o
        for cells, mask in zip(self.game.line_cells, self.game.lines, strict=True):
            if marks & mask == mask:
                return cells
        return None

    # -- text ---------------------------------------------------------------------

    def _marks(self) -> str:
        return "".join("." if p is None else p.value for p in map(self.cell, range(self.game.cells)))

    def to_text(self) -> str:
        return f"{_join(self._marks(), self.game.n, _SEPARATORS[-(self.game.d - 1) :])} {self.turn.value}"

    def diagram(self) -> str:
        """The board with row and column numbers; in 3-D the layers side by side, in
        4-D one band of layers per block.

        >>> print(Qubic(n=3).initial().play_text("222").diagram())
           layer 1   layer 2   layer 3
           1 2 3     1 2 3     1 2 3
        1  . . .     . . .     . . .
        2  . . .     . X .     . . .
        3  . . .     . . .     . . .
        """
        n, d = self.game.n, self.game.d
        marks = self._marks().upper()
        plane = n * n
        grids = [marks[i : i + plane] for i in range(0, len(marks), plane)]
        if d == 2:
            return "\n".join(_band([""], grids, n))
        labels = [f"layer {i % n + 1}" for i in range(len(grids))]
        if d == 3:
            return "\n".join(_bands(labels, grids, n))
        blocks = []
        for b in range(n):
            layers = slice(b * n, (b + 1) * n)
            blocks.append("\n".join([f"block {b + 1}", *_bands(labels[layers], grids[layers], n)]))
        return "\n\n".join(blocks)


@lru_cache(maxsize=16)
def _cube_group(n: int, d: int) -> CubeSymmetries:
    return CubeSymmetries(n, d)


def _join(marks: str, n: int, separators: tuple[str, ...]) -> str:
    """The inverse of `_split`."""
    if not separators:
        return marks
    size = len(marks) // n
    return separators[0].join(_join(marks[i : i + size], n, separators[1:]) for i in range(0, len(marks), size))


_GAP = "   "
_ROW_LABEL = 3  # "1  " before each row of grids


def _bands(labels: list[str], grids: list[str], n: int) -> list[str]:
    """Grids side by side, as many per band as fit in DIAGRAM_WIDTH columns."""
    width = max(2 * n - 1, *map(len, labels)) + len(_GAP)
    per_band = max(1, (DIAGRAM_WIDTH - _ROW_LABEL + len(_GAP)) // width)
    out: list[str] = []
    for start in range(0, len(grids), per_band):
        if out:
            out.append("")
        out += _band(labels[start : start + per_band], grids[start : start + per_band], n)
    return out


def _band(labels: list[str], grids: list[str], n: int) -> list[str]:
    width = max(2 * n - 1, *map(len, labels))
    numbers = " ".join(str(c + 1) for c in range(n))

    def row(prefix: str, parts: list[str]) -> str:
        return (prefix.ljust(_ROW_LABEL) + _GAP.join(p.ljust(width) for p in parts)).rstrip()

    out = [row("", labels)] if any(labels) else []
    out.append(row("", [numbers] * len(grids)))
    for r in range(n):
        out.append(row(str(r + 1), [" ".join(g[r * n : (r + 1) * n]) for g in grids]))
    return out
