"""Stable game keys -> games, and the one text form of "a game with its options".

A game joins the registry by its class, whose `Game.variants` say everything else
(`noughts.variant`): the families of this package at import, a game from outside with
`register`, or, for every process at once (the server's thinking processes included),
by naming it in the environment: ``NOUGHTS_GAMES=my_games:Connect6``.

A game spec is the key followed by options, separated by colons or spaces:
``classic``, ``classic:forget``, ``mnk:m=15:n=15:k=5``, ``ultimate forget=true keep=4``.
A bare option name means ``true``. `spec_text` writes the canonical form (colons, only
the options that differ from the key's defaults).
"""

from __future__ import annotations

import dataclasses
import importlib
import os
import re
import typing
import warnings
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal, overload

from noughts.core import (
    Game,
    InvalidNumberError,
    InvalidOptionError,
    State,
    UnknownGameError,
    closest,
    option_text,
    parse_int,
    shown,
)
from noughts.games.connect4.rules import ConnectFour, ConnectFourState
from noughts.games.gobblet import Gobblet, GobbletState
from noughts.games.mnk.rules import Mnk, MnkState
from noughts.games.qubic import Qubic, QubicState
from noughts.games.ultimate import Ultimate, UltimateState
from noughts.variant import Variant

__all__ = [
    "FAMILIES",
    "GAMES",
    "Entry",
    "game_keys",
    "make_game",
    "name",
    "option_text",
    "parse_position",
    "parse_spec",
    "register",
    "spec_help",
    "spec_options",
    "spec_text",
    "title",
    "unregister",
]


@dataclass(frozen=True)
class Entry:
    """A registry key: the game class that serves it, and the game as it describes
    itself there (`Variant`: names, rules, notation, options, board, traits)."""

    cls: type[Game[Any, Any]]
    """The game class that serves the key."""
    variant: Variant
    """The game as it describes itself under the key."""

    @property
    def key(self) -> str:
        """The registry key (`Variant.key`)."""
        return self.variant.key

    @property
    def name(self) -> str:
        """What people call the game, as menus and lists show it."""
        return self.variant.name

    @property
    def summary(self) -> str:
        """The game in one line, as lists show it."""
        return self.variant.summary

    @property
    def fixed(self) -> Mapping[str, Any]:
        """Options this key pins (classic is mnk with m=n=k=3); users cannot set them."""
        return self.variant.pinned

    @property
    def always(self) -> tuple[str, ...]:
        """Options written in the spec even at their defaults."""
        return self.variant.shown

    def option_names(self) -> list[str]:
        """The options a spec of this key may set."""
        return [f.name for f in dataclasses.fields(self.cls) if f.init and f.name not in self.fixed]  # type: ignore[arg-type]

    def defaults(self) -> dict[str, Any]:
        """The options' values when a spec gives none."""
        game = self.cls(**self.fixed)
        return {k: v for k, v in game.options.items() if k not in self.fixed}


#: The game classes, in menu order; each serves the keys its `Game.variants` describe.
FAMILIES: list[type[Game[Any, Any]]] = [Mnk, Ultimate, Qubic, Gobblet, ConnectFour]

GAMES: dict[str, Entry] = {}
"""Every game by its stable key, in menu order: its class and its `Variant`."""


def register(cls: type[Game[Any, Any]]) -> None:
    """Add the keys of a game class (its `Game.variants`) to the registry, after the
    others: how a game outside this package joins every menu, page and command."""
    for variant in cls.variants:
        if variant.key in GAMES and GAMES[variant.key].cls is not cls:
            raise ValueError(f"the key {variant.key!r} is taken by {GAMES[variant.key].cls.__name__}")
    for variant in cls.variants:
        GAMES[variant.key] = Entry(cls, variant)


def unregister(cls: type[Game[Any, Any]]) -> None:
    """Take a game class's keys out of the registry again (`register`'s undo, for tests)."""
    for variant in cls.variants:
        if variant.key in GAMES and GAMES[variant.key].cls is cls:
            del GAMES[variant.key]


def _plugged_in(names: str) -> list[type[Game[Any, Any]]]:
    """The game classes named by ``NOUGHTS_GAMES`` (``module:Class``, comma-separated):
    games from outside the package, in every process that imports the registry (the
    server's thinking processes and workers too, which inherit the environment)."""
    found: list[type[Game[Any, Any]]] = []
    for name in filter(None, (part.strip() for part in names.split(","))):
        module, _, attribute = name.partition(":")
        # A name that does not serve is left out with a warning: the other games still play.
        try:
            cls = getattr(importlib.import_module(module), attribute)
        except (ImportError, AttributeError) as e:
            warnings.warn(f"NOUGHTS_GAMES names {name!r}, which cannot be imported ({e}): left out", stacklevel=2)
            continue
        if not (isinstance(cls, type) and issubclass(cls, Game) and cls.variants):
            warnings.warn(f"NOUGHTS_GAMES names {name!r}, not a game class with variants: left out", stacklevel=2)
            continue
        found.append(cls)
    return found


for _family in [*FAMILIES, *_plugged_in(os.environ.get("NOUGHTS_GAMES", ""))]:
    register(_family)


def spec_help() -> str:
    """A help text's words for a game spec, with every game's examples (`Variant.examples`)."""
    examples = [example for entry in GAMES.values() for example in entry.variant.examples or (entry.key,)]
    return "a game: its key, then any options as name=value, e.g. " + ", ".join(examples)


def game_keys() -> list[str]:
    """The registry's keys, in the order of `GAMES`."""
    return list(GAMES)


def _entry(key: str) -> Entry:
    try:
        return GAMES[key.strip().lower()]
    except KeyError:
        raise UnknownGameError(
            f"unknown game {shown(key)}{closest(key, GAMES)}; the games are: {', '.join(GAMES)}"
        ) from None


_TRUE = {"true", "1", "yes", "on"}
_FALSE = {"false", "0", "no", "off"}


def _convert(entry: Entry, name: str, value: Any) -> Any:
    kind = typing.get_type_hints(entry.cls).get(name)
    if name not in entry.option_names() or kind is None:
        allowed = ", ".join(entry.option_names()) or "none"
        raise InvalidOptionError(
            f"{entry.key} has no option {shown(name)}{closest(name, entry.option_names())}; its options are: {allowed}"
        )
    if not isinstance(value, str):
        return value
    text = value.strip().lower()
    if kind is bool:
        if text in _TRUE:
            return True
        if text in _FALSE:
            return False
        raise InvalidOptionError(f"option {name} takes true or false, not {shown(value)}")
    if kind is int:
        try:
            return parse_int(text, f"option {name}")
        except InvalidNumberError as e:
            raise InvalidOptionError(str(e)) from None
    return text


# A key of this package's games names its class to a type checker: make_game("classic")
# is an Mnk, so its initial() is an MnkState (tests/test_library_use.py checks these
# overloads against GAMES). Any other text is some Game.
@overload
def make_game(key: Literal["classic", "mnk"], **options: Any) -> Mnk: ...
@overload
def make_game(key: Literal["ultimate", "nine-board"], **options: Any) -> Ultimate: ...
@overload
def make_game(key: Literal["qubic"], **options: Any) -> Qubic: ...
@overload
def make_game(key: Literal["gobblet", "matryoshka"], **options: Any) -> Gobblet: ...
@overload
def make_game(key: Literal["connect4"], **options: Any) -> ConnectFour: ...
@overload
def make_game(key: str, **options: Any) -> Game[Any, Any]: ...
def make_game(key: str, **options: Any) -> Game[Any, Any]:
    """The game for a registry key with options (values may be given as text).

    >>> make_game("mnk", m=4, n=4, k="4").spec
    'mnk:m=4:n=4:k=4'
    """
    entry = _entry(key)
    values = {name: _convert(entry, name, value) for name, value in options.items()}
    try:
        return entry.cls(**entry.fixed, **values)
    except TypeError as e:  # a wrong type given from Python code
        raise InvalidOptionError(str(e)) from None


_WORD = re.compile(r"^[a-z][a-z0-9_-]*$")


# As make_game's: a bare key of this package's games is typed as its class.
@overload
def parse_spec(text: Literal["classic", "mnk"]) -> Mnk: ...
@overload
def parse_spec(text: Literal["ultimate", "nine-board"]) -> Ultimate: ...
@overload
def parse_spec(text: Literal["qubic"]) -> Qubic: ...
@overload
def parse_spec(text: Literal["gobblet", "matryoshka"]) -> Gobblet: ...
@overload
def parse_spec(text: Literal["connect4"]) -> ConnectFour: ...
@overload
def parse_spec(text: str) -> Game[Any, Any]: ...
def parse_spec(text: str) -> Game[Any, Any]:
    """Read ``key[:opt=value...]`` (colons or spaces between the parts).

    A spec that is a bare key of this package's games is typed as its game's class
    (``parse_spec("classic")`` is an `Mnk`, whose `initial()` is an `MnkState`); any
    other text, options included, as `Game`: `isinstance` narrows it."""
    parts = [p for p in re.split(r"[:\s]+", text.strip()) if p]
    if not parts:
        raise UnknownGameError(f"no game given; the games are: {', '.join(GAMES)}")
    options: dict[str, str] = {}
    for part in parts[1:]:
        name, eq, value = part.partition("=")
        name = name.strip().lower().replace("-", "_")
        if not _WORD.match(name) or (eq and not value):
            raise InvalidOptionError(f"{shown(part)} is not an option: write name=value")
        options[name] = value if eq else "true"
    return make_game(parts[0], **options)


def spec_options(game: Game[Any, Any]) -> dict[str, Any]:
    """The options a user would have to give to get this game from its key
    (`Game.spec_options`)."""
    return game.spec_options


def spec_text(game: Game[Any, Any]) -> str:
    """The game's canonical spec (`Game.spec`)."""
    return game.spec


# As parse_spec's: a bare key of this package's games gives its states' class.
@overload
def parse_position(spec: Literal["classic", "mnk"], text: str) -> MnkState: ...
@overload
def parse_position(spec: Literal["ultimate", "nine-board"], text: str) -> UltimateState: ...
@overload
def parse_position(spec: Literal["qubic"], text: str) -> QubicState: ...
@overload
def parse_position(spec: Literal["gobblet", "matryoshka"], text: str) -> GobbletState: ...
@overload
def parse_position(spec: Literal["connect4"], text: str) -> ConnectFourState: ...
@overload
def parse_position(spec: str | Game[Any, Any], text: str) -> State[Any]: ...
def parse_position(spec: str | Game[Any, Any], text: str) -> State[Any]:
    """A position of the game named by `spec` (or given as a Game)."""
    game = parse_spec(spec) if isinstance(spec, str) else spec
    state: State[Any] = game.parse_position(text)
    return state


def name(spec: str | Game[Any, Any]) -> str:
    """What players call the game a spec names, as a page's heading shows it: the
    game's own name where its options make one ("Gomoku" is the m,n,k-game on 15×15,
    five in a row), else the family's.

    >>> name("mnk:m=15:n=15:k=5"), name("mnk:m=7:n=7:k=4"), name("ultimate")
    ('Gomoku', 'm,n,k-game', 'Ultimate tic-tac-toe')
    """
    game = parse_spec(spec) if isinstance(spec, str) else spec
    return game.variant.named(game) or game.variant.name


def title(spec: str | Game[Any, Any]) -> str:
    """A game's name as lists show it: the board's size for an m,n,k-game ("Gomoku 15×15",
    not the spec's "m=15, n=15, k=5"), Forget mode by its name, else the game's name and
    its options.

    >>> title("mnk:m=7:n=7:k=4"), title("ultimate:forget"), title("classic:forget:keep=4")
    ('m,n,k-game 7×7, 4 in a row', 'Ultimate tic-tac-toe, Forget mode', 'Tic-tac-toe, Forget mode (keep=4)')
    """
    game = parse_spec(spec) if isinstance(spec, str) else spec
    titled = game.variant.titled(game)
    if titled is not None:
        return titled
    options = [option for option in game.spec.partition(":")[2].split(":") if option]
    forget = "forget=true" in options
    rest = [option for option in options if option != "forget=true"]
    return name(game) + (", Forget mode" if forget else "") + (f" ({', '.join(rest)})" if rest else "")
