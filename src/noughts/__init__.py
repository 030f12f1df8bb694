"""Noughts: the tic-tac-toe family — rules, notation and computer players.

>>> from noughts import parse_spec
>>> state = parse_spec("classic").initial().play_text("5").play_text("1")
>>> state.to_text()
'o../.x./... x'
"""

from noughts.core import (
    Game,
    IllegalMoveError,
    InvalidMoveError,
    InvalidOptionError,
    InvalidPositionError,
    NoughtsError,
    Outcome,
    Player,
    Reason,
    State,
    UnknownGameError,
)
from noughts.registry import GAMES, game_keys, make_game, parse_position, parse_spec

__version__ = "0.1.0"

__all__ = [
    "GAMES",
    "Game",
    "IllegalMoveError",
    "InvalidMoveError",
    "InvalidOptionError",
    "InvalidPositionError",
    "NoughtsError",
    "Outcome",
    "Player",
    "Reason",
    "State",
    "UnknownGameError",
    "game_keys",
    "make_game",
    "parse_position",
    "parse_spec",
]
