"""Who plays in the arena: our players (levels and player specs), programs that speak
the engine protocol, and OpenSpiel's bots — each described by a small picklable
`Entrant`, so that a worker process can build the player itself."""

from __future__ import annotations

from dataclasses import dataclass

from noughts.ai import AIPlayer, seeded_player
from noughts.arena.external import engine_player
from noughts.arena.openspiel import openspiel_player
from noughts.arena.ugi import UgiPlayer
from noughts.core import InvalidOptionError, NoughtsError

__all__ = ["Entrant", "build_player", "check_entrant", "parse_engine_option"]


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
        if self.kind in ("engine", "ugi"):
            return f"--{self.kind} {self.name}={self.spec}"
        if self.kind == "openspiel":
            return f"--openspiel {self.spec}"
        return self.spec


def parse_engine_option(text: str, kind: str = "engine") -> Entrant:
    """``NAME=command line`` (the `--engine` or `--ugi` option) as an entrant of `kind`."""
    name, eq, command = text.partition("=")
    if not eq or not name.strip() or not command.strip():
        raise InvalidOptionError(f"--{kind} takes NAME=COMMAND, e.g. 'mine=noughts engine', not {text!r}")
    return Entrant(name.strip(), kind, command.strip())


def build_player(entrant: Entrant, seed: int, default_time: float | None) -> AIPlayer:
    """The player for one game. Our players get the game's `seed` when they take one
    (so that games from the same opening still differ where a player breaks ties
    at random); `default_time` is the arena's time per move, if any."""
    if entrant.kind == "engine":
        return engine_player(entrant.name, entrant.spec)
    if entrant.kind == "ugi":
        return engine_player(entrant.name, entrant.spec, UgiPlayer)
    if entrant.kind == "openspiel":
        return openspiel_player(entrant.spec, seed, default_time)
    return seeded_player(entrant.spec, seed)


def check_entrant(entrant: Entrant) -> None:
    """Reject a misspelt player before any game starts (clear message, nothing played)."""
    if entrant.kind == "ai":
        try:
            build_player(entrant, 0, None)
        except NoughtsError as e:
            raise InvalidOptionError(f"player {entrant.spec!r}: {e}") from None
