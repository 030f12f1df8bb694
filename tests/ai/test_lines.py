"""The top lines of an analysis (lichess's multi-PV): every player that knows them gives
the best moves a line that starts with the move and is legal from the position, and the
principal line is the best move's."""

from __future__ import annotations

import pytest

from noughts import parse_spec
from noughts.ai import Limits
from noughts.ai.base import TOP_LINES, parse_player

CASES = [
    ("classic", ["5"], "perfect"),
    ("classic", ["5", "1"], "alphabeta:depth=4"),
    ("classic", ["5"], "mcts:iterations=2000:seed=1"),
    ("ultimate", ["55", "51"], "kmcts:iterations=3000:seed=1"),
    ("ultimate", ["55", "51"], "kalphabeta:depth=4"),
    ("qubic", ["111"], "kalphabeta:depth=3"),
    ("mnk:m=7:n=7:k=4", ["d4"], "alphabeta:depth=2:threats=true"),
    ("gobblet", ["L5"], "alphabeta:depth=3"),
]


@pytest.mark.parametrize(("spec", "moves", "player"), CASES)
def test_the_best_moves_have_legal_lines_starting_with_them(spec: str, moves: list[str], player: str) -> None:
    state = parse_spec(spec).initial()
    for move in moves:
        state = state.play_text(move)
    analysis = parse_player(player).analyze(state, Limits(time=5))
    top = analysis.moves[: min(TOP_LINES, len(analysis.moves))]
    assert all(info.line for info in top)
    assert not any(info.line for info in analysis.moves[TOP_LINES:])
    for info in top:
        assert info.line[0] == info.text
        position = state
        for text in info.line:
            position = position.play_text(text)  # raises if a move of the line is illegal
    assert analysis.pv == list(analysis.moves[0].line)
