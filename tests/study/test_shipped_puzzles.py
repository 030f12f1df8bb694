"""The puzzles that come with Noughts (`noughts.study.puzzles.SHIPPED`): enough of them in
every game the issue names, well formed, and, in the slow step, every one proved again
from scratch by the exact search: its first move wins by force, no other move does, and
its line is legal and ends in the solver's win."""

from __future__ import annotations

import collections
from typing import Any

import pytest

from noughts.registry import parse_spec
from noughts.study.puzzles import Puzzle, shipped, themes, verify

from support import the_users_gobblet_table

PUZZLES = shipped()
#: The games puzzles are promised in, with the fewest each must have.
PROMISED = {"ultimate": 100, "nine-board": 50, "qubic": 30, "mnk:m=15:n=15:k=5": 10, "gobblet": 30}


def test_there_are_enough_puzzles_in_every_promised_game() -> None:
    counts = collections.Counter(p.spec for p in PUZZLES)
    assert len(PUZZLES) >= 1500
    for spec, least in PROMISED.items():
        assert counts[spec] >= least, (spec, counts[spec])


def test_every_shipped_puzzle_is_well_formed() -> None:
    assert len({p.id for p in PUZZLES}) == len(PUZZLES)  # one puzzle per position
    for puzzle in PUZZLES:
        game = parse_spec(puzzle.spec)
        assert game.spec == puzzle.spec
        state: Any = game.parse_position(puzzle.position)
        assert state.to_text() == puzzle.position
        assert len(puzzle.solution) % 2 == 1  # the solver's moves begin and end it
        solver = state.turn
        for text in puzzle.solution:
            state = state.play_text(text)
        assert state.outcome is not None and state.outcome.winner is solver


@pytest.mark.slow
def test_every_shipped_puzzles_themes_are_derived_as_now() -> None:
    # Half a minute (qubic's "block and win" tries every move): among the slow checks.
    for puzzle in PUZZLES:
        state = parse_spec(puzzle.spec).parse_position(puzzle.position)
        assert puzzle.themes == themes(state, puzzle.solution, puzzle.bound), puzzle.id


@pytest.mark.slow
@pytest.mark.parametrize("puzzle", PUZZLES, ids=[p.id for p in PUZZLES])
def test_every_shipped_puzzle_is_proved_again(puzzle: Puzzle, monkeypatch: pytest.MonkeyPatch) -> None:
    if puzzle.spec == "gobblet":
        # Proved from gobblet's solved table, read from the user's cache folder where
        # `noughts solve gobblet` built it (the tests' own folder is a fresh one).
        the_users_gobblet_table(monkeypatch)
    # A new prover each time and a budget of nodes, not seconds: the same answer on a
    # busy machine and a quiet one, whatever was proved before.
    assert verify(puzzle) is None


def test_a_shipped_puzzle_states_its_length_as_its_prover_proves_it() -> None:
    """The line is as long as the puzzle says; a race prover's puzzle (qubic, gomoku:
    its searches bound the plies) is marked a bound, an exact prover's is not."""
    from noughts.ai.capabilities import capabilities

    for puzzle in PUZZLES:
        assert len(puzzle.solution) == puzzle.plies, puzzle.id
        race = capabilities(parse_spec(puzzle.spec)).prover == "threats"
        assert puzzle.bound is race, puzzle.id
        assert puzzle.themes[0] == f"win in {'at most ' if race else ''}{(puzzle.plies + 1) // 2}", puzzle.id


def test_at_most_a_share_of_a_games_puzzles_are_wins_in_one() -> None:
    """tools/puzzles keeps wins in one, the easiest kind, to at most 15% of each game's."""
    counts = collections.Counter(p.spec for p in PUZZLES)
    ones = collections.Counter(p.spec for p in PUZZLES if p.plies == 1)
    for spec, n in counts.items():
        assert ones[spec] <= 0.15 * n, (spec, ones[spec], n)


def test_every_game_has_puzzles_of_three_five_and_seven_plies_or_more() -> None:
    """Every game of the shipped puzzles, Forget mode and the 4x4 and 5x5 boards among
    them, has wins of each length class to practise."""
    assert {"classic:forget=true", "mnk:m=4:n=4:k=3", "mnk:m=5:n=5:k=4"} <= {p.spec for p in PUZZLES}
    lengths: dict[str, set[int]] = collections.defaultdict(set)
    for puzzle in PUZZLES:
        lengths[puzzle.spec].add(min(puzzle.plies, 7))
    for spec, found in lengths.items():
        assert {3, 5, 7} <= found, (spec, sorted(found))


def test_every_shipped_puzzle_is_rated_from_attempts() -> None:
    """tools/puzzles/calibrate.py gave each a rating from the levels' attempts, and it
    moved from the guess where the attempts said the guess was off."""
    assert all(p.rating is not None for p in PUZZLES)
    assert sum(p.rating != p.difficulty for p in PUZZLES) > len(PUZZLES) // 2


#: The 5x5 k=4 puzzles whose threat searches' line was longer than the quickest win
#: (issue 56: e6sl5qfy stated 9 plies where X wins in 7, 25f7tvtl 13 where 9 suffice).
SHORTENED = [
    *("b7qb4fcw", "2rdaztm2", "dq2q5dq2", "2ncp4xp2", "pouznzgl"),
    *("2zi3uy3f", "hnrv6tp6", "ml7niu6s", "e6sl5qfy", "25f7tvtl"),
]
FIVE_BY_FIVE = [p for p in PUZZLES if p.spec == "mnk:m=5:n=5:k=4"]


def _no_quicker_win(puzzle: Puzzle) -> None:
    """`puzzle`'s line is the quickest win, as the exact quickest-win search counts it,
    and at each of the defender's turns the line's reply holds out longest."""
    from noughts.ai.quickest import shortest_win

    state: Any = parse_spec(puzzle.spec).parse_position(puzzle.position)
    assert shortest_win(state, puzzle.plies) == puzzle.plies, puzzle.id
    for i, text in enumerate(puzzle.solution[:-1]):
        state = state.play_text(text)
        left = puzzle.plies - i - 1  # the plies the line takes from here
        if i % 2 == 0:  # the defender to move: its reply must hold out longest
            longest = max(shortest_win(state.play(m), left - 1) or 0 for m in state.legal_moves())
            assert shortest_win(state.play_text(puzzle.solution[i + 1]), left - 1) == longest == left - 1, puzzle.id
        else:
            assert shortest_win(state, left) == left, puzzle.id


# One of the ten in make test (seconds each); all ten, and every 5x5 puzzle, in make test-slow.
@pytest.mark.parametrize(
    "puzzle_id", [p if i < 1 else pytest.param(p, marks=pytest.mark.slow) for i, p in enumerate(SHORTENED)]
)
def test_a_shortened_five_by_five_line_is_the_quickest_win(puzzle_id: str) -> None:
    (puzzle,) = [p for p in FIVE_BY_FIVE if p.id == puzzle_id]
    _no_quicker_win(puzzle)


@pytest.mark.slow
def test_no_five_by_five_puzzles_line_is_longer_than_its_quickest_win() -> None:
    # All 319 in 15 s of one core (2026-12-02; `noughts.ai.quickest`): among the slow checks.
    for puzzle in FIVE_BY_FIVE:
        _no_quicker_win(puzzle)
