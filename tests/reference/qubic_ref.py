"""A deliberately naive Qubic, written apart from noughts.games.qubic to check it.

The board is a dict from coordinate tuples to "x", "o" or None; lines are found by
walking every direction from every cell and keeping the distinct cell sets; the outcome
is recomputed from scratch by looking at every line. Nothing here is shared with the
engine (no bitmasks, no geometry module), so the two can only agree by being right.
"""

from __future__ import annotations

import itertools

Coord = tuple[int, ...]


class RefQubic:
    """One game in progress on a cube of side `n` in `d` dimensions, n in a line wins."""

    def __init__(self, n: int, d: int) -> None:
        self.n = n
        self.d = d
        self.coords: list[Coord] = list(itertools.product(range(n), repeat=d))
        self.board: dict[Coord, str | None] = {c: None for c in self.coords}
        self.to_move = "x"
        self.lines = self._find_lines()
        self.at_index = {self.index(c): c for c in self.coords}

    def _find_lines(self) -> list[frozenset[Coord]]:
        found: set[frozenset[Coord]] = set()
        steps = [v for v in itertools.product((-1, 0, 1), repeat=self.d) if any(v)]
        for start in self.coords:
            for step in steps:
                cells = [tuple(s + i * v for s, v in zip(start, step, strict=True)) for i in range(self.n)]
                if all(0 <= x < self.n for cell in cells for x in cell):
                    found.add(frozenset(cells))
        return sorted(found, key=sorted)

    def index(self, coord: Coord) -> int:
        """Row-major, last axis fastest."""
        return sum(x * self.n ** (self.d - 1 - axis) for axis, x in enumerate(coord))

    def winner(self) -> str | None:
        for line in self.lines:
            marks = {self.board[c] for c in line}
            if len(marks) == 1 and None not in marks:
                return marks.pop()
        return None

    def outcome(self) -> str | None:
        """ "x", "o", "draw", or None while the game goes on."""
        won = self.winner()
        if won is not None:
            return won
        if all(mark is not None for mark in self.board.values()):
            return "draw"
        return None

    def legal_moves(self) -> list[int]:
        if self.outcome() is not None:
            return []
        return sorted(self.index(c) for c in self.coords if self.board[c] is None)

    def play(self, index: int) -> None:
        if index not in self.legal_moves():
            raise ValueError(f"illegal move {index}")
        self.board[self.at_index[index]] = self.to_move
        self.to_move = "o" if self.to_move == "x" else "x"

    def undo(self, index: int) -> None:
        self.board[self.at_index[index]] = None
        self.to_move = "o" if self.to_move == "x" else "x"

    def set_position(self, cells: str, to_move: str) -> None:
        """`cells`: one of x, o, . per cell in index order."""
        for c in self.coords:
            mark = cells[self.index(c)]
            self.board[c] = None if mark == "." else mark
        self.to_move = to_move

    def perft(self, depth: int) -> int:
        """Move paths of exactly `depth` plies; games that end earlier count nothing."""
        if depth == 0:
            return 1
        total = 0
        for move in self.legal_moves():
            self.play(move)
            total += self.perft(depth - 1)
            self.undo(move)
        return total
