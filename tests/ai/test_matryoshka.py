"""Matryoshka exact on a new installation: the shipped book (`noughts.ai.matryoshka`)
and the search past it agree with a plain negamax over the rules, and the levels read
them from the first call, with an empty cache folder."""

from __future__ import annotations

import random
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from noughts.ai.base import Kind, Limits, Value
from noughts.ai.levels import level_player
from noughts.ai.matryoshka import (
    BOOK,
    BOOK_PLIES,
    Book,
    ExactSearch,
    _negate,
    _sampled_classes,
    book,
    check_book,
    classes,
    state_key,
)
from noughts.ai.solve import PerfectPlayer
from noughts.core import State
from noughts.games.gobblet import GobbletState
from noughts.registry import parse_spec


@cache
def _negamax(state: State[Any]) -> Value:
    """Plain negamax over the rules, every move, no pruning: the reference."""
    if state.is_over:
        assert state.outcome is not None
        winner = state.outcome.winner
        return Value.draw() if winner is None else Value.win(0) if winner is state.turn else Value.loss(0)
    return max((_negamax(state.play(m)).negated() for m in state.legal_moves()), key=Value.sort_key)


def _random_position(spec: str, plies: int, rng: random.Random) -> GobbletState:
    """An unfinished position after `plies` random moves."""
    while True:
        state = parse_spec(spec).initial()
        for _ in range(plies):
            if state.is_over:
                break
            state = state.play(rng.choice(state.legal_moves()))
        if not state.is_over:
            assert isinstance(state, GobbletState)
            return state


def _exact(values: list[Value]) -> bool:
    return all(v.kind in (Kind.WIN, Kind.LOSS, Kind.DRAW) for v in values)


def test_a_smaller_figure_set_is_searched_with_its_own_hands() -> None:
    # One small and one medium each: every reachable position, none from a book.
    game = parse_spec("matryoshka:sizes=2:copies=1")
    search = ExactSearch()
    seen = {game.initial()}
    todo = list(seen)
    while todo:
        state = todo.pop()
        assert isinstance(state, GobbletState)
        assert search.value(state) == _negamax(state), state.to_text()
        for move in state.legal_moves():
            child = state.play(move)
            if child not in seen:
                seen.add(child)
                todo.append(child)
    assert len(seen) > 1000


@pytest.mark.parametrize("plies", [2, 3, 4])
def test_one_copy_of_each_size_agrees_with_negamax(plies: int) -> None:
    # The search once assumed two copies of every size: here a player's second small
    # figure does not exist, and a position that seemed drawn can be lost.
    rng = random.Random(plies)
    player = PerfectPlayer()
    for _ in range(3):
        state = _random_position("matryoshka:copies=1", plies, rng)
        analysis = player.analyze(state)
        assert len(analysis.moves) == len(state.legal_moves())
        for info in analysis.moves:
            assert info.value == _negamax(state.play(info.move)).negated(), (state.to_text(), info.text)


@pytest.mark.parametrize("seed", range(5))
def test_past_the_book_every_move_agrees_with_negamax(seed: int) -> None:
    # 7 to 9 plies in (the book ends at 5), from varied random openings.
    rng = random.Random(100 + seed)
    state = _random_position("matryoshka", 7 + seed % 3, rng)
    analysis = PerfectPlayer().analyze(state)
    for info in analysis.moves:
        assert info.value == _negamax(state.play(info.move)).negated(), (state.to_text(), info.text)


@pytest.mark.parametrize("plies", [0, 2, 4, 5, 6, 8])
def test_the_line_is_best_play_with_every_move_valued(plies: int) -> None:
    # The line tests each child against one score; the reference values every child
    # exactly and takes the first best in legal order, as the analysis sorts them.
    rng = random.Random(10 + plies)
    for _ in range(2):
        start = _random_position("matryoshka", plies, rng)
        search = ExactSearch()
        expected: list[str] = []
        state: State[Any] = start
        while not state.is_over:
            valued = [(search.value(state.play(m)).negated(), m) for m in state.legal_moves()]
            best = max(value.sort_key() for value, _ in valued)
            move = next(m for value, m in valued if value.sort_key() == best)
            expected.append(state.move_text(move))
            state = state.play(move)
        assert ExactSearch().line(start) == expected, start.to_text()


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(3))
def test_just_past_the_book_every_move_agrees_with_negamax(seed: int) -> None:
    rng = random.Random(200 + seed)
    state = _random_position("matryoshka", BOOK_PLIES + 1, rng)
    analysis = PerfectPlayer().analyze(state)
    for info in analysis.moves:
        assert info.value == _negamax(state.play(info.move)).negated(), (state.to_text(), info.text)
    _negamax.cache_clear()


@pytest.mark.parametrize("seed", range(3))
def test_sampled_book_entries_are_proven_again(seed: int) -> None:
    # Entries before the last ply against their children, the last ply's against a
    # search with the book off: a sample of every ply, from different random games.
    found = check_book(sample=25, seed=seed)
    assert found.ok, found.wrong[:5]
    assert found.checked[0] == 1 and all(n >= 9 for n in found.checked[1:])
    assert found.searched == found.checked[-1]


def test_check_book_finds_a_wrong_or_missing_entry() -> None:
    shipped = book()
    start = parse_spec("matryoshka").initial()
    last_ply = next(iter(_sampled_classes(BOOK_PLIES, 5, 1)[BOOK_PLIES].values()))
    first_ply = start.play_text("L5")
    assert isinstance(first_ply, GobbletState)
    for state in (start, last_ply):
        assert isinstance(state, GobbletState)
        codes = shipped.as_dict()
        codes[state_key(state)] = _negate(codes[state_key(state)]) or 3
        found = check_book(Book.from_codes(shipped.plies, codes), sample=5, seed=1)
        assert any(line.startswith(state.to_text()) and "proven" in line for line in found.wrong), found.wrong
    codes = shipped.as_dict()
    del codes[state_key(first_ply)]
    found = check_book(Book.from_codes(shipped.plies, codes), sample=5, seed=1)
    assert f"{first_ply.to_text()}: missing" in found.wrong
    assert f"{start.to_text()}: a child is missing" in found.wrong


@pytest.mark.slow
@pytest.mark.timeout(3600)  # every one of 88,716 last-ply classes searched: 3 min, more under load
def test_the_whole_book_is_proven_again() -> None:
    found = check_book()
    assert found.ok, found.wrong[:5]
    assert found.checked == tuple(len(layer) for layer in classes(BOOK_PLIES))
    assert found.checked == (1, 9, 117, 1263, 13794, 88716)


@pytest.mark.slow
def test_the_start_is_a_draw_by_search_without_the_book() -> None:
    state = parse_spec("matryoshka").initial()
    assert isinstance(state, GobbletState)
    assert ExactSearch(use_book=False).value(state) == Value.draw() == ExactSearch().value(state)


def test_the_book_is_compact_and_holds_the_opening() -> None:
    assert BOOK.stat().st_size < 400_000
    assert book().plies == BOOK_PLIES
    for layer in classes(3):
        assert all(book().code_of(key) is not None for key in layer)


@pytest.mark.parametrize("seed", range(4))
def test_max_is_exact_from_the_first_call_with_an_empty_cache(
    seed: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A new installation: no cache folder, a new player; the opening from the book.
    monkeypatch.setenv("NOUGHTS_CACHE_DIR", str(tmp_path / "cache"))
    rng = random.Random(seed)
    state = _random_position("matryoshka", seed % (BOOK_PLIES), rng)
    player = level_player(state.game, "max", mistakes=False)
    analysis = player.analyze(state, Limits(time=2.0))
    assert analysis.player == "perfect"
    assert len(analysis.moves) == len(state.legal_moves())
    assert _exact([info.value for info in analysis.moves])
    played = level_player(state.game, "max").decide(state, Limits(time=2.0))
    assert played.moves[0].value == analysis.moves[0].value
    assert not (tmp_path / "cache").exists()  # nothing was built


def test_the_search_table_is_cleared_when_full_and_the_values_stay() -> None:
    rng = random.Random(5)
    bounded, fresh = ExactSearch(use_book=False), ExactSearch(use_book=False)
    bounded.MAX_BOUNDS = 200
    for _ in range(12):
        state = _random_position("matryoshka", 5, rng)
        nodes = bounded.nodes
        assert bounded.value(state) == fresh.value(state)
        assert len(bounded.bounds) <= bounded.MAX_BOUNDS + 1 + (bounded.nodes - nodes)
    assert len(fresh.bounds) > bounded.MAX_BOUNDS  # the unbounded one kept everything
