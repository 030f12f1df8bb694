"""A game's knowledge reaches the generic searches as a plug-in object
(`noughts.games.knowledge`): what each game's says, and that a game without any gets the
base, which knows nothing and still lets the search play."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from noughts import parse_position, parse_spec
from noughts.ai.search import AlphaBetaPlayer
from noughts.core import Player
from noughts.games.connect4.knowledge import ConnectFourKnowledge
from noughts.games.knowledge import SearchKnowledge, knowledge
from noughts.games.mnk.knowledge import MnkKnowledge
from toy_game import Strip, registered


def test_each_game_finds_its_own_and_an_unknown_game_the_base() -> None:
    assert type(knowledge(parse_spec("mnk:m=15:n=15:k=5"))) is MnkKnowledge
    assert type(knowledge(parse_spec("connect4"))) is ConnectFourKnowledge
    assert type(knowledge(parse_spec("ultimate"))) is SearchKnowledge
    with registered():
        game = parse_spec("strip")
        known = knowledge(game)
        assert type(known) is SearchKnowledge
        assert (known.tie_order(game), known.immediate(game), known.threats(game)) == (None, None, False)
        state = game.initial()
        assert known.near(state, state.legal_moves(), 1) == state.legal_moves()
        assert AlphaBetaPlayer(depth=3, threats=True, near=1, blocks=True).choose(state.play_text("b")) in {0, 2, 3, 4}


def test_connect_four_prefers_the_centre_of_equal_columns() -> None:
    game = parse_spec("connect4")
    assert sorted(range(7), key=knowledge(game).tie_order(game)) == [3, 2, 4, 1, 5, 0, 6]
    # At depth 1 on the empty board the centre is the best column, and chosen.
    assert AlphaBetaPlayer(depth=1).choose(game.initial()) == 3


def test_the_m_n_k_games_near_cells_immediate_wins_and_threats() -> None:
    state: Any = parse_position("mnk:m=7:n=7:k=4", "......./......./......./...x.../......./......./....... o")
    known = knowledge(state.game)
    near = known.near(state, state.legal_moves(), 1)
    assert sorted(state.move_text(m) for m in near) == ["c3", "c4", "c5", "d3", "d5", "e3", "e4", "e5"]
    wins_now = known.immediate(state.game)
    assert wins_now is not None and wins_now(state) == (0, 0)
    three: Any = parse_position("mnk:m=7:n=7:k=4", "......./......./......./.xxx.../......./......./ooo.... x")
    mine, theirs = wins_now(three)
    assert {three.move_text(m) for m in range(49) if mine >> m & 1} == {"a4", "e4"}
    assert {three.move_text(m) for m in range(49) if theirs >> m & 1} == {"d7"}
    assert known.threats(state.game) and not known.threats(parse_spec("mnk:m=7:n=7:k=4:forget:keep=5"))
    win = known.threat_win(three, Player.X, threes=False, nodes=10_000, deadline=None)
    assert win is not None and win.move in {three.game.parse_move("a4"), three.game.parse_move("e4")}


@pytest.mark.parametrize("path", ["noughts.games.nowhere:Nothing", "noughts.games.mnk.rules:Mnk"])
def test_knowledge_that_cannot_be_loaded_is_none_with_a_warning(path: str) -> None:
    class Elsewhere(Strip):
        variants = (dataclasses.replace(Strip.variants[0], key="elsewhere", knowledge=path),)

        @property
        def key(self) -> str:
            return "elsewhere"

    with pytest.warns(UserWarning, match=f"elsewhere names the knowledge '{path}'"):
        assert type(knowledge(Elsewhere())) is SearchKnowledge
