"""What a game tells the generic searches beyond the State protocol, as a plug-in object
(as OpenSpiel's algorithms get a game's knowledge through an evaluator object): which of
equal moves to try first, which moves are near enough to the play to matter, the moves
that win or must be blocked at once, a search for forced wins by threats. The base,
`SearchKnowledge`, knows none of it, and serves any game; `knowledge` finds a game's own,
which its `Variant` names (``knowledge="noughts.games.mnk.knowledge:MnkKnowledge"``) and
which lives beside its rules, in the game's folder.

The searches (`noughts.ai.search`) ask it, never a game's class, so that the m,n,k-game's
threats reach alpha-beta the way any other game's knowledge would.
"""

from __future__ import annotations

import importlib
import warnings
from collections.abc import Callable
from typing import Any, Protocol

from noughts.core import Game, Player, State

__all__ = ["SearchKnowledge", "ThreatWin", "knowledge"]


class ThreatWin(Protocol):
    """A forced win found by a threat search: its first move, its length in plies (a
    bound) and the nodes it took; a search may give its whole `line` of moves too."""

    @property
    def move(self) -> Any: ...

    @property
    def plies(self) -> int: ...

    @property
    def nodes(self) -> int: ...


class SearchKnowledge:
    """A game's knowledge for a search: this base knows nothing, and serves any game."""

    def tie_order(self, game: Game[Any, Any]) -> Callable[[Any], float] | None:
        """A key that sorts moves of equal value, smallest first; None: legal-move order."""
        return None

    def near(self, state: State[Any], moves: list[Any], distance: int) -> list[Any]:
        """The moves within `distance` of what is on the board (all of them where the
        game has no such notion, or none is near)."""
        return moves

    def immediate(self, game: Game[Any, Any]) -> Callable[[State[Any]], tuple[int, int]] | None:
        """(state) -> the moves that win at once for the player to move, and for the
        opponent, each as a mask of moves (bit m: move m); None where the game has no
        quick way to tell."""
        return None

    def threats(self, game: Game[Any, Any]) -> bool:
        """Whether `threat_win` searches this game."""
        return False

    def threat_win(
        self, state: State[Any], attacker: Player, threes: bool, nodes: int | None, deadline: float | None
    ) -> ThreatWin | None:
        """A forced win by threats for `attacker` in `state` (moving first if it is not
        their turn, as after a pass), within the budgets; None when none was found."""
        return None

    def replay(self, state: State[Any], attacker: Player, win: ThreatWin) -> ThreatWin | None:
        """`win`, found in another position, checked again in `state`: the same threats
        still winning, or None."""
        return None

    def wins_with(self, state: State[Any], move: Any, nodes: int) -> int | None:
        """The plies to the end of the mover's forced win by threats starting with
        `move` (a bound: against the defence that lasts longest in the search), or None
        where the search proves none within `nodes`."""
        return None


_NOTHING = SearchKnowledge()
_FOUND: dict[tuple[type[Any], str], SearchKnowledge] = {}


def knowledge(game: Game[Any, Any]) -> SearchKnowledge:
    """`game`'s knowledge for the searches, as its variant names it (imported on first
    use, once a key); for a game without any, the base, which knows nothing."""
    found = _FOUND.get((type(game), game.key))
    if found is None:
        path = game.variant.knowledge
        found = _NOTHING if path is None else _load(game.key, path)
        _FOUND[type(game), game.key] = found
    return found


def _load(key: str, path: str) -> SearchKnowledge:
    """The knowledge at `path` (``module:Class``); where it cannot be loaded, the base,
    with a warning: the game still plays, and the searches know nothing of it."""
    module, _, name = path.partition(":")
    try:
        found = getattr(importlib.import_module(module), name)()
    except (ImportError, AttributeError, TypeError) as e:
        warnings.warn(f"{key} names the knowledge {path!r}, which cannot be loaded ({e}): none used", stacklevel=3)
        return _NOTHING
    if not isinstance(found, SearchKnowledge):
        warnings.warn(f"{key} names the knowledge {path!r}, which is no SearchKnowledge: none used", stacklevel=3)
        return _NOTHING
    return found
