"""An arena's scores and pairings, with no database (lichess's arena rules).

Points: a win 2, a draw 1, a loss 0; after two wins in a row a player is "on fire": a
win is worth 4 and a draw 2 until a game that is not a win ends the streak. An aborted
game scores nothing and breaks no streak.

Pairing: the players waiting (in the arena and not playing) are taken in order of
score, then rating; each is paired with the next one down who was not their last
opponent (no immediate rematch), unless the two are the only players in the arena.

>>> games = [ArenaGame(1, 2, "x", 1500, 1500), ArenaGame(1, 3, "x", 1500, 1500), ArenaGame(1, 2, "x", 1500, 1500)]
>>> [(s.id, s.score, s.sheet) for s in standings({1: 1500, 2: 1500, 3: 1500}, games)]
[(1, 8, '2 2 4'), (2, 0, '0 0'), (3, 0, '0')]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

__all__ = ["ArenaGame", "Standing", "Waiting", "pair_waiting", "standings"]

#: A performance is the opponents' mean rating, plus this for a win, minus it for a loss.
PERFORMANCE_SPREAD = 500


@dataclass(frozen=True)
class ArenaGame:
    """A finished game of the arena, in the order the games ended: who won ("x", "o",
    "draw"; None: aborted, no result) and both players' ratings when paired."""

    x: int
    o: int
    winner: str | None
    x_rating: float
    o_rating: float


@dataclass(frozen=True)
class Standing:
    rank: int
    id: int
    score: int
    games: int
    wins: int
    #: Two wins in a row just now: the next win is worth double.
    on_fire: bool
    #: Mean opponent rating +500 a win, -500 a loss (None before the first game).
    performance: int | None
    #: Each game's points, in order ("2 4 0"), as lichess shows them.
    sheet: str


def standings(ratings: dict[int, float], games: Sequence[ArenaGame]) -> list[Standing]:
    """The table, by score, then performance, then rating, then id."""
    score = dict.fromkeys(ratings, 0)
    streak = dict.fromkeys(ratings, 0)
    wins = dict.fromkeys(ratings, 0)
    sheets: dict[int, list[str]] = {p: [] for p in ratings}
    perf: dict[int, list[float]] = {p: [] for p in ratings}
    for g in games:
        if g.winner is None:
            continue
        for me, side, theirs in ((g.x, "x", g.o_rating), (g.o, "o", g.x_rating)):
            if me not in score:
                continue
            fire = streak[me] >= 2
            if g.winner == side:
                points, streak[me], won = (4 if fire else 2), streak[me] + 1, 1
            elif g.winner == "draw":
                points, streak[me], won = (2 if fire else 1), 0, 0
            else:
                points, streak[me], won = 0, 0, -1
            score[me] += points
            wins[me] += won == 1
            sheets[me].append(str(points))
            perf[me].append(theirs + PERFORMANCE_SPREAD * won)

    def performance(p: int) -> int | None:
        return round(sum(perf[p]) / len(perf[p])) if perf[p] else None

    order = sorted(ratings, key=lambda p: (-score[p], -(performance(p) or 0), -ratings[p], p))
    return [
        Standing(i + 1, p, score[p], len(sheets[p]), wins[p], streak[p] >= 2, performance(p), " ".join(sheets[p]))
        for i, p in enumerate(order)
    ]


@dataclass(frozen=True)
class Waiting:
    """A player waiting for a game: score, rating, their last opponent, and how many
    more games they played as x than as o in the arena."""

    id: int
    score: int
    rating: float
    last_opponent: int | None = None
    balance: int = 0


def pair_waiting(waiting: Sequence[Waiting], players: int) -> list[tuple[int, int]]:
    """Games (x, o) for the waiting players, of an arena of `players` (not withdrawn);
    who is left waits for the next player to finish a game."""
    order = sorted(waiting, key=lambda w: (-w.score, -w.rating, w.id))
    games: list[tuple[int, int]] = []
    taken: set[int] = set()
    for i, me in enumerate(order):
        if me.id in taken:
            continue
        for them in order[i + 1 :]:
            if them.id in taken:
                continue
            if players > 2 and (me.last_opponent == them.id or them.last_opponent == me.id):
                continue
            taken |= {me.id, them.id}
            # x to whoever played it less; even, to the one ranked higher.
            games.append((me.id, them.id) if me.balance <= them.balance else (them.id, me.id))
            break
    return games
