"""alphabeta and minimax on positions with known answers, checked by brute force."""

from __future__ import annotations

import math
import time
from functools import cache
from typing import Any

import pytest

from noughts import IllegalMoveError, InvalidOptionError, State, parse_position, parse_spec
from noughts.ai import Kind, Limits, Value, make_player
from noughts.ai.evaluation import _open_lines, _power_weights, evaluator, evaluator_names
from noughts.ai.search import DEFAULT_TIME, MATE, AlphaBetaPlayer, MinimaxPlayer
from noughts.games.geometry import bits
from noughts.games.mnk.threats import four_cells

from support import SPECS, playout

CLASSIC = parse_spec("classic")


@cache
def solve(state: State[Any]) -> Value:
    """The exact value for the player to move, by plain exhaustive negamax: quick
    wins and slow losses preferred (classic only: it has no repetition rule)."""
    if state.is_over:
        assert state.outcome is not None
        return Value.draw() if state.outcome.winner is None else Value.loss(0)
    return max((solve(state.play(m)).negated() for m in state.legal_moves()), key=Value.sort_key)


def move_values(state: State[Any]) -> dict[str, Value]:
    return {state.move_text(m): solve(state.play(m)).negated() for m in state.legal_moves()}


def wins_now(state: State[Any]) -> list[Any]:
    """The moves that win the game at once for the player to move."""
    out = []
    for move in state.legal_moves():
        outcome = state.play(move).outcome
        if outcome is not None and outcome.winner is state.turn:
            out.append(move)
    return out


def forces_win_in_3(state: State[Any], move: Any) -> bool:
    """After `move`, every reply leaves the mover a winning move."""
    after = state.play(move)
    return not after.is_over and all(
        not (reply := after.play(m)).is_over and wins_now(reply) for m in after.legal_moves()
    )


@pytest.mark.parametrize("name", ["alphabeta", "minimax"])
def test_win_in_one(name: str) -> None:
    state = parse_position("classic", "xx./oo./... x")
    analysis = make_player(name, depth=3, seed=1).analyze(state)
    assert analysis.moves[0].text == "3"
    assert analysis.value == Value.win(1)
    assert analysis.pv[0] == "3"


@pytest.mark.parametrize("name", ["alphabeta", "minimax"])
def test_forced_block(name: str) -> None:
    state = parse_position("classic", "xx./o../... o")
    analysis = make_player(name, depth=4, seed=2).analyze(state)
    assert analysis.best == CLASSIC.parse_move("3")
    # Every other move lets x complete the top row at once.
    assert all(info.value == Value.loss(2) for info in analysis.moves[1:])
    assert {info.text: info.value for info in analysis.moves[1:]} == {
        text: value for text, value in move_values(state).items() if text != "3"
    }


def test_fork_in_classic() -> None:
    # x holds 1 and 5, o holds 2 and 9: no win at once, but 4 or 7 make two threats.
    state = parse_position("classic", "xo./.x./..o x")
    assert not wins_now(state)
    analysis = make_player("alphabeta", depth=5, seed=3).analyze(state)
    assert analysis.value == Value.win(3)
    assert analysis.moves[0].text in ("4", "7")
    assert forces_win_in_3(state, analysis.best)
    assert {info.text: info.value for info in analysis.moves} == move_values(state)


def test_forced_win_in_3_in_ultimate() -> None:
    state = parse_position(
        "ultimate",
        "oxxx.xo../oxoooxxo./xo.oxxxox/.xx...xxx/..oo..oxx/xoooxx.ox/o.oooo..x/oo.xxox.o/.xo..ox.o x -",
    )
    assert not wins_now(state)
    analysis = make_player("alphabeta", depth=3, seed=4).analyze(state)
    assert analysis.moves[0].text == "52"
    assert analysis.value == Value.win(3)
    assert forces_win_in_3(state, analysis.best)
    assert [info.value.kind for info in analysis.moves[1:]].count(Kind.WIN) == 0


def test_forced_win_in_3_in_qubic() -> None:
    state = parse_position("qubic", "o.../..../..../o..x|..../x..x/.oxo/....|o.x./o.../.x../.o..|..../..../..../x... x")
    assert not wins_now(state)
    analysis = make_player("alphabeta", depth=3, seed=5).analyze(state)
    assert analysis.moves[0].text == "223"
    assert analysis.value == Value.win(3)
    assert forces_win_in_3(state, analysis.best)


def test_perfect_classic_from_the_empty_board() -> None:
    analysis = make_player("alphabeta", depth=9).analyze(CLASSIC.initial())
    assert analysis.value == Value.draw()
    assert analysis.depth == 9
    assert len(analysis.moves) == 9
    assert all(info.value == Value.draw() for info in analysis.moves), analysis.lines()
    assert len(analysis.pv) == 9


@pytest.mark.parametrize("seed", range(8))
def test_full_depth_values_are_exact_on_random_classic_positions(seed: int) -> None:
    steps = playout("classic", seed)
    state = steps[min(2 + seed % 4, len(steps) - 2)][0]
    analysis = make_player("alphabeta", depth=9, seed=seed).analyze(state)
    assert {info.text: info.value for info in analysis.moves} == move_values(state)
    assert analysis.value == solve(state)


@pytest.mark.parametrize(
    ("spec", "depth", "seeds"), [("classic", 3, range(6)), ("mnk:m=4:n=4:k=3", 2, range(4)), ("qubic:n=3", 2, range(2))]
)
def test_alphabeta_and_minimax_agree_at_equal_depth(spec: str, depth: int, seeds: range) -> None:
    for seed in seeds:
        steps = playout(spec, seed)
        state = steps[min(seed % 4, len(steps) - 2)][0]
        fast = AlphaBetaPlayer(depth=depth).analyze(state)
        slow = MinimaxPlayer(depth=depth).analyze(state)
        assert fast.depth == slow.depth
        assert {i.text: i.value.sort_key() for i in fast.moves} == {i.text: i.value.sort_key() for i in slow.moves}
        assert fast.value.sort_key() == slow.value.sort_key()
        assert fast.nodes <= slow.nodes
        # choose() prunes at the root as well, and still finds a move of the best value.
        best = AlphaBetaPlayer(depth=depth).choose(state)
        assert {i.text: i.value for i in fast.moves}[state.move_text(best)].sort_key() == fast.value.sort_key()


@pytest.mark.parametrize("spec", SPECS)
def test_never_an_illegal_move_and_every_move_valued(spec: str) -> None:
    steps = playout(spec, seed=11)
    for state, _ in steps[len(steps) // 3 : -1 : max(1, len(steps) // 3)][:2]:
        legal = state.legal_moves()
        for player in (AlphaBetaPlayer(seed=1), MinimaxPlayer(seed=1)):
            analysis = player.analyze(state, Limits(time=0.1, depth=3))
            assert sorted(map(state.move_text, legal)) == sorted(info.text for info in analysis.moves)
            assert analysis.best in legal
            assert analysis.depth is not None and analysis.depth >= 1
            assert analysis.pv[0] == analysis.moves[0].text
            assert analysis.moves == sorted(analysis.moves, key=lambda i: i.value.sort_key(), reverse=True)
        assert AlphaBetaPlayer(seed=2).choose(state, Limits(time=0.1, depth=3)) in legal


def test_time_limit_is_respected_loosely() -> None:
    started = time.perf_counter()
    analysis = make_player("alphabeta", time=0.2).analyze(parse_spec("ultimate").initial())
    assert time.perf_counter() - started < 5.0  # generous: the suite shares two cores
    assert analysis.depth is not None and analysis.depth >= 1


def test_a_stopped_search_answers_with_its_last_finished_depth() -> None:
    state = parse_spec("ultimate").initial().play_text("55")
    stopped = AlphaBetaPlayer(nodes=3000, seed=6).analyze(state)
    assert stopped.depth is not None and stopped.nodes >= 3000
    again = AlphaBetaPlayer(depth=stopped.depth, seed=6).analyze(state)
    assert stopped.moves == again.moves


def test_no_limits_means_a_default_time_not_a_hang() -> None:
    # Ultimate cannot be searched out in a second: the default budget must stop it.
    # The bound is generous: the suite shares two cores with everything else.
    analysis = make_player("alphabeta").analyze(parse_spec("ultimate").initial())
    assert analysis.depth is not None and analysis.depth >= 1
    assert analysis.time < DEFAULT_TIME + 5


def test_same_seed_same_analysis() -> None:
    state = parse_spec("nine-board").initial()
    first = make_player("alphabeta", depth=3, seed=9).analyze(state)
    second = make_player("alphabeta", depth=3, seed=9).analyze(state)
    assert first.moves == second.moves and first.pv == second.pv


def test_options_arrive_as_text() -> None:
    player = make_player("alphabeta", depth="2", eval="fill", seed="3", tt_size="1000")
    assert isinstance(player, AlphaBetaPlayer)
    assert player.analyze(CLASSIC.initial()).depth == 2


def test_bad_options_and_finished_games_are_refused() -> None:
    with pytest.raises(InvalidOptionError, match="evaluators are"):
        make_player("alphabeta", eval="nonsense").analyze(CLASSIC.initial())
    with pytest.raises(InvalidOptionError):
        make_player("minimax", depth=0)
    with pytest.raises(InvalidOptionError):
        make_player("alphabeta", tt_size=-1)
    over = parse_position("classic", "xxx/oo./... o")
    with pytest.raises(IllegalMoveError):
        make_player("alphabeta").analyze(over)


@pytest.mark.parametrize("spec", SPECS)
def test_every_evaluator_gives_a_finite_score_from_the_movers_side(spec: str) -> None:
    game = parse_spec(spec)
    names = evaluator_names(game)
    assert names
    assert evaluator(game) is evaluator(game, names[0])
    for state, _ in playout(spec, seed=5)[:-1:5]:
        for name in names:
            score = evaluator(game, name)(state)
            assert math.isfinite(score) and abs(score) < MATE


@pytest.mark.parametrize("spec", ["mnk:m=7:n=5:k=4", "mnk:m=15:n=15:k=5", "mnk:m=6:n=6:k=3", "qubic"])
def test_the_lines_score_looked_up_by_ray_is_the_sum_over_lines(spec: str) -> None:
    """The evaluator caches each row's, column's and diagonal's part by its contents:
    the total must stay the plain sum over every line, as the evaluator defines it."""
    game = parse_spec(spec)
    lines = game.lines
    weights = _power_weights(len(bits(lines[0])))
    score = _open_lines(lines, weights)

    def plain(x: int, o: int) -> float:
        total = 0.0
        for mask in lines:
            a, b = x & mask, o & mask
            total += weights[a.bit_count()] if a and not b else -weights[b.bit_count()] if b and not a else 0
        return total

    for seed in range(30):
        for state, _ in playout(spec, seed=seed, max_plies=60):
            assert score(state.x, state.o) == plain(state.x, state.o)
            assert score(state.x, state.o) == plain(state.x, state.o)  # the cached part too


def test_near_searches_below_the_root_only_the_cells_next_to_a_mark() -> None:
    game = parse_spec("mnk:m=15:n=15:k=5")
    state = game.initial().play_text("h8").play_text("a1")
    marks = state.x | state.o
    roots: set[int] = set()  # the root moves searched
    leaves: list[int] = []  # the marks of every position two plies in
    player = make_player("alphabeta", depth=2, near=1)
    search = player._search

    def recorded(child: Any, depth: int, *args: Any) -> float:
        new = (child.x | child.o) & ~marks
        if new.bit_count() == 1:
            roots.add(new.bit_length() - 1)
        elif new.bit_count() == 2:
            leaves.append(child.x | child.o)
        return search(child, depth, *args)

    player._search = recorded  # type: ignore[method-assign]

    def close(a: int, b: int) -> bool:
        return max(abs(a // 15 - b // 15), abs(a % 15 - b % 15)) <= 1

    analysis = player.analyze(state)
    assert len(analysis.moves) == len(roots) == len(state.legal_moves())  # analyze values every move
    assert len(leaves) > len(state.legal_moves())
    for leaf in leaves:
        # A root move anywhere, then a reply next to a mark: next to the root move, or
        # (whichever of the two it was) next to a mark of the root.
        first, second = bits(leaf & ~marks)
        assert close(first, second) or any(close(c, m) for c in (first, second) for m in bits(marks))
    leaves.clear()
    roots.clear()
    best = player.choose(state)  # choose keeps to those cells at the root too
    assert best in roots and len(roots) == 8 + 3
    assert all(any(close(c, m) for m in bits(marks)) for c in roots)
    assert leaves
    for leaf in leaves:  # the root move next to a mark too, now
        assert any(close(c, m) for c in bits(leaf & ~marks) for m in bits(marks))
    with pytest.raises(InvalidOptionError, match="near takes a whole number"):
        make_player("alphabeta", near=0)


def test_evaluators_see_the_position_from_the_mover() -> None:
    after_centre = CLASSIC.initial().play_text("5")
    assert evaluator(CLASSIC, "lines")(after_centre) < 0  # x's centre, o to move
    ultimate = parse_spec("ultimate")
    state = ultimate.initial().play_text("55")
    for name in ("seed-lines", "seed-cells"):
        assert evaluator(ultimate, name)(state) < 0


def test_guard_blocks_what_one_ply_does_not_see() -> None:
    """x wins at g12 unless o takes it; at one ply o prefers k3 (its own lines score
    more) and loses at once. Guarded, it blocks, and k3 is reported lost."""
    game = parse_spec("mnk:m=15:n=15:k=5")
    state = game.parse_position(
        ".........x..xxx/o..ooxx...oxo../x.....o.oo.o..o/...x..o.......o/....x...oxo.o../"
        ".......x......./....o...o...ox./.............o./o.x.x...x.....x/..x....o......./"
        ".......x..o..../.x..o...ooox.x./.....xxo.x.x..o/.x..x........../...x..x....o... o"
    )
    assert game.move_text(make_player("alphabeta", depth=1).choose(state)) == "k3"
    guarded = make_player("alphabeta", depth=1, guard=True)
    assert game.move_text(guarded.choose(state)) == "g12"
    analysis = guarded.analyze(state)
    assert analysis.moves[0].text == "g12" and analysis.pv == ["g12"]
    assert {i.text: i.value for i in analysis.moves}["k3"] == Value.loss(2)


@pytest.mark.parametrize("spec", ["mnk:m=7:n=5:k=4", "mnk:m=15:n=15:k=5", "classic"])
def test_four_cells_looked_up_by_ray_are_those_of_every_line(spec: str) -> None:
    game = parse_spec(spec)
    cells = four_cells(game)

    def plain(owner: int, other: int) -> int:
        found = 0
        for mask in game.lines:
            if not mask & other and (owner & mask).bit_count() == game.k - 1:
                found |= mask & ~owner
        return found

    for seed in range(30):
        for state, _ in playout(spec, seed=seed, max_plies=60):
            expected = (plain(state.x, state.o), plain(state.o, state.x))
            assert cells(state.x, state.o) == expected
            assert cells(state.x, state.o) == expected  # the cached part too


def test_blocks_follow_sequences_of_fours_beyond_the_depth() -> None:
    """x wins by fours in 7 plies (`noughts.games.mnk.threats`' example): at depth 3 only when
    o's forced blocks cost no depth."""
    state = parse_position("mnk:m=7:n=7:k=4", "..xxox./xooo..o/...x.../......./......./......./....... x")
    assert make_player("alphabeta", depth=3).analyze(state).value.kind is Kind.SCORE
    analysis = make_player("alphabeta", depth=3, blocks=True).analyze(state)
    assert analysis.value == Value.win(7)
    assert analysis.moves[0].text == "e2"


@pytest.mark.parametrize("seed", range(8))
def test_blocks_keep_full_depth_values_exact(seed: int) -> None:
    steps = playout("classic", seed)
    state = steps[min(1 + seed % 4, len(steps) - 2)][0]
    analysis = make_player("alphabeta", depth=9, seed=seed, blocks=True).analyze(state)
    assert {info.text: info.value for info in analysis.moves} == move_values(state)


@pytest.mark.parametrize("seed", [None, 1, 2])
def test_equal_values_go_to_the_cell_nearest_the_centre(seed: int | None) -> None:
    # On an empty 15x15 board every cell four or more from the edge lies on as many
    # lines: without the tie-break the first of them in order (e5) was played.
    game = parse_spec("mnk:m=15:n=15:k=5")
    assert game.move_text(make_player("alphabeta", depth=1, seed=seed).choose(game.initial())) == "h8"


def test_decide_is_the_analysis_behind_choose() -> None:
    # 15x15 at depth 2: choose prunes at the root, analyze values all 221 moves.
    state = parse_spec("mnk:m=15:n=15:k=5").initial().play_text("h8").play_text("h9")
    player = make_player("alphabeta", depth=2, seed=1)
    decided = player.decide(state)
    assert [info.move for info in decided.moves] == [player.choose(state)]
    analysis = player.analyze(state)
    assert len(analysis.moves) == len(state.legal_moves())
    assert decided.value == analysis.value and decided.depth == analysis.depth == 2
    assert decided.nodes < analysis.nodes
