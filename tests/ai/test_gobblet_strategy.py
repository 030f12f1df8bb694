"""gobblet's shipped winning strategy for x (noughts.ai.gobblet_strategy), proved by the
rules, and `max` playing it as x on a new installation (an empty cache folder: no table).

The quick tests check the strategy along sampled games of o, every o reply at each
position on the way, and play `max` against `hard` and random moves after each of o's
replies to x's first move; the last checks every position x can meet (7,258, seconds).
"""

from __future__ import annotations

import array
import random
from pathlib import Path
from typing import Any

import pytest

from noughts.ai import gobblet_strategy, gobblet_table
from noughts.ai.base import Kind, Limits
from noughts.ai.levels import level_player
from noughts.ai.solve import PerfectPlayer
from noughts.core import Player, State
from noughts.games.gobblet import Gobblet

GAME = Gobblet()


@pytest.fixture(autouse=True)
def _new_installation(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NOUGHTS_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(gobblet_table, "_TABLES", {})


def _shipped() -> gobblet_strategy.Strategy:
    strategy = gobblet_strategy.load()
    assert strategy is not None, "the shipped strategy is missing"
    return strategy


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_sampled_games_of_o_meet_an_answer_to_every_reply(seed: int) -> None:
    found = gobblet_strategy.check(_shipped(), samples=5, seed=seed)
    assert found.wrong == []
    assert found.positions >= 5 * 4  # o staying clear of x's immediate wins: four moves of x at least
    assert found.replies > found.positions


def test_the_check_finds_a_missing_answer_a_wrong_move_and_a_wrong_distance() -> None:
    shipped = _shipped()
    empty = gobblet_strategy.Strategy.from_entries({})
    assert any("no move for x" in line for line in gobblet_strategy.check(empty, samples=1).wrong)
    moved = gobblet_strategy.Strategy(shipped.keys, shipped.targets[-1:] + shipped.targets[:-1], shipped.plies)
    assert not gobblet_strategy.check(moved, samples=1).ok
    hurried = gobblet_strategy.Strategy(shipped.keys, shipped.targets, array.array("B", [1] * len(shipped.plies)))
    assert any("not within" in line for line in gobblet_strategy.check(hurried, samples=1).wrong)


def test_the_strategy_reads_back_what_it_writes(tmp_path: Path) -> None:
    """Written with numpy (by the tool), read without it (by a bare installation)."""
    shipped = _shipped()
    shipped.write(tmp_path / "x.npz")
    again = gobblet_strategy.Strategy.read(tmp_path / "x.npz")
    assert again == shipped and len(again) > 400
    key = shipped.keys[len(shipped) // 2]
    assert again.entry(key) == (shipped.targets[len(shipped) // 2], shipped.plies[len(shipped) // 2])
    assert again.entry(max(shipped.keys) + 1) is None


def test_perfect_values_the_strategys_move_exactly_and_the_rest_only_where_kept() -> None:
    rng = random.Random(7)
    perfect, clock = PerfectPlayer(), Limits(time=1)  # with a clock it never starts the table's build
    state: State[Any] = GAME.initial()
    for _ in range(4):  # past the opening book's two plies
        state = state.play(
            perfect.analyze(state, clock).best if state.turn is Player.X else rng.choice(state.legal_moves())
        )
    found = gobblet_strategy.choice(state)
    assert found is not None
    analysis = perfect.analyze(state, clock)
    assert analysis.best == found[0]
    assert analysis.moves[0].value.kind is Kind.WIN and analysis.moves[0].value.plies == found[1]
    # Another move is valued only where every o reply meets an answer (`kept_value`).
    for info in analysis.moves[1:]:
        assert info.value.kind is Kind.UNKNOWN or gobblet_strategy.kept_value(state.play(info.move)) is not None
    assert any(info.value.kind is Kind.UNKNOWN for info in analysis.moves)


@pytest.mark.slow  # every position of the shipped strategy, as the other shipped data is checked
def test_every_position_x_can_meet_is_answered_with_a_shrinking_win() -> None:
    found = gobblet_strategy.check(_shipped())
    assert found.wrong == []
    assert found.positions > len(_shipped())


# Whole games to the win against two opponents (make test-slow): make test walks every
# reply's exact values without the table in tests/test_exact_kept.py.
@pytest.mark.slow
def test_max_as_x_wins_every_reply_against_hard_and_random_without_the_table() -> None:
    """issue 40, item 7, on a new installation: each of o's replies to max's first move,
    o then played by `hard` and by random moves avoiding x's immediate wins where it can
    (seeded per game). Seconds: x's moves are look-ups."""
    start = GAME.initial()
    first = level_player(GAME, "max", seed=1).decide(start).best
    after = start.play(first)
    for index, reply in enumerate(after.legal_moves()):
        rng = random.Random(index)
        for opponent in (level_player(GAME, "hard", seed=index), None):
            x = level_player(GAME, "max", seed=index)
            state: State[Any] = after.play(reply)
            left = 12  # plies to x's win after its first move, at the most (x wins in 13)
            while not state.is_over:
                if state.turn is Player.X:
                    # Every move of x a proven win, sooner each time: no search's guess.
                    analysis = x.decide(state)
                    value = analysis.moves[0].value
                    assert value.kind is Kind.WIN and not value.bound and value.plies is not None
                    assert value.plies < left, (after.move_text(reply), state.to_text())
                    left = value.plies
                    state = state.play(analysis.best)
                elif opponent is None:
                    moves = state.legal_moves()
                    stubborn = [m for m in moves if gobblet_strategy.immediate_win(state.play(m)) is None]
                    state = state.play(rng.choice(stubborn or moves))
                else:
                    state = state.play(opponent.choose(state))
            assert state.outcome is not None
            assert state.outcome.winner is Player.X, (after.move_text(reply), opponent)
    assert not gobblet_table.is_built(GAME)
