"""Our games and moves as OpenSpiel's own, for the arena's OpenSpiel bots: classic, mnk
and ultimate, without Forget mode, which OpenSpiel has in C++ (its bots then search at
C++ speed, and any bot written for those games plays them).

Moves are translated through OpenSpiel's action strings: ``x(row,col)`` for a placement
and, in ultimate, ``Choose local board b`` followed by ``Local board b: x(row,col)`` when
the player may choose the board — one of our moves is then two OpenSpiel actions.
"""

from __future__ import annotations

import importlib
import itertools
import re
from typing import Any

from noughts.core import Game, InvalidOptionError, Player, State
from noughts.games.geometry import bits
from noughts.games.mnk import Mnk, MnkState
from noughts.games.ultimate import NINE_BOARD, Ultimate

__all__ = ["available", "cell", "marks_in_turn", "placements", "pyspiel", "spiel_game"]

_CELL = re.compile(r"(?:Local board (\d): )?[xo]\((\d+),(\d+)\)")


def pyspiel() -> Any:
    """The pyspiel module, imported by name: OpenSpiel is optional and ships no types."""
    return importlib.import_module("pyspiel")


def available() -> bool:
    """Whether pyspiel can be imported (the open-spiel package is installed)."""
    try:
        pyspiel()
    except ImportError:
        return False
    return True


def spiel_game(game: Game[Any, Any]) -> Any:
    """OpenSpiel's game with our rules, or InvalidOptionError for one it lacks."""
    if isinstance(game, Mnk) and not game.forget:
        if (game.m, game.n, game.k) == (3, 3, 3):
            return pyspiel().load_game("tic_tac_toe")
        return pyspiel().load_game("mnk", {"m": game.m, "n": game.n, "k": game.k})
    if isinstance(game, Ultimate) and game.rule != NINE_BOARD and game.spec == "ultimate":
        return pyspiel().load_game("ultimate_tic_tac_toe")
    raise InvalidOptionError(
        f"OpenSpiel has no game with the rules of {game.spec}; its bots play classic, mnk and ultimate (no options)"
    )


def marks_in_turn(state: State[Any]) -> list[Any]:
    """Moves that lead from the start to `state`, when it is too far for the search: on
    an m,n,k board (without Forget mode) the marks alone make the position, and any
    order of them, X and O alternating, is a legal way to it (a game that goes on has
    no line, so no part of it has one either). Ultimate needs its real history."""
    if not isinstance(state, MnkState) or state.ages is not None:
        raise InvalidOptionError("OpenSpiel's bot plays ultimate only from the initial position")
    x, o = list(bits(state.x)), list(bits(state.o))
    path = [cell for pair in itertools.zip_longest(x, o) for cell in pair if cell is not None]
    if len(x) - len(o) != (0 if state.turn is Player.X else 1):
        raise InvalidOptionError(f"{state.to_text()} has a mark count OpenSpiel cannot reach")
    return path


def placements(spiel_state: Any) -> dict[int, list[int]]:
    """Our move -> the OpenSpiel actions that make it, for the player to move (our moves
    are cell indices: row * width + column, plus 9 * board in ultimate)."""
    player = spiel_state.current_player()
    found: dict[int, list[int]] = {}
    for action in spiel_state.legal_actions():
        text = spiel_state.action_to_string(player, action)
        if text.startswith("Choose local board"):
            child = spiel_state.clone()
            child.apply_action(action)
            for move, path in placements(child).items():
                found[move] = [action, *path]
            continue
        found[cell(text, spiel_state)] = [action]
    return found


def cell(text: str, spiel_state: Any) -> int:
    """Our move for OpenSpiel's action string `text` (a placement) in `spiel_state`'s game."""
    match = _CELL.fullmatch(text)
    if match is None:
        raise InvalidOptionError(f"unexpected OpenSpiel action {text!r}")
    width = int(spiel_state.get_game().get_parameters().get("m", 3))
    board, row, col = match.groups()
    return (int(board) * 9 if board else 0) + int(row) * width + int(col)
