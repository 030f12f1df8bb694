"""One value type for every player: a proven win or loss says whether its plies are the
exact distance (solved tables, full-width searches) or only a bound (MCTS-Solver, threat
and proof-number searches, the shipped qubic proof)."""

from __future__ import annotations

import random

import pytest

from noughts import parse_position, parse_spec
from noughts.ai.base import Kind, Limits, Value, make_player, parse_player
from noughts.ai.exact import code_value, value_code
from noughts.core import Player, State
from noughts.study.verdicts import verdict


def test_a_bound_says_at_most_and_an_exact_distance_does_not() -> None:
    assert (Value.win(7).text, Value.win(7).distance, Value.win(7).bound) == ("win in 7", "in 7 plies", False)
    bound = Value.win(64, bound=True)
    assert (bound.text, bound.distance, bound.bound) == ("win in at most 64", "in at most 64 plies", True)
    assert Value.loss(9, bound=True).text == "loss in at most 9"
    assert verdict(bound, Player.X) == "X wins, proven, in at most 32 moves"  # the winner's own moves
    assert verdict(Value.loss(63, bound=True), Player.O) == "X wins, proven, in at most 32 moves"
    assert verdict(Value.win(7), Player.O) == "O wins in 4 moves"
    assert Value.draw().distance == Value.estimate(0.3).distance == ""


def test_a_bound_stays_a_bound_from_the_other_side_and_one_ply_is_never_one() -> None:
    assert Value.win(64, bound=True).negated() == Value.loss(65, bound=True)
    assert Value.loss(9, bound=True).negated(-1) == Value.win(8, bound=True)
    assert Value.win(5).negated() == Value.loss(6)
    # No game ends sooner than in one ply: "at most 1" is exactly 1, and so is the move
    # before it one ply longer.
    assert Value.win(1, bound=True) == Value.win(1) and Value.loss(1, bound=True) == Value.loss(1)
    assert Value.win(1, bound=True).negated() == Value.loss(2)


def test_only_an_exact_distance_is_stored_as_a_table_code() -> None:
    assert code_value(value_code(Value.win(7))) == Value.win(7)
    with pytest.raises(ValueError, match="exact distance"):
        value_code(Value.win(7, bound=True))
    # A reader that knows its codes are bounds (the race puzzles' keys) says so again.
    assert code_value(value_code(Value.loss(8, bound=True), bound_ok=True), bound=True) == Value.loss(8, bound=True)


def _positions(spec: str, count: int, seed: int) -> list[State[object]]:
    """Positions a few random plies from the start, none over."""
    rng = random.Random(seed)
    game = parse_spec(spec)
    found: list[State[object]] = []
    while len(found) < count:
        state = game.initial()
        for _ in range(rng.randrange(1, 6)):
            state = state.play(rng.choice(state.legal_moves()))
            if state.is_over:
                break
        if not state.is_over:
            found.append(state)
    return found


@pytest.mark.parametrize(("spec", "seed"), [("classic", 1), ("classic", 4), ("mnk:m=4:n=3:k=3", 2)])
def test_bounds_hold_and_exact_distances_are_the_tables(spec: str, seed: int) -> None:
    """Against the solved table, over varied positions: a full-width search's wins and
    losses are exact and equal the table's; MCTS-Solver's are bounds the table's distance
    never exceeds, or exact and equal to it."""
    perfect = make_player("perfect")
    bounds = exact = 0
    for i, state in enumerate(_positions(spec, 6, seed)):
        table = {info.move: info.value for info in perfect.analyze(state).moves}
        assert not any(v.bound for v in table.values())
        search = parse_player("alphabeta:depth=12").analyze(state, Limits())
        for info in search.moves:
            if info.value.kind in (Kind.WIN, Kind.LOSS):
                assert info.value == table[info.move], (state.to_text(), info.text)
                exact += 1
        solver = make_player("mcts", iterations=3000, seed=i).analyze(state, Limits())
        for info in solver.moves:
            value, truth = info.value, table[info.move]
            if value.kind not in (Kind.WIN, Kind.LOSS):
                continue
            assert value.kind is truth.kind, (state.to_text(), info.text)
            if value.bound:
                bounds += 1
                assert (value.plies or 0) >= (truth.plies or 0), (state.to_text(), info.text)
            else:
                assert value == truth, (state.to_text(), info.text)
    assert bounds and exact  # both kinds were met, so both claims were tested


def test_a_threat_search_win_is_a_bound() -> None:
    """Far beyond the horizon on 7x7: the threat search proves x's win by fours, not its
    shortest distance; the same board searched without it has no proven value."""
    state = parse_position("mnk:m=7:n=7:k=4", "..xxox./xooo..o/...x.../......./......./......./....... x")
    analysis = parse_player("alphabeta:depth=2:threats=true").analyze(state, Limits())
    assert analysis.value.kind is Kind.WIN and analysis.value.bound
    assert analysis.value.text == f"win in at most {analysis.value.plies}"
    plain = parse_player("alphabeta:depth=2").analyze(state, Limits())
    assert not plain.value.exact
