"""Static evaluation functions per game, for the search players (and MCTS).

An evaluator is ``(state) -> float`` seen from the player to move: positive is good for
the mover, 0 is even. It is only asked about positions where the game goes on (search
scores finished games itself), is deterministic and reads the game's own fields
(bitmasks), which is allowed here and nowhere else in ``noughts.ai``.

Each game key has named evaluators, the first one its default:

==========================  ===============================================================
classic, mnk                ``lines`` (default), ``fill``
nine-board                  ``seed-lines`` (default), ``seed-cells``, ``fill``
ultimate                    ``seed-lines`` (default), ``seed-cells``, ``fill``
qubic                       ``open-lines`` (default), ``fill``
matryoshka, gobblet         ``tops`` (default), ``fill``
==========================  ===============================================================

>>> from noughts import parse_spec
>>> state = parse_spec("classic").initial().play_text("5")
>>> evaluator_names(state.game)
['lines', 'fill']
>>> evaluator(state.game)(state)  # o to move; x's centre mark sits on four open lines
-4.0

`evaluator` caches one closure per (game, name), holding the tables it needs, so the
per-position work is bit arithmetic and table look-ups.

Some evaluators have named weights (`evaluator_weights`; ``noughts tune`` searches
them). Their hand-set weights are in this module; tuned ones that beat them in the
arena ship with the package as ``weights/<game key>-<evaluator>.json`` and are then
the evaluator's default in that game. ``NAME@hand`` is always the evaluator with its
hand-set weights (``alphabeta:eval=tops@hand``). `register_weights` adds a variant of
one with other weights under a new name, which every player taking an evaluator name
can then use.

>>> evaluator_weights(parse_spec("matryoshka"), "tops@hand")
{'one': 1.0, 'two': 10.0, 'three': 100.0, 'hand': 0.5}
"""

from __future__ import annotations

import functools
import json
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cache, lru_cache
from importlib import resources
from importlib.resources.abc import Traversable
from typing import Any

from noughts.core import Game, InvalidOptionError, NoughtsError, Player, State, closest, shown
from noughts.games.connect4.rules import ConnectFour, ConnectFourState
from noughts.games.geometry import GROUP_MEMO, bits, line_groups, line_masks
from noughts.games.gobblet import Gobblet, GobbletState
from noughts.games.mnk.rules import Mnk, MnkState
from noughts.games.qubic import Qubic, QubicState
from noughts.games.ultimate import NINE_BOARD, Ultimate, UltimateState

__all__ = [
    "HAND",
    "HAND_SEPARATOR",
    "Evaluator",
    "all_evaluator_names",
    "evaluator",
    "evaluator_names",
    "evaluator_scale",
    "evaluator_weights",
    "register_weights",
    "shipped_weights",
    "shipped_weights_path",
]

#: ``(state) -> float``, positive = good for the player to move.
Evaluator = Callable[[State[Any]], float]


#: ``NAME@hand``: the evaluator NAME with its hand-set weights, whatever ships.
HAND = "hand"
HAND_SEPARATOR = "@"


@dataclass(frozen=True)
class _Entry:
    """A named evaluator: `build(game)` makes the function once per game, or
    `build(game, weights)` when it has named `weights` (the hand-set ones); `scale` is
    the score that means "clearly better", a number or one per game: a score s reads as
    the chance ``(1 + tanh(s / scale)) / 2`` (`noughts.ai.base.win_chance`; MCTS squashes
    with it too), measured on self-play by bench/value_scale.py. `ships`: the package
    may hold tuned weights for it (a variant made by `register_weights` never)."""

    build: Callable[..., Callable[[Any], float]]
    scale: float | Callable[[Any], float]
    weights: Mapping[str, float] = field(default_factory=dict)
    ships: bool = True


_REGISTRY: dict[str, dict[str, _Entry]] = {}


def _register(
    keys: tuple[str, ...],
    name: str,
    scale: float | Callable[[Any], float],
    weights: Mapping[str, float] | None = None,
    ships: bool = True,
) -> Callable[[Any], Any]:
    def add(build: Callable[..., Callable[[Any], float]]) -> Callable[..., Callable[[Any], float]]:
        for key in keys:
            _REGISTRY.setdefault(key, {})[name] = _Entry(build, scale, dict(weights or {}), ships)
        return build

    return add


def evaluator_weights(game: Game[Any, Any], name: str | None = None) -> dict[str, float]:
    """The named weights evaluator `name` uses in `game`: the shipped ones if the
    package has them, else (and for ``NAME@hand``) the hand-set ones. Empty: it has
    none to tune."""
    key, hand = _resolve(game, _entries(game), name)
    return dict(_weights(game, key, hand))


def register_weights(game: Game[Any, Any], base: str, name: str, weights: Mapping[str, float]) -> None:
    """Make `name` the evaluator `base` of `game` with `weights` (the ones not given keep
    the value `base` uses). Raises InvalidOptionError for a weight `base` does not have."""
    entries = _entries(game)
    base_key, hand = _resolve(game, entries, base)
    entry = entries[base_key]
    unknown = sorted(set(weights) - set(entry.weights))
    if unknown:
        known = ", ".join(entry.weights) or "none"
        raise InvalidOptionError(
            f"{base} has no weight {', '.join(unknown)}{closest(unknown[0], entry.weights)}; its weights are: {known}"
        )
    key = name.strip().lower()
    if not key or key == base_key or HAND_SEPARATOR in key:
        raise InvalidOptionError(f"give the weighted variant of {base} a name of its own (no @), not {shown(name)}")
    merged = {**_weights(game, base_key, hand), **{k: float(v) for k, v in weights.items()}}
    entries[key] = _Entry(entry.build, entry.scale, merged, ships=False)
    _build.cache_clear()


def evaluator_names(game: Game[Any, Any]) -> list[str]:
    """The evaluators for `game`, its default first (each with weights also answers
    to ``NAME@hand``)."""
    return list(_entries(game))


def evaluator(game: Game[Any, Any], name: str | None = None) -> Evaluator:
    """The evaluator `name` (None: the game's default) for `game`. Raises
    InvalidOptionError naming the choices when the game or the name is unknown."""
    key, hand = _resolve(game, _entries(game), name)
    return _build(game, key, hand)


@lru_cache(maxsize=128)
def _build(game: Game[Any, Any], name: str, hand: bool) -> Evaluator:
    entry = _REGISTRY[game.key][name]
    return entry.build(game, _weights(game, name, hand)) if entry.weights else entry.build(game)


def evaluator_scale(game: Game[Any, Any], name: str | None = None) -> float:
    """A score of `name` that means "clearly better" in `game`: its chance scale."""
    entries = _entries(game)
    scale = entries[_resolve(game, entries, name)[0]].scale
    return float(scale(game) if callable(scale) else scale)


def shipped_weights_path(game: Game[Any, Any], name: str) -> Traversable | None:
    """Where the package keeps the tuned weights of evaluator `name` in `game` (the file
    may not exist); None for an evaluator that never ships any. ``noughts tune`` names
    it, to promote its result."""
    key, _ = _resolve(game, _entries(game), name)
    return _shipped_path(game.key, key) if _REGISTRY[game.key][key].ships else None


def shipped_weights(game: Game[Any, Any], name: str) -> dict[str, float] | None:
    """The tuned weights the package ships for evaluator `name` in `game`, or None."""
    key, _ = _resolve(game, _entries(game), name)
    found = _load_shipped(game.key, key) if _REGISTRY[game.key][key].ships else None
    return None if found is None else dict(found)


def _shipped_path(game_key: str, name: str) -> Traversable:
    return resources.files(__package__).joinpath("weights", f"{game_key}-{name}.json")


def _weights(game: Game[Any, Any], name: str, hand: bool) -> Mapping[str, float]:
    entry = _REGISTRY[game.key][name]
    if hand or not entry.ships or not entry.weights:
        return entry.weights
    shipped = _load_shipped(game.key, name)
    return entry.weights if shipped is None else shipped


@cache
def _load_shipped(game_key: str, name: str) -> Mapping[str, float] | None:
    """The weights file of (game, evaluator) in the package, checked against the
    evaluator's weights: a file that does not fit is a packaging mistake, reported as
    such rather than quietly replaced by the hand-set weights."""
    path = _shipped_path(game_key, name)
    if not path.is_file():
        return None
    expected = _REGISTRY[game_key][name].weights
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        weights = {str(k): float(v) for k, v in data["weights"].items()}
        tuned_for = (data["eval"], data["game"].split(":")[0])
    except (OSError, ValueError, KeyError, TypeError, AttributeError) as e:
        raise NoughtsError(f"the shipped weights {path} cannot be read: {e}") from None
    if tuned_for != (name, game_key):
        raise NoughtsError(f"the shipped weights {path} are for {tuned_for[0]} in {tuned_for[1]}")
    if set(weights) != set(expected) or not all(math.isfinite(v) for v in weights.values()):
        raise NoughtsError(f"the shipped weights {path} must give {', '.join(expected)}, as finite numbers")
    return weights


def _entries(game: Game[Any, Any]) -> dict[str, _Entry]:
    if game.key not in _REGISTRY:
        # A game nobody wrote an evaluation for (a new one): "none" knows nothing, so a
        # search sees only the wins and losses it reaches, and still plays.
        _REGISTRY[game.key] = {"none": _Entry(_knows_nothing, 1.0, ships=False)}
    return _REGISTRY[game.key]


def _knows_nothing(game: Game[Any, Any]) -> Evaluator:
    return lambda state: 0.0


def _resolve(game: Game[Any, Any], entries: dict[str, _Entry], name: str | None) -> tuple[str, bool]:
    """(the evaluator's registry key, whether its hand-set weights are asked for)."""
    if name is None:
        return next(iter(entries)), False
    key, at, weights = name.strip().lower().partition(HAND_SEPARATOR)
    if key not in entries:
        raise InvalidOptionError(
            f"{game.key} has no evaluator {shown(name)}{closest(key, entries)};"
            f" its evaluators are: {', '.join(entries)}"
        )
    if at and (weights != HAND or not entries[key].weights):
        with_weights = [n for n, e in entries.items() if e.weights]
        raise InvalidOptionError(
            f"{name!r}: only NAME@{HAND} (the hand-set weights) is known, for an evaluator with weights; "
            f"in {game.key}: {', '.join(with_weights) or 'none'}"
        )
    return key, bool(at)


# -- lines on bitboards (classic, mnk, qubic) ---------------------------------------


def _power_weights(k: int) -> tuple[int, ...]:
    """Weight of a line holding c marks of one side only: 0, 1, 10, 100, ... by c."""
    return (0, *(10 ** (c - 1) for c in range(1, k + 1)))


def _open_lines(lines: tuple[int, ...], weights: tuple[float, ...]) -> Callable[[int, int], float]:
    """Sum over lines of +weights[x's marks] if only x is in it, -weights[o's marks] if
    only o is; lines holding both count 0 (nobody can complete them)."""

    def over(members: tuple[int, ...], x: int, o: int) -> float:
        total = 0.0
        for mask in members:
            a = x & mask
            b = o & mask
            if a:
                if not b:
                    total += weights[a.bit_count()]
            elif b:
                total -= weights[b.bit_count()]
        return total

    rays = line_groups(lines)
    if len(rays) * 2 > len(lines):
        return functools.partial(over, lines)  # qubic: every line is a ray of its own
    # On a big board most rays (rows, columns, diagonals) are empty, and a move changes
    # one ray per direction: a ray's sum is looked up by its contents. 15x15: 8x faster.
    shared: list[tuple[int, tuple[int, ...], dict[tuple[int, int], float]]] = [
        (ray, members, {}) for ray, members in rays
    ]

    def score(x: int, o: int) -> float:
        total = 0.0
        for ray, members, known in shared:
            a = x & ray
            b = o & ray
            if not (a or b):
                continue
            key = (a, b)
            value = known.get(key)
            if value is None:
                if len(known) >= GROUP_MEMO:
                    known.clear()
                value = known[key] = over(members, a, b)
            total += value
        return total

    return score


def _free_lines(lines: tuple[int, ...]) -> Callable[[int, int], int]:
    """Lines x could still complete minus lines o could: fill the empty cells with one
    colour and count the lines."""

    def score(x: int, o: int) -> int:
        total = 0
        for mask in lines:
            if not o & mask:
                total += 1
            if not x & mask:
                total -= 1
        return total

    return score


def _mnk_marks(state: MnkState) -> tuple[int, int]:
    """The marks that still count at each side's next move: in Forget mode a player who
    has `keep` marks loses the oldest one when placing the next, before lines are
    checked, so it cannot help (or block) any more."""
    x, o = state.x, state.o
    ages = state.ages
    if ages is not None:
        keep = state.game.keep
        if len(ages[0]) == keep:
            x &= ~(1 << ages[0][0])
        if len(ages[1]) == keep:
            o &= ~(1 << ages[1][0])
    return x, o


#: Lines weigh 10 times more per mark, so the scores grow tenfold with k. Measured
#: (bench/value_scale.py, 2026-11-24): 7x7 k=4 220 (max, 20 games) to 326 (depth 2);
#: 15x15 k=5 1,217 (depth 1) to 4,545 (max, 12 games).
@_register(("classic", "mnk"), "lines", scale=lambda game: 3.0 * 10 ** (game.k - 2))
def _mnk_lines(game: Mnk) -> Callable[[MnkState], float]:
    score = _open_lines(game.lines, _power_weights(game.k))

    def evaluate(state: MnkState) -> float:
        value = score(*_mnk_marks(state))
        return float(value if state.turn is Player.X else -value)

    return evaluate


@_register(("classic", "mnk"), "fill", scale=3.0)
def _mnk_fill(game: Mnk) -> Callable[[MnkState], float]:
    score = _free_lines(game.lines)

    def evaluate(state: MnkState) -> float:
        value = score(*_mnk_marks(state))
        return float(value if state.turn is Player.X else -value)

    return evaluate


@_register(("connect4",), "lines", scale=lambda game: 3.0 * 10 ** (game.k - 2))
def _connect4_lines(game: ConnectFour) -> Callable[[ConnectFourState], float]:
    # The lines still open to one side, weighted by the marks in them, as on any board
    # of marks; which of them can be completed soon (gravity) is the search's to find.
    score = _open_lines(game.lines, _power_weights(game.k))

    def evaluate(state: ConnectFourState) -> float:
        value = score(state.x, state.o)
        return float(value if state.turn is Player.X else -value)

    return evaluate


#: Measured (bench/value_scale.py qubic, 20 games each, 2026-11-24): 23 for max at
#: 0.2 s, 22-48 for kalphabeta at 0.05 s (the machine idle or loaded), 66 at 30,000
#: nodes: the deeper the search, the surer its scores. 40 lies within a factor of two
#: of all of them.
@_register(("qubic",), "open-lines", scale=40.0)
def _qubic_open_lines(game: Qubic) -> Callable[[QubicState], float]:
    score = _open_lines(game.lines, _power_weights(game.n))

    def evaluate(state: QubicState) -> float:
        value = score(state.x, state.o)
        return float(value if state.turn is Player.X else -value)

    return evaluate


@_register(("qubic",), "fill", scale=10.0)
def _qubic_fill(game: Qubic) -> Callable[[QubicState], float]:
    score = _free_lines(game.lines)

    def evaluate(state: QubicState) -> float:
        value = score(state.x, state.o)
        return float(value if state.turn is Player.X else -value)

    return evaluate


# -- 3x3 boards (the local boards of ultimate, the meta board, gobblet) -------------

_LINES3 = line_masks((3, 3), 3)
_BOARD = (1 << 9) - 1
#: The seed reports' cell weights: corners 3, edges 2, centre 4.
_CELL_WEIGHTS = (3, 2, 3, 2, 4, 2, 3, 2, 3)


def _cell_sums(weights: tuple[float, ...]) -> tuple[float, ...]:
    """The summed weights of the cells of each 3x3 mask."""
    return tuple(sum(weights[c] for c in bits(mask)) for mask in range(1 << 9))


class _BoardTable(dict[int, float]):
    """``score(x, o)`` of 3x3 boards, keyed by ``x | o << 9`` and computed on first use:
    only the boards a game reaches are ever worked out (far fewer than all 3^9)."""

    def __init__(self, score: Callable[[int, int], float]) -> None:
        super().__init__()
        self.score = score

    def __missing__(self, key: int) -> float:
        value = self.score(key & _BOARD, key >> 9)
        self[key] = value
        return value


@lru_cache(maxsize=8)
def _line_table(weights: tuple[float, ...]) -> _BoardTable:
    """The open-line score (as `_open_lines`) of 3x3 boards."""
    return _BoardTable(_open_lines(_LINES3, weights))


def _count_twos(x: int, o: int) -> int:
    """x's two-in-an-open-line count (threats to complete a line)."""
    return sum(1 for m in _LINES3 if (x & m).bit_count() == 2 and not o & m)


def _winnable(x: int, o: int) -> int:
    """1 when x can still complete a line of the board, else 0."""
    return int(any(not o & m for m in _LINES3))


_TWOS = _BoardTable(_count_twos)
_FREE = _BoardTable(_free_lines(_LINES3))
_WINNABLE = _BoardTable(_winnable)


# -- nine-board and ultimate ---------------------------------------------------------

#: The seed reports' line weights: one mark in an open line 1, two 2, three 200.
_SEED_WEIGHTS = (0, 1, 2, 200)
#: Ultimate: the meta board's lines (of won boards) weigh this much more than a local
#: board's, as the game is decided there: two won boards in an open meta line (200)
#: outweigh any number of local twos.
_META_SCALE = 100
#: seed-cells: a won board counts its meta cell's weight this many times, which makes
#: it worth more than any arrangement of marks inside an open board (24 at most).
_CELLS_META_SCALE = 10
_OWN_TWO = 6  # seed-cells: a two in an open line for the mover (may win the board next)
_THREAT = 4  # seed-cells: one for the opponent, a threat the mover must watch


def _local_boards(state: UltimateState) -> list[tuple[int, int, int]]:
    """(board, x's marks, o's marks) for each local board still open (nine-board: all)."""
    x, o = state.x, state.o
    closed = 0 if state.game.rule == NINE_BOARD else state.won_x | state.won_o | state.drawn
    return [(b, x >> 9 * b & _BOARD, o >> 9 * b & _BOARD) for b in range(9) if not closed >> b & 1]


def _meta_lines(won_x: int, won_o: int, drawn: int, weights: tuple[float, ...], sign: int = -1) -> float:
    """The open-line score of the meta board (o's lines count `sign` times: 0 to count
    x's only); a drawn board blocks its lines for both."""
    total = 0.0
    for mask in _LINES3:
        if drawn & mask:
            continue
        a = won_x & mask
        b = won_o & mask
        if a:
            if not b:
                total += weights[a.bit_count()]
        elif b:
            total += sign * weights[b.bit_count()]
    return total


def _for_mover(state: State[Any], value: float) -> float:
    return value if state.turn is Player.X else -value


_SEED_LINES = {
    "one": float(_SEED_WEIGHTS[1]),
    "two": float(_SEED_WEIGHTS[2]),
    "three": float(_SEED_WEIGHTS[3]),
    "meta": float(_META_SCALE),
}


# ships=False: the compiled players (noughts.kernels.evaluate) copy these hand-set
# weights and must keep giving the same results as this readable evaluator.
#: Measured (bench/value_scale.py, 2026-11-24): ultimate 785 (kalphabeta, 40 games),
#: 747 (Forget mode, max, 20 games): won boards add 200 each and the meta lines 100s;
#: nine-board 11 (alphabeta depth 3, 30 games): a three there threatens the game.
@_register(
    ("nine-board", "ultimate"),
    "seed-lines",
    scale=lambda game: 750.0 if game.key == "ultimate" else 12.0,
    weights=_SEED_LINES,
    ships=False,
)
def _seed_lines(game: Ultimate, w: Mapping[str, float]) -> Callable[[UltimateState], float]:
    """Per open local board: +-200 a three, +-2 a two and +-1 a one in an open line.
    Ultimate adds +-200 per won board and the meta board's lines, scaled up."""
    weights = (0.0, w["one"], w["two"], w["three"])
    table = _line_table(weights)
    meta, three = w["meta"], w["three"]
    ultimate = game.rule != NINE_BOARD

    def evaluate(state: UltimateState) -> float:
        value = 0.0
        for _, bx, bo in _local_boards(state):
            value += table[bx | bo << 9]
        if ultimate:
            won_x, won_o = state.won_x, state.won_o
            # A won board is its three; a drawn one blocks every meta line through it.
            value += three * (won_x.bit_count() - won_o.bit_count())
            value += meta * _meta_lines(won_x, won_o, state.drawn, weights)
        return _for_mover(state, value)

    return evaluate


_SEED_CELLS = {
    "corner": float(_CELL_WEIGHTS[0]),
    "edge": float(_CELL_WEIGHTS[1]),
    "centre": float(_CELL_WEIGHTS[4]),
    "meta": float(_CELLS_META_SCALE),
    "own-two": float(_OWN_TWO),
    "threat": float(_THREAT),
}


@_register(("nine-board", "ultimate"), "seed-cells", scale=60.0, weights=_SEED_CELLS)
def _seed_cells(game: Ultimate, w: Mapping[str, float]) -> Callable[[UltimateState], float]:
    """Cell weights (corners 3, edges 2, centre 4) of the marks in open boards and, ten
    times over, of the won boards on the meta board; plus the mover's own twos in open
    lines and minus the opponent's (threats), locally and on the meta board."""
    corner, edge = w["corner"], w["edge"]
    cell_sum = _cell_sums((corner, edge, corner, edge, w["centre"], edge, corner, edge, corner))
    meta, own_two, threat = w["meta"], w["own-two"], w["threat"]

    def evaluate(state: UltimateState) -> float:
        mover_is_x = state.turn is Player.X
        cells = twos = 0.0
        for _, bx, bo in _local_boards(state):
            cells += cell_sum[bx] - cell_sum[bo]
            mine, theirs = (bx, bo) if mover_is_x else (bo, bx)
            twos += own_two * _TWOS[mine | theirs << 9] - threat * _TWOS[theirs | mine << 9]
        won_x, won_o, drawn = state.won_x, state.won_o, state.drawn
        cells += meta * (cell_sum[won_x] - cell_sum[won_o])
        x_meta = _meta_lines(won_x, won_o, drawn, (0, 0, 1, 0), 0)
        o_meta = _meta_lines(won_o, won_x, drawn, (0, 0, 1, 0), 0)
        own_meta, threat_meta = (x_meta, o_meta) if mover_is_x else (o_meta, x_meta)
        twos += meta * (own_two * own_meta - threat * threat_meta)
        return _for_mover(state, cells) + twos

    return evaluate


@_register(("nine-board", "ultimate"), "fill", scale=5.0)
def _ultimate_fill(game: Ultimate) -> Callable[[UltimateState], float]:
    """nine-board: the local lines each side could still complete. ultimate: the same
    in the open boards, plus, ten times over, the meta lines each side could still
    complete (every board in it won by that side or still winnable by it)."""
    ultimate = game.rule != NINE_BOARD

    def evaluate(state: UltimateState) -> float:
        value = 0.0
        can_x, can_o = state.won_x, state.won_o
        for board, bx, bo in _local_boards(state):
            value += _FREE[bx | bo << 9]
            can_x |= int(_WINNABLE[bx | bo << 9]) << board
            can_o |= int(_WINNABLE[bo | bx << 9]) << board
        if ultimate:
            meta = sum(1 for m in _LINES3 if can_x & m == m) - sum(1 for m in _LINES3 if can_o & m == m)
            value += 10 * meta
        return _for_mover(state, value)

    return evaluate


# -- matryoshka and gobblet ----------------------------------------------------------

#: tops: one, two, three visible tops of one side in a line (three only when lifting
#: uncovered it, which the search scores as the end of the game anyway).
_TOPS_WEIGHTS = (0, 1, 10, 100)
#: tops: a figure in hand is worth this per size step: the large ones keep the option
#: to cover anything later, and spending them early is a cost.
_HAND_WEIGHT = 0.5


_TOPS = {"one": float(_TOPS_WEIGHTS[1]), "two": float(_TOPS_WEIGHTS[2]), "three": float(_TOPS_WEIGHTS[3])}


#: Measured (bench/value_scale.py gobblet, 2026-11-24): 44 (max, 30 games) to 149
#: (depth 3, 30 games).
@_register(("matryoshka", "gobblet"), "tops", scale=60.0, weights={**_TOPS, "hand": _HAND_WEIGHT})
def _gobblet_tops(game: Gobblet, w: Mapping[str, float]) -> Callable[[GobbletState], float]:
    """Lines by visible tops (1, 10, 100 for one, two, three of one side only), plus
    the figures in hand by size."""
    table = _line_table((0.0, w["one"], w["two"], w["three"]))
    hand = w["hand"]

    def evaluate(state: GobbletState) -> float:
        value = table[state.x_tops | state.o_tops << 9]
        x_hand, o_hand = state.hand(Player.X), state.hand(Player.O)
        hands = sum(size * (x_hand[size] - o_hand[size]) for size in x_hand)
        return _for_mover(state, value + hand * hands)

    return evaluate


@_register(("matryoshka", "gobblet"), "fill", scale=3.0)
def _gobblet_fill(game: Gobblet) -> Callable[[GobbletState], float]:
    """A cell is open to a side when it is empty, its own, or topped by an opponent's
    figure smaller than the largest one the side has in hand; count each side's lines
    of open cells."""

    def evaluate(state: GobbletState) -> float:
        open_to = []
        for player, theirs in ((Player.X, state.o_tops), (Player.O, state.x_tops)):
            largest = max((size for size, n in state.hand(player).items() if n), default=0)
            cells = _BOARD
            for cell in bits(theirs):
                top = state.top(cell)
                if top is not None and top[1] >= largest:
                    cells &= ~(1 << cell)
            open_to.append(cells)
        value = sum(1 for m in _LINES3 if open_to[0] & m == m) - sum(1 for m in _LINES3 if open_to[1] & m == m)
        return _for_mover(state, value)

    return evaluate


# -- every name -----------------------------------------------------------------------


def all_evaluator_names() -> list[str]:
    """Every evaluator name of any game (with ``@hand`` for those with weights): the
    names ``mcts:evaluator=NAME`` accepts besides its playouts."""
    names = {name for entries in _REGISTRY.values() for name in entries}
    names |= {
        f"{name}{HAND_SEPARATOR}{HAND}" for entries in _REGISTRY.values() for name, e in entries.items() if e.weights
    }
    return sorted(names)
