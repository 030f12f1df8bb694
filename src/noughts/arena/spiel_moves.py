"""Our games and moves as OpenSpiel's, for the arena's OpenSpiel bots. Classic, mnk and
ultimate without Forget mode are OpenSpiel's own C++ games (its bots then search at C++
speed, and any bot written for those games plays them); every other game and option set
is the one `noughts.spiel` registers (``noughts_gobblet``, ``noughts_classic`` with
``forget``...), whose actions are our moves one for one.

On OpenSpiel's own games moves are translated through its action strings: ``x(row,col)``
for a placement and, in ultimate, ``Choose local board b`` followed by ``Local board b:
x(row,col)`` when the player may choose the board — one of our moves is then two
OpenSpiel actions.
"""

from __future__ import annotations

import importlib
import itertools
import re
from typing import Any, cast

from noughts.core import Game, InvalidOptionError, Player, State
from noughts.games.geometry import bits
from noughts.games.marks import MarksState
from noughts.variant import Trait, placed_on_grid

__all__ = [
    "available",
    "cell",
    "is_ours",
    "marks_in_turn",
    "move_of",
    "placements",
    "pyspiel",
    "spiel_game",
    "start_at",
]

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
    """OpenSpiel's own game with our rules where it has one, else ours as registered by
    `noughts.spiel` (which needs numpy besides)."""
    if placed_on_grid(game) and Trait.FORGET not in game.traits:
        grid = cast(Any, game)
        if (grid.m, grid.n, grid.k) == (3, 3, 3):
            return pyspiel().load_game("tic_tac_toe")
        return pyspiel().load_game("mnk", {"m": grid.m, "n": grid.n, "k": grid.k})
    if game.spec == "ultimate":
        return pyspiel().load_game("ultimate_tic_tac_toe")
    from noughts import spiel

    return spiel.load(game.spec)


def is_ours(spiel_game: Any) -> bool:
    """Whether an OpenSpiel game is one `noughts.spiel` registered (a Python game)."""
    return str(spiel_game.get_type().short_name).startswith("noughts_")


def start_at(spiel_game: Any, state: State[Any]) -> Any | None:
    """An OpenSpiel state of our registered game standing at `state` (it holds our
    state), or None for OpenSpiel's own games, which have to be played to it."""
    if not is_ours(spiel_game):
        return None
    spiel_state = spiel_game.new_initial_state()
    spiel_state.state_now = state
    return spiel_state


def move_of(spiel_state: Any, action: int) -> Any | None:
    """Our move for OpenSpiel's `action` in `spiel_state` (before it is applied), or None
    for the first half of a free ultimate move (``Choose local board``)."""
    if is_ours(spiel_state.get_game()):
        return spiel_state.encoding.moves[action]
    text = spiel_state.action_to_string(spiel_state.current_player(), action)
    return None if text.startswith("Choose local board") else cell(text, spiel_state)


def marks_in_turn(state: State[Any]) -> list[Any]:
    """Moves that lead from the start to `state`, when it is too far for the search: on
    an m,n,k board (without Forget mode) the marks alone make the position, and any
    order of them, X and O alternating, is a legal way to it (a game that goes on has
    no line, so no part of it has one either). Ultimate needs its real history."""
    if not placed_on_grid(state.game) or Trait.FORGET in state.game.traits:
        raise InvalidOptionError("OpenSpiel's bot plays ultimate only from the initial position")
    marks = cast(MarksState, state)
    x, o = list(bits(marks.x)), list(bits(marks.o))
    path = [cell for pair in itertools.zip_longest(x, o) for cell in pair if cell is not None]
    if len(x) - len(o) != (0 if state.turn is Player.X else 1):
        raise InvalidOptionError(f"{state.to_text()} has a mark count OpenSpiel cannot reach")
    return path


def placements(spiel_state: Any) -> dict[Any, list[int]]:
    """Our move -> the OpenSpiel actions that make it, for the player to move (in
    OpenSpiel's own games our moves are cell indices: row * width + column, plus 9 *
    board in ultimate)."""
    if is_ours(spiel_state.get_game()):
        return {spiel_state.encoding.moves[action]: [action] for action in spiel_state.legal_actions()}
    player = spiel_state.current_player()
    found: dict[Any, list[int]] = {}
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
