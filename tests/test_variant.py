"""What a game says it is (`noughts.variant`): its traits with its options, the m,n,k
kind, and the knowledge its variant names for the searches."""

from __future__ import annotations

import pytest

from noughts.games.knowledge import SearchKnowledge, knowledge
from noughts.registry import GAMES, game_keys, parse_spec
from noughts.variant import Trait, placed_on_grid


@pytest.mark.parametrize(
    ("spec", "traits"),
    [
        ("classic", {Trait.PLACEMENT}),
        ("classic:forget", {Trait.PLACEMENT, Trait.FORGET}),
        ("mnk:m=7:n=7:k=4:forget:keep=5", {Trait.PLACEMENT, Trait.FORGET}),
        ("ultimate:forget", {Trait.PLACEMENT, Trait.LOCAL_BOARDS, Trait.FORGET}),
        ("nine-board", {Trait.PLACEMENT, Trait.LOCAL_BOARDS}),
        ("qubic", {Trait.PLACEMENT}),
        ("connect4", {Trait.GRAVITY}),
        ("matryoshka", {Trait.NESTING}),
        ("gobblet", {Trait.NESTING, Trait.SHIFTS}),
    ],
)
def test_a_games_traits_are_its_variants_and_forget_modes_where_it_is_on(spec: str, traits: set[Trait]) -> None:
    game = parse_spec(spec)
    assert game.traits == traits
    assert game.traits - {Trait.FORGET} == game.variant.traits


def test_the_m_n_k_kind_is_placement_on_a_grid_alone() -> None:
    kinds = {key for key in game_keys() if placed_on_grid(parse_spec(key))}
    assert kinds == {"classic", "mnk"}


def test_every_knowledge_a_variant_names_is_found_and_is_a_plug_in() -> None:
    named = {key: entry.variant.knowledge for key, entry in GAMES.items() if entry.variant.knowledge}
    assert set(named) >= {"classic", "mnk", "connect4"}
    for key, path in named.items():
        found = knowledge(parse_spec(key))
        assert isinstance(found, SearchKnowledge) and type(found) is not SearchKnowledge, path
        assert f"{type(found).__module__}:{type(found).__name__}" == path
