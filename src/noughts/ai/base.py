"""What every computer player offers, what it reports, and the registry of players.

A player is ``choose(state, limits) -> move``; ``analyze(state, limits)`` returns the
same decision with its reasons: the value of every legal move (best first), the
principal line, depth, nodes and time. Values are always from the point of view of the
player to move in the analysed state.
"""

from __future__ import annotations

import enum
import functools
import inspect
import math
import random
import time
from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

from noughts.core import IllegalMoveError, InvalidOptionError, State, closest, parse_int, shown

__all__ = [
    "MAX_COUNT",
    "MAX_TIME",
    "MIN_TIME",
    "TOP_LINES",
    "AIPlayer",
    "Analysis",
    "Deadline",
    "Kind",
    "Limits",
    "MoveInfo",
    "RandomPlayer",
    "Value",
    "check_arguments",
    "coerce_option",
    "flag_option",
    "make_player",
    "parse_player",
    "player_names",
    "register_player",
    "win_chance",
    "with_lines",
]


#: A decision's time, in seconds: a microsecond (what the clocks measure; a player's
#: shares of a millisecond still pass) to about eleven days.
MIN_TIME = 1e-6
MAX_TIME = 1e6
#: The largest node count or depth: what a 64-bit integer of the kernels holds.
MAX_COUNT = 2**62


@dataclass(frozen=True)
class Limits:
    """Budgets for one decision; None means no limit of that kind. A time from
    `MIN_TIME` to `MAX_TIME` seconds, nodes and depth from 1 to `MAX_COUNT`.

    >>> Limits(time=5e-324)
    Traceback (most recent call last):
    ...
    noughts.core.InvalidOptionError: time must be 1e-06 to 1e+06 seconds, not 4.94066e-324
    """

    time: float | None = None
    """Seconds of wall-clock time for the decision."""
    nodes: int | None = None
    """Positions the search may visit (MCTS: playouts)."""
    depth: int | None = None
    """Plies the search may look ahead."""

    def __post_init__(self) -> None:
        # Past these bounds a budget is no budget: a time of 5e-324 s made the kernels'
        # time shares infinite (OverflowError), and a count past 64 bits cannot reach them.
        if self.time is not None and not MIN_TIME <= self.time <= MAX_TIME:
            raise InvalidOptionError(f"time must be {MIN_TIME:g} to {MAX_TIME:g} seconds, not {self.time:g}")
        for name in ("nodes", "depth"):
            value = getattr(self, name)
            if value is not None and not 1 <= value <= MAX_COUNT:
                raise InvalidOptionError(f"{name} must be 1 to {MAX_COUNT}, not {value}")

    def over(self, defaults: Limits, default_time: float) -> Limits:
        """These limits, each one not given taken from `defaults` (a player's options);
        with no limit of any kind, `default_time` seconds, so that nobody waits forever."""
        merged = Limits(
            time=self.time if self.time is not None else defaults.time,
            nodes=self.nodes if self.nodes is not None else defaults.nodes,
            depth=self.depth if self.depth is not None else defaults.depth,
        )
        if merged.time is None and merged.nodes is None and merged.depth is None:
            return Limits(time=default_time)
        return merged


class Deadline:
    """A time budget started now. ``expired()`` is cheap enough for inner loops."""

    __slots__ = ("end",)

    def __init__(self, seconds: float | None) -> None:
        self.end = None if seconds is None else time.perf_counter() + seconds

    def expired(self) -> bool:
        return self.end is not None and time.perf_counter() >= self.end


class Kind(enum.Enum):
    """What a `Value` is: exact (a win or loss in some plies, a draw), an estimate, unknown."""

    WIN = "win"
    """A forced win in `Value.plies` (at most that many where `Value.bound`)."""
    LOSS = "loss"
    """A forced loss in `Value.plies` (at most that many where `Value.bound`)."""
    DRAW = "draw"
    """A proven draw."""
    SCORE = "score"
    """A heuristic estimate: `Value.score`, higher is better, 0 is even."""
    UNKNOWN = "unknown"
    """Not evaluated (the random player)."""


@dataclass(frozen=True)
class Value:
    """How good a move (or position) is for the player who makes it (is to move).

    Exact values (a win, a loss, a draw) mean the same from every player. Estimates do
    not: each player scores on its own scale (an alpha-beta evaluator in its units,
    MCTS as a mean result in [-1, 1]), said by its `Analysis.scale`. Compare values of
    different players, or show them, as win chances: `Analysis.chance` (`win_chance`).

    A win or a loss is proven; its `plies` are the distance to the end with best play on
    both sides where the search looked at every move (solved tables, full-width
    searches), and only an upper bound where it did not (`bound`: proof-number and
    threat searches, shipped proofs, MCTS-Solver): the win comes no later, but a quicker
    one may exist, and the loser may not be able to last that long.

    >>> Value.win(7).text, Value.win(64, bound=True).text, Value.loss(9, bound=True).text
    ('win in 7', 'win in at most 64', 'loss in at most 9')
    >>> Value.win(1, bound=True).bound  # no win is quicker than one ply
    False
    """

    kind: Kind
    """Exact (win, loss, draw), an estimate, or unknown."""
    plies: int | None = None
    """For a win or a loss: plies until the game ends (an upper bound where `bound`)."""
    score: float = 0.0
    """For an estimate: the evaluator's score, on its own scale (MCTS: the mean result in [-1, 1]); 1, -1 and 0
    for a win, a loss and a draw. Compare scores of different players by `win_chance` (`Analysis.chance`), not
    directly."""
    bound: bool = False
    """A win or loss only: `plies` is an upper bound on the distance, not the distance."""

    @classmethod
    def win(cls, plies: int, bound: bool = False) -> Value:
        """A forced win in `plies` (at most `plies` with `bound`)."""
        # A bound of one ply (or none) is exact: no game ends sooner.
        return cls(Kind.WIN, plies, 1.0, bound and plies > 1)

    @classmethod
    def loss(cls, plies: int, bound: bool = False) -> Value:
        """A forced loss in `plies` (at most `plies` with `bound`)."""
        # One ply is the least: in gobblet the mover can uncover the opponent's line.
        return cls(Kind.LOSS, plies, -1.0, bound and plies > 1)

    @classmethod
    def draw(cls) -> Value:
        """A proven draw."""
        return cls(Kind.DRAW, None, 0.0)

    @classmethod
    def estimate(cls, score: float) -> Value:
        """A heuristic estimate, `score` on its evaluator's scale (higher is better, 0 even)."""
        return cls(Kind.SCORE, None, score)

    @property
    def exact(self) -> bool:
        """Proven: a win, a loss (its distance exact or a `bound`) or a draw."""
        return self.kind in (Kind.WIN, Kind.LOSS, Kind.DRAW)

    def sort_key(self) -> tuple[int, float]:
        """Larger is better: quick wins, then estimates (draw = 0), then slow losses."""
        if self.kind is Kind.WIN:
            return (2, -float(self.plies or 0))
        if self.kind is Kind.LOSS:
            return (0, float(self.plies or 0))
        return (1, self.score)

    def negated(self, extra_plies: int = 1) -> Value:
        """The same value seen by the other player, one ply earlier."""
        if self.kind is Kind.WIN:
            return Value.loss((self.plies or 0) + extra_plies, self.bound)
        if self.kind is Kind.LOSS:
            return Value.win((self.plies or 0) + extra_plies, self.bound)
        return Value(self.kind, None, -self.score)

    @property
    def distance(self) -> str:
        """A win's or loss's plies in words, saying whether they are a bound: ``in 7
        plies``, ``in at most 64 plies``, ``in 1 ply``; empty for other values. Every
        sentence about a proven result (`noughts.study.verdicts`, the terminal) uses it."""
        if self.kind not in (Kind.WIN, Kind.LOSS):
            return ""
        plies = self.plies or 0
        return f"in {'at most ' if self.bound else ''}{plies} {'ply' if plies == 1 else 'plies'}"

    @property
    def text(self) -> str:
        """``win in 3``, ``loss in 4``, ``win in at most 64`` (a `bound`), ``draw``,
        ``+0.35``, ``?``."""
        if self.kind in (Kind.WIN, Kind.LOSS):
            return f"{self.kind.value} in {'at most ' if self.bound else ''}{self.plies}"
        if self.kind is Kind.DRAW:
            return "draw"
        if self.kind is Kind.SCORE:
            shown = round(self.score, 2)
            return f"{shown if shown else 0.0:+.2f}"  # never "-0.00"
        return "?"

    def __str__(self) -> str:
        return self.text


def win_chance(value: Value, scale: float | None = None) -> float | None:
    """The one scale every value is shown and compared on: the expected result for the
    player the value belongs to, from 0 (a loss) to 1 (a win), a draw counting half.
    Exact values are 0, 0.5 or 1. An estimate's score maps through its evaluator's
    `scale` as ``(1 + tanh(score / scale)) / 2`` (a score of one scale reads as 88%);
    with no scale the score is a mean result in [-1, 1] (MCTS). Unknown: None.

    >>> win_chance(Value.win(3)), win_chance(Value.draw()), win_chance(Value.estimate(0.5))
    (1.0, 0.5, 0.75)
    >>> round(win_chance(Value.estimate(-200.0), scale=200.0), 3)
    0.119
    """
    if value.kind is Kind.WIN:
        return 1.0
    if value.kind is Kind.LOSS:
        return 0.0
    if value.kind is Kind.DRAW:
        return 0.5
    if value.kind is Kind.UNKNOWN:
        return None
    mean = math.tanh(value.score / scale) if scale else max(-1.0, min(1.0, value.score))
    return (1.0 + mean) / 2.0


@dataclass(frozen=True)
class MoveInfo:
    """One legal move in an analysis."""

    move: Any
    """The move, as the game's moves are (an int, a `Place`, a `Shift`)."""
    text: str
    """The move in the game's notation."""
    value: Value
    """How good the move is for the player making it."""
    visits: int | None = None
    """MCTS: how often the move was tried; None for other players."""
    note: str | None = None
    """Why, in a word or two: the rules player's rule ("fork"); None when there is none."""
    traps: int | None = None
    """How many of the opponent's replies lose against this move, where the analysis counted them (a perfect
    player choosing among equal moves, `noughts.ai.solve`); None where not counted."""
    line: tuple[str, ...] = field(default=(), compare=False)
    """The line this move starts, as the analysis expects it to go on (move texts, this move first); given for
    the best `TOP_LINES` moves by the players that know it. Not part of equality: after a stopped search the
    table may continue it otherwise."""


#: How many of the best moves an analysis gives a line for (an analysis board's "top
#: lines", lichess's multi-PV).
TOP_LINES = 3


def with_lines(infos: list[MoveInfo], line_of: Callable[[Any], list[str]]) -> list[MoveInfo]:
    """`infos` (best first) with the line of each of the best `TOP_LINES` moves."""
    return [replace(info, line=tuple(line_of(info.move))) if i < TOP_LINES else info for i, info in enumerate(infos)]


@dataclass
class Analysis:
    """A decision with its reasons: every legal move with its `Value`, best first.

    The values are from the point of view of the player to move. Their estimates are on
    this player's own `scale`, so two analyses (two players, or one player on two
    games) compare by `chance`, the win chance for the side to move, not by score.

    >>> from noughts import make_player, parse_spec
    >>> state = parse_spec("classic").parse_position("xx./oo./... x")
    >>> analysis = make_player("perfect").analyze(state)
    >>> analysis.best, analysis.value.text, analysis.chance()
    (2, 'win in 1', 1.0)
    """

    player: str
    """The name of the player that made it (``alphabeta``, ``mcts``...)."""
    moves: list[MoveInfo]
    """Every legal move, best first (an alpha-beta `decide` gives only the best)."""
    pv: list[str] = field(default_factory=list)
    """The principal line, move texts starting with the best move."""
    depth: int | None = None
    """The deepest completed search depth, where that means something."""
    nodes: int = 0
    """Positions visited (MCTS: playouts)."""
    time: float = 0.0
    """Seconds spent."""
    scale: float | None = None
    """What the estimates' scores mean, said once by whoever makes them: the score that reads as clearly better
    (an evaluator's scale), or None where a score already is a mean result in [-1, 1] (MCTS). `win_chance`
    (`chance`) puts every value on one scale."""

    @property
    def best(self) -> Any:
        """The best move: the one `choose` plays."""
        return self.moves[0].move

    @property
    def value(self) -> Value:
        """The value of the position for the player to move: that of the best move."""
        return self.moves[0].value

    def chance(self, value: Value | None = None) -> float | None:
        """`value` (default: the position's) as a win chance for the player it belongs
        to: `win_chance` on this analysis' scale."""
        return win_chance(self.value if value is None else value, self.scale)

    def lines(self) -> list[str]:
        """One line per legal move, best first: ``MOVE VALUE [visits=N]``."""
        out = []
        for info in self.moves:
            line = f"{info.text} {info.value.text.replace(' ', '-')}"
            if info.visits is not None:
                line += f" visits={info.visits}"
            if info.note:
                line += f" note={info.note.replace(' ', '-')}"
            if info.traps:
                line += f" note={info.traps}-losing-replies"
            out.append(line)
        return out

    def summary(self) -> str:
        """One line for logs and the engine protocol: ``player=... best=... value=... [depth=...] nodes=...
        time=... [pv=...]``."""
        parts = [f"player={self.player}", f"best={self.moves[0].text}", f"value={self.value.text.replace(' ', '-')}"]
        if self.depth is not None:
            parts.append(f"depth={self.depth}")
        parts += [f"nodes={self.nodes}", f"time={self.time:.3f}"]
        if self.pv:
            parts.append("pv=" + ",".join(self.pv))
        return " ".join(parts)


class AIPlayer(ABC):
    """A computer player. A player rejects a game it cannot handle with InvalidOptionError
    (in ``analyze``) naming the games it can."""

    name: str = "?"
    """The player's name, as `make_player` knows it (``alphabeta``, ``mcts``...)."""
    uses_kernels: bool = False
    """Whether it searches with the compiled kernels, which are loaded (or compiled) before its first search:
    a program shows that wait for what it is, and only for a player that has it."""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        # Each constructor notes the options it was given (the outermost one: a subclass
        # that calls its base's takes the options it was made with), for `spec`.
        super().__init_subclass__(**kwargs)
        init = cls.__dict__.get("__init__")
        if init is None:
            return
        signature = inspect.signature(init)

        @functools.wraps(init)
        def noting_its_options(self: AIPlayer, *args: Any, **options: Any) -> None:
            if "_options" not in self.__dict__:
                try:
                    given = signature.bind(self, *args, **options).arguments
                except TypeError:
                    given = {}  # the constructor itself says what is wrong
                self.__dict__["_options"] = {k: v for k, v in given.items() if k != "self"}
            init(self, *args, **options)

        cls.__init__ = noting_its_options  # type: ignore[method-assign, assignment]

    @property
    def spec(self) -> str | None:
        """The player as text, ``NAME[:option=value...]`` with the options it was made
        with: `parse_player` makes the same player again. None for a player that has no
        registered name (`register_player`) or an option that is no text (an object).

        >>> make_player("mcts", iterations="200", seed=1).spec
        'mcts:iterations=200:seed=1'
        >>> parse_player("alphabeta:depth=2")
        parse_player('alphabeta:depth=2')
        """
        name = next((key for key, factory in _PLAYERS.items() if factory is type(self)), None)
        if name is None:
            return None
        parts = [name]
        for option, value in self.__dict__.get("_options", {}).items():
            text = _option_text(value)
            if text is None:
                return None
            parts.append(f"{option}={text}")
        return ":".join(parts)

    def __repr__(self) -> str:
        spec = self.spec
        return f"parse_player({spec!r})" if spec is not None else f"<{type(self).__name__} {self.name!r}>"

    def choose(self, state: State[Any], limits: Limits = Limits()) -> Any:
        """A legal move for the player to move in `state`, within `limits` (a `Limits`:
        ``Limits(time=0.5)``, ``Limits(depth=4)``; a bare number is refused, since it
        could be seconds, nodes or plies)."""
        check_arguments(state, limits)
        return self.decide(state, limits).best

    def decide(self, state: State[Any], limits: Limits = Limits()) -> Analysis:
        """The analysis behind the move `choose` plays: the best move first, with its
        value and line. A search that prunes at the root (alpha-beta) proves the other
        moves worse without valuing them, so it lists only the best one and spends its
        budget on depth: as strong as `choose`. Every other player: `analyze`."""
        return self.analyze(state, limits)

    @abstractmethod
    def analyze(self, state: State[Any], limits: Limits = Limits()) -> Analysis:
        """The decision with the value of every legal move, best first. Raises
        IllegalMoveError when the game is already over."""

    def reset(self) -> None:  # noqa: B027 - an optional hook; stateless players keep it empty
        """Forget anything kept between moves (a new game starts)."""


def check_arguments(state: object, limits: object) -> None:
    """TypeError, saying what to pass, unless `state` is a State and `limits` Limits."""
    if not isinstance(state, State):
        raise TypeError(f"a player chooses in a State (parse_position(spec, text)...), not in {state!r}")
    if not isinstance(limits, Limits):
        raise TypeError(f"limits are a Limits (Limits(time=0.5), Limits(depth=4)...), not {limits!r}")


def require_moves(state: State[Any]) -> list[Any]:
    moves = state.legal_moves()
    if not moves:
        raise IllegalMoveError(f"the game is over ({state.status}): there is no move to choose")
    return moves


class RandomPlayer(AIPlayer):
    """Uniformly random legal moves, reproducible with a seed."""

    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def analyze(self, state: State[Any], limits: Limits = Limits()) -> Analysis:
        started = time.perf_counter()
        moves = require_moves(state)
        best = self.rng.choice(moves)
        ordered = [best, *(m for m in moves if m != best)]
        infos = [MoveInfo(m, state.move_text(m), Value(Kind.UNKNOWN)) for m in ordered]
        return Analysis(self.name, infos, [infos[0].text], None, 0, time.perf_counter() - started)


_PLAYERS: dict[str, Callable[..., AIPlayer]] = {}


def register_player(name: str, factory: Callable[..., AIPlayer]) -> None:
    """Make a player available by name to `make_player`, the engine and the arena."""
    _PLAYERS[name] = factory


register_player("random", RandomPlayer)


def player_names() -> list[str]:
    """The names `make_player` knows, in the order they were registered."""
    return list(_PLAYERS)


def make_player(name: str, **options: Any) -> AIPlayer:
    """A player by name with options, given as values or as text (from the command line
    and the engine protocol): ``make_player("random", seed="7")``."""
    factory = _PLAYERS.get(name.strip().lower())
    if factory is None:
        raise InvalidOptionError(
            f"unknown player {shown(name)}{closest(name.strip().lower(), _PLAYERS)};"
            f" the players are: {', '.join(_PLAYERS)}"
        )
    given = {k.replace("-", "_"): coerce_option(v) for k, v in options.items()}
    known = option_names(factory)
    unknown = [k for k in given if known is not None and k not in known]
    if known is not None and unknown:
        listed = ", ".join(known) or "none"
        raise InvalidOptionError(
            f"player {name.strip().lower()} has no option {shown(unknown[0])}{closest(unknown[0], known)}; "
            f"its options are: {listed}"
        )
    try:
        return factory(**given)
    except TypeError as e:
        raise InvalidOptionError(f"player {name}: {e}") from None


def option_names(factory: Callable[..., AIPlayer]) -> list[str] | None:
    """The options the player `factory` takes, in its signature's order; None where it
    takes any (``**options``)."""
    parameters = inspect.signature(factory).parameters.values()
    if any(p.kind is inspect.Parameter.VAR_KEYWORD for p in parameters):
        return None
    kinds = (inspect.Parameter.POSITIONAL_OR_KEYWORD, inspect.Parameter.KEYWORD_ONLY)
    return [p.name for p in parameters if p.kind in kinds]


def parse_player(text: str) -> AIPlayer:
    """A player from its text form: ``NAME[:option=value...]``, e.g. ``mcts:time=0.2``
    or ``alphabeta:depth=6:eval=seed-lines`` (the arena's and the engine's syntax)."""
    name, options = split_spec(text)
    return make_player(name, **options)


def seeded_player(text: str, seed: int | None) -> AIPlayer:
    """The player `text` names, given `seed` as its seed, unless the text sets a seed
    itself (``random:seed=5``: the user's seed wins) or the player takes none
    (``perfect``): a caller seeding each game keeps games reproducible this way."""
    name, options = split_spec(text)
    if seed is not None and "seed" not in options and takes_seed(name):
        options["seed"] = str(seed)
    return make_player(name, **options)


def _option_text(value: object) -> str | None:
    """An option's value as `coerce_option` reads it back; None where no text would."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return repr(value)
    if isinstance(value, str) and value and not set(value) & set(":= ") and coerce_option(value) == value:
        return value
    return None


def split_spec(text: str) -> tuple[str, dict[str, str]]:
    """A player spec's name and its options (``alphabeta:depth=2`` -> ``alphabeta``,
    ``{"depth": "2"}``); InvalidOptionError for an option without a value."""
    name, *parts = text.strip().split(":")
    options: dict[str, str] = {}
    for part in parts:
        key, eq, value = part.partition("=")
        if not eq or not key or not value:
            raise InvalidOptionError(f"{shown(part)} is not a player option: write name=value")
        options[key] = value
    return name, options


def takes_seed(name: str) -> bool:
    """Whether the player `name` takes a seed= (a deterministic one takes none)."""
    factory = _PLAYERS.get(name.strip().lower())
    if factory is None:
        return False  # make_player says the name is unknown
    parameters = inspect.signature(factory).parameters.values()
    return any(p.name == "seed" or p.kind is inspect.Parameter.VAR_KEYWORD for p in parameters)


def flag_option(name: str, value: object) -> bool:
    """A player's true/false option; text "1"/"0" arrives as an int through
    `coerce_option`."""
    if isinstance(value, bool):
        return value
    if value in (0, 1):
        return bool(value)
    raise InvalidOptionError(f"{name} takes true or false, not {shown(value)}")


def coerce_option(value: Any) -> Any:
    """Option values arrive as text from the command line and the engine protocol."""
    if not isinstance(value, str):
        return value
    text = value.strip()
    digits = text[1:] if text[:1] in ("+", "-") else text
    if digits.isascii() and digits.isdigit():
        # Bounded: 5,000 digits was int()'s ValueError, then a float's infinity.
        return parse_int(text, "an option")
    try:
        return float(text)
    except ValueError:
        return {"true": True, "false": False}.get(text.lower(), text)
