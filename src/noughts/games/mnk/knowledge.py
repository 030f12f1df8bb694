"""The m,n,k-game's knowledge for the searches (`noughts.games.knowledge`): the centre
first, the cells near the marks, the fours, and the threat-space search of
`noughts.games.mnk.threats`."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, cast

from noughts.core import Game, Player, State
from noughts.games.knowledge import SearchKnowledge, ThreatWin
from noughts.games.mnk import threats as threat_search
from noughts.games.mnk.rules import Mnk, MnkState

__all__ = ["MnkKnowledge"]


class MnkKnowledge(SearchKnowledge):
    """The m,n,k-game's: the centre first, the cells near the marks, fours, and the
    threat-space search of `noughts.games.mnk.threats` (boards without Forget mode)."""

    def tie_order(self, game: Game[Any, Any]) -> Callable[[Any], float] | None:
        assert isinstance(game, Mnk)
        return _from_centre(game).__getitem__

    def near(self, state: State[Any], moves: list[Any], distance: int) -> list[Any]:
        assert isinstance(state, MnkState)
        around = _around(state.game, state.x | state.o, distance)
        kept = [m for m in moves if around >> m & 1]
        return kept or moves

    def immediate(self, game: Game[Any, Any]) -> Callable[[State[Any]], tuple[int, int]] | None:
        if not threat_search.applies(game):
            return None
        fours = threat_search.four_cells(game)

        def wins_now(state: State[Any]) -> tuple[int, int]:
            marks = cast(MnkState, state)  # in the search's hottest loop: no check
            xs, os = fours(marks.x, marks.o)
            return (xs, os) if state.turn is Player.X else (os, xs)

        return wins_now

    def threats(self, game: Game[Any, Any]) -> bool:
        return threat_search.applies(game)

    def threat_win(
        self, state: State[Any], attacker: Player, threes: bool, nodes: int | None, deadline: float | None
    ) -> ThreatWin | None:
        assert isinstance(state, MnkState)
        mine, theirs = _sides(state, attacker)
        search = threat_search.vct if threes else threat_search.vcf
        return search(state.game, mine, theirs, nodes, deadline)

    def replay(self, state: State[Any], attacker: Player, win: ThreatWin) -> ThreatWin | None:
        assert isinstance(state, MnkState)
        if not isinstance(win, threat_search.ThreatWin):
            return None
        mine, theirs = _sides(state, attacker)
        return threat_search.replay(state.game, mine, theirs, win.attacker_moves)

    def wins_with(self, state: State[Any], move: Any, nodes: int) -> int | None:
        assert isinstance(state, MnkState)
        mine, theirs = _sides(state, state.turn)
        # Its defender replies are only those that could spoil the attack.
        return threat_search.wins_with(state.game, mine, theirs, move, nodes)


def _sides(state: MnkState, attacker: Player) -> tuple[int, int]:
    return (state.x, state.o) if attacker is Player.X else (state.o, state.x)


def _around(game: Mnk, marks: int, distance: int) -> int:
    """The cells within `distance` of a mark (a square around each), marks included."""
    right, left, full, m = _edges(game)
    for _ in range(distance):
        marks |= ((marks << 1) & right) | ((marks >> 1) & left)
        marks |= ((marks << m) | (marks >> m)) & full
    return marks


@functools.cache
def _from_centre(game: Mnk) -> tuple[int, ...]:
    """Every cell's squared distance from the board's centre, times 4 (whole numbers)."""
    return tuple(
        (2 * (c // game.m) - game.n + 1) ** 2 + (2 * (c % game.m) - game.m + 1) ** 2 for c in range(game.cells)
    )


@functools.cache
def _edges(game: Mnk) -> tuple[int, int, int, int]:
    """Masks that keep a shift by one column from wrapping round to the next row: the
    cells a step right (or left) may land on, the whole board, and the row width."""
    m = game.m
    first_column = sum(1 << (row * m) for row in range(game.n))
    return game.full & ~first_column, game.full & ~(first_column << (m - 1)), game.full, m
