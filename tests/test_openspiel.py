"""Our rules against OpenSpiel's, move by move: hundreds of seeded random games, the
legal moves and the outcome compared at every ply.

OpenSpiel names a placement "x(row,col)"; in ultimate it splits a free move into
"Choose local board b" followed by the cell, and names cells "Local board b: x(r,c)".
"""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

from noughts import parse_spec
from noughts.core import State

pyspiel = pytest.importorskip("pyspiel", reason="open-spiel is a test dependency: pip install -e '.[dev]'")

_CELL = re.compile(r"(?:Local board (\d): )?[xo]\((\d+),(\d+)\)")


def _status(spiel_state: Any) -> str:
    if not spiel_state.is_terminal():
        return "ongoing"
    x_return = spiel_state.returns()[0]
    return "x-wins" if x_return > 0 else "o-wins" if x_return < 0 else "draw"


def _spiel_placements(spiel_state: Any, width: int) -> dict[int, list[int]]:
    """Our move index -> the OpenSpiel actions that make it, for the player to move."""
    player = spiel_state.current_player()
    found: dict[int, list[int]] = {}
    for action in spiel_state.legal_actions():
        text = spiel_state.action_to_string(player, action)
        if text.startswith("Choose local board"):
            child = spiel_state.clone()
            child.apply_action(action)
            for move, path in _spiel_placements(child, width).items():
                found[move] = [action, *path]
            continue
        match = _CELL.fullmatch(text)
        assert match, f"unexpected OpenSpiel action {text!r}"
        board, row, col = match.groups()
        found[(int(board) * 9 if board else 0) + int(row) * width + int(col)] = [action]
    return found


def _compare_games(spec: str, spiel_name: str, params: dict[str, int], width: int, games: int, seed: int) -> int:
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
            placements = _spiel_placements(theirs, width)
            assert sorted(placements) == sorted(ours.legal_moves()), ours.to_text()
            move = rng.choice(ours.legal_moves())
            ours = ours.play(move)
            for action in placements[move]:
                theirs.apply_action(action)
            plies += 1
    return plies


def test_classic_matches_openspiel() -> None:
    assert _compare_games("classic", "tic_tac_toe", {}, 3, games=400, seed=1) > 400 * 5


@pytest.mark.parametrize(("m", "n", "k"), [(4, 4, 3), (5, 3, 3), (3, 5, 3), (5, 5, 4), (6, 4, 4)])
def test_mnk_matches_openspiel(m: int, n: int, k: int) -> None:
    spec = parse_spec(f"mnk:m={m}:n={n}:k={k}").spec
    assert _compare_games(spec, "mnk", {"m": m, "n": n, "k": k}, m, games=100, seed=m * 100 + n * 10 + k)


def test_ultimate_matches_openspiel() -> None:
    assert _compare_games("ultimate", "ultimate_tic_tac_toe", {}, 3, games=300, seed=3) > 300 * 17
