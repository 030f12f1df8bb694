"""The arena's StateTracker: the moves from the last state a player knew to the next."""

from __future__ import annotations

from noughts import parse_spec
from noughts.arena.tracker import StateTracker


def test_it_finds_the_moves_since_the_last_known_state() -> None:
    start = parse_spec("classic").initial()
    tracker = StateTracker()
    three = start.play_text("5").play_text("1").play_text("9")
    assert [three.game.move_text(m) for m in tracker.moves_to(three) or []] == ["5", "1", "9"]
    tracker.last = three
    assert tracker.moves_to(three.play_text("3")) == [2]
    assert tracker.moves_to(three) == []


def test_further_than_its_bound_is_none() -> None:
    four = parse_spec("classic").initial().play_text("5").play_text("1").play_text("9").play_text("3")
    assert StateTracker().moves_to(four) is None
    assert StateTracker().moves_to(four, max_plies=4) is not None
