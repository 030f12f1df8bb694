"""Moves as action numbers and positions as arrays, one encoding per game family: what
the reinforcement-learning environments (`noughts.rl`) and the OpenSpiel games
(`noughts.spiel`) share. Needs numpy.

* actions: one per move the game can ever have: a cell in the m,n,k games, ultimate,
  nine-board and qubic (the move's own number); in gobblet and matryoshka the 27
  placements (size, cell), then in gobblet the 81 board moves (from, to).
* planes: a (rows, columns, planes) int8 picture of the board seen by one player: its
  marks, then its opponent's (in gobblet, its figures by size, then the opponent's,
  covered ones included); ultimate and nine-board add the cells the player to move may
  play (which board is forced). Forget mode adds, for the player observing and then its
  opponent, `keep` planes of when each mark vanishes: plane t (from 0) holds the marks
  that go on that player's (t+1)-th placement from now (in ultimate: in the mark's own
  board). The first is the mark that vanishes next; together they are the age order,
  so that two positions with the same marks but different orders look different.
  Where a position can recur (Forget mode, gobblet), the third occurrence of a position
  draws, so the last two planes say how often the current one stood before: all 1 on
  the first if once, on the second if twice (the position that ended the game), both
  all 0 the first time.

>>> from noughts import parse_spec
>>> encoding = Encoding(parse_spec("gobblet"))
>>> encoding.actions, encoding.shape
(108, (3, 3, 8))
>>> encoding.moves[encoding.index[parse_spec("gobblet").parse_move("L5")]]
Place(size=3, cell=4)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, cast

from noughts.core import Game, InvalidOptionError, MissingExtraError, Player, State

try:
    import numpy as np
    import numpy.typing as npt
except ModuleNotFoundError as e:  # numpy comes with the rl and openspiel extras
    raise MissingExtraError("noughts.encoding", e, "rl") from e

from noughts.games.gobblet import CELLS, SIZES, Place, Shift
from noughts.variant import Trait

__all__ = ["Array", "Encoding"]

#: The boards encoded (the kinds of `noughts.variant.BOARD_KINDS`).
_ENCODED = "grid, ultimate, qubic, gobblet"
_CELL_PIXELS = 24
#: The kinds of position the planes are drawn from: figures in stacks (gobblet's),
#: marks on nine local boards (ultimate's), marks on cells (every other).
_FIGURES, _BOARDS, _MARKS = "figures", "boards", "marks"
_COLOURS = {Player.X: (200, 50, 50), Player.O: (40, 90, 200)}
Array = npt.NDArray[np.int8]


class Encoding:
    """Moves as action numbers and states as arrays, for one game."""

    def __init__(self, game: Game[Any, Any]) -> None:
        self.game = game
        """The game encoded."""
        # By what kind of game it is (its traits, its board), not its class.
        traits, board = game.traits, game.variant.board
        if Trait.NESTING in traits:
            places: list[Any] = [Place(size, cell) for size in SIZES for cell in range(CELLS)]
            shifts = [Shift(src, dst) for src in range(CELLS) for dst in range(CELLS)] if Trait.SHIFTS in traits else []
            self._kind = _FIGURES
            self.moves: list[Any] = places + shifts
            """Every move the game can ever have, in action order: action i is ``moves[i]``."""
            self.shape: tuple[int, int, int] = (3, 3, 2 * len(SIZES))
            """The observation's shape: (rows, columns, planes)."""
        elif Trait.LOCAL_BOARDS in traits:
            self._kind = _BOARDS
            self.moves = list(range(81))
            self.shape = (9, 9, 3)
        elif Trait.GRAVITY in traits:
            # Connect Four: a move is a column; the board n rows of m, as drawn.
            grid: Any = game
            self._kind = _MARKS
            self.moves = list(range(grid.m))
            self.shape = (grid.n, grid.m, 2)
        elif Trait.PLACEMENT in traits and board in ("grid", "qubic"):
            marks: Any = game
            self._kind = _MARKS
            self.moves = list(range(marks.cells))
            # mnk: n rows of m; qubic: its n-cell rows, one after another, layer by layer.
            rows = marks.n if board == "grid" else marks.cells // marks.n
            self.shape = (rows, marks.cells // rows, 2)
        else:  # a game of a kind nothing here encodes (one from elsewhere, say)
            raise InvalidOptionError(f"no encoding for {game.spec}: its board ({board}) is none of {_ENCODED}")
        # Forget mode: the marks' ages decide which ones vanish, so they are part of the
        # position (a learner without them would not see a Markov state).
        self.keep: int = getattr(game, "keep", 0) if Trait.FORGET in traits else 0
        """Forget mode's `keep` (its marks' age planes, 2 * keep); 0 outside Forget mode."""
        if self.keep:
            rows, cols, planes = self.shape
            self.shape = (rows, cols, planes + 2 * self.keep)
        # Where positions recur, the threefold-repetition draw makes how often the position
        # stood before part of it too: two planes, once before and twice before.
        self.repeats: bool = bool(self.keep) or Trait.SHIFTS in traits
        """Whether positions can recur, and two planes count the earlier occurrences."""
        if self.repeats:
            rows, cols, planes = self.shape
            self.shape = (rows, cols, planes + 2)
        self.index = {move: i for i, move in enumerate(self.moves)}
        """The action number of each move (the inverse of `moves`)."""

    def __deepcopy__(self, memo: dict[int, Any]) -> Encoding:
        # Tables fixed at construction: shared, not copied, when OpenSpiel clones a state.
        return self

    @property
    def actions(self) -> int:
        """How many actions there are: ``len(moves)``."""
        return len(self.moves)

    def mask(self, state: State[Any]) -> Array:
        """1 for each action the player to move may take (all 0 once it is over)."""
        mask = np.zeros(self.actions, dtype=np.int8)
        for move in state.legal_moves():
            mask[self.index[move]] = 1
        return mask

    def planes(self, state: State[Any], me: Player) -> Array:
        """The board as `me` sees it: (rows, columns, planes) of 0 and 1."""
        out = np.zeros(self.shape, dtype=np.int8)
        rows, cols, _ = self.shape
        kind, s = self._kind, cast(Any, state)  # a state of the game encoded, of the kind found for it
        if kind == _FIGURES:
            for cell in range(CELLS):
                for owner, size in s.stack(cell):
                    plane = (size - 1) + (0 if owner is me else len(SIZES))
                    out[cell // 3, cell % 3, plane] = 1
        elif kind == _BOARDS:
            mine, theirs = (s.x, s.o) if me is Player.X else (s.o, s.x)
            legal = set(state.legal_moves())
            for move in range(81):
                row, col = self._ultimate_square(move)
                out[row, col, :3] = (mine >> move & 1, theirs >> move & 1, move in legal)
            if self.keep and s.ages is not None:
                for side, boards in enumerate(self._sides(s.ages, me)):
                    for order in boards:
                        self._countdown(out, side, order, 3, self._ultimate_square)
        else:
            mine, theirs = (s.x, s.o) if me is Player.X else (s.o, s.x)
            for cell in range(rows * cols):
                out[cell // cols, cell % cols, :2] = (mine >> cell & 1, theirs >> cell & 1)
            if self.keep and s.ages is not None:
                for side, order in enumerate(self._sides(s.ages, me)):
                    self._countdown(out, side, order, 2, lambda cell: divmod(cell, cols))
        if self.repeats:
            seen = s.repetitions
            if seen:
                out[:, :, -3 + seen] = 1
        return out

    @staticmethod
    def _sides(ages: tuple[Any, Any], me: Player) -> tuple[Any, Any]:
        """The ages of `me`'s marks, then of the opponent's (X's come first in a state)."""
        return (ages[0], ages[1]) if me is Player.X else (ages[1], ages[0])

    def _countdown(
        self, out: Array, side: int, order: tuple[int, ...], first: int, square: Callable[[int], tuple[int, int]]
    ) -> None:
        """Mark each of `order`'s cells (oldest first) on the plane of the placement that
        removes it: the player's next one removes the oldest once it has `keep` marks,
        so with fewer each mark lasts (keep - marks) placements longer."""
        for i, cell in enumerate(order):
            row, col = square(cell)
            out[row, col, first + side * self.keep + self.keep - len(order) + i] = 1

    @staticmethod
    def _ultimate_square(move: int) -> tuple[int, int]:
        """Where a move (board * 9 + cell) is on the 9x9 picture of the nine boards."""
        board, cell = divmod(move, 9)
        return (board // 3) * 3 + cell // 3, (board % 3) * 3 + cell % 3

    def image(self, state: State[Any]) -> npt.NDArray[np.uint8]:
        """A picture of the position: a grid, X's figures red and O's blue, bigger
        figures bigger (gobblet), the boards of ultimate separated by thicker lines."""
        rows, cols, _ = self.shape
        size = _CELL_PIXELS
        picture = np.full((rows * size + 1, cols * size + 1, 3), 255, dtype=np.uint8)
        for r in range(rows + 1):
            thick = self._kind == _BOARDS and r % 3 == 0
            picture[max(0, r * size - thick) : r * size + 1 + thick, :] = 120 if thick else 190
        for c in range(cols + 1):
            thick = self._kind == _BOARDS and c % 3 == 0
            picture[:, max(0, c * size - thick) : c * size + 1 + thick] = 120 if thick else 190
        for (row, col), (owner, figure) in self._tops(state).items():
            inset = {1: 8, 2: 6, 3: 4}[figure]
            top, left = row * size + inset, col * size + inset
            picture[top : (row + 1) * size + 1 - inset, left : (col + 1) * size + 1 - inset] = _COLOURS[owner]
        return picture

    def _tops(self, state: State[Any]) -> dict[tuple[int, int], tuple[Player, int]]:
        """What shows on each square: (owner, size), size 3 for a mark."""
        _, cols, _ = self.shape
        s = cast(Any, state)
        if self._kind == _FIGURES:
            return {divmod(cell, 3): top for cell in range(CELLS) if (top := s.top(cell)) is not None}
        square = self._ultimate_square if self._kind == _BOARDS else (lambda m: divmod(m, cols))
        return {
            square(m): (player, 3)
            for player, marks in ((Player.X, s.x), (Player.O, s.o))
            for m in range(max(marks.bit_length(), 0))
            if marks >> m & 1
        }
