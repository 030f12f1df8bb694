"""Values in words: exact ones say so, estimates say so, and one ply is one ply."""

from __future__ import annotations

from noughts import parse_position
from noughts.ai import Limits, Value, parse_player
from noughts.terminal.values import meaning, plies, value_legend


def test_counts_of_plies_read_right() -> None:
    assert plies(1) == "1 ply" and plies(3) == "3 plies"
    assert meaning(Value.win(1)) == "exact: a forced win in 1 ply"
    assert meaning(Value.loss(4)) == "exact: every move loses with best play; this one lasts 4 plies"
    assert meaning(Value.draw()) == "exact: a draw with best play"
    assert meaning(Value.estimate(-0.5)) == "estimate: -0.50, above 0 is good for you"


def test_the_legend_says_which_values_are_exact() -> None:
    state = parse_position("classic", "xx./oo./... x")
    assert value_legend(parse_player("perfect").analyze(state)) == "all exact, with best play"
    shallow = parse_player("alphabeta:depth=1").analyze(parse_position("classic", "x../.../... o"), Limits())
    assert value_legend(shallow) == "estimates: above 0 is good for the player to move"
    mixed = parse_player("alphabeta:depth=2").analyze(state)
    assert mixed.moves[0].value == Value.win(1) and not all(m.value.exact for m in mixed.moves)
    assert value_legend(mixed) == "win/loss in N plies and draw are exact, numbers are estimates"
