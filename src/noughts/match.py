"""Games between computer players: one game, and seeded random first plies to vary the
openings. The arena builds its round robin on these."""

from __future__ import annotations

import random
from typing import Any

from noughts.ai.base import AIPlayer, Limits
from noughts.core import Game, NoughtsError, Player, State
from noughts.records import GameRecord

__all__ = ["ForfeitError", "play_game", "random_opening"]

#: A game that goes on this long is adjourned as a draw (only cyclic games get there).
MAX_PLIES = 1000


class ForfeitError(NoughtsError):
    """Raised by a player that cannot go on — an external program that crashed, answered
    nonsense or ran out of time: it loses the game. `termination` is the record's word
    for how the game ended (``abandoned`` or ``time``)."""

    def __init__(self, message: str, termination: str = "abandoned") -> None:
        super().__init__(message)
        self.termination = termination
        """The record's word for how the game ended: ``abandoned`` or ``time``."""


def play_game(
    game: Game[Any, Any],
    x: AIPlayer,
    o: AIPlayer,
    limits: Limits = Limits(),
    opening: list[Any] | None = None,
    names: tuple[str, str] = ("x", "o"),
    forfeits: list[ForfeitError] | None = None,
) -> GameRecord:
    """Play one game from the initial position after the `opening` moves; the record
    says who played and how it ended. A player that raises `ForfeitError` loses the game
    (the reason is appended to `forfeits` when given)."""
    state: State[Any] = game.initial()
    states, moves = [state], []
    for move in opening or []:
        state = state.play(move)
        states.append(state)
        moves.append(move)
    x.reset()
    o.reset()
    while not state.is_over and len(moves) < MAX_PLIES:
        player = x if state.turn is Player.X else o
        try:
            move = player.choose(state, limits)
        except ForfeitError as e:
            if forfeits is not None:
                forfeits.append(e)
            winner = "o-wins" if state.turn is Player.X else "x-wins"
            return GameRecord.from_states(
                states, moves, x=names[0], o=names[1], result=winner, termination=e.termination
            )
        state = state.play(move)
        states.append(state)
        moves.append(move)
    result = state.status if state.is_over else "draw"
    termination = "normal" if state.is_over else "agreement"
    return GameRecord.from_states(states, moves, x=names[0], o=names[1], result=result, termination=termination)


def random_opening(game: Game[Any, Any], plies: int, rng: random.Random) -> list[Any]:
    """`plies` random legal moves from the start that do not end the game."""
    state: State[Any] = game.initial()
    moves: list[Any] = []
    for _ in range(plies):
        choices = [m for m in state.legal_moves() if not state.play(m).is_over]
        if not choices:
            break
        move = rng.choice(choices)
        moves.append(move)
        state = state.play(move)
    return moves
