"""MCTS: known answers with fixed seeds, the solver against brute force, tree reuse,
legality on every game, and strength against the random player."""

from __future__ import annotations

import random
import time
from functools import cache
from typing import Any

import pytest

from noughts import State, parse_spec
from noughts.ai.base import Kind, Limits, RandomPlayer, Value, make_player
from noughts.ai.mcts import MCTSPlayer, evaluator_names, from_score, random_playout, register_evaluator
from noughts.core import IllegalMoveError, InvalidOptionError, Player

from support import SPECS, playout


def position(spec: str, text: str) -> State[Any]:
    state: State[Any] = parse_spec(spec).parse_position(text)
    return state


# Ultimate: x has won the top-left and top boards and threatens the top-right one (cell
# 3). o must play there, and every o move but 33 sends x to a decided board, from where
# x may play anywhere, so 33 is the only move that does not lose at once.
ULTIMATE_BLOCK = "xxx....../xxx....../xx...oo../ooo....../ooo....../........./o......../xoxxoxoxo/xoxxoxoxo o 3"
ULTIMATE_WIN = "xxx....../xxx....../xx......./oo......./oo......./oo......./o.o....../........./......... x 3"

WIN_IN_ONE = [
    ("classic", "xx./oo./... x", "3"),
    ("classic", "o.x/.x./..o x", "7"),
    ("mnk:m=5:n=5:k=4", "xxx../...../..oo./...../o.... x", "d1"),
    ("ultimate", ULTIMATE_WIN, "33"),
]
BLOCK = [
    ("classic", "xx./o../... o", "3"),
    ("classic", "x../.o./..x o", None),  # no immediate threat: any non-losing move
    ("mnk:m=5:n=5:k=4", "xxx../...../..o../...../....o o", "d1"),
    ("ultimate", ULTIMATE_BLOCK, "33"),
]


@pytest.mark.parametrize(("spec", "text", "move"), WIN_IN_ONE)
def test_takes_a_win_in_one(spec: str, text: str, move: str) -> None:
    state = position(spec, text)
    analysis = MCTSPlayer(iterations=2000, seed=3).analyze(state)
    assert analysis.moves[0].text == move
    assert analysis.value == Value.win(1)


@pytest.mark.parametrize(("spec", "text", "move"), [b for b in BLOCK if b[2] is not None])
def test_blocks_a_loss_in_one(spec: str, text: str, move: str) -> None:
    state = position(spec, text)
    analysis = MCTSPlayer(iterations=3000, seed=5).analyze(state)
    assert analysis.moves[0].text == move
    # Every other move lets the opponent win at once, and the solver has seen it.
    assert all(info.value == Value.loss(2) for info in analysis.moves[1:])


def test_mnk_win_position_is_what_it_claims() -> None:
    state = position(WIN_IN_ONE[2][0], WIN_IN_ONE[2][1])
    assert state.turn is Player.X
    assert state.play_text("d1").outcome is not None


# -- the solver against brute force ----------------------------------------------


@cache
def exact(state: State[Any]) -> tuple[int, int]:
    """(result, plies) for the player to move: wins as fast and losses as slow as
    possible. Only for games without repetition history (the cache keys on position)."""
    if state.outcome is not None:
        winner = state.outcome.winner
        return (0 if winner is None else (1 if winner is state.turn else -1), 0)
    best: tuple[int, int] | None = None
    for move in state.legal_moves():
        result, plies = exact(state.play(move))
        mine = (-result, plies + 1)
        if best is None or _better(mine, best):
            best = mine
    assert best is not None
    return best


def _better(a: tuple[int, int], b: tuple[int, int]) -> bool:
    if a[0] != b[0]:
        return a[0] > b[0]
    return a[1] < b[1] if a[0] > 0 else a[1] > b[1]


def as_value(result: int, plies: int) -> Value:
    return Value.win(plies) if result > 0 else Value.loss(plies) if result < 0 else Value.draw()


def small_positions(spec: str, moves: int, count: int) -> list[State[Any]]:
    """The first position with `moves` legal moves in each of the first seeded games."""
    found = []
    for seed in range(200):
        for state, _ in playout(spec, seed):
            if not state.is_over and len(state.legal_moves()) == moves:
                found.append(state)
                break
        if len(found) == count:
            break
    return found


# Seeded positions with wins, losses and draws among them (up to a loss in 8).
@pytest.mark.parametrize(
    ("spec", "moves", "count"),
    [
        ("classic", 6, 6),
        ("classic", 7, 4),
        ("mnk:m=4:n=3:k=3", 9, 6),
        pytest.param("matryoshka", 10, 6, marks=pytest.mark.slow),  # its brute force takes 10 s
    ],
)
def test_solver_agrees_with_brute_force(spec: str, moves: int, count: int) -> None:
    states = small_positions(spec, moves, count)
    assert len(states) == count
    for state in states:
        player = MCTSPlayer(iterations=20_000, seed=11)
        analysis = player.analyze(state)
        result, plies = exact(state)
        assert analysis.value.exact, state  # proven within the budget
        assert analysis.value.kind is as_value(result, plies).kind, state
        # A proof is a strategy, maybe not the fastest: never shorter than the best.
        if result != 0:
            assert analysis.value.plies is not None and analysis.value.plies >= plies
        for info in analysis.moves:
            if info.value.exact:
                move_result, move_plies = exact(state.play(info.move))
                assert info.value.kind is as_value(-move_result, move_plies + 1).kind, (state, info)
        if result > 0:
            best_result, _ = exact(state.play(analysis.best))
            assert best_result < 0  # the chosen move keeps the win


def test_solver_stops_early_on_a_proven_root() -> None:
    state = position("classic", "xo./xo./... x")
    analysis = MCTSPlayer(iterations=10_000, seed=1).analyze(state)
    assert analysis.value == Value.win(1)
    assert analysis.nodes < 100


def test_proven_loss_plays_the_longest_defence() -> None:
    # o must block on 9, then x forks: lost in 4 plies, every other move in 2.
    state = position("classic", "xo./.x./... o")
    analysis = MCTSPlayer(iterations=5000, seed=2).analyze(state)
    assert analysis.moves[0].text == "9"
    assert analysis.value.kind is Kind.LOSS
    assert analysis.value.plies is not None and analysis.value.plies >= 4
    assert all(info.value == Value.loss(2) for info in analysis.moves[1:])


def test_without_the_solver_values_are_estimates() -> None:
    state = position("classic", "xx./oo./... x")
    analysis = MCTSPlayer(iterations=500, seed=3, solver=False).analyze(state)
    assert analysis.moves[0].text == "3"
    assert analysis.nodes == 500


# -- the report --------------------------------------------------------------------


def test_analysis_lists_every_move_best_first_with_visits() -> None:
    state = parse_spec("ultimate").initial()
    analysis = MCTSPlayer(iterations=400, seed=4).analyze(state)
    assert sorted(i.move for i in analysis.moves) == sorted(state.legal_moves())
    assert analysis.nodes == 400
    visits = [i.visits or 0 for i in analysis.moves]
    assert sum(visits) == 400
    assert visits == sorted(visits, reverse=True)  # nothing proven: most visited first
    assert analysis.pv[0] == analysis.moves[0].text
    assert all(i.value.kind is Kind.SCORE and -1 <= i.value.score <= 1 for i in analysis.moves)
    replay = state
    for text in analysis.pv:
        replay = replay.play_text(text)


def test_unvisited_moves_are_reported_as_unknown() -> None:
    state = parse_spec("classic").initial()
    analysis = MCTSPlayer(iterations=3, seed=4).analyze(state)
    assert len(analysis.moves) == 9
    assert [i.visits for i in analysis.moves].count(0) == 6
    assert analysis.moves[-1].value.kind is Kind.UNKNOWN


def test_same_seed_same_analysis() -> None:
    state = parse_spec("nine-board").initial()
    first = MCTSPlayer(iterations=300, seed=9).analyze(state)
    second = MCTSPlayer(iterations=300, seed=9).analyze(state)
    assert first.lines() == second.lines()
    assert first.pv == second.pv


def test_finished_game_is_refused() -> None:
    state = position("classic", "xxx/oo./... o")
    with pytest.raises(IllegalMoveError):
        MCTSPlayer(iterations=10).analyze(state)


# -- budgets -----------------------------------------------------------------------


def test_limits_nodes_overrides_the_iterations_option() -> None:
    state = parse_spec("gobblet").initial()
    analysis = MCTSPlayer(iterations=1000, seed=1).analyze(state, Limits(nodes=50))
    assert analysis.nodes == 50


def test_time_limit_is_respected() -> None:
    for spec in ("ultimate", "mnk:m=15:n=15:k=5", "gobblet"):
        state = parse_spec(spec).initial()
        started = time.perf_counter()
        analysis = MCTSPlayer(seed=1).analyze(state, Limits(time=0.2))
        # Generous: only a search that ignores its deadline could miss this.
        assert time.perf_counter() - started < 5.0  # the suite shares two cores
        assert analysis.nodes > 0


# -- tree reuse --------------------------------------------------------------------


def test_tree_reuse_keeps_visit_counts_across_moves() -> None:
    state = parse_spec("ultimate").initial()
    player = MCTSPlayer(iterations=2000, seed=6)
    first = player.analyze(state)
    after_mine = state.play(first.best)
    reply = after_mine.play_text(first.pv[1])  # the reply the tree looked at most
    second = player.analyze(reply, Limits(nodes=1))
    assert second.nodes == 1
    assert sum(i.visits or 0 for i in second.moves) > 5
    # A fresh player knows nothing but its one iteration.
    fresh = MCTSPlayer(iterations=1, seed=6, reuse=False).analyze(reply)
    assert sum(i.visits or 0 for i in fresh.moves) == 1


def test_reuse_finds_the_root_after_any_reply_and_reset_drops_it() -> None:
    state = parse_spec("classic").initial()
    player = MCTSPlayer(iterations=3000, seed=6)
    best = player.choose(state)
    after = state.play(best)
    least_visited = player.analyze(after, Limits(nodes=1)).moves[-1].move  # analysed again: a root hit
    reply = after.play(least_visited)
    assert sum(i.visits or 0 for i in player.analyze(reply, Limits(nodes=1)).moves) > 1
    player.reset()
    assert sum(i.visits or 0 for i in player.analyze(reply, Limits(nodes=1)).moves) == 1


def test_unrelated_position_starts_a_fresh_tree() -> None:
    player = MCTSPlayer(iterations=500, seed=6)
    player.analyze(parse_spec("classic").initial())
    other = position("classic", "x../.o./..x o")
    assert sum(i.visits or 0 for i in player.analyze(other, Limits(nodes=1)).moves) == 1
    player.analyze(parse_spec("qubic:n=3").initial(), Limits(nodes=5))  # another game entirely


# -- every game ----------------------------------------------------------------------


@pytest.mark.parametrize("spec", SPECS)
def test_never_an_illegal_move(spec: str) -> None:
    game = playout(spec, seed=len(spec))
    picks = [game[0], game[len(game) // 2], game[max(0, len(game) - 3)]]
    player = MCTSPlayer(iterations=30, seed=1)
    for state, _ in picks:
        if state.is_over:
            continue
        assert player.choose(state) in state.legal_moves()


@pytest.mark.parametrize("spec", ["classic:forget=true", "gobblet", "ultimate:forget=true"])
def test_playouts_end_on_games_that_can_cycle(spec: str) -> None:
    rng = random.Random(1)
    state = parse_spec(spec).initial()
    assert all(-1.0 <= random_playout(state, rng) <= 1.0 for _ in range(20))


# -- strength ------------------------------------------------------------------------


def test_beats_the_random_player_in_classic() -> None:
    wins = losses = 0
    for seed in range(10):
        mcts = MCTSPlayer(iterations=300, seed=seed)
        rand = RandomPlayer(seed=100 + seed)
        mcts_side = Player.X if seed % 2 == 0 else Player.O
        state = parse_spec("classic").initial()
        while not state.is_over:
            mover = mcts if state.turn is mcts_side else rand
            state = state.play(mover.choose(state))
        assert state.outcome is not None
        if state.outcome.winner is mcts_side:
            wins += 1
        elif state.outcome.winner is not None:
            losses += 1
    assert losses == 0
    assert wins >= 7


# -- options and evaluators ----------------------------------------------------------


def test_registered_with_options_from_text() -> None:
    player = make_player("mcts", iterations="40", c="0.7", seed="3", reuse="false", solver="1")
    assert isinstance(player, MCTSPlayer)
    assert (player.iterations, player.c, player.reuse, player.solver) == (40, 0.7, False, True)
    assert player.choose(parse_spec("classic").initial()) in range(9)


@pytest.mark.parametrize(
    "options",
    [{"iterations": 0}, {"time": -1}, {"c": -0.5}, {"reuse": "maybe"}, {"evaluator": "no-such-evaluator"}],
)
def test_bad_options_are_refused(options: dict[str, Any]) -> None:
    with pytest.raises(InvalidOptionError):
        make_player("mcts", **options)


def test_a_static_evaluation_plugs_in() -> None:
    def centre_first(state: State[Any]) -> float:
        # x likes the centre: a toy evaluation for the player to move.
        taken = state.to_text()[5] if len(state.to_text()) > 5 else "."
        sign = 1.0 if state.turn is Player.X else -1.0
        return sign * (1.0 if taken == "x" else -1.0 if taken == "o" else 0.0)

    register_evaluator("test-centre", from_score(centre_first, scale=1.0))
    assert "test-centre" in evaluator_names()
    player = make_player("mcts", evaluator="test-centre", iterations=300, seed=1)
    assert player.choose(parse_spec("classic").initial()) == 4
    with pytest.raises(InvalidOptionError):
        from_score(centre_first, scale=0)


def test_the_evaluation_module_plugs_in_by_name() -> None:
    evaluation = pytest.importorskip("noughts.ai.evaluation")
    state = position("classic", "xx./oo./... x")
    for name in evaluation.evaluator_names(state.game):
        player = make_player("mcts", evaluator=name, iterations=200, seed=1)
        assert player.analyze(state).value == Value.win(1), name
    ultimate = position("ultimate", ULTIMATE_BLOCK)
    player = make_player("mcts", evaluator="seed-lines", iterations=2000, seed=1)
    assert player.choose(ultimate) == ultimate.game.parse_move("33")
