"""The solved facts of classic tic-tac-toe, found by exhaustive enumeration."""

from __future__ import annotations

from functools import cache

import pytest

from noughts import Player, parse_spec
from noughts.games.mnk.rules import MnkState

# The eight symmetries of the square, as cell permutations in reading order.
_ROTATE = (6, 3, 0, 7, 4, 1, 8, 5, 2)
_MIRROR = (2, 1, 0, 5, 4, 3, 8, 7, 6)


def _symmetries() -> list[tuple[int, ...]]:
    perms = [tuple(range(9))]
    for _ in range(3):
        perms.append(tuple(perms[-1][i] for i in _ROTATE))
    return perms + [tuple(p[i] for i in _MIRROR) for p in perms]


def _canonical(state: MnkState) -> tuple[int, int]:
    def image(mask: int, perm: tuple[int, ...]) -> int:
        return sum(1 << i for i in range(9) if mask >> perm[i] & 1)

    return min((image(state.x, p), image(state.o, p)) for p in _symmetries())


def test_reachable_positions_and_symmetry_classes() -> None:
    start = parse_spec("classic").initial()
    seen = {start}
    frontier = [start]
    while frontier:
        frontier = [child for s in frontier for child in (s.play(m) for m in s.legal_moves()) if child not in seen]
        seen.update(frontier)
        frontier = list(set(frontier))
    assert len(seen) == 5478
    assert len({_canonical(s) for s in seen}) == 765


@pytest.mark.slow
def test_complete_games_by_result() -> None:
    results = {"x-wins": 0, "o-wins": 0, "draw": 0}

    def walk(state: MnkState) -> None:
        if state.is_over:
            results[state.status] += 1
            return
        for move in state.legal_moves():
            walk(state.play(move))

    walk(parse_spec("classic").initial())
    assert results == {"x-wins": 131_184, "o-wins": 77_904, "draw": 46_080}
    assert sum(results.values()) == 255_168


def test_the_empty_board_is_a_draw() -> None:
    @cache
    def value(state: MnkState) -> int:
        """+1 if the player to move wins with best play, 0 draw, -1 loss."""
        if state.outcome is not None:
            return 0 if state.outcome.winner is None else (1 if state.outcome.winner is state.turn else -1)
        return max(-value(state.play(m)) for m in state.legal_moves())

    start = parse_spec("classic").initial()
    assert value(start) == 0
    # and the famous trap: after 1. corner, 2. edge, x wins
    assert value(start.play_text("1").play_text("2")) == 1
    assert start.turn is Player.X
