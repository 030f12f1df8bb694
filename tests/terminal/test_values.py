"""Values in words: exact ones say so, estimates say so, and one ply is one ply."""

from __future__ import annotations

import pytest

from noughts import parse_position, parse_spec
from noughts.ai import Limits, Value, parse_player
from noughts.ai.base import Kind, MoveInfo
from noughts.ai.levels import level_player
from noughts.cli import main
from noughts.core import Player
from noughts.terminal.values import meaning, move_words, outlook, plies, rest_words, value_legend


def test_values_read_in_the_winners_moves_and_estimates_as_chances() -> None:
    """The web's scale (web/js/values.js): a win in 3 plies is 2 of the winner's moves,
    an estimate a chance, never a raw score."""
    assert plies(1) == "1 ply" and plies(3) == "3 plies"
    assert meaning(Value.win(1)) == "exact: a forced win in 1 move"
    assert meaning(Value.win(3)) == "exact: a forced win in 2 moves"
    lost = "exact: every move loses with best play; the opponent wins in 2 moves against this one"
    assert meaning(Value.loss(4)) == lost
    assert meaning(Value.draw()) == "exact: a draw with best play"
    assert meaning(Value.estimate(-0.5)) == "an estimate, not proven: about 25% for you"
    assert meaning(Value.estimate(503.0), scale=200.0) == "an estimate, not proven: about 99% for you"
    assert meaning(Value.estimate(1.0)) == "an estimate, not proven: about 99% for you"  # never 100%


def test_a_computer_move_says_what_it_leaves_for_both_sides() -> None:
    assert outlook(Value.win(3), Player.O) == "O wins in 2 moves"
    assert outlook(Value.loss(2), Player.O) == "X wins in 1 move"
    assert outlook(Value.draw(), Player.X) == "a draw with best play"
    assert outlook(Value.estimate(0.24), Player.O) == "O's chance: 62%, an estimate"
    assert outlook(Value(Kind.UNKNOWN), Player.O) == "not evaluated"


def test_moves_in_words_say_the_traps_and_the_rules_not_the_protocols_tokens() -> None:
    analysis = parse_player("perfect").analyze(parse_position("classic", "x../.../... o"))
    words = [move_words(info, Player.O, analysis.scale) for info in analysis.moves]
    assert words[0] == "draws" and all(w.startswith("loses in ") for w in words[1:]), words
    assert not any("-" in w or "+" in w for w in words)
    first = parse_player("perfect").analyze(parse_position("classic", ".../.../... x"))
    corner = next(info for info in first.moves if info.text == "1")
    assert move_words(corner, Player.X) == "draws; 7 of O's replies lose"
    ruled = parse_player("rules").analyze(parse_position("classic", "xx./oo./... x"))
    assert move_words(ruled.moves[0], Player.X, ruled.scale) == "rule: win"
    # Against a corner every reply but the centre loses, each as quickly with best play.
    assert rest_words(analysis.moves[1:], Player.O) == "each loses in 3 moves"
    mixed = [MoveInfo(1, "1", Value.draw()), MoveInfo(2, "2", Value.loss(2))]
    assert rest_words(mixed, Player.O) == "the worst: loses in 1 move"


def test_the_legend_says_which_values_are_exact() -> None:
    state = parse_position("classic", "xx./oo./... x")
    assert value_legend(parse_player("perfect").analyze(state)) == "all exact, with best play"
    shallow = parse_player("alphabeta:depth=1").analyze(parse_position("classic", "x../.../... o"), Limits())
    assert value_legend(shallow) == "estimates: above 0 is good for the player to move"
    mixed = parse_player("alphabeta:depth=2").analyze(state)
    assert mixed.moves[0].value == Value.win(1) and not all(m.value.exact for m in mixed.moves)
    assert value_legend(mixed) == "win/loss in N plies and draw are exact, numbers are estimates"


def test_a_bound_reads_as_proven_within_and_an_exact_distance_as_exact() -> None:
    assert meaning(Value.win(64, bound=True)) == "proven: a forced win in at most 32 moves, perhaps sooner"
    assert meaning(Value.loss(9, bound=True)) == (
        "proven: every move loses with best play; the opponent wins with this one in at most 5 moves"
    )
    assert meaning(Value.win(7)) == "exact: a forced win in 4 moves"


def test_qubics_proof_move_is_shown_as_a_bound(capsys: pytest.CaptureFixture[str]) -> None:
    """The shipped proof's move at the start is a win in at most the 64 empty cells, not
    a win in 64; the legend says what "at most" means. (x's next turn: tests/test_engine.py.)"""
    state = parse_spec("qubic").initial()
    analysis = level_player(state.game, "max", seed=1).analyze(state, Limits(time=0.5))
    assert analysis.value == Value.win(64, bound=True)
    assert meaning(analysis.value) == "proven: a forced win in at most 32 moves, perhaps sooner"
    assert value_legend(analysis).endswith("('at most N': proven, N plies a bound)")
    assert main(["analyze", "qubic", "--time", "0.5"]) == 0
    out = capsys.readouterr().out
    assert "best:   111 (win in at most 64)" in out
    assert "  111  win in at most 64\n" in out
