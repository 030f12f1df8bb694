"""What ``help`` says at the prompt: the rules of the game being played, how to write a
move in it, and the commands."""

from __future__ import annotations

from typing import Any

from noughts.core import Game
from noughts.games.gobblet import Gobblet
from noughts.games.mnk import Mnk
from noughts.games.qubic import Qubic
from noughts.games.ultimate import NINE_BOARD, Ultimate

__all__ = ["COMMANDS", "help_text", "notation", "rules"]

COMMANDS = """\
commands:
  help       these rules and commands
  hint       what the computer would play here, and why
  undo       take back your last move (against the computer: and its answer)
  moves      the moves so far
  save FILE  write the game record to FILE (.json for JSON)
  quit       end the game (its record is saved)
  Ctrl-C or Ctrl-D also end the game and save its record."""


def rules(game: Game[Any, Any]) -> str:
    """The rules of `game` with its options, in a few sentences."""
    if isinstance(game, Mnk):
        if (game.m, game.n, game.k) == (3, 3, 3):
            text = "Tic-tac-toe: take turns putting your mark on an empty cell; three in a row wins."
        else:
            text = f"{game.m} columns, {game.n} rows: take turns marking an empty cell; {game.k} in a row wins."
        text += " A row may run across, down or diagonally. A full board without one is a draw."
        if game.forget:
            text += _forget(game.keep, "")
        return text
    if isinstance(game, Ultimate):
        text = (
            "Nine small boards in a 3x3 grid. Your move in a cell sends your opponent to the board"
            " in the same position (cell 3, top right, sends them to board 3)."
        )
        if game.rule == NINE_BOARD:
            text += (
                " The first three in a row in ANY small board wins the game."
                " Sent to a full board, you may play in any board."
            )
        else:
            text += (
                " Three in a row wins a small board, which is then closed; a full one is drawn."
                " Sent to a closed board, you may play in any open board."
                " Win three small boards in a row to win the game."
            )
            if game.tiebreak == "boards":
                text += " If the boards run out, more won boards wins."
        if game.forget:
            text += _forget(game.keep, " in each small board")
        return text
    if isinstance(game, Qubic):
        shape = "x".join([str(game.n)] * game.d)
        return (
            f"Tic-tac-toe on a {shape} cube: {game.n} in any straight line wins, across a layer or"
            " through the layers, diagonals included. A full cube without one is a draw."
        )
    if isinstance(game, Gobblet):
        text = (
            "3x3 board; each player has six figures, two each small (S), medium (M) and large (L)."
            " Place one from your hand on an empty cell or over any strictly smaller figure."
            " Only the top figure of a cell counts: three of yours in a row wins."
        )
        if game.moves:
            text += (
                " Instead of placing, you may move one of your top figures to another cell by the"
                " same rule. Lifting a figure can uncover a line: if your move leaves only your"
                " opponent with a line, they win. The same position a third time is a draw."
            )
        else:
            text += " Figures never move. If the player to move cannot place anything, it is a draw."
        return text
    return f"{game.title}: see the rule book (docs/RULES.md)."


def _forget(keep: int, where: str) -> str:
    return (
        f" Forget mode: each player keeps at most {keep} marks{where}; placing one more first"
        " removes your oldest (shown in lower case). The same position a third time is a draw."
    )


def notation(game: Game[Any, Any]) -> str:
    """How to write a move, with the aliases the prompt accepts."""
    if isinstance(game, Mnk):
        if game.m * game.n <= 9:
            return "a move is the cell number, 1-9 in reading order (5 is the centre); b2 (column, row) works too."
        last = chr(ord("a") + game.m - 1)
        return f"a move is column letter and row number: a1 is the top left, {last}{game.n} the bottom right."
    if isinstance(game, Ultimate):
        return (
            "a move is the board, then the cell, each 1-9 in reading order: 53 is the top-right cell"
            " of the centre board (5 3 and 5-3 work too). When you are sent to a board, the cell alone will do."
        )
    if isinstance(game, Qubic):
        axes = {2: "row column", 3: "layer row column", 4: "block layer row column"}[game.d]
        return f"a move is {axes}, each 1-{game.n}: {'1' * game.d} is a corner ({' '.join('1' * game.d)} works too)."
    if isinstance(game, Gobblet):
        text = "place a figure: size then cell, L5 puts a large one on the centre (also 'large 5', '5L')."
        if game.moves:
            text += " Move one of yours: from-to, 3-5 (also '3 5', '3 to 5')."
        return text
    return "a move in the game's notation."


def help_text(game: Game[Any, Any]) -> str:
    """Everything ``help`` prints."""
    return f"{game.spec}: {rules(game)}\n\n{notation(game)}\n\n{COMMANDS}"
