"""Following a game from the outside, for the arena's players that keep a game of their
own (an engine process, an OpenSpiel state)."""

from __future__ import annotations

from typing import Any

from noughts.core import State

__all__ = ["StateTracker"]


class StateTracker:
    """Follows a game from the outside: players that keep a game of their own (an engine
    process, an OpenSpiel state) see only the current state, and need the moves played
    since the last state they knew — the opponent's reply, or the opening."""

    def __init__(self) -> None:
        self.last: State[Any] | None = None

    def moves_to(self, state: State[Any], max_plies: int = 3) -> list[Any] | None:
        """The moves from the last known state to `state` (from the initial position at
        the start), found by a search of at most `max_plies` plies; None if there is no
        such path, and the caller has to start over from the position."""
        start = self.last if self.last is not None else state.game.initial()
        frontier: list[tuple[State[Any], list[Any]]] = [(start, [])]
        for depth in range(max_plies + 1):
            following: list[tuple[State[Any], list[Any]]] = []
            for current, path in frontier:
                if current == state:
                    return path
                # The last level is only compared: expanding it too made a miss in gobblet
                # cost 16 s (every state four plies deep) instead of half a second.
                if depth < max_plies and not current.is_over:
                    following += [(current.play(m), [*path, m]) for m in current.legal_moves()]
            frontier = following
        return None

    def reset(self) -> None:
        self.last = None
