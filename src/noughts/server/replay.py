"""Rebuild a game from what the browser holds: game spec, start position, move list.

Nothing is stored on the server yet, so every request carries the whole game and the
server replays it through the core; a bad part is reported with the field it came from
("moves[3]: cell 5 is taken") and nothing else happens.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from noughts.core import Game, NoughtsError, State
from noughts.registry import parse_spec


class RequestError(Exception):
    """A part of a request the core rejected: `field` names the part, `kind` the error
    class (``invalid-move``...), and the message is the core's, meant for players."""

    def __init__(self, field: str, error: NoughtsError) -> None:
        super().__init__(f"{field}: {error}")
        self.field = field
        self.kind = error_kind(error)
        self.message = str(error)


def error_kind(error: NoughtsError) -> str:
    """``InvalidMoveError`` -> ``invalid-move``: the error class as a stable word."""
    name = type(error).__name__.removesuffix("Error")
    return "".join("-" + ch.lower() if ch.isupper() else ch for ch in name).lstrip("-")


@dataclass(frozen=True)
class Replayed:
    """A game rebuilt from a request: the states from the start (one more than moves)
    and the moves played, as values of the game."""

    game: Game[Any, Any]
    states: tuple[State[Any], ...]
    move_values: tuple[Any, ...] = ()

    @property
    def start(self) -> State[Any]:
        return self.states[0]

    @property
    def state(self) -> State[Any]:
        return self.states[-1]

    @property
    def moves(self) -> list[str]:
        """The canonical texts of the moves played (aliases in a request are normalised)."""
        return [self.game.move_text(m) for m in self.move_values]

    def then(self, text: str, field: str = "move") -> Replayed:
        """This game with the move `text` played; RequestError names `field` if it fails."""
        try:
            move = self.game.parse_move(text)
            state = self.state.play(move)
        except NoughtsError as e:
            raise RequestError(field, e) from None
        return Replayed(self.game, (*self.states, state), (*self.move_values, move))


def replay(spec: str, start: str | None, moves: list[str]) -> Replayed:
    """The game `spec` from position `start` (None: the initial position) after `moves`."""
    try:
        game = parse_spec(spec)
    except NoughtsError as e:
        raise RequestError("spec", e) from None
    try:
        first: State[Any] = game.parse_position(start) if start is not None else game.initial()
    except NoughtsError as e:
        raise RequestError("start", e) from None
    game_so_far = Replayed(game, (first,))
    for i, text in enumerate(moves):
        game_so_far = game_so_far.then(text, f"moves[{i}]")
    return game_so_far
