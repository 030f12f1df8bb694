"""Connect Four's knowledge for the searches (`noughts.games.knowledge`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from noughts.core import Game
from noughts.games.connect4.rules import ConnectFour
from noughts.games.knowledge import SearchKnowledge

__all__ = ["ConnectFourKnowledge"]


class ConnectFourKnowledge(SearchKnowledge):
    """Connect Four's: of equal moves, the column nearer the centre (it lies on more
    lines)."""

    def tie_order(self, game: Game[Any, Any]) -> Callable[[Any], float] | None:
        assert isinstance(game, ConnectFour)
        centre = (game.m - 1) / 2
        return lambda column: abs(column - centre)
