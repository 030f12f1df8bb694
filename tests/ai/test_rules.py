"""The decision-table player: known answers, and no loss against any opponent."""

from __future__ import annotations

from typing import Any

import pytest

from noughts.ai.base import Kind, make_player
from noughts.ai.rules import RULES, RulesPlayer, explain
from noughts.core import IllegalMoveError, InvalidOptionError, Player, State
from noughts.registry import parse_position, parse_spec


def _count_games(player: RulesPlayer, state: State[Any], me: Player) -> tuple[int, int]:
    """(games, games lost) over every sequence of opponent moves against `player`."""
    if state.is_over:
        assert state.outcome is not None
        return 1, int(state.outcome.winner is me.other)
    if state.turn is me:
        return _count_games(player, state.play(player.choose(state)), me)
    games = lost = 0
    for move in state.legal_moves():
        g, lo = _count_games(player, state.play(move), me)
        games, lost = games + g, lost + lo
    return games, lost


@pytest.mark.parametrize("me", [Player.X, Player.O])
@pytest.mark.parametrize("seed", [None, 3])
def test_never_loses_against_any_opponent(me: Player, seed: int | None) -> None:
    games, lost = _count_games(RulesPlayer(seed=seed), parse_spec("classic").initial(), me)
    assert games > 100
    assert lost == 0


def _best(position: str) -> str:
    state = parse_position("classic", position)
    return state.move_text(RulesPlayer().choose(state))


@pytest.mark.parametrize(
    ("position", "best"),
    [
        ("xx./oo./... x", "3"),  # win beats block
        ("xx./oo./x.. o", "6"),  # o wins too rather than blocking
        ("xx./.o./... o", "3"),  # block
        ("x../.o./..x o", "2"),  # the double-corner trap: o must take a side
        ("x../.../... o", "5"),  # the corner opening is answered in the centre
        (".../.../... x", "5"),  # centre first
        ("o../.x./... x", "9"),  # opposite corner
        ("x.o/.o./x.. x", "4"),  # win down the left column
    ],
)
def test_known_answers(position: str, best: str) -> None:
    assert _best(position) == best


def test_fork_and_anti_fork_are_named() -> None:
    # x on 2 and 7, o on 5 and 8: x on 1 threatens 3 and 4 at once.
    assert explain(parse_position("classic", ".x./.o./xo. x"))[0] == ("1", "fork")
    # The double-corner trap: every side forces x to block, every corner loses.
    ranked = dict(explain(parse_position("classic", "x../.o./..x o")))
    assert {ranked[c] for c in "2468"} == {"anti-fork"}
    assert {ranked[c] for c in "37"} == {"corner"}


def test_analysis_values_follow_the_rules() -> None:
    state = parse_position("classic", "xx./oo./... x")
    analysis = RulesPlayer().analyze(state)
    assert [info.text for info in analysis.moves][:2] == ["3", "6"]
    assert all(info.value.kind is Kind.SCORE for info in analysis.moves)
    assert analysis.moves[0].value.score == 1.0
    assert analysis.moves[1].value.score == (8 - RULES.index("block")) / 8
    assert sorted(info.text for info in analysis.moves) == sorted(state.legal_move_texts())
    assert analysis.pv == ["3"]


def test_registered_and_seeded() -> None:
    state = parse_spec("classic").initial().play(4)
    first = make_player("rules", seed="7").choose(state)
    assert make_player("rules", seed=7).choose(state) == first
    assert first in (0, 2, 6, 8)


@pytest.mark.parametrize("spec", ["classic:forget", "mnk:m=4:n=4:k=3", "matryoshka"])
def test_other_games_are_refused(spec: str) -> None:
    with pytest.raises(InvalidOptionError, match="classic"):
        RulesPlayer().analyze(parse_spec(spec).initial())


def test_finished_game_has_no_move() -> None:
    with pytest.raises(IllegalMoveError):
        RulesPlayer().analyze(parse_position("classic", "xxx/oo./... o"))
