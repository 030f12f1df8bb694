"""Connect Four's perfect play (noughts.ai.connect4_exact behind `perfect` and `max`):
the values it shows are exact (against a brute force over the State protocol written
here), max keeps the game-theoretic value of every position it plays from, against
varied opponents, both colours and random openings, and the capabilities claim the
solver only where it plays."""

from __future__ import annotations

import random
import sys
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from noughts.ai import connect4_exact
from noughts.ai.base import Kind, Limits, Value, parse_player
from noughts.ai.capabilities import capabilities
from noughts.ai.levels import level_player, level_spec
from noughts.core import State
from noughts.games.connect4 import solver
from noughts.registry import parse_spec


@cache
def _brute(state: State[Any]) -> tuple[int, int]:
    """(result, plies) for the mover by plain negamax: 1 a win, 0 a draw, -1 a loss;
    sooner wins and later losses are better, as the solver's score says."""
    best: tuple[int, int] | None = None
    for move in state.legal_moves():
        child = state.play(move)
        if child.is_over:
            won = child.outcome is not None and child.outcome.winner is state.turn
            found = (1, 1) if won else (0, 1)
        else:
            result, plies = _brute(child)
            found = (-result, plies + 1)
        if best is None or _rank(found) > _rank(best):
            best = found
    assert best is not None
    return best


def _rank(value: tuple[int, int]) -> tuple[int, int]:
    result, plies = value
    return (result, -plies if result > 0 else plies)


def _value(result: int, plies: int) -> Value:
    return Value.win(plies) if result > 0 else Value.loss(plies) if result < 0 else Value.draw()


def _positions(spec: str, seed: int, count: int) -> list[State[Any]]:
    rng = random.Random(seed)
    out: list[State[Any]] = []
    while len(out) < count:
        state: State[Any] = parse_spec(spec).initial()
        for _ in range(rng.randrange(0, 10)):
            child = state.play(rng.choice(state.legal_moves()))
            if child.is_over:
                break
            state = child
        out.append(state)
    return out


@pytest.mark.parametrize("spec", ["connect4:m=4:n=4", pytest.param("connect4:m=5:n=3", marks=pytest.mark.slow)])
def test_every_move_gets_its_exact_value(spec: str) -> None:
    for state in _positions(spec, 1, 12):
        analysis = parse_player("perfect").analyze(state)
        assert len(analysis.moves) == len(state.legal_moves())
        for info in analysis.moves:
            child = state.play(info.move)
            if child.is_over:
                won = child.outcome is not None and child.outcome.winner is state.turn
                want = Value.win(1) if won else Value.draw()
            else:
                result, plies = _brute(child)
                want = _value(-result, plies + 1)
            assert info.value == want, (state.to_text(), info.text)
        assert analysis.moves[0].value == _value(*_brute(state))


def _solved(state: State[Any]) -> int:
    """The solver's score of an unfinished position for its mover."""
    x, o = state.x, state.o  # type: ignore[attr-defined]
    game = state.game
    return solver.solve(x, o, game.m, game.n)  # type: ignore[attr-defined, return-value]


#: The hard opponent (half a second a move) and the larger board take seconds a game.
_GAMES = [
    *(("connect4:m=5:n=4", opponent) for opponent in ("random", "easy", "medium")),
    pytest.param("connect4:m=5:n=4", "hard", marks=pytest.mark.slow),
    *(pytest.param("connect4:m=6:n=5", o, marks=pytest.mark.slow) for o in ("random", "easy", "medium", "hard")),
]


@pytest.mark.parametrize(("spec", "opponent"), _GAMES)
def test_max_keeps_every_value_it_plays_from(spec: str, opponent: str) -> None:
    """Each of max's moves reaches the score of the position it was played in (a won
    position stays won, and as quickly), so max never loses what it did not already
    lose; both colours, from random first plies."""
    game = parse_spec(spec)
    for seed in range(4):
        rng = random.Random(seed)
        state: State[Any] = game.initial()
        for _ in range(rng.randrange(0, 3)):
            state = state.play(rng.choice(state.legal_moves()))
        mover = level_player(game, "max", seed=seed)
        other = parse_player(opponent) if opponent == "random" else level_player(game, opponent, seed=seed)
        max_side = state.turn if seed % 2 == 0 else state.turn.other
        start = None
        while not state.is_over:
            if state.turn is max_side:
                before = _solved(state)
                start = before if start is None else start
                analysis = mover.decide(state, Limits(time=2))
                assert analysis.moves[0].value.kind is not Kind.UNKNOWN
                child = state.play(analysis.best)
                after = None if child.is_over else -_solved(child)
                if after is not None:
                    assert after == before, (state.to_text(), analysis.best)
                elif child.outcome is not None and child.outcome.winner is None:
                    assert before == 0
                else:
                    assert before > 0  # it won at once, so the position was won
                state = child
            else:
                state = state.play(other.choose(state))
        assert start is not None
        winner = state.outcome.winner if state.outcome else None
        if start >= 0:
            assert winner is not max_side.other


@pytest.mark.slow
def test_max_never_loses_from_seven_by_six_midgames() -> None:
    """7x6 from random positions of 14 stones, where the solver answers at once: max
    keeps the value against random play."""
    game = parse_spec("connect4")
    rng = random.Random(5)
    player = level_player(game, "max")
    for _ in range(3):
        state: State[Any] = game.initial()
        while (state.x | state.o).bit_count() < 14:  # type: ignore[attr-defined]
            child = state.play(rng.choice(state.legal_moves()))
            state = game.initial() if child.is_over else child
        start = _solved(state)
        max_side = state.turn
        while not state.is_over:
            if state.turn is max_side:
                state = state.play(player.choose(state, Limits(time=5)))
            else:
                state = state.play(rng.choice(state.legal_moves()))
        winner = state.outcome.winner if state.outcome else None
        if start > 0:
            assert winner is max_side
        elif start == 0:
            assert winner is not max_side.other


@pytest.mark.parametrize(
    ("spec", "claimed"),
    [("connect4", True), ("connect4:m=5:n=4", True), ("connect4:m=7:n=7", True), ("connect4:m=5:n=5:k=3", False)],
)
def test_the_solver_is_claimed_only_where_it_plays(spec: str, claimed: bool) -> None:
    game = parse_spec(spec)
    found = capabilities(game)
    assert found.solver is claimed is connect4_exact.applies(game)
    assert (level_spec(game, "max") == "perfect") is claimed
    assert not found.exact_at_once  # a position the solver cannot finish in time gets estimates
    assert found.book is (claimed and spec == "connect4" and connect4_exact.BOOK.exists())
    assert (found.prover == "perfect") is claimed


def test_out_of_time_the_values_are_unknown_and_max_searches() -> None:
    """Three stones on 7x6 (not in a book, seconds to solve): with a millisecond,
    perfect proves nothing, and max answers with its search's estimates."""
    state: State[Any] = parse_spec("connect4").initial()
    for col in (0, 6, 0):
        state = state.play(col)
    if connect4_exact.book(7, 6) is not None and connect4_exact.book(7, 6).move(state.x, state.o):  # type: ignore[attr-defined, union-attr]
        pytest.skip("the shipped book holds this position")
    analysis = parse_player("perfect").decide(state, Limits(time=0.001))
    assert analysis.moves[0].value.kind is Kind.UNKNOWN
    searched = level_player(state.game, "max").analyze(state, Limits(time=0.2))
    assert searched.player != "perfect" and not all(info.value.exact for info in searched.moves)


def test_the_shipped_book_opens_in_the_centre_and_wins() -> None:
    """Allis and Allen (1988) solved 7x6: x wins, by the centre column only, with its
    last stone (Pons's score 1)."""
    book = connect4_exact.book(7, 6)
    assert book is not None
    assert book.move(0, 0) == (3, 1)
    analysis = level_player(parse_spec("connect4"), "max").decide(parse_spec("connect4").initial())
    assert analysis.best == 3 and analysis.value == Value.win(41)


@pytest.mark.slow
def test_the_shipped_book_agrees_with_the_solver_on_a_sample() -> None:
    """Entries of 6 and 7 stones (a second or so each) solved again: the score is the
    position's and the column reaches it."""
    book = connect4_exact.book(7, 6)
    assert book is not None
    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tools" / "connect4_book"))
    from build import book_positions  # type: ignore[import-not-found]

    best = {int(k): (int(c), int(s)) for k, c, s in zip(book.keys, book.columns, book.scores, strict=True)}
    deep = [(x, o) for x, o in book_positions(8, 7, 6, best) if (x | o).bit_count() >= 6]
    for x, o in random.Random(2).sample(deep, 6):
        found = book.move(x, o)
        assert found is not None
        col, score = found
        assert solver.solve(x, o) == score
        x2, o2 = _drop(x, o, col)
        if not _fours(x2 if x2 != x else o2):  # a win at once is not a position the solver takes
            assert solver.solve(x2, o2) == -score


def _drop(x: int, o: int, col: int) -> tuple[int, int]:
    """7x6: the mover's stone in `col` (bit row * 7 + col, row 0 the top)."""
    for row in range(5, -1, -1):
        bit = 1 << (row * 7 + col)
        if not (x | o) & bit:
            return (x | bit, o) if x.bit_count() == o.bit_count() else (x, o | bit)
    raise AssertionError("a full column")


def _fours(stones: int) -> bool:
    return any(
        all(stones >> ((r + i * dr) * 7 + c + i * dc) & 1 for i in range(4))
        for r in range(6)
        for c in range(7)
        for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1))
        if 0 <= r + 3 * dr < 6 and 0 <= c + 3 * dc < 7
    )
