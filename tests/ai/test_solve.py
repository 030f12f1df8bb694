"""Exact tables and the perfect player, checked against brute force and known facts."""

from __future__ import annotations

import random
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from noughts.ai import solve as solve_module
from noughts.ai.base import Kind, Limits, Value, make_player
from noughts.ai.matryoshka import ExactSearch
from noughts.ai.solve import PerfectPlayer, Table, cache_dir, solve
from noughts.core import IllegalMoveError, InvalidOptionError, Player, State
from noughts.games.gobblet import GobbletState
from noughts.registry import parse_position, parse_spec


@pytest.fixture(autouse=True)
def _tmp_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NOUGHTS_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(solve_module, "_TABLES", {})


@cache
def _minimax(state: State[Any]) -> Value:
    """Plain minimax over every move: the reference the table must agree with."""
    if state.is_over:
        assert state.outcome is not None
        if state.outcome.winner is None:
            return Value.draw()
        return Value.win(0) if state.outcome.winner is state.turn else Value.loss(0)
    return max((_minimax(state.play(m)).negated() for m in state.legal_moves()), key=Value.sort_key)


def _reachable(state: State[Any]) -> set[State[Any]]:
    seen = {state}
    todo = [state]
    while todo:
        current = todo.pop()
        for move in current.legal_moves():
            child = current.play(move)
            if child not in seen:
                seen.add(child)
                todo.append(child)
    return seen


def test_classic_facts() -> None:
    table = solve(parse_spec("classic"))
    assert table.positions == 5478
    assert table.classes == 765
    assert table.start_value == Value.draw()


def test_mnk_3x3_is_classic() -> None:
    classic, mnk = solve(parse_spec("classic")), solve(parse_spec("mnk:m=3:n=3:k=3"))
    assert (mnk.positions, mnk.start_value) == (classic.positions, classic.start_value)


def test_every_classic_position_agrees_with_minimax_and_the_player_keeps_it() -> None:
    table = solve(parse_spec("classic"))
    player = PerfectPlayer()
    positions = _reachable(parse_spec("classic").initial())
    assert len(positions) == 5478
    for state in positions:
        value = _minimax(state)
        assert table.value(state) == value
        if not state.is_over:
            analysis = player.analyze(state)
            assert analysis.value == value
            assert _minimax(state.play(analysis.best)).negated() == value
            assert [info.value for info in analysis.moves] == sorted(
                (info.value for info in analysis.moves), key=Value.sort_key, reverse=True
            )


def _losses(player: PerfectPlayer, state: State[Any], me: Player) -> int:
    if state.is_over:
        assert state.outcome is not None
        return int(state.outcome.winner is me.other)
    if state.turn is me:
        return _losses(player, state.play(player.choose(state)), me)
    return sum(_losses(player, state.play(m), me) for m in state.legal_moves())


@pytest.mark.parametrize("me", [Player.X, Player.O])
def test_never_loses_classic_against_any_opponent(me: Player) -> None:
    assert _losses(PerfectPlayer(), parse_spec("classic").initial(), me) == 0


def test_analysis_of_a_won_position() -> None:
    state = parse_position("classic", "xx./oo./... x")
    analysis = make_player("perfect").analyze(state)
    assert analysis.best == 2
    assert analysis.value == Value.win(1)
    assert analysis.pv == ["3"]
    values = {info.text: info.value for info in analysis.moves}
    assert values["6"] == Value.draw()  # the block
    assert values["7"] == Value.loss(2)  # o completes the middle row at once


def test_fork_trap_answer_is_a_side() -> None:
    state = parse_position("classic", "x../.o./..x o")
    analysis = PerfectPlayer().analyze(state)
    values = {info.text: info.value.kind for info in analysis.moves}
    assert {values[c] for c in "2468"} == {Kind.DRAW}
    assert {values[c] for c in "37"} == {Kind.LOSS}
    assert analysis.best in (1, 3, 5, 7)


def test_forget_start_value_consistency_and_the_winner_converting() -> None:
    game = parse_spec("classic:forget")
    table = solve(game)
    assert table.positions == 128170
    assert table.start_value == Value.win(13)
    # Bellman check on random positions: each value is the best of its moves.
    rng = random.Random(5)
    player = PerfectPlayer()
    for _ in range(40):
        state = game.initial()
        for _ in range(rng.randrange(0, 30)):
            if state.is_over:
                break
            state = state.play(rng.choice(state.legal_moves()))
        if state.is_over:
            continue
        best = max((table.value(state.play(m)).negated() for m in state.legal_moves()), key=Value.sort_key)
        assert table.value(state) == best
        analysis = player.analyze(state)
        if table.value(state).kind is not Kind.LOSS:
            assert analysis.value.kind is not Kind.LOSS  # never steps into a proven loss
    # The winner converts against random replies (one test with the above: the table is
    # built afresh for each test, 7 s).
    rng = random.Random(11)
    for _ in range(5):
        state = game.initial()
        while not state.is_over:
            move = player.choose(state) if state.turn is Player.X else rng.choice(state.legal_moves())
            state = state.play(move)
        assert state.outcome is not None and state.outcome.winner is Player.X
        assert len(state.history) <= 14


def test_mnk_4x3_k3() -> None:
    table = solve(parse_spec("mnk:m=4:n=3:k=3"))
    assert table.start_value.kind is Kind.WIN


@pytest.mark.slow
def test_mnk_4x4_k3_first_player_wins() -> None:
    game = parse_spec("mnk:m=4:n=4:k=3")
    table = solve(game)
    assert table.positions == 6036001
    assert table.start_value == Value.win(5)
    analysis = PerfectPlayer().analyze(game.initial())
    assert analysis.value == Value.win(5)
    assert len(analysis.pv) == 5


@pytest.mark.slow
def test_matryoshka_start_is_a_draw() -> None:
    state = parse_spec("matryoshka").initial()
    assert isinstance(state, GobbletState)
    assert ExactSearch(use_book=False).value(state) == Value.draw()


def test_matryoshka_known_answers() -> None:
    player = PerfectPlayer()
    # x threatens 1-5-9 with both large figures spent: o blocks with a medium, which
    # nothing x has left can cover, and then wins.
    analysis = player.analyze(parse_position("matryoshka", "L,.,./.,L,./s,.,. o"))
    assert analysis.lines()[:2] == ["M9 win-in-5", "L9 win-in-9"]
    assert analysis.pv[0] == "M9" and len(analysis.pv) == 5
    win = player.analyze(parse_position("matryoshka", "L,.,./.,L,./s,s,. x"))
    assert [info.text for info in win.moves if info.value == Value.win(1)] == ["M9", "S9"]


@pytest.mark.parametrize("seed", range(4))
def test_matryoshka_search_agrees_with_minimax(seed: int) -> None:
    rng = random.Random(seed)
    state = parse_spec("matryoshka").initial()
    while state.is_over or sum(state.hand(Player.O).values()) > 2:  # until 8 plies in
        state = parse_spec("matryoshka").initial()
        for _ in range(8):
            if not state.is_over:
                state = state.play(rng.choice(state.legal_moves()))
    assert isinstance(state, GobbletState)
    analysis = PerfectPlayer().analyze(state)
    for info in analysis.moves:
        assert info.value == _minimax(state.play(info.move)).negated(), info.text


def test_gobblet_with_a_clock_answers_unvalued_and_ultimate_is_refused() -> None:
    # gobblet's table takes minutes (9 on two cores): a player with a time limit never starts it
    # (tests/ai/test_gobblet_table.py checks the table on the smaller figure sets).
    # Past the shipped opening book (tests/ai/test_gobblet_book.py), which knows the first two plies.
    past_the_book = parse_spec("gobblet").initial().play_text("L5").play_text("M1").play_text("S9")
    analysis = PerfectPlayer().analyze(past_the_book, Limits(time=0.1))
    # Unvalued, but for o's moves that leave x a win at once: x's strategy plays that.
    assert {info.value for info in analysis.moves} == {Value(Kind.UNKNOWN), Value.loss(2)}
    with pytest.raises(InvalidOptionError, match="classic"):
        PerfectPlayer().analyze(parse_spec("ultimate").initial())


def test_finished_game_has_no_move() -> None:
    with pytest.raises(IllegalMoveError):
        PerfectPlayer().analyze(parse_position("classic", "xxx/oo./... o"))


def test_cache_round_trip_and_corrupt_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    game = parse_spec("classic")
    table = solve(game)
    files = list(cache_dir().glob("*.table"))
    assert len(files) == 1 and files[0].parent == tmp_path
    built: list[Table] = []
    real_build = solve_module._build

    def counting_build(g: Any) -> Table:
        built.append(real_build(g))
        return built[-1]

    monkeypatch.setattr(solve_module, "_build", counting_build)
    monkeypatch.setattr(solve_module, "_TABLES", {})
    loaded = solve(game)
    assert not built  # read from disk
    assert (loaded.positions, loaded.classes, loaded.start_value) == (table.positions, 765, Value.draw())
    data = bytearray(files[0].read_bytes())
    data[-5] ^= 0xFF
    files[0].write_bytes(bytes(data))
    monkeypatch.setattr(solve_module, "_TABLES", {})
    rebuilt = solve(game)
    assert len(built) == 1  # the damaged file was not trusted
    assert rebuilt.positions == 5478
    files[0].write_bytes(b"garbage")
    monkeypatch.setattr(solve_module, "_TABLES", {})
    assert solve(game).positions == 5478 and len(built) == 2


@pytest.mark.parametrize(
    "spec", ["classic", pytest.param("classic:forget", marks=pytest.mark.slow), "mnk:m=4:n=3:k=3", "mnk:m=1:n=7:k=3"]
)
def test_perfect_builds_the_table_first_whatever_the_clock(spec: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """On an empty cache, even with a clock far shorter than the build: every move exact
    from the first call, and the table stays on disk for the next process."""
    game = parse_spec(spec)
    assert not solve_module.is_cached(game)
    analysis = PerfectPlayer().analyze(game.initial(), Limits(time=0.001))
    assert all(info.value.exact for info in analysis.moves)
    monkeypatch.setattr(solve_module, "_TABLES", {})
    assert solve_module.is_cached(game)
    assert solve(game).start_value == analysis.value


@pytest.mark.parametrize(
    ("named", "spec"),
    [
        ("classic", "classic"),
        ("4x4", "mnk:m=4:n=4:k=3"),
        ("3x5", "mnk:m=3:n=5:k=3"),
        ("classic:forget", "classic:forget"),
        ("matryoshka (by search)", "matryoshka"),
        ("gobblet", "gobblet"),
    ],
)
def test_every_game_the_refusal_names_as_solved_is_one_noughts_solve_takes(named: str, spec: str) -> None:
    # One source: `noughts solve` takes a game with a table or an exact search (its
    # capabilities), and the refusal's list names only such games (issue 56: matryoshka).
    from noughts.ai.capabilities import capabilities
    from noughts.registry import parse_spec

    with pytest.raises(InvalidOptionError) as refused:
        solve(parse_spec("ultimate"))
    assert named in str(refused.value)
    found = capabilities(parse_spec(spec))
    assert found.table is not None or found.exact_search
