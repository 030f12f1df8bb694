"""What a game says about itself: its names, its rules in words, how its moves are
written, its options with their labels and ranges, the board it is drawn on and what
kind of game it is.

Each game class carries one `Variant` per registry key it serves (``Mnk.variants``:
classic and mnk), written beside its rules; everything that shows a game to people (the
web app's catalogue, the terminal's help and menus, the command line's help, the API's
schema) reads it there, and nothing else keeps a copy. The models: python-chess's
variant classes (a name, aliases, the end rule) and scalachess's ``Variant`` objects (a
key, a name, the rules in a line).

>>> from noughts import parse_spec
>>> game = parse_spec("mnk:m=15:n=15:k=5")
>>> game.variant.name, game.variant.board, Trait.PLACEMENT in game.variant.traits
('m,n,k-game', 'grid', True)
>>> game.variant.notation(game)
"A move is the column's letter and the row's number: a1 is the top left, o15 the bottom right."
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

__all__ = ["BOARD_KINDS", "OptionSpec", "Trait", "Variant", "placed_on_grid"]


class Trait(enum.StrEnum):
    """What kind of game it is, for the parts that must know (which evaluators, kernels
    and puzzle themes apply): adapters and algorithms ask for a trait, not for a class."""

    PLACEMENT = "placement"
    """A move puts a new mark on an empty cell of its choice (classic, mnk, qubic, and
    ultimate within the board it is sent to)."""
    GRAVITY = "gravity"
    """A mark drops to the lowest empty cell of the column chosen (Connect Four)."""
    LOCAL_BOARDS = "local-boards"
    """Nine local boards; the cell played sends the opponent to a board."""
    NESTING = "nesting"
    """Figures of three sizes, a larger one covering a smaller (matryoshka, gobblet)."""
    SHIFTS = "shifts"
    """Figures already on the board may move (gobblet)."""
    FORGET = "forget"
    """Each player keeps a few marks; placing one more removes their oldest (Forget mode,
    an option: a game has it when the option is on, `Game.traits`)."""


#: The boards the adapters know how to draw; a board kind outside this list (a game they
#: have never seen) is drawn as the position's plain-text `State.diagram` with its moves.
BOARD_KINDS = ("grid", "ultimate", "qubic", "gobblet")


@dataclass(frozen=True)
class OptionSpec:
    """One option of a game as people see it: its label, what it does, its range."""

    name: str
    """The option's name in a spec (``forget`` in ``classic:forget``)."""
    label: str
    """The option as a form labels it: ``marks kept per player``."""
    help: str
    """What it does, in a line."""
    minimum: int | None = None
    """The least whole number the forms offer (the game checks its own limits)."""
    maximum: int | None = None
    """The largest whole number the forms offer."""
    choices: tuple[str, ...] | None = None
    """The values of an option that takes words."""
    offered: bool = True
    """Whether forms and menus offer it (gobblet's smaller figure sets exist for the
    solver's checks, not for play)."""
    rule: str | None = None
    """The paragraph the option adds to the rules, for a page that explains every option
    (Forget mode's rules); None where its help says it all."""


@dataclass(frozen=True)
class Variant:
    """A game under one registry key, as it describes itself."""

    key: str
    """The registry key: ``classic``, ``mnk``, ``ultimate``..."""
    name: str
    """What people call it, as menus and headings show it."""
    summary: str
    """A line for lists: ``3x3 board, three in a row wins``."""
    board: str
    """The kind of board it is drawn on (one of `BOARD_KINDS`, or a new one)."""
    traits: frozenset[Trait]
    """What kind of game it is, whatever its options (`Game.traits` adds what an option
    makes of it)."""
    rules: Callable[[Any], list[str]]
    """The rules of a game of this key with its options, in paragraphs; given None, the
    rules of the key in general (a page about every size of the m,n,k-game)."""
    notation: Callable[[Any], str]
    """How to write a move of a game of this key (None: of any game of the key), in a
    sentence."""
    options: tuple[OptionSpec, ...] = ()
    """The options people may set, with labels and ranges, in the order forms show them."""
    pinned: Mapping[str, Any] = field(default_factory=dict)
    """Options the key fixes (classic is mnk with m=n=k=3): a spec never writes them."""
    shown: tuple[str, ...] = ()
    """Options a spec writes even at their defaults (``mnk:m=5:n=3:k=3``)."""
    examples: tuple[str, ...] = ()
    """Specs worth showing in help texts (``mnk:m=15:n=15:k=5``)."""
    named: Callable[[Any], str | None] = lambda game: None
    """The game's own name where its options make one (the m,n,k-game on 15x15, five in
    a row, is gomoku), else None: `noughts.registry.name`."""
    knowledge: str | None = None
    """Where the game's knowledge for the searches is, as ``module:Class`` (a
    `noughts.games.knowledge.SearchKnowledge`, beside its rules): imported when a search
    first asks, so that the rules load without it; None: the searches know nothing of
    the game but its rules."""
    titled: Callable[[Any], str | None] = lambda game: None
    """The game as lists show it where its options say it better than the spec's (the
    m,n,k-game by its board's size: "m,n,k-game 7×7, 4 in a row"), else None:
    `noughts.registry.title`."""

    def option(self, name: str) -> OptionSpec:
        """The option called `name`, or a plain one named after it (a game may have an
        option nobody described yet: it still shows, under its own name)."""
        for option in self.options:
            if option.name == name:
                return option
        return OptionSpec(name, name.replace("_", " "), name.replace("_", " "))

    def all_rules(self) -> list[str]:
        """The key's rules in general followed by what each offered option adds, for a
        page that lists the rules of every option (the web app's rules page)."""
        return [*self.rules(None), *(o.rule for o in self.options if o.rule and o.offered)]


def placed_on_grid(game: Any) -> bool:
    """Whether `game` is of the m,n,k-game's kind: a mark put on any empty cell of one
    grid of m columns and n rows, k in a row winning (Forget mode or not), the kind the
    grid tables, the threat search and the big boards' levels are made for.

    >>> from noughts import parse_spec
    >>> [placed_on_grid(parse_spec(spec)) for spec in ("mnk:m=7:n=7:k=4", "connect4", "qubic")]
    [True, False, False]
    """
    return bool(game.variant.board == "grid" and Trait.PLACEMENT in game.traits)
