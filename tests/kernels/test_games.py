"""The kernels against the readable engine: identical legal moves, positions and
outcomes along thousands of random positions, and identical perft."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from noughts import State, parse_spec
from noughts.core import InvalidOptionError
from noughts.kernels import supports
from noughts.kernels.games import MAX_MOVES, encode, game_code, legal, perft, play, playout, result_text
from noughts.kernels.rng import new_rng

from support import playout as random_game

SPECS = ["ultimate", "ultimate:tiebreak=boards", "nine-board", "qubic"]
DATA = Path(__file__).parent.parent / "data" / "perft"
#: Positions compared per spec, from as many seeded random games as that takes.
POSITIONS = 2500


def kernel_moves(state: State[Any]) -> list[int]:
    out = np.empty(MAX_MOVES, dtype=np.int64)
    n = legal(game_code(state.game), encode(state), out)
    return [int(m) for m in out[:n]]


@pytest.mark.parametrize("spec", SPECS)
def test_same_moves_positions_and_outcomes_along_random_games(spec: str) -> None:
    positions = seed = 0
    while positions < POSITIONS:
        seed += 1
        for state, move in random_game(spec, seed):
            assert kernel_moves(state) == state.legal_moves()
            if move is None:
                assert result_text(encode(state)) == state.status
                continue
            after = encode(state)
            play(game_code(state.game), after, move)
            # The whole array: marks, decided boards, board to play in, turn, result.
            assert after.tolist() == encode(state.play(move)).tolist()
            positions += 1


def _pinned() -> list[Any]:
    cases = []
    for path in sorted(DATA.glob("*.json")):
        for entry in json.loads(path.read_text()):
            if supports(parse_spec(entry["spec"])):
                for depth, count in enumerate(entry["counts"], 1):
                    cases.append(pytest.param(entry["spec"], entry["position"], depth, count))
    return cases


@pytest.mark.parametrize(("spec", "position", "depth", "count"), _pinned())
def test_perft_matches_the_pinned_tables(spec: str, position: str | None, depth: int, count: int) -> None:
    game = parse_spec(spec)
    state = game.initial() if position is None else game.parse_position(position)
    assert perft(state, depth) == count


def test_perft_7_of_ultimate() -> None:
    # Beyond the pinned table (which the readable engine needs minutes for): the number
    # every ultimate engine agrees on.
    assert perft(parse_spec("ultimate").initial(), 7) == 33_782_544


def test_perft_matches_the_readable_engine_from_random_positions() -> None:
    from noughts.perft import perft as readable_perft

    for spec in SPECS:
        for seed in range(3):
            steps = random_game(spec, 100 + seed)
            state = steps[len(steps) // 2][0]
            assert perft(state, 3) == readable_perft(state, 3)


@pytest.mark.parametrize("spec", SPECS)
def test_random_playouts_end_in_a_finished_game_reachable_by_legal_moves(spec: str) -> None:
    state = parse_spec(spec).initial()
    code = game_code(state.game)
    rng = new_rng(7)
    results = set()
    for _ in range(200):
        st = encode(state)
        result = playout(code, st, rng)
        assert result == st[23] != 0
        results.add(result_text(st))
    # Over 200 random games every result turns up in these games.
    assert results >= {"x-wins", "o-wins"}


def test_playouts_are_replayable_from_the_seed() -> None:
    state = parse_spec("ultimate").initial()
    code = game_code(state.game)
    first, second = new_rng(5), new_rng(5)
    for _ in range(20):
        a, b = encode(state), encode(state)
        playout(code, a, first)
        playout(code, b, second)
        assert a.tolist() == b.tolist()


@pytest.mark.parametrize("spec", ["classic", "ultimate:forget=true", "qubic:n=3", "gobblet"])
def test_other_games_are_refused_with_the_supported_ones_named(spec: str) -> None:
    with pytest.raises(InvalidOptionError, match="ultimate and nine-board"):
        game_code(parse_spec(spec))
