"""The kernels against the readable engine: identical legal moves, positions and
outcomes along thousands of random positions, and identical perft; what random and
guided playouts do."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from noughts import State, parse_position, parse_spec
from noughts.core import InvalidOptionError
from noughts.kernels import supports
from noughts.kernels.games import (
    MAX_MOVES,
    encode,
    game_code,
    guided_playout,
    legal,
    perft,
    play,
    playout,
    result_text,
    winning_move,
)
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


@pytest.mark.parametrize("spec", ["ultimate", "nine-board", "qubic"])
def test_a_winning_move_is_found_when_there_is_one(spec: str) -> None:
    found = 0
    for seed in range(60):
        for state, _ in random_game(spec, seed)[:-1]:
            wins = [m for m in state.legal_moves() if (after := state.play(m)).outcome and after.outcome.winner]
            move = winning_move(game_code(state.game), encode(state))
            assert (move >= 0) == bool(wins), state.to_text()
            if move >= 0:
                assert move in wins
                found += 1
    assert found >= 30


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


@pytest.mark.parametrize("run", [playout, guided_playout])
@pytest.mark.parametrize("spec", SPECS)
def test_playouts_end_in_a_finished_game_reachable_by_legal_moves(spec: str, run: Any) -> None:
    state = parse_spec(spec).initial()
    code = game_code(state.game)
    rng = new_rng(7)
    results = set()
    for _ in range(200):
        st = encode(state)
        result = run(code, st, rng)
        assert result == st[23] != 0
        marks = [bin(int(v) % (1 << 64)).count("1") for v in st[:18]]
        x, o = (sum(marks[:9]), sum(marks[9:])) if code != 3 else (marks[0], marks[1])
        assert x - o == (1 if st[22] == 1 else 0)  # the moves alternated, x first
        results.add(result_text(st))
    # Over 200 random games every result turns up in these games.
    assert results >= {"x-wins", "o-wins"}


# x to move (in board 3, cell 3 wins it and the game); o to move (only 33 blocks: its
# other moves send x to a decided board, from where x may play anywhere, and win).
ULTIMATE_WIN = "xxx....../xxx....../xx......./oo......./oo......./oo......./o.o....../........./......... x 3"
ULTIMATE_BLOCK = "xxx....../xxx....../xx...oo../ooo....../ooo....../........./o......../xoxxoxoxo/xoxxoxoxo o 3"
# Nine-board, where any line wins: x to move in board 5, 53 wins. o to move in board 1:
# 12 would send x to board 2, where 23 wins; 11 sends it back to board 1, harmless.
NINE_BOARD_WIN = "o......../........./........./........./xx......./........./........./........./....o.... x 5"
NINE_BOARD_BLOCK = "..oxxooox/xx......./........./........./........./........./........./........./......... o 1"


def ending_after(spec: str, position: str, run: Any, plies: int, games: int = 300) -> int:
    """In how many of `games` playouts from `position` x wins after exactly `plies`."""
    state = parse_position(spec, position)
    rng = new_rng(3)
    count = 0
    for _ in range(games):
        st = encode(state)
        before = sum(bin(int(v)).count("1") for v in st[:18])
        result = run(game_code(state.game), st, rng)
        count += result == 1 and sum(bin(int(v)).count("1") for v in st[:18]) == before + plies
    return count


@pytest.mark.parametrize(("spec", "position"), [("ultimate", ULTIMATE_WIN), ("nine-board", NINE_BOARD_WIN)])
def test_guided_playouts_take_a_win_of_the_game(spec: str, position: str) -> None:
    assert ending_after(spec, position, guided_playout, 1) == 300
    assert ending_after(spec, position, playout, 1) < 300


@pytest.mark.parametrize(("spec", "position"), [("ultimate", ULTIMATE_BLOCK), ("nine-board", NINE_BOARD_BLOCK)])
def test_guided_playouts_do_not_hand_the_opponent_a_win(spec: str, position: str) -> None:
    assert ending_after(spec, position, guided_playout, 2) == 0
    assert ending_after(spec, position, playout, 2) > 0


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
