"""Noughts: the tic-tac-toe family — rules, notation and computer players.

>>> from noughts import parse_spec
>>> state = parse_spec("classic").initial().play_text("5").play_text("1")
>>> state.to_text()
'o../.x./... x'

What is named here is the library's public API (``__all__``): the games and their
states and moves, game records, the computer players and their analyses, a match
between two players and the review of a game. Everything else is reachable by its
module (``noughts.ai.search``...) for those who need it, without the same promise.
The arena's in-process round-robin is ``noughts.arena.local.round_robin`` (it needs
``noughts[arena]``); a position drawn as SVG is ``noughts.svg.board`` (a state shows
itself so in a notebook), the symmetries of a board ``noughts.symmetry``.
"""

from noughts.ai import (
    AIPlayer,
    Analysis,
    Kind,
    Limits,
    MoveInfo,
    Value,
    make_player,
    parse_player,
    player_names,
    register_player,
)
from noughts.ai.levels import LEVELS, level_player
from noughts.core import (
    Game,
    IllegalMoveError,
    InvalidMoveError,
    InvalidOptionError,
    InvalidPositionError,
    MissingExtraError,
    NoughtsError,
    Outcome,
    Player,
    Reason,
    State,
    UnknownGameError,
)
from noughts.games.cells import Cell
from noughts.games.gobblet import Gobblet, GobbletMove, GobbletState, Place, Shift
from noughts.games.mnk.rules import Mnk, MnkState
from noughts.games.qubic import Qubic, QubicState
from noughts.games.ultimate import Ultimate, UltimateState
from noughts.match import ForfeitError, play_game
from noughts.records import GameRecord, RecordError
from noughts.registry import GAMES, game_keys, make_game, parse_position, parse_spec
from noughts.study import MoveReview, Review, review_game, review_record
from noughts.svg import board as _svg_board  # noqa: F401 - gives states their _repr_svg_

__version__ = "0.1.0"

__all__ = [
    "GAMES",
    "LEVELS",
    "AIPlayer",
    "Analysis",
    "Cell",
    "ForfeitError",
    "Game",
    "GameRecord",
    "Gobblet",
    "GobbletMove",
    "GobbletState",
    "IllegalMoveError",
    "InvalidMoveError",
    "InvalidOptionError",
    "InvalidPositionError",
    "Kind",
    "Limits",
    "MissingExtraError",
    "Mnk",
    "MnkState",
    "MoveInfo",
    "MoveReview",
    "NoughtsError",
    "Outcome",
    "Place",
    "Player",
    "Qubic",
    "QubicState",
    "Reason",
    "RecordError",
    "Review",
    "Shift",
    "State",
    "Ultimate",
    "UltimateState",
    "UnknownGameError",
    "Value",
    "game_keys",
    "level_player",
    "make_game",
    "make_player",
    "parse_player",
    "parse_position",
    "parse_spec",
    "play_game",
    "player_names",
    "register_player",
    "review_game",
    "review_record",
]
