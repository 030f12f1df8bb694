"""Gobblet Gobblers and matryoshka: nesting figures on a 3x3 board.

Each player has six figures, two each of small, medium and large (sizes 1, 2, 3). A move
places a figure from hand on an empty cell or on a strictly smaller figure of either
player; in gobblet (``moves=True``) a move may instead take one of your own top figures
and put it on another cell by the same rule. Only top figures count for lines. Lifting
can uncover a line: if after a move only the opponent has a line, the opponent wins; if
both have one, the player who moved loses. Matryoshka (``moves=False``) is placement only,
and a player to move who cannot place anything ends the game in a draw. Threefold
repetition is a draw in gobblet (it cannot happen in matryoshka: every move places).

Cells are numbered 1-9 in reading order (0-8 in the move values). Move notation::

    L5     place a large figure from hand on the centre (also 5L; S, M, L; any case)
    S1     place a small figure on the top-left cell
    3-5    take your top figure from cell 3 and put it on cell 5 (also 3>5 and "3 5")

Position text: the rows from the top joined by ``/``, the three cells of a row joined by
``,``; a cell is ``.`` when empty, else its stack from the bottom up, x's figures as
``S M L`` and o's as ``s m l``; then a space and the player to move::

    .,.,./.,.,./.,.,. x     the start
    .,sL,./M,.,./.,.,l o    an x large over an o small on cell 2, x medium on 4, o large on 9

A position text is read as the position right after the previous player moved, so its
outcome follows from the lines on the board: in gobblet, if the player to move has a line
(uncovered by the previous move), that player has won, whether or not the previous player
also has one; otherwise a line of the previous player means the previous player won.
Matryoshka only places, which never uncovers anything, so there a line of the player to
move is an invalid position. Matryoshka positions must also have been reachable by
counting: x has as many figures on the board as o (x to move) or one more (o to move).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar, TypeGuard, cast

from noughts.core import (
    Game,
    IllegalMoveError,
    InvalidMoveError,
    InvalidOptionError,
    InvalidPositionError,
    Outcome,
    Player,
    Reason,
    State,
    repetition_outcome,
    shown,
    times_before,
)
from noughts.games.geometry import board_group, full_line, has_line, line_masks
from noughts.variant import OptionSpec, Trait, Variant

__all__ = ["Gobblet", "GobbletMove", "GobbletState", "Place", "Shift"]

CELLS = 9
SIZES = (1, 2, 3)
COPIES = 2  # of each size, per player
_SIZE_LETTERS = "SML"
_SIZE_NAMES = ("small", "medium", "large")
_LINES = line_masks((3, 3), 3)

_PLACE = re.compile(r"^(?:([sml])([1-9])|([1-9])([sml]))$")
_SHIFT = re.compile(r"^([1-9])\s*(?:-|>|\s)\s*([1-9])$")
_PLACE_FORM = "place a figure like L5 (size S, M or L, then cell 1-9)"
_SHIFT_FORM = "move one of yours like 3-5"


@dataclass(frozen=True, slots=True)
class Place:
    """Put a figure of `size` (1-3) from hand on `cell` (0-8)."""

    size: int
    """The figure's size, 1 (small) to 3 (large)."""
    cell: int
    """The cell, 0 (top left) to 8, row by row."""


@dataclass(frozen=True, slots=True)
class Shift:
    """Take the mover's top figure from cell `src` and put it on cell `dst` (0-8)."""

    src: int
    """The cell the figure leaves (0-8)."""
    dst: int
    """The cell it goes to (0-8)."""


GobbletMove = Place | Shift
"""A move of gobblet or matryoshka: a figure from the hand, or (gobblet) one on the board."""

# Shared move values: legal_moves hands out these instead of allocating new ones.
_PLACES = {(size, cell): Place(size, cell) for size in SIZES for cell in range(CELLS)}
_SHIFTS = {(src, dst): Shift(src, dst) for src in range(CELLS) for dst in range(CELLS) if src != dst}

# The board is one int, 6 bits per cell: bit 6*cell + 3*side + size - 1 says that the
# side (0 = x, 1 = o) has its figure of that size in the cell. Sizes strictly increase
# upward, so these bits determine the whole stack, and equal positions are equal ints.


def _bit(cell: int, side: int, size: int) -> int:
    return 1 << (6 * cell + 3 * side + size - 1)


def _side(player: Player) -> int:
    return 0 if player is Player.X else 1


_PLAYERS = (Player.X, Player.O)
# All nine cells' bits for one (side, size): their count is how many are on the board.
_ON_BOARD = {(side, size): sum(_bit(c, side, size) for c in range(CELLS)) for side in (0, 1) for size in SIZES}
# Per 6-bit cell value: the top figure's size (0 = empty) and side (-1 = empty).
_TOP_SIZE = tuple(((v | v >> 3) & 7).bit_length() for v in range(64))
_TOP_SIDE = tuple(-1 if not _TOP_SIZE[v] else 0 if v >> (_TOP_SIZE[v] - 1) & 1 else 1 for v in range(64))


@dataclass(frozen=True)
class Gobblet(Game["GobbletState", GobbletMove]):
    """Gobblet Gobblers; ``moves=False`` is matryoshka (placement only).

    `sizes` and `copies` shrink the figure set (each player has `copies` figures of each
    of the `sizes` smallest sizes): the published game is 3 and 2. The smaller sets are
    study variants, small enough for the exact solver's checks to cover every position."""

    moves: bool = True
    """Whether figures on the board may move (gobblet); False is matryoshka, placement only."""
    sizes: int = len(SIZES)
    """How many sizes of figure each player has, the smallest first (the published game: 3)."""
    copies: int = COPIES
    """How many figures of each size each player has (the published game: 2)."""

    title: ClassVar[str] = "Gobblet Gobblers"
    variants: ClassVar[tuple[Variant, ...]] = ()  # below the class: they name its rules

    def __post_init__(self) -> None:
        if not isinstance(self.moves, bool):
            raise InvalidOptionError(f"option moves takes true or false, not {shown(self.moves)}")
        if not _is_int(self.sizes) or not 1 <= self.sizes <= len(SIZES):
            raise InvalidOptionError(f"option sizes takes 1 to {len(SIZES)}, not {shown(self.sizes)}")
        if not _is_int(self.copies) or not 1 <= self.copies <= COPIES:
            raise InvalidOptionError(f"option copies takes 1 to {COPIES}, not {shown(self.copies)}")

    @property
    def key(self) -> str:
        return "gobblet" if self.moves else "matryoshka"

    def initial(self) -> GobbletState:
        return GobbletState._make(self, 0, Player.X, ())

    # -- notation -----------------------------------------------------------------

    def move_text(self, move: GobbletMove) -> str:
        _validate(move)
        if isinstance(move, Place):
            return f"{_SIZE_LETTERS[move.size - 1]}{move.cell + 1}"
        return f"{move.src + 1}-{move.dst + 1}"

    def parse_move(self, text: str) -> GobbletMove:
        t = text.strip().lower()
        place = _PLACE.match(t)
        if place:
            letter, digit = (place[1], place[2]) if place[1] else (place[4], place[3])
            return _PLACES[_SIZE_LETTERS.index(letter.upper()) + 1, int(digit) - 1]
        shift = _SHIFT.match(t)
        if shift:
            # "3-3" is well formed; playing it says why it is illegal.
            src, dst = int(shift[1]) - 1, int(shift[2]) - 1
            return _SHIFTS.get((src, dst)) or Shift(src, dst)
        # Matryoshka has no board moves: its message offers none.
        forms = f"{_PLACE_FORM} or {_SHIFT_FORM}" if self.moves else _PLACE_FORM
        raise InvalidMoveError(f"{shown(text.strip())} is not a move: {forms}")

    def _symmetries(self) -> tuple[tuple[int, ...], ...]:
        return board_group(3, 3)

    def _map_move(self, move: GobbletMove, cells: Sequence[int]) -> GobbletMove:
        if isinstance(move, Place):
            return _PLACES[move.size, cells[move.cell]]
        return _SHIFTS[cells[move.src], cells[move.dst]]

    def parse_position(self, text: str) -> GobbletState:
        parts = text.split()
        if len(parts) != 2:
            raise InvalidPositionError(
                f"a {self.key} position is 'ROWS TURN', like '.,sL,./M,.,./.,.,l x'; got {shown(text)}"
            )
        board = _parse_board(parts[0])
        _check_figures(self, board)
        try:
            turn = Player.from_text(parts[1])
        except ValueError as e:
            raise InvalidPositionError(str(e)) from None
        x_tops, o_tops, _ = _tops(board)
        if not self.moves:
            counts = [sum((board & _ON_BOARD[side, size]).bit_count() for size in SIZES) for side in (0, 1)]
            if counts[0] - counts[1] != (1 if turn is Player.O else 0):
                raise InvalidPositionError(
                    "x moves first and every move places a figure: x has as many figures on the board as o"
                    " (o to move: one more)"
                )
            if has_line(x_tops if turn is Player.X else o_tops, _LINES):
                raise InvalidPositionError("the player to move cannot have a line: placing never uncovers one")
        return GobbletState._make(self, board, turn, ())


def _validate(move: object) -> None:
    if isinstance(move, Place):
        if _is_int(move.size) and move.size in SIZES and _is_cell(move.cell):
            return
    elif isinstance(move, Shift) and _is_cell(move.src) and _is_cell(move.dst):
        return
    raise InvalidMoveError(f"{shown(move)} is not a move: sizes are 1-3 and cells 0-8")


def _is_int(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_cell(value: object) -> TypeGuard[int]:
    return _is_int(value) and 0 <= value < CELLS


def _tops(board: int) -> tuple[int, int, int]:
    """x's and o's top figures as 9-bit cell masks, and the smallest top size (0: a cell
    is empty)."""
    masks = [0, 0]
    smallest = 3
    for cell in range(CELLS):
        v = board >> 6 * cell & 63
        size = _TOP_SIZE[v]
        if size:
            masks[_TOP_SIDE[v]] |= 1 << cell
        smallest = min(smallest, size)
    return masks[0], masks[1], smallest


_FIGURES = "Each player has six nesting figures: two small, two medium and two large."
#: Gobblet's smaller figure sets exist for the exact solver's checks, not for play.
_STUDY_OPTIONS = (
    OptionSpec("sizes", "sizes of figure", "how many sizes each player has, the smallest first", 1, 3, offered=False),
    OptionSpec("copies", "figures of each size", "how many figures of each size each player has", 1, 2, offered=False),
)


def _matryoshka_rules(game: Gobblet | None) -> list[str]:
    return [
        _FIGURES,
        "On your turn, place a figure from your hand on an empty cell or over any strictly smaller figure, "
        "yours or your opponent's. Only the figure on top counts; figures never move.",
        "Three of your figures on top in a row, column or diagonal win. A player who cannot place anything "
        "ends the game in a draw.",
    ]


def _gobblet_rules(game: Gobblet | None) -> list[str]:
    return [
        _FIGURES,
        "On your turn, either place a figure from your hand, or move one of your figures on top of the board, "
        "onto an empty cell or over a strictly smaller figure, yours or your opponent's. Only tops count.",
        "Three tops of your colour in a line win. Lifting a figure may uncover a line of your opponent's: if "
        "after your move only they have a line, they win; if you both do, you lose.",
        "The same position for the third time is a draw.",
    ]


_PLACING = (
    "A move places a figure: its size, then the cell 1-9: L5 puts a large one on the centre (also 'large 5', '5L')."
)

Gobblet.variants = (
    Variant(
        key="matryoshka",
        name="Matryoshka",
        summary="big figures cover small ones",
        board="gobblet",
        traits=frozenset({Trait.NESTING}),
        rules=_matryoshka_rules,
        notation=lambda game: _PLACING,
        options=_STUDY_OPTIONS,
        pinned={"moves": False},
        examples=("matryoshka",),
    ),
    Variant(
        key="gobblet",
        name="Gobblet Gobblers",
        summary="big figures cover small ones, and move",
        board="gobblet",
        traits=frozenset({Trait.NESTING, Trait.SHIFTS}),
        rules=_gobblet_rules,
        notation=lambda game: _PLACING + " Or it moves one of yours on the board: from-to, 3-5 (also '3 5', '3 to 5').",
        options=_STUDY_OPTIONS,
        pinned={"moves": True},
        examples=("gobblet",),
    ),
)


class GobbletState(State[GobbletMove]):
    """A position of gobblet or matryoshka: every cell's stack of figures, and so the hands."""

    __slots__ = ("board", "history", "o_tops", "x_tops")

    game: Gobblet

    board: int
    """Every cell's stack of figures, 6 bits a cell."""
    x_tops: int
    """Cells where x's figure is on top, as a 9-bit mask."""
    o_tops: int
    """Cells where o's figure is on top, as a 9-bit mask."""
    history: tuple[object, ...]
    """The keys of the earlier positions since the last placement, for threefold
    repetition."""

    @classmethod
    def standard_game(cls) -> Gobblet:
        """Gobblet Gobblers (``Gobblet()``)."""
        return Gobblet()

    @classmethod
    def _make(cls, game: Gobblet, board: int, turn: Player, history: tuple[object, ...]) -> GobbletState:
        self = object.__new__(cls)
        key = (board, turn)
        x_tops, o_tops, smallest = _tops(board)
        mover_tops, turn_tops = (o_tops, x_tops) if turn is Player.X else (x_tops, o_tops)
        outcome: Outcome | None = None
        # Checked for the player to move first: when both have a line, the mover loses.
        if has_line(turn_tops, _LINES):
            outcome = Outcome(turn)
        elif has_line(mover_tops, _LINES):
            outcome = Outcome(turn.other)
        elif game.moves:
            outcome = repetition_outcome(history, key)
        elif max((s for s in SIZES if _in_hand(game, board, _side(turn), s)), default=0) <= smallest:
            # Gobblet needs no such check: a player's two large figures are either in hand
            # or on top (nothing covers them), and at most four of the nine cells hold a
            # large, so one of them can always be placed or moved.
            outcome = Outcome(None, Reason.STALEMATE)
        self._init(game, turn, outcome, key)
        set_ = object.__setattr__
        set_(self, "board", board)
        set_(self, "x_tops", x_tops)
        set_(self, "o_tops", o_tops)
        set_(self, "history", (*history, key) if game.moves else ())
        return self

    @property
    def repetitions(self) -> int:
        """How many times this position (with the same player to move) stood earlier in
        the game: its third occurrence, 2 here, is a draw. Always 0 in matryoshka."""
        return times_before(self.history, self._key)

    def legal_moves(self) -> list[GobbletMove]:
        if self.outcome is not None:
            return []
        board = self.board
        side = _side(self.turn)
        cells = [board >> 6 * c & 63 for c in range(CELLS)]
        sizes = [_TOP_SIZE[v] for v in cells]
        moves: list[GobbletMove] = []
        if self.game.moves:
            for src, v in enumerate(cells):
                if _TOP_SIDE[v] == side:
                    size = sizes[src]
                    moves.extend(_SHIFTS[src, dst] for dst in range(CELLS) if dst != src and sizes[dst] < size)
        # Large first, so that the whole list is in ascending order of move text.
        for size in reversed(SIZES):
            if _in_hand(self.game, board, side, size):
                moves.extend(_PLACES[size, cell] for cell in range(CELLS) if sizes[cell] < size)
        return moves

    def _check(self, move: GobbletMove) -> None:
        _validate(move)
        side = _side(self.turn)
        if isinstance(move, Place):
            if not _in_hand(self.game, self.board, side, move.size):
                raise IllegalMoveError(f"you have no {_SIZE_NAMES[move.size - 1]} figures left in hand")
            self._check_cover(move.cell, move.size)
            return
        if not self.game.moves:
            raise IllegalMoveError("matryoshka has no board moves: place a figure from your hand")
        v = self._cell(move.src)
        if not _TOP_SIZE[v]:
            raise IllegalMoveError(f"cell {move.src + 1} is empty")
        if _TOP_SIDE[v] != side:
            raise IllegalMoveError(f"the figure on cell {move.src + 1} is {self.turn.other}'s, not yours")
        if move.dst == move.src:
            raise IllegalMoveError("a figure cannot go back on the cell it came from")
        self._check_cover(move.dst, _TOP_SIZE[v])

    def _check_cover(self, cell: int, size: int) -> None:
        below = _TOP_SIZE[self._cell(cell)]
        if below >= size:
            who = "nothing" if below == SIZES[-1] else "only a strictly larger one"
            raise IllegalMoveError(f"cell {cell + 1} holds a {_SIZE_NAMES[below - 1]} figure: {who} can cover it")

    def _mapped(self, cells: Sequence[int]) -> GobbletState:
        def board_of(board: int) -> int:
            return sum((board >> 6 * c & 63) << 6 * cells[c] for c in range(CELLS))

        keys = cast(tuple[tuple[int, Player], ...], self.history[:-1])  # the keys _make builds
        history = tuple((board_of(b), turn) for b, turn in keys)
        return GobbletState._make(self.game, board_of(self.board), self.turn, history)

    def _apply(self, move: GobbletMove) -> GobbletState:
        side = _side(self.turn)
        history: tuple[object, ...]
        if isinstance(move, Place):
            # A placement changes the hands for good, so no earlier position can recur.
            board, history = self.board | _bit(move.cell, side, move.size), ()
        else:
            size = _TOP_SIZE[self._cell(move.src)]
            board = self.board ^ _bit(move.src, side, size) | _bit(move.dst, side, size)
            history = self.history
        return GobbletState._make(self.game, board, self.turn.other, history)

    # -- for people and programs --------------------------------------------------

    def _cell(self, cell: int) -> int:
        return self.board >> 6 * cell & 63

    def hand(self, player: Player) -> dict[int, int]:
        """How many figures of each size `player` still has in hand.

        >>> Gobblet().initial().play_text("L5").hand(Player.X)
        {1: 2, 2: 2, 3: 1}
        """
        return {size: _in_hand(self.game, self.board, _side(player), size) for size in SIZES}

    def stack(self, cell: int) -> list[tuple[Player, int]]:
        """The figures on `cell` (0-8) as (owner, size), bottom to top."""
        v = self._cell(cell)
        return [(_PLAYERS[side], size) for size in SIZES for side in (0, 1) if v >> (3 * side + size - 1) & 1]

    def top(self, cell: int) -> tuple[Player, int] | None:
        """The figure on top of `cell` (0-8) as (owner, size), None when it is empty."""
        v = self._cell(cell)
        return (_PLAYERS[_TOP_SIDE[v]], _TOP_SIZE[v]) if _TOP_SIZE[v] else None

    def winning_line(self) -> tuple[int, ...] | None:
        """The cells of the winner's line of top figures; None unless the game was won."""
        if self.outcome is None or self.outcome.winner is None:
            return None
        return full_line(self.x_tops if self.outcome.winner is Player.X else self.o_tops, _LINES)

    def to_text(self) -> str:
        rows = []
        for r in range(3):
            cells = []
            for c in range(3 * r, 3 * r + 3):
                figures = "".join(_figure_letter(p, size) for p, size in self.stack(c))
                cells.append(figures or ".")
            rows.append(",".join(cells))
        return f"{'/'.join(rows)} {self.turn.value}"

    def diagram(self) -> str:
        """The top figure of each cell (``XL`` is x's large, ``OS`` o's small, in capitals
        so that a small l is never read as a 1; ``+1``: one figure hidden below it; empty
        cells show their number) and both hands.

        >>> print(Gobblet().parse_position(".,sL,./M,.,./.,.,l o").diagram())
          1   | XL+1 |  3
        ------+------+------
          XM  |  5   |  6
        ------+------+------
          7   |  8   |  OL
        x in hand: 1 large, 1 medium, 2 small
        o in hand: 1 large, 2 medium, 1 small
        """
        rows = []
        for r in range(3):
            cells = []
            for c in range(3 * r, 3 * r + 3):
                stack = self.stack(c)
                if not stack:
                    label = str(c + 1)
                else:
                    player, size = stack[-1]
                    label = f"{player.value.upper()}{_SIZE_LETTERS[size - 1]}"
                    if len(stack) > 1:
                        label += f"+{len(stack) - 1}"
                cells.append(f"{label:^6}")
            rows.append("|".join(cells).rstrip())
        board = "\n------+------+------\n".join(rows)
        hands = []
        for player in _PLAYERS:
            counts = self.hand(player)
            listed = ", ".join(f"{counts[size]} {_SIZE_NAMES[size - 1]}" for size in reversed(SIZES))
            hands.append(f"{player} in hand: {listed}")
        return board + "\n" + "\n".join(hands)


def _in_hand(game: Gobblet, board: int, side: int, size: int) -> int:
    if size > game.sizes:
        return 0
    return game.copies - (board & _ON_BOARD[side, size]).bit_count()


def _figure_letter(player: Player, size: int) -> str:
    letter = _SIZE_LETTERS[size - 1]
    return letter if player is Player.X else letter.lower()


def _parse_board(text: str) -> int:
    rows = text.split("/")
    cells = [cell for row in rows for cell in row.split(",")]
    if len(rows) != 3 or len(cells) != CELLS or any(row.count(",") != 2 for row in rows) or "" in cells:
        raise InvalidPositionError(
            f"the board needs 3 rows of 3 cells (',' between cells, '/' between rows), got {shown(text)}"
        )
    board = 0
    for cell, figures in enumerate(cells):
        if figures == ".":
            continue
        below = 0
        for letter in figures:
            if letter.upper() not in _SIZE_LETTERS:
                raise InvalidPositionError(f"{letter!r} is not a figure: x's are S M L, o's s m l, '.' an empty cell")
            size = _SIZE_LETTERS.index(letter.upper()) + 1
            if size <= below:
                raise InvalidPositionError(
                    f"cell {cell + 1} reads {shown(figures)}: a stack is written bottom to top,"
                    " each figure larger than the one below"
                )
            board |= _bit(cell, 0 if letter.isupper() else 1, size)
            below = size
    for side, player in enumerate(_PLAYERS):
        for size in SIZES:
            if (board & _ON_BOARD[side, size]).bit_count() > COPIES:
                raise InvalidPositionError(f"{player} has more than {COPIES} {_SIZE_NAMES[size - 1]} figures")
    return board


def _check_figures(game: Gobblet, board: int) -> None:
    """The figure set of a smaller variant (`_parse_board` checked the published one)."""
    for side, player in enumerate(_PLAYERS):
        for size in SIZES:
            allowed = game.copies if size <= game.sizes else 0
            if (board & _ON_BOARD[side, size]).bit_count() > allowed:
                raise InvalidPositionError(f"{player} has more than {allowed} {_SIZE_NAMES[size - 1]} figures")
