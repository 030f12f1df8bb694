"""Games between computer players: one game, or a match with colours alternating and
openings varied by seeded random first plies. The arena builds on this."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from noughts.ai.base import AIPlayer, Limits
from noughts.core import Game, NoughtsError, Player, State
from noughts.records import GameRecord

__all__ = ["ForfeitError", "MatchResult", "play_game", "play_match", "random_opening"]

#: A game that goes on this long is adjourned as a draw (only cyclic games get there).
MAX_PLIES = 1000


class ForfeitError(NoughtsError):
    """Raised by a player that cannot go on — an external program that crashed, answered
    nonsense or ran out of time: it loses the game. `termination` is the record's word
    for how the game ended (``abandoned`` or ``time``)."""

    def __init__(self, message: str, termination: str = "abandoned") -> None:
        super().__init__(message)
        self.termination = termination


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


@dataclass
class MatchResult:
    """Points of the first player against the second (win 1, draw 1/2)."""

    first: str
    second: str
    wins: int = 0
    draws: int = 0
    losses: int = 0
    records: list[GameRecord] = field(default_factory=list)

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses

    @property
    def score(self) -> float:
        """The first player's share of the points, 0 to 1."""
        return (self.wins + self.draws / 2) / self.games if self.games else 0.5

    def __str__(self) -> str:
        return (
            f"{self.first} vs {self.second}: +{self.wins} ={self.draws} -{self.losses} "
            f"({100 * self.score:.0f}% over {self.games} games)"
        )


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


def play_match(
    game: Game[Any, Any],
    first: Callable[[], AIPlayer],
    second: Callable[[], AIPlayer],
    games: int,
    limits: Limits = Limits(),
    opening_plies: int = 1,
    seed: int = 0,
    names: tuple[str, str] = ("first", "second"),
) -> MatchResult:
    """`games` games, colours alternating (each opening played once with each colour)."""
    rng = random.Random(seed)
    result = MatchResult(*names)
    opening: list[Any] = []
    for i in range(games):
        if i % 2 == 0:
            opening = random_opening(game, opening_plies, rng)
        first_is_x = i % 2 == 0
        a, b = first(), second()
        x, o = (a, b) if first_is_x else (b, a)
        shown = names if first_is_x else (names[1], names[0])
        record = play_game(game, x, o, limits, opening, shown)
        result.records.append(record)
        mine = "x-wins" if first_is_x else "o-wins"
        if record.result == "draw":
            result.draws += 1
        elif record.result == mine:
            result.wins += 1
        else:
            result.losses += 1
    return result
