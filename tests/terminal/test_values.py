"""Values in words: exact ones say so, estimates say so, and one ply is one ply."""

from __future__ import annotations

import pytest

from noughts import parse_position, parse_spec
from noughts.ai import Limits, Value, parse_player
from noughts.ai.levels import level_player
from noughts.cli import main
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


def test_a_bound_reads_as_proven_within_and_an_exact_distance_as_exact() -> None:
    assert meaning(Value.win(64, bound=True)) == "proven: a forced win in at most 64 plies, perhaps sooner"
    assert meaning(Value.loss(9, bound=True)) == (
        "proven: every move loses with best play; the opponent wins with this one in at most 9 plies"
    )
    assert meaning(Value.win(7)) == "exact: a forced win in 7 plies"


def test_qubics_proof_move_is_shown_as_a_bound(capsys: pytest.CaptureFixture[str]) -> None:
    """The shipped proof's move at the start is a win in at most the 64 empty cells, not
    a win in 64; the legend says what "at most" means. (x's next turn: tests/test_engine.py.)"""
    state = parse_spec("qubic").initial()
    analysis = level_player(state.game, "max", seed=1).analyze(state, Limits(time=0.5))
    assert analysis.value == Value.win(64, bound=True)
    assert meaning(analysis.value) == "proven: a forced win in at most 64 plies, perhaps sooner"
    assert value_legend(analysis).endswith("('at most N': proven, N plies a bound)")
    assert main(["analyze", "qubic", "--time", "0.5"]) == 0
    out = capsys.readouterr().out
    assert "best:   111 (win in at most 64)" in out
    assert "  111  win in at most 64\n" in out
