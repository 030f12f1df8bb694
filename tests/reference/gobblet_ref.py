"""A deliberately naive second implementation of matryoshka and gobblet, for differential
tests against noughts.games.gobblet. It shares no code with the engine: the board is a
list of nine Python lists of (player, size) tuples, bottom to top, and the hands are
dicts. Written from the rule book (RULES.md), straightforwardly, for clarity, not speed.

Moves are handled as their texts ("L5", "3-5"); results are "x-wins", "o-wins", "draw"
or None while the game goes on.
"""

from __future__ import annotations

from dataclasses import dataclass, field

LETTERS = {1: "S", 2: "M", 3: "L"}
LINES = [
    (0, 1, 2),
    (3, 4, 5),
    (6, 7, 8),
    (0, 3, 6),
    (1, 4, 7),
    (2, 5, 8),
    (0, 4, 8),
    (2, 4, 6),
]


def other(player: str) -> str:
    return "o" if player == "x" else "x"


@dataclass
class RefGame:
    moves_allowed: bool
    board: list[list[tuple[str, int]]] = field(default_factory=lambda: [[] for _ in range(9)])
    hands: dict[str, dict[int, int]] = field(default_factory=lambda: {p: {1: 2, 2: 2, 3: 2} for p in "xo"})
    turn: str = "x"
    seen: list[str] = field(default_factory=list)
    result: str | None = None

    def top_size(self, cell: int) -> int:
        return self.board[cell][-1][1] if self.board[cell] else 0

    def has_line(self, player: str) -> bool:
        return any(all(self.board[c] and self.board[c][-1][0] == player for c in line) for line in LINES)

    def legal(self) -> list[str]:
        """Every legal move's text, unordered; [] once the game is over."""
        if self.result is not None:
            return []
        out = []
        for size in (1, 2, 3):
            if self.hands[self.turn][size] > 0:
                for cell in range(9):
                    if self.top_size(cell) < size:
                        out.append(f"{LETTERS[size]}{cell + 1}")
        if self.moves_allowed:
            for src in range(9):
                if self.board[src] and self.board[src][-1][0] == self.turn:
                    size = self.board[src][-1][1]
                    for dst in range(9):
                        if dst != src and self.top_size(dst) < size:
                            out.append(f"{src + 1}-{dst + 1}")
        return out

    def play(self, move: str) -> RefGame:
        if move not in self.legal():
            raise ValueError(f"illegal move {move} in {self.text()}")
        new = RefGame(
            self.moves_allowed,
            [list(stack) for stack in self.board],
            {p: dict(h) for p, h in self.hands.items()},
            self.turn,
            list(self.seen),
        )
        mover = new.turn
        if move[0] in "SML":
            size = {"S": 1, "M": 2, "L": 3}[move[0]]
            new.hands[mover][size] -= 1
            new.board[int(move[1]) - 1].append((mover, size))
        else:
            src, dst = int(move[0]) - 1, int(move[2]) - 1
            figure = new.board[src].pop()
            new.board[dst].append(figure)
        new.turn = other(mover)
        new.seen.append(new.text())
        mine, theirs = new.has_line(mover), new.has_line(other(mover))
        if theirs:
            new.result = f"{other(mover)}-wins"
        elif mine:
            new.result = f"{mover}-wins"
        elif new.seen.count(new.text()) >= 3 or not new.legal():
            new.result = "draw"
        return new

    def text(self) -> str:
        """The position in the engine's documented position notation."""
        cells = []
        for stack in self.board:
            word = "".join(LETTERS[s] if p == "x" else LETTERS[s].lower() for p, s in stack)
            cells.append(word or ".")
        rows = [",".join(cells[r * 3 : r * 3 + 3]) for r in range(3)]
        return "/".join(rows) + " " + self.turn


def new_game(moves_allowed: bool) -> RefGame:
    game = RefGame(moves_allowed)
    game.seen.append(game.text())
    return game


def perft(game: RefGame, depth: int) -> int:
    """Paths of exactly `depth` plies (a game that ends earlier contributes nothing)."""
    if depth == 0:
        return 1
    moves = game.legal()
    if depth == 1:
        return len(moves)
    return sum(perft(game.play(m), depth - 1) for m in moves)


def from_text(text: str, moves_allowed: bool) -> RefGame:
    """A game starting at a position text (no earlier positions for repetition); the
    result is decided as after a move by the player not to move."""
    rows, turn = text.split()
    board: list[list[tuple[str, int]]] = []
    hands = {p: {1: 2, 2: 2, 3: 2} for p in "xo"}
    for cell in rows.replace("/", ",").split(","):
        stack = []
        for letter in cell.replace(".", ""):
            player = "x" if letter.isupper() else "o"
            size = {"S": 1, "M": 2, "L": 3}[letter.upper()]
            hands[player][size] -= 1
            stack.append((player, size))
        board.append(stack)
    game = RefGame(moves_allowed, board, hands, turn, [text])
    mover = other(turn)
    if game.has_line(turn):
        game.result = f"{turn}-wins"
    elif game.has_line(mover):
        game.result = f"{mover}-wins"
    elif not game.legal():
        game.result = "draw"
    return game
