"""The symmetries of a position (noughts.symmetry, State.symmetries): per game the
group of the right size, each map a bijection that takes legal moves to legal moves
and every playout to a playout with the same outcome."""

from __future__ import annotations

import itertools
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from noughts import InvalidPositionError, parse_spec
from noughts.games.geometry import lines
from noughts.symmetry import canonical, symmetries

from support import SPECS

#: The group's size per board: the square's 8, a rectangle's 4, ultimate's 8 (one map
#: for the grid of boards and every board), Qubic's 192 (48 on 3x3x3; 4-D 3x3x3x3:
#: 4! * 2^4 axes and flips), Connect Four's mirror.
SIZES = {
    "classic": 8,
    "classic:forget=true": 8,
    "mnk:m=4:n=4:k=4": 8,
    "mnk:m=5:n=3:k=3": 4,
    "mnk:m=15:n=15:k=5": 8,
    "mnk:m=4:n=4:k=3:forget=true:keep=4": 8,
    "nine-board": 8,
    "nine-board:forget=true": 8,
    "ultimate": 8,
    "ultimate:forget=true": 8,
    "ultimate:tiebreak=boards": 8,
    "qubic": 192,
    "qubic:n=3": 48,
    "qubic:n=3:d=4": 384,
    "matryoshka": 8,
    "gobblet": 8,
    "connect4": 2,
    "connect4:m=5:n=4:k=3": 2,
}


def test_every_spec_has_its_size() -> None:
    assert set(SIZES) == set(SPECS)


@pytest.mark.parametrize("spec", SPECS)
def test_the_group_has_the_right_size_the_identity_first_each_map_once(spec: str) -> None:
    group = symmetries(parse_spec(spec))
    assert len(group) == SIZES[spec]
    assert group[0].is_identity and group[0].cells == tuple(range(len(group[0].cells)))
    maps = [s.cells for s in group]
    assert len(set(maps)) == len(maps)
    assert all(sorted(cells) == list(range(len(cells))) for cells in maps)


@pytest.mark.parametrize(("spec", "expected"), [("mnk:m=1:n=5:k=3", 2), ("mnk:m=1:n=1:k=1", 1), ("qubic:d=2", 32)])
def test_narrow_boards_and_the_flat_qubic(spec: str, expected: int) -> None:
    assert len(symmetries(parse_spec(spec))) == expected


@pytest.mark.parametrize("spec", ["classic", "mnk:m=5:n=3:k=3", "qubic:n=3", "ultimate", "connect4"])
def test_the_maps_are_a_group_closed_under_composition_and_inverse(spec: str) -> None:
    group = symmetries(parse_spec(spec))
    maps = {s.cells for s in group}
    for a in group:
        inverse = a.inverse
        assert tuple(inverse.cells[c] for c in a.cells) == tuple(range(len(a.cells)))
        for b in group[:6]:
            assert tuple(b.cells[c] for c in a.cells) in maps


@pytest.mark.parametrize("spec", ["qubic", "qubic:n=3", "qubic:n=3:d=4", "qubic:d=2", "qubic:n=5"])
def test_qubic_maps_take_lines_to_lines(spec: str) -> None:
    game: Any = parse_spec(spec)
    found = {frozenset(line) for line in lines((game.n,) * game.d, game.n)}
    group = symmetries(game)
    for s in (group[i] for i in random.Random(0).sample(range(len(group)), min(len(group), 40))):
        assert {frozenset(s.cells[c] for c in line) for line in found} == found


def test_qubics_group_is_the_one_the_kernels_built_in_the_same_order() -> None:
    # The construction noughts.kernels.symmetry held before the group moved to
    # noughts.games.geometry (the shipped proof maps its moves through these indices).
    reverse = (3, 2, 1, 0)
    commuting = [p for p in itertools.permutations(range(4)) if all(p[reverse[i]] == reverse[p[i]] for i in range(4))]
    found: dict[tuple[int, ...], None] = {}
    for axes in itertools.permutations(range(3)):
        for pi in commuting:
            for flips in itertools.product((False, True), repeat=3):
                maps = [tuple(reverse[pi[i]] if flip else pi[i] for i in range(4)) for flip in flips]
                image = []
                for cell in range(64):
                    coords = (cell // 16, cell // 4 % 4, cell % 4)
                    new = [0, 0, 0]
                    for a in range(3):
                        new[axes[a]] = maps[a][coords[a]]
                    image.append(new[0] * 16 + new[1] * 4 + new[2])
                found[tuple(image)] = None
    assert list(found) == [s.cells for s in symmetries(parse_spec("qubic"))]


@pytest.mark.parametrize("spec", SPECS)
@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), pick=st.integers(0, 10**6))
def test_a_symmetry_maps_every_playout_to_one_with_the_same_outcome(spec: str, seed: int, pick: int) -> None:
    game = parse_spec(spec)
    group = symmetries(game)
    symmetry = group[pick % len(group)]
    rng = random.Random(seed)
    state = game.initial()
    image = symmetry(state)
    assert image == state  # the start is symmetric
    for _ in range(120):
        legal = state.legal_moves()
        assert set(image.legal_moves()) == {symmetry.move(m) for m in legal}
        assert image.turn is state.turn and image.outcome == state.outcome
        if not legal:
            break
        move = rng.choice(legal)
        state, image = state.play(move), image.play(symmetry.move(move))
        assert image == symmetry(state)  # mapping commutes with playing
        assert game.parse_position(image.to_text()) == image
    assert image.outcome == state.outcome


@pytest.mark.parametrize("spec", ["classic:forget=true", "ultimate:forget=true", "gobblet"])
def test_repetitions_count_the_mapped_history(spec: str) -> None:
    # A game that draws by repetition: its image, played on, draws at the same ply.
    rng = random.Random(7)
    game = parse_spec(spec)
    state = game.initial()
    for _ in range(300):
        if state.is_over:
            break
        state = state.play(rng.choice(state.legal_moves()))
        for image in state.symmetries():
            assert image.repetitions == state.repetitions  # type: ignore[attr-defined]


def test_state_symmetries_are_the_images_in_order() -> None:
    state = parse_spec("ultimate").initial().play_text("53").play_text("31")
    group = symmetries(state.game)
    assert state.symmetries() == [s(state) for s in group]
    assert state.symmetries()[0] is state


def test_a_move_maps_with_its_text_and_back() -> None:
    game = parse_spec("gobblet")
    mirror = symmetries(game)[1]
    assert mirror.move_text("L1") == "L3"
    assert mirror.move_text("1-5") == "3-5"
    assert mirror.inverse.move(mirror.move(game.parse_move("s4"))) == game.parse_move("s4")
    ultimate = symmetries(parse_spec("ultimate"))[1]
    assert ultimate.move_text("13") == "31"  # board 1 -> 3, cell 3 -> 1


def test_canonical_is_one_image_for_the_whole_orbit() -> None:
    state = parse_spec("classic").initial().play_text("2").play_text("9")
    image, symmetry = canonical(state)
    assert symmetry(state) == image
    assert {canonical(s)[0] for s in state.symmetries()} == {image}


def test_a_symmetry_maps_only_its_own_games_positions() -> None:
    mirror = symmetries(parse_spec("classic"))[1]
    with pytest.raises(InvalidPositionError, match="a symmetry of classic"):
        mirror(parse_spec("mnk:m=4:n=4:k=4").initial())
