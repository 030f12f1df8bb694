"""The quickest forced win on an m,n,k board (`noughts.ai.quickest`)."""

from __future__ import annotations

import pytest

from noughts import parse_position, parse_spec
from noughts.ai.quickest import TooOpenError, line, shortest_win, wins_within


def test_the_quickest_win_is_counted_where_a_longer_one_was_shipped() -> None:
    # Shipped puzzle e6sl5qfy's first line won in 9 plies (issue 56); X wins in 7.
    state = parse_position("mnk:m=5:n=5:k=4", ".x.../o.xx./o..x./....o/o.... x")
    assert shortest_win(state, 13) == 7
    assert shortest_win(state, 5) is None
    moves = line(state, 13)
    assert moves is not None and len(moves) == 7
    for move in moves:
        state = state.play(move)
    assert state.outcome is not None and state.outcome.winner is not None and state.outcome.winner.value == "x"


def test_a_move_that_lets_the_opponent_win_first_does_not_win() -> None:
    state = parse_position("mnk:m=5:n=5:k=4", ".x.../o.xx./o..x./....o/o.... x")
    assert wins_within(state, state.game.parse_move("a4"), 7)
    # Elsewhere, O completes a1-a4 at once.
    assert not wins_within(state, state.game.parse_move("e5"), 13)


def test_bad_input_gets_a_clear_error() -> None:
    with pytest.raises(ValueError, match="not Forget mode"):
        shortest_win(parse_spec("classic:forget").initial(), 5)
    with pytest.raises(ValueError, match="the game is over"):
        shortest_win(parse_position("classic", "xxx/oo./... o"), 5)
    with pytest.raises(TooOpenError):
        shortest_win(parse_spec("mnk:m=15:n=15:k=5").initial(), 9, nodes=10)
