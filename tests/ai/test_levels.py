"""Levels: what each one is per game, easy's deliberate mistakes, max's perfection."""

from __future__ import annotations

from itertools import pairwise
from typing import Any

import pytest

from noughts import parse_position, parse_spec
from noughts.ai import Limits, make_player, parse_player
from noughts.ai.levels import DEFAULT_LEVEL, LEVELS, FalliblePlayer, as_level, level_player, level_row, level_spec
from noughts.core import InvalidOptionError, Player, State

from support import SPECS


@pytest.mark.parametrize("spec", SPECS)
def test_every_game_has_every_level(spec: str) -> None:
    game = parse_spec(spec)
    for level in LEVELS:
        assert level_spec(game, level)


def test_max_is_exact_where_a_perfect_player_exists() -> None:
    for spec in ("classic", "classic:forget=true", "mnk:m=4:n=4:k=4", "matryoshka", "gobblet"):
        assert level_spec(parse_spec(spec), "max") == "perfect"
    for spec in ("ultimate", "qubic", "mnk:m=15:n=15:k=5"):
        assert level_spec(parse_spec(spec), "max") != "perfect"


def test_unknown_level() -> None:
    with pytest.raises(InvalidOptionError, match="the levels are: easy, medium, hard, max"):
        level_spec(parse_spec("classic"), "impossible")
    with pytest.raises(InvalidOptionError, match="unknown level 'Max'"):
        as_level("Max")
    assert [as_level(name) for name in LEVELS] == list(LEVELS)
    assert DEFAULT_LEVEL in LEVELS


def test_a_seeded_level_plays_as_its_seeded_spec() -> None:
    """The seed reaches the level's player (and the exact player, which takes none, is
    left unseeded): the same seed, the same choices, as the spec with that seed makes."""
    game = parse_spec("mnk:m=5:n=5:k=4")
    state = game.initial()
    for level in ("medium", "hard"):
        spec = level_spec(game, level)
        seeded = parse_player(f"{spec}:seed=3")
        assert level_player(game, level, 3, mistakes=False).decide(state, Limits()).moves[0].text == (
            seeded.decide(state, Limits()).moves[0].text
        )
    assert level_player(parse_spec("classic"), "max", 3, mistakes=False).name == "perfect"


def _never_loses(player: Any, side: Player) -> int:
    """Play `player` as `side` against every sequence of opponent moves; count games."""
    games = 0

    def walk(state: State[Any]) -> None:
        nonlocal games
        if state.is_over:
            assert state.outcome is not None
            assert state.outcome.winner in (side, None), f"lost: {state.to_text()}"
            games += 1
            return
        if state.turn is side:
            walk(state.play(player.choose(state)))
        else:
            for move in state.legal_moves():
                walk(state.play(move))

    walk(parse_spec("classic").initial())
    return games


@pytest.mark.parametrize("side", [Player.X, Player.O])
def test_classic_max_never_loses(side: Player) -> None:
    player = level_player(parse_spec("classic"), "max")
    assert _never_loses(player, side) > 50


def test_easy_sometimes_misses_a_win_and_is_reproducible() -> None:
    state = parse_position("classic", "xx./oo./... x")  # 3 wins at once
    game = state.game

    def choices(seed: int) -> list[str]:
        player = level_player(game, "easy", seed=seed)
        return [state.move_text(player.choose(state)) for _ in range(40)]

    picks = choices(1)
    assert picks == choices(1)
    assert "3" in picks, "easy still sees a win most of the time"
    assert set(picks) != {"3"}, "easy misses a win now and then"


def test_max_never_misses_a_win_in_one() -> None:
    state = parse_position("classic", "xx./oo./... x")
    player = level_player(state.game, "max", seed=5)
    assert all(state.move_text(player.choose(state, Limits(time=1))) == "3" for _ in range(20))


def test_in_solved_games_medium_and_hard_slip_less_often_than_easy() -> None:
    """Where max is perfect, the levels below it differ by their deliberate mistakes."""
    state = parse_position("classic", "xx./oo./... x")

    def misses(level: str) -> int:
        player = level_player(state.game, level, seed=11)
        return sum(state.move_text(player.choose(state)) != "3" for _ in range(300))

    easy, medium, hard = misses("easy"), misses("medium"), misses("hard")
    assert easy > medium > hard > 0


def test_max_prefers_the_draw_with_the_most_traps() -> None:
    analysis = level_player(parse_spec("classic"), "max").analyze(parse_spec("classic").initial())
    assert analysis.moves[0].text in ("1", "3", "7", "9")  # a corner: 7 of 8 replies lose
    assert analysis.moves[0].traps == 7


def test_fallible_player_keeps_the_inner_analysis() -> None:
    inner = make_player("alphabeta", depth=2)
    player = FalliblePlayer(inner, rate=1.0, seed=3)
    state = parse_position("classic", "xx./oo./... x")
    analysis = player.analyze(state)
    assert analysis.best != state.game.parse_move("3")
    assert sorted(info.text for info in analysis.moves) == sorted(state.legal_move_texts())
    with pytest.raises(InvalidOptionError):
        FalliblePlayer(inner, rate=1.5)


@pytest.mark.parametrize("level", LEVELS)
def test_levels_are_registered_players(level: str) -> None:
    player = make_player(level, seed=2)
    state = parse_spec("classic").initial()
    assert player.choose(state, Limits(time=1)) in state.legal_moves()


def test_without_mistakes_a_level_is_its_search_alone() -> None:
    """What hints use: never a deliberate slip."""
    state = parse_position("classic", "xx./oo./... x")
    for level in LEVELS:
        player = level_player(state.game, level, seed=11, mistakes=False)
        assert not isinstance(player, FalliblePlayer)
        assert all(state.move_text(player.choose(state)) == "3" for _ in range(30)), level


@pytest.mark.parametrize("spec", SPECS)
def test_each_level_is_another_player_than_the_one_below(spec: str) -> None:
    """Another search, or the same one with other deliberate slips."""
    game = parse_spec(spec)
    players = [(level_spec(game, level), _slips(level_player(game, level, seed=1))) for level in LEVELS]
    assert all(lower != upper for lower, upper in pairwise(players)), players


def _slips(player: Any) -> float:
    return player.rate if isinstance(player, FalliblePlayer) else 0.0


def _picks(spec: str, position: str, level: str) -> set[str]:
    state = parse_position(spec, position)
    return {state.move_text(level_player(state.game, level, seed=seed).choose(state)) for seed in range(3)}


@pytest.mark.parametrize(
    ("spec", "position", "win"),
    [
        ("gobblet", "S,.,./.,.,M/m,l,. x", "L9"),  # two threats: 3-6-9 and 1-5-9
    ],
)
def test_hard_sees_a_win_in_three_that_medium_misses(spec: str, position: str, win: str) -> None:
    """Where levels differ by depth: hard (3 plies) finds the double threat that wins in
    3, medium (2 plies) does not, and max finds it too."""
    assert win not in _picks(spec, position, "medium")
    assert _picks(spec, position, "hard") == _picks(spec, position, "max") == {win}


def test_max_sees_a_win_in_three_on_a_big_board() -> None:
    position = "....o.x/..o..../...o.../..x..ox/......./....x../....... x"  # d5: two open threes
    assert _picks("mnk:m=7:n=7:k=4", position, "max") == {"d5"}


def test_medium_on_big_boards_takes_a_win_and_blocks_a_four() -> None:
    """Medium searches one ply on boards of more than 16 cells: enough to win at once
    and to stop a four (the evaluation counts the opponent's open lines)."""
    game = parse_spec("mnk:m=15:n=15:k=5")
    fours = game.initial()
    for move in ["h8", "a1", "h9", "a3", "h10", "a5", "h11"]:  # x: h8-h11, o scattered
        fours = fours.play_text(move)
    block = level_player(game, "medium").analyze(fours)
    assert block.depth == 1 and block.moves[0].text in ("h7", "h12")
    win = fours.play_text("o15")  # o ignores it: x takes the five
    assert level_player(game, "medium").choose(win) in (game.parse_move("h7"), game.parse_move("h12"))


@pytest.mark.parametrize(
    ("where", "fours", "block"),
    [
        ("the first row", ["a1", "b1", "c1", "d1"], "e1"),
        ("the first column", ["a1", "a2", "a3", "a4"], "a5"),
        ("the last column", ["o1", "o2", "o3", "o4"], "o5"),
    ],
)
def test_easy_on_gomoku_blocks_a_four_along_the_edge(where: str, fours: list[str], block: str) -> None:
    """Easy's search (its deliberate slips aside) blocks o's four that the board's edge
    closes, though it has an open three of its own: one ply alone made that three a four
    and o won first (issue 56: easy never blocked a five along the edge)."""
    game = parse_spec("mnk:m=15:n=15:k=5")
    state = game.initial()
    for x, o in zip(["h4", "h5", "h6", "m13"], fours, strict=True):  # x: the open three h4-h6
        state = state.play_text(x).play_text(o)
    assert level_player(game, "easy", seed=1, mistakes=False).analyze(state).moves[0].text == block, where


def test_on_big_boards_the_upper_levels_search_threats() -> None:
    """Wins by fours (and, for max, threes) decide the big boards: max searches them
    everywhere, hard on five-in-a-row boards, where without them it only split its
    games with medium."""
    seven, fifteen = parse_spec("mnk:m=7:n=7:k=4"), parse_spec("mnk:m=15:n=15:k=5")
    for game in (seven, fifteen):
        assert ":threats=true:threes=true" in level_spec(game, "max")
        assert "threats" not in level_spec(game, "medium")
    assert "threats" not in level_spec(seven, "hard")
    # Only from 10x10 does keeping next to the marks drop many cells.
    assert level_spec(fifteen, "max").endswith(":near=2") and "near" not in level_spec(seven, "max")
    assert level_spec(fifteen, "hard").endswith(":threats=true")
    assert "threats" not in level_spec(parse_spec("mnk:m=7:n=7:k=4:forget=true:keep=5"), "max")


def test_max_plays_a_forced_win_beyond_the_horizon() -> None:
    """x wins by fours in 7 plies (e2, c4, f3, g4, e3); max reports it as such."""
    state = parse_position("mnk:m=7:n=7:k=4", "..xxox./xooo..o/...x.../......./......./......./....... x")
    analysis = level_player(state.game, "max", seed=1).analyze(state, Limits(time=0.5))
    assert analysis.moves[0].text == "e2"
    # Proved to the ply within the half second on an idle machine; on a busy one the
    # threat search stops at its bound, which is as true: the verdict, not the speed.
    assert analysis.value.text in ("win in 7", "win in at most 7")


def test_the_level_table_in_the_docs_is_the_one_in_the_code() -> None:
    # docs/strength.md shows LEVEL_TABLE row for row: neither may drift from the other.
    from pathlib import Path

    from noughts.ai.levels import GAME_KINDS, LEVEL_TABLE

    docs = (Path(__file__).parents[2] / "docs" / "strength.md").read_text(encoding="utf-8")
    section = docs.split("## The levels, as data", 1)[1].split("\n## ", 1)[0]
    rows = [line for line in section.splitlines() if line.startswith("| ") and not line.startswith("| level |")]
    shown = [tuple(cell.strip().strip("`") for cell in row.strip("|").split(" | ")) for row in rows]
    assert shown == [(r.level, r.kind, r.spec, r.evidence, r.command) for r in LEVEL_TABLE]
    # Every kind named is one the code knows, and every level ends in a row for every game.
    assert {row.kind for row in LEVEL_TABLE} <= set(GAME_KINDS)
    assert {row.level for row in LEVEL_TABLE if row.kind == "every game"} == set(LEVELS)
    # Every row is reached by some game: none is shadowed by the rows above it.
    from support import SPECS

    games = [parse_spec(spec) for spec in [*SPECS, "mnk:m=7:n=7:k=4", "mnk:m=7:n=7:k=4:forget=true:keep=6"]]
    reached = {(level, level_row(game, level).kind) for game in games for level in LEVELS}
    assert {(row.level, row.kind) for row in LEVEL_TABLE} - reached == set()
