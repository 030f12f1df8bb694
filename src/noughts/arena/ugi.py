"""A program that speaks UGI (the Universal Game Interface: UCI, the chess engines'
protocol, for other games) as an arena player, for ultimate tic-tac-toe.

UGI's ultimate engines name a square by its file and rank on the 9x9 grid: files a-i
from the left, ranks 1-9 from the bottom (rank 9 is the top row, as in a FEN). Our
``53`` (board 5, cell 3: the top-right cell of the centre board) is ``f6``. The
program is told the game as ``position startpos moves ...`` and asked ``go movetime
MS``; it answers ``bestmove SQUARE`` after any number of ``info`` lines.

Only plain ``ultimate`` is played: its rules are UGI's ultimate (a player sent to a
decided board plays in any undecided one; no tiebreak), and the variants' rules are not.
"""

from __future__ import annotations

import time
from typing import Any

from noughts.ai import Analysis, Limits
from noughts.arena.external import STARTUP_TIME, EnginePlayer
from noughts.core import InvalidOptionError, State

__all__ = ["GAMES", "UgiPlayer", "square_move", "square_text"]

#: The game specs a UGI program can play here.
GAMES = ("ultimate",)
#: Seconds a move may take when the arena gives no time per move.
DEFAULT_MOVE_TIME = 1.0
#: bestmove may come this much after the time per move (process and pipe overhead).
MARGIN = 2.0


def square_text(move: int) -> str:
    """Our ultimate move (``board * 9 + cell``, reading order) as a UGI square.

    >>> square_text(4 * 9 + 2), square_text(0), square_text(80)
    ('f6', 'a9', 'i1')
    """
    board, cell = divmod(move, 9)
    column = 3 * (board % 3) + cell % 3
    row = 3 * (board // 3) + cell // 3  # from the top
    return f"{'abcdefghi'[column]}{9 - row}"


def square_move(text: str) -> int:
    """A UGI square as our ultimate move; ValueError if `text` names no square.

    >>> square_move("f6") == 4 * 9 + 2
    True
    """
    text = text.strip().lower()
    if len(text) != 2 or text[0] not in "abcdefghi" or text[1] not in "123456789":
        raise ValueError(f"{text!r} is not a square a1-i9")
    column, row = "abcdefghi".index(text[0]), 9 - int(text[1])
    return (row // 3 * 3 + column // 3) * 9 + (row % 3) * 3 + column % 3


def fen(state: State[Any]) -> str:
    """An ultimate position as a UGI FEN: the ranks from 9 down to 1 (``x``, ``o``, a digit
    for a run of empty squares), the player to move, a move count, and a square whose
    cell names the board the player must play in (``0`` when free to choose).

    >>> from noughts import parse_spec
    >>> fen(parse_spec("ultimate").initial().play(4 * 9 + 2))
    '9/9/9/5x3/9/9/9/9/9 O 1 i9'
    """
    boards, turn, forced = state.to_text().split()[:3]
    cells = boards.split("/")
    ranks = []
    for row in range(9):
        text, empty = "", 0
        for column in range(9):
            mark = cells[row // 3 * 3 + column // 3][row % 3 * 3 + column % 3]
            if mark == ".":
                empty += 1
                continue
            text += (str(empty) if empty else "") + mark
            empty = 0
        ranks.append(text + (str(empty) if empty else ""))
    plies = sum(mark != "." for mark in boards.replace("/", ""))
    # Any square whose cell is the forced board tells the program that board: cell b of board b.
    sent = "0" if forced == "-" else square_text((int(forced) - 1) * 10)
    return f"{'/'.join(ranks)} {turn.upper()} {plies} {sent}"


class UgiPlayer(EnginePlayer):
    """`command` run as a subprocess speaking UGI, kept between games; the process
    handling (start, forfeit on a crash or silence, stop) is the engine player's."""

    def __init__(self, name: str, command: str, warm_up: float = 0.0) -> None:
        super().__init__(name, command, warm_up=warm_up)
        #: The moves since the start, while the game began there (else the position goes as a FEN).
        self.moves: list[int] = []
        self.moves_known = True

    def reset(self) -> None:
        super().reset()
        self.moves, self.moves_known = [], True

    def analyze(self, state: State[Any], limits: Limits = Limits()) -> Analysis:
        if state.game.spec not in GAMES:
            raise InvalidOptionError(f"{self.name} speaks UGI, played here in {', '.join(GAMES)} only")
        started = time.perf_counter()
        move_time = DEFAULT_MOVE_TIME if limits.time is None else limits.time
        self._sync(state)
        patience = move_time + MARGIN + (0.0 if self.warm else self.warm_up)
        answer = self._wait_for("bestmove", f"go movetime {max(1, round(move_time * 1000))}", patience, "time")
        self.warm = True
        analysis = self.played(state, answer, lambda line: square_move([*line.split(), ""][1]), started)
        self.moves.append(analysis.moves[0].move)
        return analysis

    def _sync(self, state: State[Any]) -> None:
        if self.process is None or self.process.poll() is not None:
            self._start()
            self._wait_for("ugiok", "ugi", STARTUP_TIME)
        path = self.tracker.moves_to(state)
        if path is None and self.tracker.last is not None:  # perhaps a new game from the start
            self.tracker.reset()
            path = self.tracker.moves_to(state)
        if self.tracker.last is None:  # a new game
            self.send("uginewgame")
            self.moves, self.moves_known = [], True
        if path is None:
            self.moves_known = False
        else:
            self.moves += path
        self.tracker.last = state
        self._wait_for("readyok", "isready", STARTUP_TIME)
        if self.moves_known:
            moves = ["moves", *map(square_text, self.moves)] if self.moves else []
            self.send(" ".join(["position startpos", *moves]))
        else:
            self.send(f"position fen {fen(state)}")

    def _wait_for(self, word: str, command: str, patience: float, termination: str = "abandoned") -> str:
        """Send `command` and wait for the line starting with `word` (UGI's answers come
        after any number of ``info`` lines)."""
        self.send(command)
        deadline = time.monotonic() + patience
        while True:
            line = self.read_line(command, deadline, patience, termination)
            if line.split()[:1] == [word]:
                return line.strip()
