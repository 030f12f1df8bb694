"""Computer players. They see only the State protocol.

A player is ``choose(state, limits) -> move`` plus ``analyze`` (the value of every legal
move). `make_player` builds one from a name and options given as text
(``random:seed=7``); importing this package registers every player.
"""

# Imported for their registrations: each module registers its players by name.
from noughts.ai import compiled, levels, mcts, rules, search, solve  # noqa: F401
from noughts.ai.base import (
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
    seeded_player,
)

__all__ = [
    "AIPlayer",
    "Analysis",
    "Kind",
    "Limits",
    "MoveInfo",
    "Value",
    "make_player",
    "parse_player",
    "player_names",
    "register_player",
    "seeded_player",
]
