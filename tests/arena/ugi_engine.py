"""A small UGI program for the tests: ultimate tic-tac-toe on UGI's own 9x9 grid (files
a-i, ranks 1-9 from the bottom), written without Noughts, so that the adapter's square
mapping is checked against an independent reading of the rules. It plays a random legal
move (seeded), exits with an error on an illegal move, and misbehaves when told to by
its first argument: ``garbage`` answers a bestmove that is no square, ``silent`` never
answers go."""

from __future__ import annotations

import random
import sys

LINES = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]


def board_cell(square: str) -> tuple[int, int]:
    """(sub-board, cell), both counted from the bottom-left, of a square like e5."""
    x, y = "abcdefghi".index(square[0]), int(square[1]) - 1
    return (y // 3) * 3 + x // 3, (y % 3) * 3 + x % 3


def square(board: int, cell: int) -> str:
    x, y = (board % 3) * 3 + cell % 3, (board // 3) * 3 + cell // 3
    return f"{'abcdefghi'[x]}{y + 1}"


class Game:
    def __init__(self) -> None:
        self.cells = [[""] * 9 for _ in range(9)]
        self.turn, self.sent = "x", -1

    def decided(self, board: int) -> bool:
        marks = self.cells[board]
        return all(marks) or any(marks[a] and marks[a] == marks[b] == marks[c] for a, b, c in LINES)

    def legal(self) -> list[str]:
        boards = [self.sent] if self.sent >= 0 and not self.decided(self.sent) else range(9)
        return [square(b, c) for b in boards if not self.decided(b) for c in range(9) if not self.cells[b][c]]

    def play(self, text: str) -> None:
        if text not in self.legal():
            sys.exit(f"illegal move {text}")
        board, cell = board_cell(text)
        self.cells[board][cell] = self.turn
        self.turn, self.sent = ("o" if self.turn == "x" else "x"), cell

    def load(self, fen: list[str]) -> None:
        self.__init__()  # type: ignore[misc]
        for rank, row in zip(range(8, -1, -1), fen[0].split("/"), strict=True):
            x = 0
            for mark in row:
                if mark.isdigit():
                    x += int(mark)
                    continue
                board, cell = board_cell(f"{'abcdefghi'[x]}{rank + 1}")
                self.cells[board][cell] = mark
                x += 1
        self.turn = fen[1].lower()
        self.sent = -1 if fen[3] == "0" else board_cell(fen[3])[1]


def main() -> None:
    mode = sys.argv[1] if len(sys.argv) > 1 else "random"
    rng = random.Random(7)
    game = Game()
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        if words[0] == "ugi":
            print("id name tiny", "ugiok", sep="\n", flush=True)
        elif words[0] == "isready":
            print("readyok", flush=True)
        elif words[0] == "uginewgame":
            game = Game()
        elif words[0] == "position":
            moves = words[words.index("moves") + 1 :] if "moves" in words else []
            if words[1] == "fen":
                game.load(words[2:6])
            else:
                game = Game()
            for move in moves:
                game.play(move)
        elif words[0] == "go":
            if mode == "silent":
                continue
            print("info depth 1 score cp 0", flush=True)
            print("bestmove " + ("z0" if mode == "garbage" else rng.choice(game.legal())), flush=True)
        elif words[0] == "quit":
            return


if __name__ == "__main__":
    main()
