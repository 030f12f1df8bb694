"""classic and the m,n,k-game, with Forget mode as an option.

Moves are cell indices in reading order (0 = top-left). Notation: on boards of at most
nine cells (classic) a move is the digit of the cell, 1-9 in reading order; on larger
boards it is column letter + row number counted from the top (``a1`` top-left, ``h8``
the centre of 15x15). Cell numbers are accepted everywhere as an alias.

Position text: the rows from the top joined by ``/`` (``x``, ``o``, ``.``), a space and
the player to move; in Forget mode then each player's marks oldest first::

    x.o/.x./..o x              classic
    x.o/.x./... o x=1,5 o=3    forget mode: x's mark on 1 is the next to vanish
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, cast

from noughts.core import (
    MAX_DIGITS,
    InvalidMoveError,
    InvalidOptionError,
    InvalidPositionError,
    Outcome,
    Player,
    Reason,
    check_whole_numbers,
    repetition_outcome,
    shown,
    times_before,
)
from noughts.games.forget import FORGET_OPTIONS, check_options, forget_rule, parse_ages, placed
from noughts.games.geometry import board_group, full_line, has_line, line_masks, mapped_mask, masks_through
from noughts.games.marks import (
    MarksGame,
    MarksState,
    check_forget_turn,
    check_turn,
    line_outcome,
    parse_rows,
    parse_turn,
)
from noughts.variant import OptionSpec, Trait, Variant

__all__ = ["MAX_SIDE", "Mnk", "MnkState"]

_COORD = re.compile(r"^([a-z])([0-9]{1,2})$")
MAX_SIDE = 26  # column letters a-z


@dataclass(frozen=True)
class Mnk(MarksGame["MnkState"]):
    """m columns, n rows, k in a row wins; ``forget`` keeps at most `keep` marks each."""

    m: int = 3
    """Columns."""
    n: int = 3
    """Rows."""
    k: int = 3
    """Marks in a line that win."""
    forget: bool = False
    """Forget mode: a player's oldest mark vanishes when they place one more than `keep`."""
    keep: int = 3
    """Forget mode: the marks each player keeps on the board (at least `k`)."""

    title: ClassVar[str] = "m,n,k-game"
    variants: ClassVar[tuple[Variant, ...]] = ()  # below the class: they name its rules

    def __post_init__(self) -> None:
        check_whole_numbers(self, "m", "n", "k")
        if not (1 <= self.m <= MAX_SIDE and 1 <= self.n <= MAX_SIDE):
            raise InvalidOptionError(f"m and n must be between 1 and {MAX_SIDE}")
        if not 1 <= self.k <= max(self.m, self.n):
            raise InvalidOptionError(f"k must be between 1 and {max(self.m, self.n)} on a {self.m}x{self.n} board")
        check_options(self.forget, self.keep, self.k, f"k={self.k}, or nobody can ever win")
        set_ = object.__setattr__
        set_(self, "cells", self.m * self.n)
        set_(self, "full", (1 << (self.m * self.n)) - 1)
        set_(self, "through", masks_through((self.n, self.m), self.k))
        set_(self, "lines", line_masks((self.n, self.m), self.k))

    # Derived from the options in __post_init__: not options, not compared.
    cells: int = field(init=False, repr=False, compare=False)
    """Derived: the number of cells, ``m * n``; a move is a cell number, 0 top left, row by
    row."""
    full: int = field(init=False, repr=False, compare=False)
    """Derived: the mask of every cell."""
    through: tuple[tuple[int, ...], ...] = field(init=False, repr=False, compare=False)
    """Derived: for every cell, the masks of the lines through it (a move can only complete
    those)."""
    lines: tuple[int, ...] = field(init=False, repr=False, compare=False)
    """Derived: every winning line as a bitmask of its cells."""

    @property
    def key(self) -> str:
        return "classic" if (self.m, self.n, self.k) == (3, 3, 3) else "mnk"

    def initial(self) -> MnkState:
        return MnkState._make(self, 0, 0, Player.X, ((), ()) if self.forget else None, ())

    # -- notation -----------------------------------------------------------------

    def move_text(self, move: int) -> str:
        if self.cells <= 9:
            return str(move + 1)
        row, col = divmod(move, self.m)
        return f"{chr(ord('a') + col)}{row + 1}"

    def parse_move(self, text: str) -> int:
        t = text.strip().lower()
        if t.isascii() and t.isdigit():
            if len(t) <= MAX_DIGITS and 1 <= int(t) <= self.cells:
                return int(t) - 1
            raise InvalidMoveError(f"{shown(text.strip())} is not a cell: cells are numbered 1 to {self.cells}")
        match = _COORD.match(t)
        if match:
            col = ord(match.group(1)) - ord("a")
            row = int(match.group(2)) - 1
            if col < self.m and 0 <= row < self.n:
                return row * self.m + col
            last = chr(ord("a") + self.m - 1)
            raise InvalidMoveError(f"{shown(text.strip())} is off the board: columns a-{last}, rows 1-{self.n}")
        example = "5" if self.cells <= 9 else "a1"
        raise InvalidMoveError(f"{shown(text.strip())} is not a move: give a cell like {example}")

    def parse_position(self, text: str) -> MnkState:
        parts = text.split()
        if len(parts) != (4 if self.forget else 2):
            shape = "ROWS TURN x=CELLS o=CELLS" if self.forget else "ROWS TURN"
            raise InvalidPositionError(f"a {self.spec} position is {shape!r}, got {shown(text)}")
        x, o = parse_rows(parts[0], self.m, self.n)
        turn = parse_turn(parts[1])
        ages = None
        if self.forget:
            ages = (self._parse_ages(parts[2], "x", x), self._parse_ages(parts[3], "o", o))
            check_forget_turn(x, o, turn)
        else:
            check_turn(x, o, turn)
        return MnkState._make(self, x, o, turn, ages, (), line_outcome(x, o, turn, self.lines))

    def _symmetries(self) -> tuple[tuple[int, ...], ...]:
        # The square's or the rectangle's: they keep lines of any k (on 4x4 with k=4 the
        # lines alone have more, as Qubic's 4x4 does; these are the board's).
        return board_group(self.m, self.n)

    def _parse_ages(self, text: str, side: str, marks: int) -> tuple[int, ...]:
        order = parse_ages(text, side, marks, self.parse_move)
        if len(order) > self.keep:
            raise InvalidPositionError(f"{side} has more than keep={self.keep} marks")
        return order


def _classic_rules(game: Mnk | None) -> list[str]:
    rules = [
        "Players take turns putting their mark, X or O, in an empty cell. X moves first.",
        "Three marks in a row, a column or a diagonal win. A full board without a line is a draw.",
    ]
    return rules + ([forget_rule(game.keep)] if game is not None and game.forget else [])


def _mnk_rules(game: Mnk | None) -> list[str]:
    if game is None:
        board = (
            "The m,n,k-game: a board of m columns and n rows; k marks in a straight line (a row, a column or a "
            "diagonal) win. Tic-tac-toe is 3,3,3; 15,15,5 is gomoku."
        )
    else:
        board = (
            f"A board of {game.m} columns and {game.n} rows; {game.k} marks in a straight line (a row, a column or "
            "a diagonal) win."
        )
    rules = [
        board,
        "Players take turns putting their mark, X or O, in an empty cell. X moves first. A full board without a "
        "line is a draw.",
    ]
    return rules + ([forget_rule(game.keep)] if game is not None and game.forget else [])


_CELL_NUMBERS = "A move is the cell's number, 1-9 in reading order: 5 is the centre (b2, column then row, works too)."


def _notation(game: Mnk | None) -> str:
    if game is None:
        return (
            "A move is the column's letter and the row's number: a1 is the top-left cell (on boards of nine "
            "cells or fewer, the cell's number 1-9 works too)."
        )
    if game.cells <= 9:
        return _CELL_NUMBERS
    last = chr(ord("a") + game.m - 1)
    return f"A move is the column's letter and the row's number: a1 is the top left, {last}{game.n} the bottom right."


#: The m,n,k-game's sizes that have a name of their own: (m, n, k) -> the name.
NAMED_SIZES = {(15, 15, 5): "Gomoku"}


def _named(game: Mnk) -> str | None:
    return None if game.forget else NAMED_SIZES.get((game.m, game.n, game.k))


def _titled(game: Mnk) -> str | None:
    if game.forget:
        return None
    named = _named(game)
    return f"{named} {game.m}×{game.n}" if named else f"{game.variant.name} {game.m}×{game.n}, {game.k} in a row"


_KNOWLEDGE = "noughts.games.mnk.knowledge:MnkKnowledge"

Mnk.variants = (
    Variant(
        key="classic",
        name="Tic-tac-toe",
        summary="3x3 board, three in a row wins",
        board="grid",
        traits=frozenset({Trait.PLACEMENT}),
        rules=_classic_rules,
        notation=lambda game: _CELL_NUMBERS,
        options=FORGET_OPTIONS,
        pinned={"m": 3, "n": 3, "k": 3},
        examples=("classic", "classic:forget"),
        knowledge=_KNOWLEDGE,
    ),
    Variant(
        key="mnk",
        name="m,n,k-game",
        summary="any board size, k in a row wins",
        board="grid",
        traits=frozenset({Trait.PLACEMENT}),
        rules=_mnk_rules,
        notation=_notation,
        options=(
            OptionSpec("m", "columns (m)", "board width", 3, 15),
            OptionSpec("n", "rows (n)", "board height", 2, 15),
            OptionSpec("k", "in a row (k)", "marks in a line to win", 3, 15),
            *FORGET_OPTIONS,
        ),
        shown=("m", "n", "k"),
        examples=("mnk:m=4:n=4:k=4", "mnk:m=15:n=15:k=5"),
        named=_named,
        titled=_titled,
        knowledge=_KNOWLEDGE,
    ),
)


class MnkState(MarksState):
    """A position of an m,n,k game (classic included); in forget mode, with each side's marks
    in the order they were placed."""

    __slots__ = ("ages", "history")

    game: Mnk
    x: int
    o: int
    ages: tuple[tuple[int, ...], tuple[int, ...]] | None
    """Forget mode: each player's cells, oldest first (x's, o's); None otherwise."""
    history: tuple[object, ...]
    """Forget mode: the keys of the earlier positions, for threefold repetition."""

    @classmethod
    def standard_game(cls) -> Mnk:
        """Classic (``Mnk()``, 3x3, three in a row)."""
        return Mnk()

    @classmethod
    def _make(
        cls,
        game: Mnk,
        x: int,
        o: int,
        turn: Player,
        ages: tuple[tuple[int, ...], tuple[int, ...]] | None,
        history: tuple[object, ...],
        outcome: Outcome | None = None,
    ) -> MnkState:
        self = object.__new__(cls)
        key = (x, o, turn, ages)
        if outcome is None:
            if (x | o) == game.full:
                outcome = Outcome(None, Reason.FULL)
            elif ages is not None:
                outcome = repetition_outcome(history, key)
        self._init(game, turn, outcome, key)
        self._set_marks(x, o)
        set_ = object.__setattr__
        set_(self, "ages", ages)
        set_(self, "history", (*history, key) if ages is not None else ())
        return self

    @property
    def repetitions(self) -> int:
        """How many times this position (with the same player to move) stood earlier in
        the game: its third occurrence, 2 here, is a draw. Always 0 without forget."""
        return times_before(self.history, self._key)

    def _apply(self, move: int) -> MnkState:
        game = self.game
        mine = self.x if self.turn is Player.X else self.o
        ages = self.ages
        if ages is not None:
            order, removed = placed(ages[0] if self.turn is Player.X else ages[1], move, game.keep)
            if removed is not None:
                mine &= ~(1 << removed)
            ages = (order, ages[1]) if self.turn is Player.X else (ages[0], order)
        mine |= 1 << move
        outcome = Outcome(self.turn) if has_line(mine, game.through[move]) else None
        x, o = (mine, self.o) if self.turn is Player.X else (self.x, mine)
        return MnkState._make(game, x, o, self.turn.other, ages, self.history, outcome)

    def _mapped(self, cells: Sequence[int]) -> MnkState:
        def key(old: object) -> object:
            x, o, turn, ages = cast(tuple[int, int, Player, Any], old)  # the keys _make builds
            return (mapped_mask(x, cells), mapped_mask(o, cells), turn, _mapped_ages(ages, cells))

        history = tuple(key(k) for k in self.history[:-1])
        x, o, ages = mapped_mask(self.x, cells), mapped_mask(self.o, cells), _mapped_ages(self.ages, cells)
        return MnkState._make(self.game, x, o, self.turn, ages, history, self.outcome)

    def winning_line(self) -> tuple[int, ...] | None:
        """The cells of the winner's line, in order along it; None unless the game was won.

        >>> from noughts import parse_spec
        >>> state = parse_spec("classic").initial()
        >>> for move in "1 4 2 5 3".split():
        ...     state = state.play_text(move)
        >>> state.winning_line()
        (0, 1, 2)
        """
        if self.outcome is None or self.outcome.winner is None:
            return None
        return full_line(self.x if self.outcome.winner is Player.X else self.o, self.game.lines)

    # -- text ---------------------------------------------------------------------

    def to_text(self) -> str:
        game = self.game
        text = f"{self.rows_text(game.m, game.n)} {self.turn.value}"
        if self.ages is not None:
            for side, order in zip("xo", self.ages, strict=True):
                text += f" {side}=" + (",".join(game.move_text(c) for c in order) or "-")
        return text

    def diagram(self) -> str:
        game = self.game
        if game.cells <= 9:
            rows = []
            for r in range(game.n):
                cells = []
                for c in range(game.m):
                    i = r * game.m + c
                    p = self.cell(i)
                    cells.append(f" {p.value.upper() if p else str(i + 1)} ")
                rows.append("|".join(cells))
            return f"\n{'+'.join(['---'] * game.m)}\n".join(rows)
        header = "    " + " ".join(chr(ord("a") + c) for c in range(game.m))
        lines = [header]
        for r in range(game.n):
            marks = (self.cell(r * game.m + c) for c in range(game.m))
            lines.append(f"{r + 1:>3} " + " ".join(p.value.upper() if p else "." for p in marks))
        return "\n".join(lines)


def _mapped_ages(
    ages: tuple[tuple[int, ...], tuple[int, ...]] | None, cells: Sequence[int]
) -> tuple[tuple[int, ...], tuple[int, ...]] | None:
    if ages is None:
        return None
    return tuple(cells[c] for c in ages[0]), tuple(cells[c] for c in ages[1])
