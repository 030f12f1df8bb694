"""The symmetries of a game's board: positions, moves and move texts mapped through
them, and a position's canonical image (one key for the positions equal up to
symmetry, as an opening book or a solver keeps them).

A symmetry is a map of the board's cells onto themselves that takes every winning line
to a winning line and the rules to the same rules, so a position and its image have the
same legal moves (mapped), the same outcome and the same future. Each game says which it
has (`Game._symmetries`, beside its rules); the solvers' tables and Qubic's proof use
the same maps:

* classic, mnk on a square board: 8, the quarter turns and the mirrors;
* mnk on another rectangle: 4, mirrored left-right, top-bottom, both;
* nine-board, ultimate: 8, the square's, applied to the grid of boards and inside every
  board at once (the cell played still sends to the board of the same place);
* matryoshka, gobblet: 8, the square's;
* qubic: 192 on 4x4x4, the cube's 48 (axes permuted and reversed) and those with the
  inner and outer layers of every axis exchanged (Silver 1967); 48 on 3x3x3
  (`noughts.games.geometry.CubeSymmetries` counts them on any cube);
* connect4: 2, the mirror (gravity keeps up and down).

A board one cell wide has fewer (its maps coincide), and a game from outside Noughts
that declares none has the identity alone. The identity is always the first.

>>> from noughts import parse_spec
>>> from noughts.symmetry import canonical, symmetries
>>> game = parse_spec("classic")
>>> len(symmetries(game))
8
>>> state = game.initial().play_text("3")
>>> mirror = symmetries(game)[1]  # the columns reversed
>>> mirror(state).to_text(), mirror.move_text("3")
('x../.../... o', '1')
>>> image, symmetry = canonical(state)
>>> image.to_text(), symmetry(state) == image
('.../.../..x o', True)
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from noughts.core import Game, InvalidPositionError, State

__all__ = ["Symmetry", "canonical", "symmetries"]

M = TypeVar("M", bound=Hashable)
S = TypeVar("S", bound=State[Any])


@dataclass(frozen=True)
class Symmetry(Generic[M]):
    """One symmetry of `game`'s board: call it on a position of the game for its image,
    `move` and `move_text` map a move."""

    game: Game[Any, M]
    """The game whose board this is a symmetry of."""
    index: int
    """Its place in `symmetries(game)`; 0 is the identity."""
    _group: Sequence[Sequence[int]] = field(repr=False, compare=False)

    @property
    def cells(self) -> tuple[int, ...]:
        """The map of the cells, as the game numbers them: ``cells[c]`` is the image of
        cell c (in ultimate a cell is ``board * 9 + cell``); empty for the identity of a
        game that declares no symmetries."""
        return tuple(self._group[self.index]) if self._group else ()

    @property
    def is_identity(self) -> bool:
        """True for the symmetry that changes nothing."""
        return self.index == 0

    @property
    def inverse(self) -> Symmetry[M]:
        """The symmetry that undoes this one."""
        if self.is_identity:
            return self
        cells = self.cells
        undo = [0] * len(cells)
        for cell, image in enumerate(cells):
            undo[image] = cell
        target = tuple(undo)
        for index in range(len(self._group)):
            if tuple(self._group[index]) == target:
                return Symmetry(self.game, index, self._group)
        raise LookupError(f"{self.game.spec}'s symmetries hold no inverse of number {self.index}")  # a group has one

    def __call__(self, state: S) -> S:
        """The image of the position `state` (of this game): marks, the player to move,
        the board to play in, Forget mode's ages and the history its repetitions count,
        all mapped. InvalidPositionError for a position of another game."""
        if state.game != self.game:
            raise InvalidPositionError(f"a symmetry of {self.game.spec} maps its positions, not {state.game.spec}'s")
        if self.is_identity:
            return state
        mapped: S = state._mapped(self._group[self.index])
        return mapped

    def move(self, move: M) -> M:
        """The image of `move`: what the image position's player plays where this one
        plays `move`."""
        if self.is_identity:
            return move
        return self.game._map_move(move, self._group[self.index])

    def move_text(self, text: str) -> str:
        """The image of a move given as text (InvalidMoveError if it is not one), as its
        canonical text."""
        return self.game.move_text(self.move(self.game.parse_move(text)))


def symmetries(game: Game[Any, M]) -> list[Symmetry[M]]:
    """Every symmetry of `game`'s board, the identity first (the table in the module's
    docstring says how many).

    >>> from noughts import parse_spec
    >>> [len(symmetries(parse_spec(spec))) for spec in ("mnk:m=4:n=3:k=3", "qubic", "connect4")]
    [4, 192, 2]
    """
    group = game._symmetries()
    return [Symmetry(game, index, group) for index in range(max(len(group), 1))]


def canonical(state: S) -> tuple[S, Symmetry[Any]]:
    """The least image of `state` (by position text) and the symmetry that takes `state`
    there: positions equal up to symmetry have the same canonical image. A move found in
    the image maps back through ``symmetry.inverse.move``."""
    group = symmetries(state.game)
    best, best_text, best_symmetry = state, state.to_text(), group[0]
    for symmetry in group[1:]:
        image = symmetry(state)
        text = image.to_text()
        if text < best_text:
            best, best_text, best_symmetry = image, text, symmetry
    return best, best_symmetry
