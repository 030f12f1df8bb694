"""A game no part of Noughts has ever seen, for tests that add it to the registry and
walk every page, command and endpoint with it: a strip of cells, two marks side by side
win. Its board is of a kind nothing draws ("strip"), it has no evaluation, no table, no
kernels: what shows it must fall back to what every game has."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import ClassVar

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
)
from noughts.registry import register, unregister
from noughts.variant import OptionSpec, Variant

KEY = "strip"


@dataclass(frozen=True)
class Strip(Game["StripState", int]):
    length: int = 5

    title: ClassVar[str] = "Strip"

    def __post_init__(self) -> None:
        if not isinstance(self.length, int) or isinstance(self.length, bool) or not 2 <= self.length <= 9:
            raise InvalidOptionError("length takes 2 to 9")

    @property
    def key(self) -> str:
        return KEY

    def initial(self) -> StripState:
        return StripState.make(self, "." * self.length, Player.X)

    def move_text(self, move: int) -> str:
        return chr(ord("a") + move)

    def parse_move(self, text: str) -> int:
        t = text.strip().lower()
        if len(t) == 1 and "a" <= t < chr(ord("a") + self.length):
            return ord(t) - ord("a")
        raise InvalidMoveError(f"{text!r} is not a cell: a to {chr(ord('a') + self.length - 1)}")

    def parse_position(self, text: str) -> StripState:
        cells, _, turn = text.partition(" ")
        if len(cells) != self.length or set(cells) - set("xo.") or turn not in ("x", "o"):
            raise InvalidPositionError(f"a strip position is {self.length} cells of x, o, . and the turn")
        return StripState.make(self, cells, Player(turn))


Strip.variants = (
    Variant(
        key=KEY,
        name="Strip",
        summary="a row of cells, two side by side win",
        board="strip",
        traits=frozenset(),
        rules=lambda game: ["Put your mark on an empty cell; two of yours side by side win."],
        notation=lambda game: "A move is the cell's letter, a first.",
        options=(OptionSpec("length", "cells", "how many cells", 2, 9),),
    ),
)


class StripState(State[int]):
    __slots__ = ("cells",)

    game: Strip
    cells: str

    @classmethod
    def make(cls, game: Strip, cells: str, turn: Player) -> StripState:
        self = object.__new__(cls)
        outcome = None
        for side in (Player.X, Player.O):
            if side.value * 2 in cells:
                outcome = Outcome(side, Reason.LINE)
        if outcome is None and "." not in cells:
            outcome = Outcome(None, Reason.FULL)
        self._init(game, turn, outcome, (cells, turn))
        object.__setattr__(self, "cells", cells)
        return self

    def legal_moves(self) -> list[int]:
        return [] if self.outcome else [i for i, c in enumerate(self.cells) if c == "."]

    def _check(self, move: int) -> None:
        if not isinstance(move, int) or not 0 <= move < self.game.length:
            raise InvalidMoveError(f"{move!r} is not a cell")
        if self.cells[move] != ".":
            raise IllegalMoveError(f"cell {self.game.move_text(move)} is taken")

    def _apply(self, move: int) -> StripState:
        cells = self.cells[:move] + self.turn.value + self.cells[move + 1 :]
        return StripState.make(self.game, cells, self.turn.other)

    def to_text(self) -> str:
        return f"{self.cells} {self.turn.value}"

    def diagram(self) -> str:
        return " ".join(chr(ord("a") + i) for i in range(self.game.length)) + "\n" + " ".join(self.cells.upper())


@contextmanager
def registered() -> Iterator[type[Strip]]:
    """The strip in the registry for the block's length, as a game from outside would be."""
    register(Strip)
    try:
        yield Strip
    finally:
        unregister(Strip)
