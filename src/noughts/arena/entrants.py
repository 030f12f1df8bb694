"""Who plays in the arena: our players (levels and player specs), programs that speak
the engine protocol, and OpenSpiel's bots — each described by a small picklable
`Entrant`, so that a worker process can build the player itself."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from noughts.ai import AIPlayer, parse_player
from noughts.core import InvalidOptionError, NoughtsError, State

__all__ = ["Entrant", "StateTracker", "build_player", "check_entrant", "parse_engine_option"]


@dataclass(frozen=True)
class Entrant:
    """A player of the arena. `kind` is ``ai`` (`spec` is a level or a player spec),
    ``engine`` (`spec` is the command line of a program speaking the engine protocol)
    or ``openspiel`` (`spec` is an OpenSpiel bot with options, ``mcts:time=0.5``)."""

    name: str
    kind: str
    spec: str

    def describe(self) -> str:
        """The entrant as a user would write it on the command line."""
        if self.kind == "engine":
            return f"--engine {self.name}={self.spec}"
        if self.kind == "openspiel":
            return f"--openspiel {self.spec}"
        return self.spec


def parse_engine_option(text: str) -> Entrant:
    """``NAME=command line`` (the `--engine` option) as an entrant."""
    name, eq, command = text.partition("=")
    if not eq or not name.strip() or not command.strip():
        raise InvalidOptionError(f"--engine takes NAME=COMMAND, e.g. 'mine=noughts engine', not {text!r}")
    return Entrant(name.strip(), "engine", command.strip())


def build_player(entrant: Entrant, seed: int, default_time: float | None) -> AIPlayer:
    """The player for one game. Our players get the game's `seed` when they take one
    (so that games from the same opening still differ where a player breaks ties
    at random); `default_time` is the arena's time per move, if any."""
    if entrant.kind == "engine":
        from noughts.arena.external import engine_player

        return engine_player(entrant.name, entrant.spec)
    if entrant.kind == "openspiel":
        from noughts.arena.openspiel import openspiel_player

        return openspiel_player(entrant.spec, seed, default_time)
    if "seed=" in entrant.spec:
        return parse_player(entrant.spec)
    try:
        return parse_player(f"{entrant.spec}:seed={seed}")
    except InvalidOptionError as e:
        if "seed" not in str(e):
            raise
        return parse_player(entrant.spec)


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
        for _ in range(max_plies + 1):
            following: list[tuple[State[Any], list[Any]]] = []
            for current, path in frontier:
                if current == state:
                    return path
                if not current.is_over:
                    following += [(current.play(m), [*path, m]) for m in current.legal_moves()]
            frontier = following
        return None

    def reset(self) -> None:
        self.last = None


def check_entrant(entrant: Entrant) -> None:
    """Reject a misspelt player before any game starts (clear message, nothing played)."""
    if entrant.kind == "ai":
        try:
            build_player(entrant, 0, None)
        except NoughtsError as e:
            raise InvalidOptionError(f"player {entrant.spec!r}: {e}") from None
