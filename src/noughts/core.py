"""The vocabulary every game and every algorithm shares.

`Player`, `Outcome`, the error types, and the two halves of the State protocol:

* a `Game` is a rule set with its options (classic, mnk with m, n, k, forget mode...).
  It makes the initial state and owns the notation: move text and position text.
* a `State` is one immutable position of that game: whose turn, the legal moves,
  `play(move)` -> the next state, and the outcome (None while the game goes on).

Search, MCTS, the arena, the server and the user interfaces see nothing else. The
checks every game needs (a move after the game is over, a move that is not a move) live
here, once, in `State.play`.
"""

from __future__ import annotations

import difflib
import enum
from abc import ABC, abstractmethod
from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import dataclass, fields
from typing import Any, ClassVar, Generic, Self, TypeVar

from noughts.variant import Trait, Variant

__all__ = [
    "MAX_DIGITS",
    "Game",
    "IllegalMoveError",
    "InvalidMoveError",
    "InvalidNumberError",
    "InvalidOptionError",
    "InvalidPositionError",
    "MissingExtraError",
    "NoughtsError",
    "Outcome",
    "Player",
    "Reason",
    "State",
    "UnknownGameError",
    "closest",
    "option_text",
    "parse_int",
    "shown",
]


class NoughtsError(Exception):
    """Base of every error this library raises on bad input."""


class InvalidMoveError(NoughtsError, ValueError):
    """The text (or value) is not a move of this game at all, e.g. "10" in classic."""


class IllegalMoveError(NoughtsError, ValueError):
    """A well-formed move this position does not allow, e.g. a taken cell."""


class InvalidPositionError(NoughtsError, ValueError):
    """A position text that does not describe a valid position of the game."""


class InvalidOptionError(NoughtsError, ValueError):
    """A game option that does not exist or has a value out of range."""


class UnknownGameError(NoughtsError, ValueError):
    """A game key the registry does not know."""


class InvalidNumberError(NoughtsError, ValueError):
    """Text that is not a whole number, or one longer than `MAX_DIGITS` digits."""


#: The most digits a whole number read from text may have. A number from a client or a
#: file is a cell, an option, a seed or a count, far shorter; a longer one is refused
#: before int() reads it, which takes time quadratic in the digits and past 4,300 of
#: them raises a ValueError of its own (Python's limit, `sys.get_int_max_str_digits`).
MAX_DIGITS = 30


def parse_int(text: str, what: str = "a number") -> int:
    """`text` as a whole number: ASCII digits with an optional sign, blanks around them,
    at most `MAX_DIGITS` digits. InvalidNumberError otherwise, saying what `what` (the
    thing being read: ``"seed"``, ``"option m"``) takes.

    >>> parse_int(" -12 ", "seed")
    -12
    >>> parse_int("1" * 5000, "seed")
    Traceback (most recent call last):
    ...
    noughts.core.InvalidNumberError: seed takes a whole number of at most 30 digits, not one of 5,000
    """
    stripped = text.strip()
    digits = stripped[1:] if stripped[:1] in ("+", "-") else stripped
    if not (digits.isascii() and digits.isdigit()):
        raise InvalidNumberError(f"{what} takes a whole number, not {shown(text)}")
    if len(digits) > MAX_DIGITS:
        raise InvalidNumberError(
            f"{what} takes a whole number of at most {MAX_DIGITS} digits, not one of {len(digits):,}"
        )
    return int(stripped)


def check_whole_numbers(options: object, *names: str) -> None:
    """InvalidOptionError unless each option `names` of `options` (a game, say) is a
    whole number: a bool or a float given from Python code is refused by name.

    >>> from types import SimpleNamespace
    >>> check_whole_numbers(SimpleNamespace(m=3, n=True), "m", "n")
    Traceback (most recent call last):
    ...
    noughts.core.InvalidOptionError: option n takes a whole number, not True
    """
    for name in names:
        value = getattr(options, name)
        if not isinstance(value, int) or isinstance(value, bool):
            raise InvalidOptionError(f"option {name} takes a whole number, not {shown(value)}")


def shown(text: object, most: int = 40) -> str:
    """`text` quoted for a message, cut after `most` characters: a message repeats what
    it refuses, not all of a megabyte. Any other value is shown as its repr, cut the
    same way (an option given from Python code).

    >>> shown("abc"), shown("x" * 50, 5), shown(7), shown([0] * 30, 10)
    ("'abc'", "'xxxxx'... (50 characters)", '7', '[0, 0, 0, ... (90 characters)')
    """
    if not isinstance(text, str):
        written = repr(text)
        return written if len(written) <= most else f"{written[:most]}... ({len(written):,} characters)"
    if len(text) <= most:
        return repr(text)
    return f"{text[:most]!r}... ({len(text):,} characters)"


def closest(word: str, choices: Iterable[str]) -> str:
    """`` (did you mean 'x'?)`` for the choice nearest to a misspelt `word`, if one is
    near enough (`difflib.get_close_matches`), else nothing: what a message that lists the
    valid names puts after the name it refuses.

    >>> closest("clasic", ["classic", "mnk", "qubic"]), closest("zzz", ["classic"])
    (" (did you mean 'classic'?)", '')
    """
    found = difflib.get_close_matches(word.strip().lower(), list(choices), n=1)
    return f" (did you mean {found[0]!r}?)" if found else ""


class MissingExtraError(NoughtsError, ModuleNotFoundError):
    """A part of Noughts needs an optional dependency that is not installed; the message
    names the extra that installs it (``pip install 'noughts[rl]'``). Still a
    ModuleNotFoundError, with the missing module's `name`."""

    def __init__(self, feature: str, missing: ModuleNotFoundError, extra: str) -> None:
        self.extra = extra
        """The extra to install: ``rl``, ``openspiel``, ``arena``..."""
        message = f"{feature} needs {missing.name}, which is not installed: pip install 'noughts[{extra}]'"
        super().__init__(message, name=missing.name)


class Player(enum.Enum):
    """The two sides. X always moves first."""

    X = "x"
    """X, who moves first."""
    O = "o"  # noqa: E741 - the letter is the name of the side
    """O, who moves second."""

    @property
    def other(self) -> Player:
        """The opponent: ``Player.X.other is Player.O``."""
        return Player.O if self is Player.X else Player.X

    @classmethod
    def from_text(cls, text: str) -> Player:
        """The side named ``x`` or ``o`` (any case); InvalidOptionError (a NoughtsError and
        a ValueError) for anything else."""
        try:
            return cls(text.strip().lower())
        except ValueError:
            raise InvalidOptionError(f"{shown(text)} is not a player: use x or o") from None

    def __str__(self) -> str:
        return self.value


class Reason(enum.Enum):
    """Why a game ended."""

    LINE = "line"
    """The winner made a line (or, in gobblet, the loser uncovered one)."""
    FULL = "full"
    """No empty cell or no legal move left, and no line: a draw."""
    REPETITION = "repetition"
    """The same position for the third time: a draw."""
    STALEMATE = "stalemate"
    """The player to move has no legal move (matryoshka, gobblet): a draw."""
    BOARDS = "boards"
    """Ultimate's tie-break on a full board: more won local boards."""


@dataclass(frozen=True, slots=True)
class Outcome:
    """The result of a finished game: a winner, or None for a draw, and why."""

    winner: Player | None
    """The side that won, None for a draw."""
    reason: Reason = Reason.LINE
    """Why the game ended."""

    @property
    def is_draw(self) -> bool:
        """True when nobody won."""
        return self.winner is None

    @property
    def text(self) -> str:
        """The status word used everywhere: ``x-wins``, ``o-wins`` or ``draw``."""
        return "draw" if self.winner is None else f"{self.winner.value}-wins"

    def describe(self) -> str:
        """A sentence for people: "x wins (three in a line)"."""
        if self.winner is None:
            return {
                Reason.REPETITION: "draw by threefold repetition",
                Reason.STALEMATE: "draw: the player to move has no legal move",
            }.get(self.reason, "draw")
        how = {Reason.BOARDS: " on won local boards"}.get(self.reason, "")
        return f"{self.winner.value} wins{how}"

    def __str__(self) -> str:
        return self.text


def status_text(outcome: Outcome | None) -> str:
    """``ongoing`` or the outcome's status word."""
    return "ongoing" if outcome is None else outcome.text


M = TypeVar("M", bound=Hashable)
_FORGETTING = frozenset({Trait.FORGET})
S = TypeVar("S", bound="State[Any]")


def option_text(value: Any) -> str:
    """An option's value as a spec writes it (``true``, ``4``, ``nine-board``)."""
    return str(value).lower() if isinstance(value, bool) else str(value)


class Game(ABC, Generic[S, M]):
    """A rule set with its options; subclasses are frozen dataclasses whose fields are
    the options, so ``repr(game)`` is valid code and equal options mean equal games."""

    title: ClassVar[str]
    """Human-readable name of the family, for menus."""
    variants: ClassVar[tuple[Variant, ...]] = ()
    """The registry keys this class serves, each as it describes itself (`Variant`), in
    menu order."""

    def __deepcopy__(self, memo: dict[int, Any]) -> Self:
        # Frozen: a game is its own copy (see State.__deepcopy__).
        return self

    @property
    @abstractmethod
    def key(self) -> str:
        """The registry key (``classic``, ``mnk``, ``ultimate``...)."""

    @property
    def options(self) -> dict[str, Any]:
        """Every option with its value, in declaration order (derived fields, declared
        with ``init=False``, are not options)."""
        return {f.name: getattr(self, f.name) for f in fields(self) if f.init}  # type: ignore[arg-type]

    @property
    def variant(self) -> Variant:
        """The game as it describes itself under its key: names, rules in words,
        notation, options, board, traits (`noughts.variant`)."""
        for variant in self.variants:
            if variant.key == self.key:
                return variant
        raise LookupError(f"{type(self).__name__} describes no variant {self.key!r}")

    @property
    def traits(self) -> frozenset[Trait]:
        """What kind of game this is with its options: its variant's traits, and those an
        option adds (`Trait.FORGET` where Forget mode is on). The parts that treat kinds
        of games apart (capabilities, levels, kernels) ask this, never the class."""
        # Forget mode is the option called forget of every game that has it (games/forget.py).
        return self.variant.traits | _FORGETTING if getattr(self, "forget", False) is True else self.variant.traits

    @property
    def spec_options(self) -> dict[str, Any]:
        """The options a user would have to give to get this game from its key: those
        that differ from the key's defaults, and those the key always shows."""
        variant = self.variant
        pinned = variant.pinned
        defaults = type(self)(**pinned).options
        shown = variant.shown
        return {
            name: value
            for name, value in self.options.items()
            if name not in pinned and (defaults.get(name) != value or name in shown)
        }

    @property
    def spec(self) -> str:
        """Canonical text naming game and options: ``classic``, ``mnk:m=4:n=4:k=4``.

        Only options that differ from the key's defaults are written; `registry.parse_spec`
        reads it back."""
        return ":".join([self.key, *(f"{name}={option_text(v)}" for name, v in self.spec_options.items())])

    @abstractmethod
    def initial(self) -> S:
        """The start position."""

    @abstractmethod
    def parse_move(self, text: str) -> M:
        """Read a move in this game's notation. Raises InvalidMoveError."""

    @abstractmethod
    def move_text(self, move: M) -> str:
        """The canonical text of a move; ``parse_move`` reads it back."""

    @abstractmethod
    def parse_position(self, text: str) -> S:
        """Read a position text. Raises InvalidPositionError."""

    def parse_moves(self, texts: Sequence[str]) -> list[M]:
        """Read several moves (`parse_move` on each); InvalidMoveError at the first that is not a move."""
        return [self.parse_move(t) for t in texts]

    # -- symmetry hooks (noughts.symmetry is their public face) --------------------

    def _symmetries(self) -> Sequence[Sequence[int]]:
        """Hook: the symmetries of the board as cell maps (``cells[c]``: the image of
        cell c, numbered as the game numbers its cells), the identity first, each
        once; every one takes the game's lines to lines and a legal move to a legal
        move (`_map_move`, `State._mapped`). A game that declares none (this default)
        has the identity alone."""
        return ()

    def _map_move(self, move: M, cells: Sequence[int]) -> M:
        """Hook: the image of `move` under the cell map `cells` (one of `_symmetries`)."""
        raise NotImplementedError(f"{type(self).__name__} declares no symmetries")


class State(ABC, Generic[M]):
    """One position. Immutable, hashable, compared by position (not by history): two
    states are equal when the positions are equal, whatever way led to them (repetition
    history, where a game has one, is not part of the position, as in chess's FEN).

    There is no undo: `play` returns a new state and leaves this one as it was, so going
    back is keeping the earlier state (a list of the states played through is a game's
    history; `GameRecord.replay` rebuilds it from a record, and a record without its last
    moves is the game taken back).

    >>> from noughts import parse_spec
    >>> start = parse_spec("classic").initial()
    >>> after = start.play_text("5")
    >>> start.to_text(), after.to_text(), after.turn
    ('.../.../... x', '.../.x./... o', <Player.O: 'o'>)
    """

    # For the families: a subclass sets its slots once, in a constructor without
    # __init__, through _init, and implements the hooks _check and _apply; play adds
    # the checks every game shares. Equality and hashing read _key.

    __slots__ = ("_key", "game", "outcome", "turn")

    game: Game[Any, M]
    """The game (rules and options) this is a position of."""
    turn: Player
    """The player to move (in a finished game: the one who would move next)."""
    outcome: Outcome | None
    """How the game ended; None while it goes on."""
    _key: Hashable

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"{type(self).__name__} is immutable")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"{type(self).__name__} is immutable")

    def __copy__(self) -> Self:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> Self:
        # Immutable, so a state is its own copy: OpenSpiel clones its states (noughts.spiel)
        # with deepcopy, which otherwise rebuilt every state's history, tuple by tuple.
        return self

    def __setstate__(self, state: tuple[None, dict[str, Any]]) -> None:
        # pickle and copy restore slots with setattr, which immutability forbids.
        for name, value in state[1].items():
            object.__setattr__(self, name, value)

    def _init(self, game: Game[Any, M], turn: Player, outcome: Outcome | None, key: Hashable) -> None:
        set_ = object.__setattr__
        set_(self, "game", game)
        set_(self, "turn", turn)
        set_(self, "outcome", outcome)
        set_(self, "_key", key)

    # -- the protocol -------------------------------------------------------------

    @property
    def is_over(self) -> bool:
        """True once the game has an `outcome`."""
        return self.outcome is not None

    @property
    def status(self) -> str:
        """``ongoing``, ``x-wins``, ``o-wins`` or ``draw``."""
        return status_text(self.outcome)

    @abstractmethod
    def legal_moves(self) -> list[M]:
        """Every legal move, in a fixed order (ascending move text order where it makes
        sense). Empty when the game is over."""

    def play(self, move: M) -> Self:
        """The state after `move`. Raises IllegalMoveError (InvalidMoveError for a value
        that is no move of this game) and leaves this state untouched, as always."""
        if self.outcome is not None:
            raise IllegalMoveError(f"the game is over ({self.outcome.describe()})")
        self._check(move)
        return self._apply(move)

    def play_text(self, text: str) -> Self:
        """Parse a move in the game's notation and play it."""
        return self.play(self.game.parse_move(text))

    def move_text(self, move: M) -> str:
        """The canonical text of `move` in this game's notation (``game.move_text``)."""
        return self.game.move_text(move)

    def legal_move_texts(self) -> list[str]:
        """The texts of the `legal_moves`, in the same order."""
        return [self.game.move_text(m) for m in self.legal_moves()]

    @abstractmethod
    def to_text(self) -> str:
        """The canonical position text; `from_text` (or ``game.parse_position``) reads it
        back."""

    @classmethod
    def from_text(cls, text: str, game: Game[Any, M] | None = None) -> Self:
        """The position `text` (as `to_text` writes it) of `game`, by default the family's
        `standard_game`. Raises InvalidPositionError. A game named by its spec text:
        ``noughts.parse_position("mnk:m=4:n=4:k=3", text)``.

        >>> from noughts import MnkState, parse_spec
        >>> MnkState.from_text("o../.x./... x")
        parse_position('classic', 'o../.x./... x')
        >>> MnkState.from_text("x.../..../..../...o x", parse_spec("mnk:m=4:n=4:k=3")).turn
        <Player.X: 'x'>
        """
        game = cls.standard_game() if game is None else game
        state = game.parse_position(text)
        if not isinstance(state, cls):
            raise InvalidPositionError(f"a {game.spec} position is a {type(state).__name__}, not a {cls.__name__}")
        return state

    @classmethod
    def standard_game(cls) -> Game[Any, M]:
        """The game of this family with every option at its default (classic for
        `MnkState`), whose positions `from_text` reads unless told another game."""
        raise TypeError(f"{cls.__name__} has no standard game: give one (from_text(text, game)) or use a family's")

    @abstractmethod
    def diagram(self) -> str:
        """A plain-text board for people (no colour)."""

    def symmetries(self) -> list[Self]:
        """This position under every symmetry of its board (`noughts.symmetry`), this
        state first: 8 on a square board (turned and mirrored), 4 on another rectangle,
        2 in Connect Four (mirrored), 192 in Qubic. Each image is a position of the same
        game, with the same player to move, the same outcome, and the same future: every
        playout from it, mapped, ends as the mapped playout would.

        >>> from noughts import parse_spec
        >>> [s.to_text() for s in parse_spec("classic").initial().play_text("1").symmetries()][:4]
        ['x../.../... o', '..x/.../... o', '.../.../x.. o', '.../.../..x o']
        """
        maps = self.game._symmetries()
        return [self, *(self._mapped(maps[s]) for s in range(1, len(maps)))]

    def _mapped(self, cells: Sequence[int]) -> Self:
        """Hook: this position under the cell map `cells` (one of the game's
        `Game._symmetries`, never the identity), with its history mapped too."""
        raise NotImplementedError(f"{type(self).__name__} declares no symmetries")

    def _repr_svg_(self) -> str | None:
        """The position as an SVG drawing (`noughts.svg.board`), which is how a notebook
        (Jupyter) shows a state."""
        draw = _DRAWINGS.get("svg")
        return None if draw is None else draw(self)

    def winning_line(self) -> tuple[int, ...] | None:
        """The cells (move numbers) of the winner's line, in order along it, for boards
        that draw it; None unless the game was won by a line on the cells. (Ultimate's
        line is of local boards: `UltimateState.winning_boards`.)"""
        return None

    # -- hooks --------------------------------------------------------------------

    @abstractmethod
    def _check(self, move: M) -> None:
        """Raise InvalidMoveError / IllegalMoveError, with a reason a player can act on,
        unless `move` is legal here. Only called while the game is on."""

    @abstractmethod
    def _apply(self, move: M) -> Self:
        """The next state for a move `_check` accepted."""

    # -- value semantics ----------------------------------------------------------

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, State) or type(other) is not type(self):
            return NotImplemented
        return self._key == other._key and self.game == other.game

    def __hash__(self) -> int:
        return hash(self._key)

    def __repr__(self) -> str:
        return f"parse_position({self.game.spec!r}, {self.to_text()!r})"

    def __str__(self) -> str:
        return self.to_text()


#: How a state draws itself for `State._repr_svg_`: `noughts.svg` puts its `board`
#: here when it is imported (``import noughts`` imports it), since the core may not import
#: the modules above it.
_DRAWINGS: dict[str, Callable[[State[Any]], str]] = {}


def repetition_outcome(history: tuple[Hashable, ...], key: Hashable) -> Outcome | None:
    """Draw when `key` already stands twice in `history` (its third occurrence)."""
    if history.count(key) >= 2:
        return Outcome(None, Reason.REPETITION)
    return None


def times_before(history: tuple[Hashable, ...], key: Hashable) -> int:
    """How many times `key`, the last of `history` (a state's own), stood before it:
    0 or 1 while the game goes on, 2 when this occurrence drew it."""
    return history[:-1].count(key)
