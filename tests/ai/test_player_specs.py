"""Players from their text form, seeded by a caller (the arena, noughts.rl) unless the
text sets its own seed."""

from __future__ import annotations

from typing import Any

import pytest

from noughts import State, level_player, parse_spec, player_names
from noughts.ai import AIPlayer, Analysis, Limits, make_player, parse_player, seeded_player
from noughts.ai.base import takes_seed
from noughts.core import InvalidOptionError


def first_moves(player_of_game: object, games: int = 12) -> list[int]:
    state = parse_spec("classic").initial()
    return [player_of_game(i).choose(state, Limits()) for i in range(games)]  # type: ignore[operator]


def test_the_callers_seed_when_the_spec_has_none() -> None:
    seeded = first_moves(lambda i: seeded_player("random", i))
    assert seeded == first_moves(lambda i: make_player("random", seed=i))
    assert len(set(seeded)) > 1


def test_a_seed_in_the_spec_wins_over_the_callers() -> None:
    moves = first_moves(lambda i: seeded_player("random:seed=5", i))
    assert moves == first_moves(lambda i: parse_player("random:seed=5"))
    assert len(set(moves)) == 1


def test_a_player_without_a_seed_gets_none() -> None:
    state = parse_spec("classic").parse_position("xx./oo./... x")
    assert seeded_player("perfect", 3).choose(state, Limits()) == 2  # the win, cell 3


def test_bad_specs_still_say_what_is_wrong() -> None:
    with pytest.raises(InvalidOptionError, match="unknown player"):
        seeded_player("nobody", 1)
    with pytest.raises(InvalidOptionError, match="write name=value"):
        seeded_player("random:seed", 1)


@pytest.mark.parametrize(
    ("spec", "said"),
    [
        # The option nearest the typo, and every option the player takes.
        ("mcts:iteratons=200", "player mcts has no option 'iteratons' (did you mean 'iterations'?); its options are: "),
        ("alphabeta:dept=2", "(did you mean 'depth'?)"),
        ("perfect:depth=2", "player perfect has no option 'depth'; its options are: none"),
        ("mcst", "unknown player 'mcst' (did you mean 'mcts'?); the players are: random"),
    ],
)
def test_a_misspelt_option_or_player_is_answered_with_the_closest_and_the_valid_ones(spec: str, said: str) -> None:
    with pytest.raises(InvalidOptionError) as refused:
        parse_player(spec)
    assert said in str(refused.value)
    assert "__init__" not in str(refused.value)  # Python's TypeError, naming MCTSPlayer.__init__(), once


@pytest.mark.parametrize("name", player_names())
def test_every_players_repr_is_the_code_that_makes_it_again(name: str) -> None:
    for player in (make_player(name), make_player(name, seed=7) if takes_seed(name) else make_player(name)):
        assert player.spec is not None and player.spec.split(":")[0] == name
        again = eval(repr(player), {"parse_player": parse_player})
        assert type(again) is type(player) and again.spec == player.spec


@pytest.mark.parametrize(
    "spec",
    ["mcts:iterations=200:seed=1", "alphabeta:depth=2:eval=seed-lines:guard=true", "alphabeta:time=0.5", "hard:seed=3"],
)
def test_a_players_spec_keeps_the_options_it_was_made_with(spec: str) -> None:
    player = parse_player(spec)
    assert player.spec == spec and repr(player) == f"parse_player({spec!r})"
    assert make_player("mcts", iterations=200, seed=1).spec == "mcts:iterations=200:seed=1"


def test_a_player_with_no_name_or_an_object_for_an_option_has_no_spec() -> None:
    class Mine(AIPlayer):
        def analyze(self, state: State[Any], limits: Limits = Limits()) -> Analysis:
            raise NotImplementedError

    assert Mine().spec is None and repr(Mine()) == "<Mine '?'>"
    fallible = level_player("classic", "easy", seed=1)  # a wrapper, not a registered player
    assert fallible.spec is None and "alphabeta+mistakes" in repr(fallible)
