"""A deliberately naive ultimate / nine-board, written apart from noughts.games.ultimate.

The board is a list of 81 one-character strings (" ", "x", "o"), indexed board * 9 +
cell. Which boards are open and who has won are recomputed from scratch after every
move by looking at every line of every board; the forced board is derived from the last
move. Forget mode keeps plain lists of each player's moves per board. Nothing is shared
with the engine (no bitmasks, no geometry module), so the two agree only by being right.
"""

from __future__ import annotations

TRIPLES = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]


def line_owner(marks: list[str]) -> str | None:
    """The player with three in a row among nine marks (the first found), or None."""
    for a, b, c in TRIPLES:
        if marks[a] != " " and marks[a] == marks[b] == marks[c]:
            return marks[a]
    return None


class RefUltimate:
    """One game in progress. `rule` is "ultimate" or "nine-board"; `keep` > 0 turns on
    Forget mode with that many marks per player per local board."""

    def __init__(self, rule: str, keep: int = 0, tiebreak: bool = False) -> None:
        self.rule = rule
        self.keep = keep
        self.tiebreak = tiebreak
        self.cells = [" "] * 81
        self.to_move = "x"
        self.last: int | None = None
        self.ages: dict[str, list[list[int]]] = {"x": [[] for _ in range(9)], "o": [[] for _ in range(9)]}
        self.seen: list[tuple[object, ...]] = [self.position()]

    def local(self, board: int) -> list[str]:
        return self.cells[board * 9 : board * 9 + 9]

    def board_result(self, board: int) -> str | None:
        """ "x" or "o" for a local line, "draw" for a full board without one, else None."""
        owner = line_owner(self.local(board))
        if owner is not None:
            return owner
        if " " not in self.local(board):
            return "draw"
        return None

    def is_open(self, board: int) -> bool:
        if self.rule == "nine-board":
            return " " in self.local(board)
        return self.board_result(board) is None

    def forced(self) -> int | None:
        if self.last is None:
            return None
        target = self.last % 9
        return target if self.is_open(target) else None

    def position(self) -> tuple[object, ...]:
        ages = tuple(tuple(tuple(a) for a in self.ages[p]) for p in "xo") if self.keep else None
        return (tuple(self.cells), self.to_move, self.forced(), ages)

    def result(self) -> tuple[str | None, str] | None:
        """(winner or None, reason) once the game is over, else None."""
        results = [self.board_result(b) for b in range(9)]
        if self.rule == "nine-board":
            for p in "xo":
                if p in results:
                    return (p, "line")
            if all(" " not in self.local(b) for b in range(9)):
                return (None, "full")
        else:
            grid = [r if r in ("x", "o") else " " for r in results]
            winner = line_owner(grid)
            if winner is not None:
                return (winner, "line")
            if not any(self.is_open(b) for b in range(9)):
                x_boards, o_boards = results.count("x"), results.count("o")
                if self.tiebreak and x_boards != o_boards:
                    return ("x" if x_boards > o_boards else "o", "boards")
                return (None, "full")
        if self.keep and self.seen.count(self.position()) >= 3:
            return (None, "repetition")
        return None

    def legal_moves(self) -> list[int]:
        if self.result() is not None:
            return []
        forced = self.forced()
        boards = [forced] if forced is not None else [b for b in range(9) if self.is_open(b)]
        return sorted(b * 9 + c for b in boards for c in range(9) if self.cells[b * 9 + c] == " ")

    def play(self, move: int) -> None:
        if move not in self.legal_moves():
            raise ValueError(f"illegal move {move}")
        board = move // 9
        mine = self.ages[self.to_move][board]
        if self.keep and len(mine) == self.keep:
            self.cells[mine.pop(0)] = " "
        mine.append(move)
        self.cells[move] = self.to_move
        self.to_move = "o" if self.to_move == "x" else "x"
        self.last = move
        self.seen.append(self.position())

    def copy(self) -> RefUltimate:
        """An independent copy, for tree walks."""
        twin = RefUltimate(self.rule, self.keep, self.tiebreak)
        twin.cells = list(self.cells)
        twin.to_move = self.to_move
        twin.last = self.last
        twin.ages = {p: [list(a) for a in self.ages[p]] for p in "xo"}
        twin.seen = list(self.seen)
        return twin


def perft(game: RefUltimate, depth: int) -> int:
    """Move paths of exactly `depth` plies; games that end earlier count nothing."""
    if depth == 0:
        return 1
    moves = game.legal_moves()
    if depth == 1:
        return len(moves)
    total = 0
    for move in moves:
        child = game.copy()
        child.play(move)
        total += perft(child, depth - 1)
    return total
