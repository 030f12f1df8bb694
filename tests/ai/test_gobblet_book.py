"""gobblet's opening book (noughts.ai.gobblet_book): shipped, it gives the perfect player
the first plies exactly before the table is built (the start is x's win in 13, the
published first moves win), its layers agree with each other by minimax, and (slow, with
the table) it is what the table says."""

from __future__ import annotations

from pathlib import Path

import pytest

from noughts.ai import gobblet_book
from noughts.ai.base import Limits, Value
from noughts.ai.levels import level_player
from noughts.ai.solve import PerfectPlayer
from noughts.games.gobblet import Gobblet

from support import the_users_gobblet_table, without_the_gobblet_table

#: The first moves that win in 13 plies, the quickest (docs/strength.md).
QUICKEST = {"L1", "L3", "L5", "L7", "L9", "S2", "S4", "S6", "S8"}


def test_without_the_table_the_start_is_known_exactly(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    without_the_gobblet_table(monkeypatch, tmp_path)
    game = Gobblet()
    analysis = PerfectPlayer().analyze(game.initial(), Limits(time=0.2))
    assert analysis.value == Value.win(13)
    assert len(analysis.pv) == 13 and analysis.pv[0] in QUICKEST
    # The book knows every first move's value, but only the strategy's first move is
    # played to the end by what is shipped (issue 56): the others are not claimed.
    assert [info.text for info in analysis.moves if info.value.exact] == ["L1"]
    # max, the analysis board's level, answers exactly after each reply to it.
    after = game.initial().play_text("L1")
    answer = level_player(game, "max", seed=1).analyze(after, Limits(time=0.5))
    assert all(info.value.exact for info in answer.moves) and answer.value == Value.loss(12)
    # ... and with an estimate where nothing shipped plays the book's win.
    other = game.initial().play_text("L5").play_text("M1")
    assert gobblet_book.analysis(other) is not None
    assert not level_player(game, "max", seed=1).analyze(other, Limits(time=0.5)).value.exact


def test_the_book_holds_every_opening_position_and_agrees_with_itself() -> None:
    game = Gobblet()
    states = {s.to_text(): s for s in gobblet_book.positions(game)}
    assert len(states) == 703
    for text, state in states.items():
        analysis = gobblet_book.analysis(state)
        assert analysis is not None, text
        assert sorted(i.text for i in analysis.moves) == sorted(state.move_text(m) for m in state.legal_moves())
        keys = [i.value.sort_key() for i in analysis.moves]
        assert keys == sorted(keys, reverse=True)  # best first
        for info in analysis.moves:  # a move is worth what the position after it is, one ply on
            child = gobblet_book.analysis(state.play(info.move))
            if child is not None:
                assert info.value == child.value.negated(), (text, info.text)
    assert gobblet_book.analysis(game.initial().play_text("L5").play_text("M1").play_text("S9")) is None
    assert gobblet_book.analysis(Gobblet(copies=1).initial()) is None  # another figure set


@pytest.mark.slow
def test_the_book_is_what_the_table_says(monkeypatch: pytest.MonkeyPatch) -> None:
    the_users_gobblet_table(monkeypatch)
    game = Gobblet()
    perfect = PerfectPlayer()
    for state in gobblet_book.positions(game):
        booked = gobblet_book.analysis(state)
        table = perfect.analyze(state, Limits())
        assert booked is not None
        assert [(i.text, i.value, i.line) for i in booked.moves] == [(i.text, i.value, i.line) for i in table.moves]
