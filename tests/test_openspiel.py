"""Our rules against OpenSpiel's, move by move: hundreds of seeded random games, the
legal moves and the outcome compared at every ply.

OpenSpiel names a placement "x(row,col)"; in ultimate it splits a free move into
"Choose local board b" followed by the cell, and names cells "Local board b: x(r,c)".
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from noughts import parse_spec
from noughts.core import State

pyspiel = pytest.importorskip("pyspiel", reason="open-spiel comes with noughts[openspiel] (make's set-up installs it)")

# The arena's own mapping of OpenSpiel's actions to our moves (its OpenSpiel player uses it).
from noughts.arena.spiel_moves import placements as spiel_placements  # noqa: E402


def _status(spiel_state: Any) -> str:
    if not spiel_state.is_terminal():
        return "ongoing"
    x_return = spiel_state.returns()[0]
    return "x-wins" if x_return > 0 else "o-wins" if x_return < 0 else "draw"


def _compare_games(spec: str, spiel_name: str, params: dict[str, int], games: int, seed: int) -> int:
    rng = random.Random(seed)
    spiel_game = pyspiel.load_game(spiel_name, params)
    plies = 0
    for _ in range(games):
        ours: State[Any] = parse_spec(spec).initial()
        theirs = spiel_game.new_initial_state()
        while True:
            assert ours.status == _status(theirs), ours.to_text()
            if ours.is_over:
                break
            placements = spiel_placements(theirs)
            assert sorted(placements) == sorted(ours.legal_moves()), ours.to_text()
            move = rng.choice(ours.legal_moves())
            ours = ours.play(move)
            for action in placements[move]:
                theirs.apply_action(action)
            plies += 1
    return plies


def test_classic_matches_openspiel() -> None:
    assert _compare_games("classic", "tic_tac_toe", {}, games=400, seed=1) > 400 * 5


@pytest.mark.parametrize(("m", "n", "k"), [(4, 4, 3), (5, 3, 3), (3, 5, 3), (5, 5, 4), (6, 4, 4)])
def test_mnk_matches_openspiel(m: int, n: int, k: int) -> None:
    spec = parse_spec(f"mnk:m={m}:n={n}:k={k}").spec
    assert _compare_games(spec, "mnk", {"m": m, "n": n, "k": k}, games=100, seed=m * 100 + n * 10 + k)


def test_ultimate_matches_openspiel() -> None:
    assert _compare_games("ultimate", "ultimate_tic_tac_toe", {}, games=300, seed=3) > 300 * 17
