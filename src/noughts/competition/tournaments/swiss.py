"""Swiss pairings and standings, with no database: a round is a function of the
players' scores, opponents, colours and byes so far.

The rules (a Dutch-style simplification of FIDE's):

- Players are ranked by score, then rating, then id (lower first: who joined first).
- With an odd number of players, the bye (a point, no game) goes to the lowest-ranked
  player without a bye whose absence leaves a pairing of the rest; only when everyone
  has had one does a player get a second.
- Pairing goes down the score groups from the top. In a group (with the players who
  floated down from the group above in front) the top half S1 meets the bottom half S2
  in order (S1[0]-S2[0], S1[1]-S2[1]...); when that would repeat a game, S2 is permuted
  (the next permutation in order) until it does not; an odd player left over floats down
  to the next group. If a group cannot be paired that way the group above gives up
  another player. In the end (a rare knot of earlier games) any pairing of the whole
  field without a rematch is taken, nearest ranks first; and if even that search runs
  long, the one a maximum matching (Edmonds' blossom algorithm) finds.
- Nobody meets anybody twice: when no such pairing exists, `NoPairingError`.
- Colours are part of the pairing, as in FIDE's Dutch system: nobody plays one colour
  three times in a row, and nobody's colour difference (games as x minus games as o)
  goes beyond 2 either way. Two players who could only meet by breaking that are not
  paired together while any pairing that keeps it exists (only then, as FIDE allows
  for the last round's leaders, is it broken rather than the Swiss ended). Among a
  group's first orders of S2, those giving more players their colour due come first.
- Colour due: the one that evens the difference; with an even difference, the other
  colour than in the last game where the two players' colours differed (FIDE's rule);
  still equal (no history), the higher-ranked player gets x on the odd boards and o on
  the even ones.

>>> r = pair_round([Entrant(1, 1600), Entrant(2, 1500), Entrant(3, 1400), Entrant(4, 1300), Entrant(5, 1200)])
>>> r.pairs, r.bye
(((1, 3), (4, 2)), 5)
"""

from __future__ import annotations

import contextlib
import functools
import itertools
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field

from noughts.competition.tournaments.matching import maximum_matching

__all__ = [
    "BYE_POINTS",
    "Entrant",
    "NoPairingError",
    "Round",
    "Standing",
    "SwissGame",
    "entrants",
    "pair_round",
    "standings",
]

#: Points for a win, a draw, a loss and a bye.
WIN, DRAW, LOSS = 1.0, 0.5, 0.0
BYE_POINTS = 1.0
#: Steps (pairings looked at) each search may take before the next method takes over:
#: a knot of earlier games late in a long Swiss could otherwise take hours.
_STEPS = 50_000
#: Pairings of a group (without rematches) offered to the groups below before two more
#: of the group float down.
_PERMUTATIONS = 2000
#: The first orders of S2 that are sorted by how many players they give their colour
#: due (the others are taken in order): enough for a group's usual choices, few
#: enough that a group pairs at once.
_BY_COLOUR = 24
#: FIDE's absolute colour rules: one colour at most this many times in a row, and a
#: colour difference of at most this much either way.
MAX_IN_A_ROW = 2
MAX_DIFFERENCE = 2


class NoPairingError(Exception):
    """No pairing of the players exists without a rematch: the Swiss ends here."""


@dataclass(frozen=True)
class Entrant:
    """A player to pair: their score, whom they met, their colours ("x"/"o", in order)
    and how many byes they had."""

    id: int
    rating: float
    score: float = 0.0
    opponents: frozenset[int] = field(default_factory=frozenset)
    colours: str = ""
    byes: int = 0

    @functools.cached_property
    def balance(self) -> int:
        return self.colours.count("x") - self.colours.count("o")

    @functools.cached_property
    def _allowed(self) -> str:
        """The colours this player may play next under FIDE's absolute rules (asked for
        every pair of a round: worked out once)."""
        return "".join(c for c in "xo" if self._keeps_rules(c))

    def _keeps_rules(self, colour: str) -> bool:
        balance = self.balance + (1 if colour == "x" else -1)
        return abs(balance) <= MAX_DIFFERENCE and (self.colours + colour)[-MAX_IN_A_ROW - 1 :] != colour * (
            MAX_IN_A_ROW + 1
        )

    def may_play(self, colour: str) -> bool:
        """Whether playing `colour` keeps FIDE's absolute colour rules for this player."""
        return colour in self._allowed

    @functools.cached_property
    def due(self) -> str | None:
        """The colour that evens the difference; even, the other than last; None first."""
        if self.balance:
            return "x" if self.balance < 0 else "o"
        return {"x": "o", "o": "x"}.get(self.colours[-1:])


#: Whether two players may meet in the pairing being looked for.
Fits = Callable[[Entrant, Entrant], bool]


def _new_opponents(a: Entrant, b: Entrant) -> bool:
    return b.id not in a.opponents


def _fits_colours(a: Entrant, b: Entrant) -> bool:
    """No rematch, and one way of colouring the game keeps both players' colour rules."""
    return b.id not in a.opponents and (_colours_kept(a, b) or _colours_kept(b, a))


def _colour_clashes(pairs: Sequence[tuple[Entrant, Entrant]]) -> int:
    """How many games give one of their players the other colour than their due."""
    return sum(a.due is not None and a.due == b.due for a, b in pairs)


@dataclass(frozen=True)
class Round:
    """A round's games (x's id, o's id), board 1 first, and who has the bye."""

    pairs: tuple[tuple[int, int], ...]
    bye: int | None


def _rank_key(e: Entrant) -> tuple[float, float, int]:
    return (-e.score, -e.rating, e.id)


def pair_round(players: Sequence[Entrant]) -> Round:
    """The next round for `players` (those still in the tournament)."""
    ranked = sorted(players, key=_rank_key)
    if len(ranked) < 2:
        raise NoPairingError("a round needs two players at least")
    if len(ranked) % 2 == 0:
        for fits in (_fits_colours, _new_opponents):
            pairs = _pair_field(ranked, fits)
            if pairs is not None:
                return Round(_coloured(pairs, ranked), None)
        raise NoPairingError("every pairing of the players repeats a game")
    # The lowest-ranked first, those with fewer byes before the others; a bye to a
    # player with more byes only when nobody with fewer can have it, even by breaking
    # a colour rule.
    candidates = sorted(reversed(ranked), key=lambda e: e.byes)
    for _, same_byes in itertools.groupby(candidates, key=lambda e: e.byes):
        level = list(same_byes)
        for fits in (_fits_colours, _new_opponents):
            for candidate in level:
                pairs = _pair_field([e for e in ranked if e.id != candidate.id], fits)
                if pairs is not None:
                    return Round(_coloured(pairs, ranked), candidate.id)
    raise NoPairingError("every pairing of the players repeats a game")


def _pair_field(ranked: list[Entrant], fits: Fits) -> list[tuple[Entrant, Entrant]] | None:
    """The Dutch pairing of `ranked` where every game `fits`, else the nearest-ranks
    one, else any: None when none exists. Whether one exists is settled first by a
    maximum matching, so the searches (each on a budget of steps) never hunt for what
    is not there."""
    n = len(ranked)
    adjacent = [{j for j in range(n) if j != i and fits(ranked[i], ranked[j])} for i in range(n)]
    partner = maximum_matching(n, adjacent)
    if -1 in partner:
        return None
    groups = [list(g) for _, g in itertools.groupby(ranked, key=lambda e: e.score)]
    with contextlib.suppress(_OutOfStepsError):
        dutch = _pair_groups(groups, [], fits, _Budget())
        if dutch is not None:
            return dutch
    with contextlib.suppress(_OutOfStepsError):
        nearest = _any_pairing(ranked, set(), fits, _Budget())
        if nearest is not None:
            return nearest
    return [(ranked[i], ranked[j]) for i, j in enumerate(partner) if i < j]


class _OutOfStepsError(Exception):
    """A search went on too long (a knot of earlier games): the next method takes over."""


class _Budget:
    def __init__(self, steps: int = _STEPS) -> None:
        self.left = steps

    def step(self) -> None:
        self.left -= 1
        if self.left < 0:
            raise _OutOfStepsError


def _pair_groups(
    groups: list[list[Entrant]], floaters: list[Entrant], fits: Fits, budget: _Budget
) -> list[tuple[Entrant, Entrant]] | None:
    """The Dutch pairing of the score groups, top down, with `floaters` from above."""
    if not groups:
        return [] if not floaters else None
    group, rest = floaters + groups[0], groups[1:]
    for pairs, left in _group_pairings(group, not rest, fits, budget):
        below = _pair_groups(rest, left, fits, budget)
        if below is not None:
            return pairs + below
    return None


def _group_pairings(
    group: list[Entrant], last: bool, fits: Fits, budget: _Budget
) -> Iterator[tuple[list[tuple[Entrant, Entrant]], list[Entrant]]]:
    """A group's pairings in order of preference, each with the players floating down:
    as many games as the group allows, then one game fewer (two more float down)...
    Of the first `_BY_COLOUR` orders of S2, those with fewer colour clashes go first."""
    most = len(group) // 2
    for count in range(most, -1, -1):
        if last and 2 * count != len(group):
            return
        s1, s2 = group[:count], group[count:]
        orders = itertools.islice(_opponents(s1, s2, fits, budget), _PERMUTATIONS)
        first = sorted(
            itertools.islice(orders, _BY_COLOUR), key=lambda c: _colour_clashes(list(zip(s1, c, strict=True)))
        )
        for chosen in itertools.chain(first, orders):
            used = {e.id for e in chosen}
            yield list(zip(s1, chosen, strict=True)), [e for e in s2 if e.id not in used]


def _opponents(s1: list[Entrant], s2: list[Entrant], fits: Fits, budget: _Budget) -> Iterator[tuple[Entrant, ...]]:
    """S2's players for S1's, one each, in the order of S2's permutations (S2 in order
    first) but skipping every one that repeats a game: a rematch on board 1 rules out
    all the orders that keep it, without going through them one by one."""
    chosen: list[Entrant] = []
    used = [False] * len(s2)

    def extend(board: int) -> Iterator[tuple[Entrant, ...]]:
        if board == len(s1):
            yield tuple(chosen)
            return
        for j, them in enumerate(s2):
            if used[j]:
                continue
            budget.step()
            if not fits(s1[board], them):
                continue
            used[j] = True
            chosen.append(them)
            yield from extend(board + 1)
            chosen.pop()
            used[j] = False

    return extend(0)


def _any_pairing(
    ranked: list[Entrant], failed: set[frozenset[int]], fits: Fits, budget: _Budget
) -> list[tuple[Entrant, Entrant]] | None:
    """Any pairing of everybody without a rematch, the top player taking the nearest
    rank first (remembering which sets of players cannot be paired)."""
    if not ranked:
        return []
    key = frozenset(e.id for e in ranked)
    if key in failed:
        return None
    top, others = ranked[0], ranked[1:]
    for i, other in enumerate(others):
        budget.step()
        if not fits(top, other):
            continue
        rest = _any_pairing(others[:i] + others[i + 1 :], failed, fits, budget)
        if rest is not None:
            return [(top, other), *rest]
    failed.add(key)
    return None


def _coloured(pairs: list[tuple[Entrant, Entrant]], ranked: list[Entrant]) -> tuple[tuple[int, int], ...]:
    """The games with colours, board 1 (the highest-ranked player's) first."""
    rank = {e.id: i for i, e in enumerate(ranked)}
    boards = sorted(((a, b) if rank[a.id] < rank[b.id] else (b, a) for a, b in pairs), key=lambda p: rank[p[0].id])
    games = []
    for board, (high, low) in enumerate(boards):
        x, o = (high, low) if _x_to_higher(high, low, board) else (low, high)
        if not _colours_kept(x, o) and _colours_kept(o, x):
            # The colour rules come before the colour due (the pairing kept them if it could).
            x, o = o, x
        games.append((x.id, o.id))
    return tuple(games)


def _colours_kept(x: Entrant, o: Entrant) -> bool:
    """Whether `x` playing x and `o` playing o keeps both players' colour rules."""
    return x.may_play("x") and o.may_play("o")


def _x_to_higher(high: Entrant, low: Entrant, board: int) -> bool:
    """Whether the higher-ranked player of the game on `board` (0 first) is due x: the
    lower difference; equal, the one who had o the last time their colours differed."""
    if high.balance != low.balance:
        return high.balance < low.balance
    for mine, theirs in zip(reversed(high.colours), reversed(low.colours), strict=False):
        if mine != theirs:
            return mine == "o"
    return board % 2 == 0


@dataclass(frozen=True)
class SwissGame:
    """A game of the tournament, or a bye (`o` None, `x_points` `BYE_POINTS`). The
    points are each side's score from it (1, 0.5 or 0; a game aborted for one player's
    absence is a win for the other, one aborted otherwise gives both 0), None while it
    is played."""

    round: int
    x: int
    o: int | None
    x_points: float | None
    o_points: float | None = None


def entrants(ratings: dict[int, float], games: Sequence[SwissGame]) -> list[Entrant]:
    """The players of `ratings` as `pair_round` takes them, from the games so far."""
    score = dict.fromkeys(ratings, 0.0)
    opponents: dict[int, set[int]] = {p: set() for p in ratings}
    colours = dict.fromkeys(ratings, "")
    byes = dict.fromkeys(ratings, 0)
    for g in sorted(games, key=lambda g: g.round):
        points = g.x_points or 0.0
        if g.o is None:
            if g.x in score:
                score[g.x] += points
                byes[g.x] += 1
            continue
        for me, them, mine, colour in ((g.x, g.o, points, "x"), (g.o, g.x, g.o_points or 0.0, "o")):
            if me in score:
                opponents[me].add(them)
                colours[me] += colour
                if g.x_points is not None:
                    score[me] += mine
    return [Entrant(p, ratings[p], score[p], frozenset(opponents[p]), colours[p], byes[p]) for p in ratings]


@dataclass(frozen=True)
class Standing:
    rank: int
    id: int
    score: float
    buchholz: float
    sonneborn_berger: float
    games: int


def standings(ratings: dict[int, float], games: Sequence[SwissGame]) -> list[Standing]:
    """The table: score, then Buchholz (the sum of the opponents' scores), then
    Sonneborn-Berger (the scores of the opponents beaten, and half those drawn), then
    rating. Games still being played count for nobody yet."""
    score = {e.id: e.score for e in entrants(ratings, games)}
    buchholz = dict.fromkeys(ratings, 0.0)
    berger = dict.fromkeys(ratings, 0.0)
    played = dict.fromkeys(ratings, 0)
    for g in games:
        if g.o is None or g.x_points is None:
            continue
        for me, them, mine in ((g.x, g.o, g.x_points), (g.o, g.x, g.o_points or 0.0)):
            if me in score:
                played[me] += 1
                buchholz[me] += score.get(them, 0.0)
                berger[me] += mine * score.get(them, 0.0)
    order = sorted(ratings, key=lambda p: (-score[p], -buchholz[p], -berger[p], -ratings[p], p))
    return [Standing(i + 1, p, score[p], buchholz[p], berger[p], played[p]) for i, p in enumerate(order)]
