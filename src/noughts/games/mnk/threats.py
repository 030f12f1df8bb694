"""Threat-space search on m,n,k boards: forced wins by continuous fours (a "VCF",
`vcf`) and by fours and threes (a "VCT", `vct`).

A *four* is a line of k cells holding k-1 marks of one player and one empty cell: its
owner wins there next move. The attacker plays only moves that make a four; the
defender's only move that does not lose at once is to fill that cell; and so on, until
the attacker makes two fours at once (one reply cannot fill both cells) or completes a
line. The defender's own fours are respected: when one stands, the attacker must fill
it, and that block must itself make a four to keep the initiative; with two standing,
the attack is over. Because every attacker move is checked to leave the defender no
immediate win and a single non-losing reply, a sequence found here is a real forced
win: Gomoku engines call this threat-space search (Allis 1994). Searching only the
forcing moves keeps the tree narrow, so wins twenty plies deep are found on 15x15,
far beyond the horizon of the alpha-beta search and its lines evaluation.

`vct` also lets the attacker make threes: moves that make no four but after which it
would win by fours if the defender passed. The defender then has a choice, and every
reply that could matter is searched (see `vct` for why the others need not be).

Qubic has a compiled version of the same idea (`noughts.kernels.threats`); this one is
pure Python over the game's own line masks, for boards of any size (not Forget mode,
where marks vanish and a four may not stay one).

>>> from noughts import parse_position
>>> state = parse_position("mnk:m=7:n=7:k=4", "..xxox./xooo..o/...x.../......./......./......./....... x")
>>> win = forced_win(state)
>>> [state.move_text(m) for m in win.line], [state.move_text(m) for m in win.finish], win.plies
(['e2', 'c4', 'f3', 'g4', 'e3'], ['c3', 'g3'], 7)
"""

from __future__ import annotations

import functools
import time
from collections.abc import Callable
from dataclasses import dataclass

from noughts.core import Player
from noughts.games.geometry import GROUP_MEMO, bits, line_groups
from noughts.games.mnk.rules import Mnk, MnkState

__all__ = [
    "DEFAULT_NODES",
    "MAX_THREATS",
    "MAX_THREES",
    "ThreatWin",
    "TreeWin",
    "applies",
    "forced_win",
    "four_cells",
    "replay",
    "vcf",
    "vct",
    "wins_with",
]

#: How many fours deep a search goes at most (each one costs the attacker a mark).
MAX_THREATS = 40
#: How many moves that make threes (not fours) in a row `vct` tries at most.
MAX_THREES = 4
#: The node cap of a search given no other limit, so that a call always ends.
DEFAULT_NODES = 50_000
#: How many nodes go by between two looks at the clock.
CLOCK_EVERY = 256


@dataclass(frozen=True)
class ThreatWin:
    """A forced win by continuous fours for the player to move.

    `line` alternates attacker and forced defender moves, starting and ending with the
    attacker's. After its last move the attacker either has completed a line (`finish`
    empty) or holds two or more fours, the cells in `finish`, of which the defender can
    fill only one. `plies` counts the moves to the end of the game: the defender's other
    replies along the way lose sooner."""

    line: tuple[int, ...]
    finish: tuple[int, ...]
    nodes: int

    @property
    def move(self) -> int:
        return self.line[0]

    @property
    def plies(self) -> int:
        return len(self.line) + (2 if self.finish else 0)

    @property
    def attacker_moves(self) -> tuple[int, ...]:
        return self.line[::2]


@dataclass(frozen=True)
class TreeWin:
    """A forced win by threats that include threes (`vct`): the first move, and the
    plies to the end against the defence that lasts longest within the search."""

    move: int
    plies: int
    nodes: int


def applies(game: object) -> bool:
    """Whether the search understands `game`: m,n,k boards without Forget mode, k >= 3."""
    return isinstance(game, Mnk) and not game.forget and game.k >= 3


class _AbortError(Exception):
    """The node or time budget ran out."""


#: A failure found without any depth cut: no depth would have found a win.
_EXHAUSTED = 1 << 30
#: In a raw line, the marker between the moves and the cells of a double four.
_FINISH = -1


def vcf(
    game: Mnk,
    attacker: int,
    defender: int,
    nodes: int | None = None,
    deadline: float | None = None,
    max_threats: int = MAX_THREATS,
) -> ThreatWin | None:
    """The shortest (in fours) forced win by continuous fours for `attacker` (the marks
    of the player to move) against `defender`, or None when there is none or the
    budget (`nodes`, `deadline` as a `time.perf_counter` value; neither: DEFAULT_NODES)
    ran out first."""
    search = _Search(game, nodes, deadline)
    alines, dlines = search.root(attacker, defender)
    try:
        for depth in range(max_threats + 1):
            search.cut = False
            raw = search.attack(attacker, defender, alines, dlines, depth)
            if raw is not None:
                if _FINISH in raw:
                    at = raw.index(_FINISH)
                    return ThreatWin(tuple(raw[:at]), tuple(raw[at + 1 :]), search.nodes)
                return ThreatWin(tuple(raw), (), search.nodes)
            if not search.cut:
                return None  # the whole forcing tree was searched
    except _AbortError:
        return None
    return None


def vct(
    game: Mnk,
    attacker: int,
    defender: int,
    nodes: int | None = None,
    deadline: float | None = None,
    max_threes: int = MAX_THREES,
) -> ThreatWin | TreeWin | None:
    """A forced win by fours and threes for `attacker`, to move (a "VCT"): as `vcf`,
    and when that finds nothing, also moves that make no four but after which the
    attacker would win by fours if the defender passed (a three, in Gomoku). Such a
    move leaves the defender a choice, so every reply is tried: one that leaves the
    pass's sequence of fours winning (`replay`) is answered by it, any other must be
    beaten by a further search, within `max_threes` such moves in a row.

    Only the replies that could spoil the sequence are searched: those on its cells,
    and those on a line free of attacker marks where the defender, with its forced
    blocks, could reach a four. Any other reply leaves every four of the sequence
    standing and gives the defender no four of its own, so the sequence still wins."""
    win = vcf(game, attacker, defender, nodes, deadline)
    if win is not None:
        return win
    search = _Search(game, nodes, deadline)
    try:
        for depth in range(1, max_threes + 1):
            found = search.tree(attacker, defender, depth)
            if found is not None:
                return TreeWin(found[0], found[1], search.nodes)
    except _AbortError:
        return None
    return None


def wins_with(
    game: Mnk,
    attacker: int,
    defender: int,
    move: int,
    nodes: int | None = None,
    max_threes: int = MAX_THREES,
) -> int | None:
    """The plies to the end of `attacker`'s forced win (to move) starting with `move`,
    against the defence that lasts longest, if `vct`'s searches prove one within the
    budget (`nodes`; DEFAULT_NODES if None), else None. Checking one move this way
    searches only the defender's replies that could spoil the attack (see `vct`), where
    valuing every reply after it would search each of them: how a solver's own way to
    a puzzle's win is judged at once."""
    k, through = game.k, game.through
    bit = 1 << move
    if (attacker | defender) & bit:
        return None
    if any((attacker | bit) & m == m for m in through[move]):
        return 1
    threats = 0
    for m in _fours(game.lines, k, defender, attacker):
        threats |= m & ~defender
    if threats and threats != bit:
        return None  # the defender wins next move (or has two fours, of which this fills one)
    search = _Search(game, nodes, None)
    try:
        for depth in range(1, max_threes + 1):
            found = search._try(attacker, defender, move, depth)
            if found is not None:
                return found
    except _AbortError:
        return None
    return None


def forced_win(state: MnkState, nodes: int | None = None, deadline: float | None = None) -> ThreatWin | None:
    """`vcf` for the player to move in `state`."""
    if state.is_over or not applies(state.game):
        return None
    mine, theirs = (state.x, state.o) if state.turn is Player.X else (state.o, state.x)
    return vcf(state.game, mine, theirs, nodes, deadline)


def replay(game: Mnk, attacker: int, defender: int, moves: tuple[int, ...]) -> ThreatWin | None:
    """The win of the attacker (to move) playing `moves` in turn, each answered by the
    forced block, if that still is a forced win by continuous fours here: every move
    must be on an empty cell, leave the defender no four and make a four (the last may
    instead complete a line or make two fours). None otherwise. Much cheaper than a
    search: the players try a known sequence on each candidate move first."""
    return _replay(game.k, game.through, attacker, defender, _fours(game.lines, game.k, defender, attacker), moves)


@functools.lru_cache(maxsize=16)
def four_cells(game: Mnk) -> Callable[[int, int], tuple[int, int]]:
    """For a position's marks (x, o): the empty cells that would complete a line of x,
    and those of o, as masks. Each row, column and diagonal is looked up by its
    contents (a move changes one per direction), so a call costs about as much as the
    lines evaluation."""
    k = game.k
    known_at: list[tuple[int, tuple[int, ...], dict[tuple[int, int], tuple[int, int]]]] = [
        (ray, members, {}) for ray, members in line_groups(game.lines)
    ]

    def over(members: tuple[int, ...], x: int, o: int) -> tuple[int, int]:
        xs = os = 0
        for mask in members:
            a, b = x & mask, o & mask
            if not b and a.bit_count() == k - 1:
                xs |= mask & ~a
            elif not a and b.bit_count() == k - 1:
                os |= mask & ~b
        return xs, os

    def cells(x: int, o: int) -> tuple[int, int]:
        xs = os = 0
        for ray, members, known in known_at:
            a = x & ray
            b = o & ray
            if (a | b).bit_count() < k - 1:
                continue
            key = (a, b)
            found = known.get(key)
            if found is None:
                if len(known) >= GROUP_MEMO:
                    known.clear()
                found = known[key] = over(members, a, b)
            xs |= found[0]
            os |= found[1]
        return xs, os

    return cells


def _fours(lines: tuple[int, ...], k: int, owner: int, other: int) -> list[int]:
    """The lines where `owner` has a four: k-1 marks and no mark of `other`."""
    return [m for m in lines if not m & other and (owner & m).bit_count() == k - 1]


def _replay(
    k: int, through: tuple[tuple[int, ...], ...], a: int, d: int, dlines: list[int], moves: tuple[int, ...]
) -> ThreatWin | None:
    """`replay`, given the defender's fours."""
    line: list[int] = []
    for c in moves:
        bit = 1 << c
        if (a | d) & bit:
            return None
        a2 = a | bit
        if any(a2 & m == m for m in through[c]):
            return ThreatWin((*line, c), (), 0)
        for m in dlines:
            if m & ~d & ~bit:
                return None  # the defender could win at once
        made = 0
        for m in through[c]:
            if not m & d and (a2 & m).bit_count() == k - 1:
                made |= m & ~a2
        if not made:
            return None
        if made & (made - 1):
            return ThreatWin((*line, c), tuple(bits(made)), 0)
        block = made.bit_length() - 1
        a, d = a2, d | made
        dlines = [m for m in dlines if not m & bit]
        dlines += [m for m in through[block] if not m & a and (d & m).bit_count() == k - 1]
        line += [c, block]
    return None


class _Search:
    """One depth-first search over the attacker's fours (and, for `vct`, threes), with
    tables of the positions already shown not to win within some depth (threats
    transpose freely)."""

    def __init__(self, game: Mnk, nodes: int | None, deadline: float | None) -> None:
        self.k = game.k
        self.lines = game.lines
        self.through = game.through
        self.full = game.full
        self.node_limit = DEFAULT_NODES if nodes is None and deadline is None else nodes
        self.deadline = deadline
        self.nodes = 0
        self.next_clock = CLOCK_EVERY
        #: (attacker, defender) -> the depth within which no win was found from there.
        self.failed: dict[tuple[int, int], int] = {}
        #: The same for `tree`, by number of threes.
        self.failed_tree: dict[tuple[int, int], int] = {}
        #: (attacker, defender) -> its raw win by fours (or None), from `fours`.
        self.by_fours: dict[tuple[int, int], list[int] | None] = {}
        self.cut = False  # some branch stopped at the depth limit

    def tick(self) -> None:
        self.nodes += 1
        if self.node_limit is not None and self.nodes > self.node_limit:
            raise _AbortError
        if self.nodes >= self.next_clock:
            self.next_clock = self.nodes + CLOCK_EVERY
            if self.deadline is not None and time.perf_counter() >= self.deadline:
                raise _AbortError

    def root(self, a: int, d: int) -> tuple[list[int], list[int]]:
        """The attacker's lines that could become fours (no defender mark, at least k-2
        attacker marks) and the defender's fours (no attacker mark, k-1 of its own)."""
        k = self.k
        alines = [m for m in self.lines if not m & d and (a & m).bit_count() >= k - 2]
        return alines, _fours(self.lines, k, d, a)

    def attack(self, a: int, d: int, alines: list[int], dlines: list[int], depth: int) -> list[int] | None:
        """The attacker, to move, wins within `depth` fours: the raw line (moves, and
        after _FINISH the cells of a closing double four), or None. `alines` and
        `dlines` are as `root` makes them for (a, d)."""
        self.tick()
        k = self.k
        for m in alines:
            if (a & m).bit_count() == k - 1:
                return [(m & ~a).bit_length() - 1]  # completes a line now
        if depth == 0:
            self.cut = True
            return None
        known = self.failed.get((a, d), 0)
        if known >= depth:
            self.cut |= known < _EXHAUSTED
            return None
        threats = 0
        for m in dlines:
            threats |= m & ~d
        if threats & (threats - 1):
            self.failed[(a, d)] = _EXHAUSTED
            return None  # two fours against the attacker: it can fill only one
        if threats:
            candidates = [threats.bit_length() - 1]
        else:
            # The cells making a four, those on most such lines first: double fours sooner.
            count: dict[int, int] = {}
            for m in alines:
                if (a & m).bit_count() == k - 2:
                    for c in bits(m & ~a):
                        count[c] = count.get(c, 0) + 1
            candidates = sorted(count, key=count.__getitem__, reverse=True)
        outer_cut, self.cut = self.cut, False
        through = self.through
        for c in candidates:
            bit = 1 << c
            a2 = a | bit
            made = 0
            grown = []
            for m in through[c]:
                if not m & d:
                    n = (a2 & m).bit_count()
                    if n == k - 1:
                        made |= m & ~a2
                    elif n == k - 2:
                        grown.append(m)  # had k-3 marks: may become a four later
            if not made:
                continue  # a forced block that makes no four: the attack stops
            if made & (made - 1):
                self.cut |= outer_cut
                return [c, _FINISH, *bits(made)]
            # One four: the defender fills it, which kills the attacker's lines through
            # that cell and may give the defender a four of its own.
            block = made.bit_length() - 1
            d2 = d | made
            alines2 = [m for m in alines if not m & made]
            alines2 += [m for m in grown if not m & made]
            dlines2 = [m for m in dlines if not m & bit]
            dlines2 += [m for m in through[block] if not m & a2 and (d2 & m).bit_count() == k - 1]
            rest = self.attack(a2, d2, alines2, dlines2, depth - 1)
            if rest is not None:
                self.cut |= outer_cut
                return [c, block, *rest]
        self.failed[(a, d)] = depth if self.cut else _EXHAUSTED
        self.cut |= outer_cut
        return None

    def fours(self, a: int, d: int) -> list[int] | None:
        """The attacker's raw win by fours from (a, d), any length, remembered."""
        key = (a, d)
        if key not in self.by_fours:
            alines, dlines = self.root(a, d)
            self.by_fours[key] = self.attack(a, d, alines, dlines, MAX_THREATS)
        return self.by_fours[key]

    def tree(self, a: int, d: int, depth: int) -> tuple[int, int] | None:
        """The attacker, to move, wins by fours, or by threes (`vct`) at most `depth` in
        a row: (first move, plies to the end against the longest defence), or None."""
        self.tick()
        raw = self.fours(a, d)
        if raw is not None:
            return raw[0], _raw_plies(raw)
        if depth == 0 or self.failed_tree.get((a, d), 0) >= depth:
            return None
        k, lines = self.k, self.lines
        threats = 0
        for m in _fours(lines, k, d, a):
            threats |= m & ~d
        if threats & (threats - 1):
            return None
        if threats:
            candidates = [threats.bit_length() - 1]
        else:
            # Cells that bring a line free of defender marks to k-2 or k-1 marks; those
            # on many such lines first.
            weight: dict[int, int] = {}
            for m in lines:
                if not m & d:
                    n = (a & m).bit_count()
                    if n >= k - 3 and n:
                        for c in bits(m & ~a):
                            weight[c] = weight.get(c, 0) + n
            candidates = sorted(weight, key=weight.__getitem__, reverse=True)
        for c in candidates:
            found = self._try(a, d, c, depth)
            if found is not None:
                return c, found
        self.failed_tree[(a, d)] = depth
        return None

    def _try(self, a: int, d: int, c: int, depth: int) -> int | None:
        """The plies to the win after the attacker's move `c`, if it forces one."""
        k, through = self.k, self.through
        a2 = a | 1 << c
        made = 0
        for m in through[c]:
            if not m & d and (a2 & m).bit_count() == k - 1:
                made |= m & ~a2
        if made & (made - 1):
            return 3
        if made:
            sub = self.tree(a2, d | made, depth - 1)
            return None if sub is None else sub[1] + 2
        raw = self.fours(a2, d)  # the defender passes
        if raw is None:
            return None
        plan = raw[: raw.index(_FINISH)] if _FINISH in raw else raw
        moves = tuple(plan[::2])
        blocks = 0
        for cell in plan[1::2]:
            blocks |= 1 << cell
        used = blocks | (sum(1 << cell for cell in raw if cell >= 0))
        reach = d | blocks
        for m in self.lines:
            if not m & a2 and (reach & m).bit_count() >= k - 2:
                used |= m
        worst = 2 + _raw_plies(raw)
        dlines = _fours(self.lines, k, d, a2)
        for r in bits(used & ~(a2 | d) & self.full):
            d2 = d | 1 << r
            replies = dlines + [m for m in through[r] if not m & a2 and (d2 & m).bit_count() == k - 1]
            again = _replay(k, through, a2, d2, replies, moves)
            if again is not None:
                worst = max(worst, 2 + again.plies)
                continue
            sub = self.tree(a2, d2, depth - 1)
            if sub is None:
                return None
            worst = max(worst, 2 + sub[1])
        return worst


def _raw_plies(raw: list[int]) -> int:
    """The plies of a raw line of `_Search.attack`."""
    if _FINISH in raw:
        return raw.index(_FINISH) + 2
    return len(raw)
