"""ultimate and nine-board: nine 3x3 local boards in a 3x3 grid, with Forget mode.

Local boards and the cells inside each are numbered 0-8 in reading order; a move is
``board * 9 + cell``, and the move in cell c sends the opponent to local board c.

* ultimate: a local board is decided when someone makes a line in it (won) or it fills
  up (drawn); nobody plays in a decided board, and a player sent to one may play in any
  undecided board. Three won local boards in a line win; no legal move left is a draw,
  or with ``tiebreak=boards`` a win for the player with more won local boards.
* nine-board: the first line in any local board wins; a player sent to a full board may
  play in any board with an empty cell.

Notation: a move is two digits, the local board then the cell, each 1-9 in reading
order: ``53`` is the top-right cell of the centre board. ``5 3``, ``5-3`` and ``5.3`` are
accepted as aliases.

Position text: the nine local boards in reading order, each as its nine cells (``x``,
``o``, ``.``) in reading order, separated by ``/``; a space and the player to move; a
space and the board that player must play in (1-9), or ``-`` whenever they may choose
(the first move, or sent to a decided or full board). In Forget mode then each player's
marks as moves, board by board and oldest first within a board (``-`` for none)::

    ........./........./........./........./..x....../........./........./........./......... o 3
    ........./........./........./........./..x....../........./........./........./......... o 3 x=53 o=-

>>> state = Ultimate().initial().play_text("53").play_text("31")
>>> state.playable_boards()
[0]
>>> state.to_text().split()[1:]
['x', '1']
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, cast

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
from noughts.games.forget import check_options, forget_options, forget_rule, parse_ages, placed
from noughts.games.geometry import bits, board_group, full_line, has_line, line_masks, mapped_mask, masks_through
from noughts.games.marks import check_forget_turn, parse_marks, parse_turn
from noughts.variant import OptionSpec, Trait, Variant

__all__ = ["BOARD_NAMES", "NINE_BOARD", "ULTIMATE", "Ultimate", "UltimateState"]

ULTIMATE = "ultimate"
NINE_BOARD = "nine-board"
TIEBREAKS = ("none", "boards")
BOARD_NAMES = ("top-left", "top", "top-right", "left", "centre", "right", "bottom-left", "bottom", "bottom-right")

_MOVE = re.compile(r"^([1-9])(?:\s+|\s*[-.]\s*)?([1-9])$")

#: The 8 lines of a 3x3 board as 9-bit masks; they serve the local boards and the grid of
#: won boards alike.
_LINES = line_masks((3, 3), 3)
_LINES_THROUGH = masks_through((3, 3), 3)
_ALL_BOARDS = (1 << 9) - 1
_BOARD_CELLS = tuple(_ALL_BOARDS << (9 * b) for b in range(9))
_ALL_CELLS = (1 << 81) - 1
#: For every move, the local lines through it as 81-bit masks: only these can be new.
_MOVE_LINES = tuple(tuple(mask << (9 * b) for mask in _LINES_THROUGH[c]) for b in range(9) for c in range(9))
#: For every set of boards (9-bit mask), the union of their cells.
_CELLS_OF = tuple(sum(_BOARD_CELLS[b] for b in bits(boards)) for boards in range(1 << 9))

#: The 3x3 board's 8 symmetries as maps of the 81 moves: one map g of the 3x3 board
#: takes board b to g(b) and, in every board, cell c to g(c), so that the cell played
#: still sends the opponent to the board of the same place (c -> board c becomes
#: g(c) -> board g(c)).
_SYMMETRIES = tuple(tuple(g[b] * 9 + g[c] for b in range(9) for c in range(9)) for g in board_group(3, 3))

#: Forget mode: per player (x, o), per local board, the moves there oldest first.
Ages = tuple[tuple[tuple[int, ...], ...], tuple[tuple[int, ...], ...]]
_NO_AGES: tuple[tuple[int, ...], ...] = ((),) * 9


@dataclass(frozen=True)
class Ultimate(Game["UltimateState", int]):
    """Nine local boards; ``rule`` picks how the game is won (ultimate or nine-board).

    ``forget`` keeps at most `keep` marks per player in each local board; ``tiebreak``
    (ultimate only) decides a game without a line of won boards by counting them.

    >>> Ultimate(rule="nine-board").initial().play_text("12").legal_move_texts()[:3]
    ['21', '22', '23']
    """

    rule: str = ULTIMATE
    """``ultimate`` (win three won local boards in a line) or ``nine-board`` (win a line in
    any local board)."""
    forget: bool = False
    """Forget mode: at most `keep` marks per player in each local board, the oldest
    vanishing."""
    keep: int = 3
    """Forget mode: the marks each player keeps in a local board."""
    tiebreak: str = "none"
    """Ultimate only: ``none`` (a full board without a line of won boards is a draw) or
    ``boards`` (more won local boards wins)."""

    title: ClassVar[str] = "Ultimate tic-tac-toe and nine-board"
    variants: ClassVar[tuple[Variant, ...]] = ()  # below the class: they name its rules

    def __post_init__(self) -> None:
        if self.rule not in (ULTIMATE, NINE_BOARD):
            raise InvalidOptionError(f"option rule takes {ULTIMATE} or {NINE_BOARD}, not {shown(self.rule)}")
        check_options(self.forget, self.keep, 3, "3, or nobody can ever make a line")
        if self.tiebreak not in TIEBREAKS:
            raise InvalidOptionError(f"option tiebreak takes none or boards, not {shown(self.tiebreak)}")
        if self.tiebreak != "none" and self.rule == NINE_BOARD:
            raise InvalidOptionError("tiebreak only applies to ultimate: nine-board ends at the first line")

    @property
    def key(self) -> str:
        return self.rule

    def initial(self) -> UltimateState:
        ages = (_NO_AGES, _NO_AGES) if self.forget else None
        return UltimateState._make(self, 0, 0, Player.X, -1, 0, 0, 0, ages, ())

    # -- notation -----------------------------------------------------------------

    def move_text(self, move: int) -> str:
        if not isinstance(move, int) or isinstance(move, bool) or not 0 <= move < 81:
            raise InvalidMoveError(f"{shown(move)} is not a move: moves are 0 to 80 (board * 9 + cell)")
        board, cell = divmod(move, 9)
        return f"{board + 1}{cell + 1}"

    def parse_move(self, text: str) -> int:
        match = _MOVE.match(text.strip())
        if match is None:
            raise InvalidMoveError(
                f"{shown(text.strip())} is not a move: give the local board then the cell, each 1-9 in"
                " reading order, like 53 (board 5, the centre; cell 3, its top-right)"
            )
        return (int(match.group(1)) - 1) * 9 + int(match.group(2)) - 1

    def parse_position(self, text: str) -> UltimateState:
        parts = text.split()
        if len(parts) != (5 if self.forget else 3):
            shape = "BOARDS TURN BOARD x=MOVES o=MOVES" if self.forget else "BOARDS TURN BOARD"
            raise InvalidPositionError(f"a {self.spec} position is {shape!r}, got {shown(text)}")
        x, o = _parse_boards(parts[0])
        turn = parse_turn(parts[1])
        forced = _parse_forced(parts[2])
        ages = None
        if self.forget:
            ages = (self._parse_ages(parts[3], "x", x), self._parse_ages(parts[4], "o", o))
            check_forget_turn(x, o, turn)
        else:
            lead = x.bit_count() - o.bit_count()
            if lead != (1 if turn is Player.O else 0):
                raise InvalidPositionError("x moves first: x has as many marks as o (o to move: one more)")
        won_x, won_o, drawn = _decided(x, o)
        outcome = self._winner(won_x, won_o, turn)
        closed = self._closed(won_x, won_o, drawn)
        _check_forced(forced, turn, o if turn is Player.X else x, ages, closed, self.rule)
        return UltimateState._make(self, x, o, turn, forced, won_x, won_o, drawn, ages, (), outcome)

    def _symmetries(self) -> tuple[tuple[int, ...], ...]:
        return _SYMMETRIES

    def _map_move(self, move: int, cells: Sequence[int]) -> int:
        return cells[move]

    def _winner(self, won_x: int, won_o: int, turn: Player) -> Outcome | None:
        if self.rule == NINE_BOARD:
            x_line, o_line = won_x != 0, won_o != 0
            if (won_x | won_o).bit_count() > 1:
                raise InvalidPositionError("only one local board can have a line: the first line ends the game")
        else:
            x_line, o_line = has_line(won_x, _LINES), has_line(won_o, _LINES)
        if x_line and o_line:
            raise InvalidPositionError("both players have a line")
        if (x_line and turn is Player.X) or (o_line and turn is Player.O):
            raise InvalidPositionError("the player to move cannot already have a line")
        return Outcome(turn.other) if x_line or o_line else None

    def _closed(self, won_x: int, won_o: int, drawn: int) -> int:
        """The boards nobody may play in (in nine-board a line ends the game anyway)."""
        return drawn if self.rule == NINE_BOARD else won_x | won_o | drawn

    def _parse_ages(self, text: str, side: str, marks: int) -> tuple[tuple[int, ...], ...]:
        order = parse_ages(text, side, marks, self.parse_move, "MOVES (board by board, oldest first)")
        if any(a // 9 > b // 9 for a, b in itertools.pairwise(order)):
            raise InvalidPositionError(f"{side}=... must list the marks board by board, board 1 first")
        per_board = tuple(tuple(m for m in order if m // 9 == b) for b in range(9))
        for b, moves in enumerate(per_board):
            if len(moves) > self.keep:
                raise InvalidPositionError(f"{side} has more than keep={self.keep} marks in board {b + 1}")
        return per_board


_SENT = (
    "Nine small boards in a 3x3 grid. The first move may go anywhere. The cell you play in sends your opponent "
    "to the board in the same position: play the top-right cell of any board (53: board 5, cell 3), and they "
    "must play in the top-right board (board 3)."
)
_IN_EACH_BOARD = " in each small board"


def _nine_board_rules(game: Ultimate | None) -> list[str]:
    rules = [
        _SENT + " If that board is full, they may play in any board with an empty cell.",
        "The first player to make three in a row in ANY small board wins. All boards full: a draw.",
    ]
    return rules + ([forget_rule(game.keep, _IN_EACH_BOARD)] if game is not None and game.forget else [])


def _ultimate_rules(game: Ultimate | None) -> list[str]:
    end = "Win three small boards in a row to win the game. When no move is left, it is a draw"
    if game is not None and game.tiebreak == "boards":
        end = "Win three small boards in a row to win the game. When no move is left, more won boards win"
    rules = [
        _SENT,
        "Three in a row in a small board wins it; it is then covered by the winner's big mark. A full board "
        "without a line is drawn. Nobody plays in a decided board: a player sent to one may play in any open "
        "board.",
        end + ".",
    ]
    return rules + ([forget_rule(game.keep, _IN_EACH_BOARD)] if game is not None and game.forget else [])


def _notation(game: Ultimate | None) -> str:
    return (
        "A move is the board, then the cell, each 1-9 in reading order: 53 is the top-right cell of the centre "
        "board (5 3 and 5-3 work too). When you are sent to a board, the cell alone will do."
    )


_FORGET_OPTIONS = forget_options(_IN_EACH_BOARD)

Ultimate.variants = (
    Variant(
        key=NINE_BOARD,
        name="Nine-board",
        summary="nine boards, a line in any one wins",
        board="ultimate",
        traits=frozenset({Trait.PLACEMENT, Trait.LOCAL_BOARDS}),
        rules=_nine_board_rules,
        notation=_notation,
        options=_FORGET_OPTIONS,
        # The tie-break by won boards is ultimate's: nine-board ends at its first line.
        pinned={"rule": NINE_BOARD, "tiebreak": "none"},
        examples=(NINE_BOARD,),
    ),
    Variant(
        key=ULTIMATE,
        name="Ultimate tic-tac-toe",
        summary="nine boards, win three in a line",
        board="ultimate",
        traits=frozenset({Trait.PLACEMENT, Trait.LOCAL_BOARDS}),
        rules=_ultimate_rules,
        notation=_notation,
        options=(
            *_FORGET_OPTIONS,
            OptionSpec(
                "tiebreak",
                "tie-break",
                "boards: when the boards run out, more won boards wins",
                choices=TIEBREAKS,
                rule="With the tie-break by boards (tiebreak=boards), when no move is left the player with more "
                "won boards wins.",
            ),
        ),
        pinned={"rule": ULTIMATE},
        examples=(ULTIMATE, "ultimate:forget", "ultimate:tiebreak=boards"),
    ),
)


class UltimateState(State[int]):
    """A position of ultimate or nine-board; the decided boards are kept beside the cells
    so that legal moves and outcomes come from a few mask operations."""

    __slots__ = ("ages", "drawn", "forced", "history", "o", "won_o", "won_x", "x")

    game: Ultimate

    x: int
    """X's cells, bit ``board * 9 + cell``."""
    o: int
    """O's cells, bit ``board * 9 + cell``."""
    forced: int
    """The local board the player to move must play in, or -1 when they may choose."""
    won_x: int
    """Bit b set: local board b is won by x."""
    won_o: int
    """Bit b set: local board b is won by o."""
    drawn: int
    """Bit b set: local board b is full without a line."""
    ages: Ages | None
    """Forget mode: each player's moves per local board, oldest first; None otherwise."""
    history: tuple[object, ...]
    """Forget mode: the keys of the earlier positions, for threefold repetition."""

    @classmethod
    def standard_game(cls) -> Ultimate:
        """Ultimate (``Ultimate()``)."""
        return Ultimate()

    @classmethod
    def _make(
        cls,
        game: Ultimate,
        x: int,
        o: int,
        turn: Player,
        forced: int,
        won_x: int,
        won_o: int,
        drawn: int,
        ages: Ages | None,
        history: tuple[object, ...],
        outcome: Outcome | None = None,
    ) -> UltimateState:
        self = object.__new__(cls)
        key = (x, o, turn, forced, ages)
        if outcome is None:
            if game._closed(won_x, won_o, drawn) == _ALL_BOARDS:
                outcome = _end_without_line(game, won_x, won_o)
            elif ages is not None:
                outcome = repetition_outcome(history, key)
        self._init(game, turn, outcome, key)
        set_ = object.__setattr__
        set_(self, "x", x)
        set_(self, "o", o)
        set_(self, "forced", forced)
        set_(self, "won_x", won_x)
        set_(self, "won_o", won_o)
        set_(self, "drawn", drawn)
        set_(self, "ages", ages)
        set_(self, "history", (*history, key) if ages is not None else ())
        return self

    @property
    def repetitions(self) -> int:
        """How many times this position (with the same player to move) stood earlier in
        the game: its third occurrence, 2 here, is a draw. Always 0 without forget."""
        return times_before(self.history, self._key)

    def legal_moves(self) -> list[int]:
        if self.outcome is not None:
            return []
        empty = _ALL_CELLS & ~(self.x | self.o)
        if self.forced >= 0:
            return bits(empty & _BOARD_CELLS[self.forced])
        return bits(empty & _CELLS_OF[_ALL_BOARDS & ~self._closed()])

    def playable_boards(self) -> list[int]:
        """The local boards (0-8) the player to move may play in; empty once it is over."""
        if self.outcome is not None:
            return []
        if self.forced >= 0:
            return [self.forced]
        return bits(_ALL_BOARDS & ~self._closed())

    def board_outcome(self, board: int) -> Outcome | None:
        """How local board `board` (0-8) ended: won (``Outcome(player)``), full without a
        line (``Outcome(None, Reason.FULL)``), or None while it is still open."""
        if self.won_x >> board & 1:
            return Outcome(Player.X)
        if self.won_o >> board & 1:
            return Outcome(Player.O)
        if self.drawn >> board & 1:
            return Outcome(None, Reason.FULL)
        return None

    def winning_line(self) -> tuple[int, ...] | None:
        """Nine-board: the cells (``board * 9 + cell``) of the winner's line in its local
        board; None in ultimate (its line is of boards: `winning_boards`) and unless the
        game was won."""
        if self.outcome is None or self.outcome.winner is None or self.game.rule != NINE_BOARD:
            return None
        marks = self.x if self.outcome.winner is Player.X else self.o
        for board in range(9):
            line = full_line(marks >> 9 * board & 511, _LINES)
            if line is not None:
                return tuple(9 * board + cell for cell in line)
        return None

    def winning_boards(self) -> tuple[int, ...] | None:
        """Ultimate: the local boards (0-8) of the winner's line; None in nine-board and
        unless the game was won by a line (a tie-break by boards has none)."""
        if self.outcome is None or self.outcome.winner is None or self.game.rule != ULTIMATE:
            return None
        return full_line(self.won_x if self.outcome.winner is Player.X else self.won_o, _LINES)

    def cell(self, move: int) -> Player | None:
        """Whose mark is on the cell of `move` (``board * 9 + cell``)."""
        if self.x >> move & 1:
            return Player.X
        if self.o >> move & 1:
            return Player.O
        return None

    def _closed(self) -> int:
        return self.game._closed(self.won_x, self.won_o, self.drawn)

    def _check(self, move: int) -> None:
        if not isinstance(move, int) or isinstance(move, bool) or not 0 <= move < 81:
            raise InvalidMoveError(f"{shown(move)} is not a move: moves are 0 to 80 (board * 9 + cell)")
        board = move // 9
        if self._closed() >> board & 1:
            why = self._why_closed(board)
            if self.forced >= 0:
                raise IllegalMoveError(f"board {board + 1} is {why}; you must play in board {self.forced + 1}")
            anywhere = "any board with an empty cell" if self.game.rule == NINE_BOARD else "any undecided board"
            raise IllegalMoveError(f"board {board + 1} is {why}; you may play in {anywhere}")
        if self.forced >= 0 and board != self.forced:
            raise IllegalMoveError(f"you must play in board {self.forced + 1}")
        if (self.x | self.o) >> move & 1:
            raise IllegalMoveError(f"cell {self.game.move_text(move)} is taken")

    def _why_closed(self, board: int) -> str:
        if self.game.rule == NINE_BOARD:
            return "full"
        outcome = self.board_outcome(board)
        if outcome is not None and outcome.winner is not None:
            return f"already decided (won by {outcome.winner})"
        return "already decided (drawn)"

    def _mapped(self, cells: Sequence[int]) -> UltimateState:
        board_map = tuple(cells[9 * b] // 9 for b in range(9))

        def ages_of(ages: Ages | None) -> Ages | None:
            if ages is None:
                return None
            per_side = []
            for side in ages:
                boards: list[tuple[int, ...]] = [()] * 9
                for b, order in enumerate(side):
                    boards[board_map[b]] = tuple(cells[m] for m in order)
                per_side.append(tuple(boards))
            return per_side[0], per_side[1]

        def key(old: object) -> object:
            x, o, turn, forced, ages = cast(tuple[int, int, Player, int, Any], old)  # the keys _make builds
            return (
                mapped_mask(x, cells),
                mapped_mask(o, cells),
                turn,
                -1 if forced < 0 else board_map[forced],
                ages_of(ages),
            )

        return UltimateState._make(
            self.game,
            mapped_mask(self.x, cells),
            mapped_mask(self.o, cells),
            self.turn,
            -1 if self.forced < 0 else board_map[self.forced],
            mapped_mask(self.won_x, board_map),
            mapped_mask(self.won_o, board_map),
            mapped_mask(self.drawn, board_map),
            ages_of(self.ages),
            tuple(key(k) for k in self.history[:-1]),
            self.outcome,
        )

    def _apply(self, move: int) -> UltimateState:
        game = self.game
        board, cell = divmod(move, 9)
        x_moves = self.turn is Player.X
        mine = self.x if x_moves else self.o
        ages = self.ages
        if ages is not None:
            side = ages[0] if x_moves else ages[1]
            order, removed = placed(side[board], move, game.keep)
            if removed is not None:
                mine &= ~(1 << removed)
            side = (*side[:board], order, *side[board + 1 :])
            ages = (side, ages[1]) if x_moves else (ages[0], side)
        mine |= 1 << move
        x, o = (mine, self.o) if x_moves else (self.x, mine)
        won_x, won_o, drawn = self.won_x, self.won_o, self.drawn
        outcome = None
        if has_line(mine, _MOVE_LINES[move]):
            if x_moves:
                won_x |= 1 << board
            else:
                won_o |= 1 << board
            won = won_x if x_moves else won_o
            if game.rule == NINE_BOARD or has_line(won, _LINES_THROUGH[board]):
                outcome = Outcome(self.turn)
        elif (x | o) & _BOARD_CELLS[board] == _BOARD_CELLS[board]:
            drawn |= 1 << board
        forced = -1 if game._closed(won_x, won_o, drawn) >> cell & 1 else cell
        return UltimateState._make(
            game, x, o, self.turn.other, forced, won_x, won_o, drawn, ages, self.history, outcome
        )

    # -- text ---------------------------------------------------------------------

    def to_text(self) -> str:
        boards = "/".join(
            "".join("." if (p := self.cell(b * 9 + c)) is None else p.value for c in range(9)) for b in range(9)
        )
        text = f"{boards} {self.turn.value} {'-' if self.forced < 0 else self.forced + 1}"
        if self.ages is not None:
            for side, per_board in zip("xo", self.ages, strict=True):
                moves = [self.game.move_text(m) for order in per_board for m in order]
                text += f" {side}=" + (",".join(moves) or "-")
        return text

    def diagram(self) -> str:
        """The grid of local boards; brackets mark where the player to move may play,
        and in ultimate a decided board shows its result instead of its cells::

             X . . | . . . | . . .
             . . . | . . . | . . .
             . . . | . . . | . . .
            -------+-------+-------
             . . . |[. . .]| . . .
             . . . |[. . .]| . . .
             . . . |[. . .]| . . .
            -------+-------+-------
            ...
            o to move in board 5 (centre)
        """
        playable = set(self.playable_boards())
        ultimate = self.game.rule == ULTIMATE
        rows: list[str] = []
        for band in range(3):
            if band:
                rows.append("+".join(["-------"] * 3))
            for r in range(3):
                parts = []
                for b in range(band * 3, band * 3 + 3):
                    decided = self.board_outcome(b) if ultimate else None
                    if decided is None:
                        marks = (self.cell(b * 9 + r * 3 + c) for c in range(3))
                        body = " ".join("." if p is None else p.value.upper() for p in marks)
                    else:
                        body = _BIG[decided.winner][r]
                    left, right = ("[", "]") if b in playable else (" ", " ")
                    parts.append(f"{left}{body}{right}")
                rows.append("|".join(parts).rstrip())
        rows.append(self._status())
        return "\n".join(rows)

    def _status(self) -> str:
        if self.outcome is not None:
            return self.outcome.describe()
        if self.forced >= 0:
            return f"{self.turn} to move in board {self.forced + 1} ({BOARD_NAMES[self.forced]})"
        return f"{self.turn} to move in any [bracketed] board"


#: A decided local board in the diagram: the winner's big letter, or "drawn".
_BIG: dict[Player | None, tuple[str, str, str]] = {
    Player.X: ("\\   /", "  X  ", "/   \\"),
    Player.O: ("/ - \\", "| O |", "\\ - /"),
    None: ("     ", "drawn", "     "),
}


def _end_without_line(game: Ultimate, won_x: int, won_o: int) -> Outcome:
    if game.tiebreak == "boards" and won_x.bit_count() != won_o.bit_count():
        return Outcome(Player.X if won_x.bit_count() > won_o.bit_count() else Player.O, Reason.BOARDS)
    return Outcome(None, Reason.FULL)


def _decided(x: int, o: int) -> tuple[int, int, int]:
    """The won-by-x, won-by-o and full-without-a-line boards, read off the cells."""
    won_x = won_o = drawn = 0
    for b in range(9):
        bx, bo = x >> (9 * b) & _ALL_BOARDS, o >> (9 * b) & _ALL_BOARDS
        x_line, o_line = has_line(bx, _LINES), has_line(bo, _LINES)
        if x_line and o_line:
            raise InvalidPositionError(f"board {b + 1} has a line for both players")
        if x_line:
            won_x |= 1 << b
        elif o_line:
            won_o |= 1 << b
        elif bx | bo == _ALL_BOARDS:
            drawn |= 1 << b
    return won_x, won_o, drawn


def _check_forced(forced: int, turn: Player, theirs: int, ages: Ages | None, closed: int, rule: str) -> None:
    """The board given for the player to move must be where the opponent's last move
    (a mark of theirs, in Forget mode the newest in its board) sent them."""

    their_ages = None if ages is None else ages[0 if turn is Player.O else 1]

    def sent_from(cell: int) -> bool:
        for b in range(9):
            move = b * 9 + cell
            if theirs >> move & 1 and (their_ages is None or their_ages[b][-1] == move):
                return True
        return False

    if theirs == 0:
        if forced >= 0:
            raise InvalidPositionError("nobody has been sent anywhere yet: write - for the board")
    elif forced < 0:
        if not any(sent_from(c) for c in bits(closed)):
            raise InvalidPositionError(
                f"no {turn.other} mark sends {turn} to a {'full' if rule == NINE_BOARD else 'decided'} board:"
                " give the board they must play in"
            )
    elif closed >> forced & 1:
        why = "full" if rule == NINE_BOARD else "decided"
        raise InvalidPositionError(f"board {forced + 1} is {why}: write - when the player may choose")
    elif not sent_from(forced):
        raise InvalidPositionError(
            f"no {turn.other} mark on cell {forced + 1} of a board sends {turn} to board {forced + 1}"
        )


def _parse_boards(text: str) -> tuple[int, int]:
    boards = text.split("/")
    if len(boards) != 9 or any(len(b) != 9 for b in boards):
        raise InvalidPositionError(f"the position needs 9 local boards of 9 cells separated by '/', got {shown(text)}")
    return parse_marks("".join(boards))


def _parse_forced(text: str) -> int:
    if text == "-":
        return -1
    if len(text) == 1 and text in "123456789":
        return int(text) - 1
    raise InvalidPositionError(
        f"the board to play in is a digit 1-9, or - when the player may choose; got {shown(text)}"
    )
