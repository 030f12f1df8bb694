"""kmcts and kalphabeta: known answers with fixed seeds, the AIPlayer API on random
positions, values checked against exhaustive search, tree reuse, threat sequences."""

from __future__ import annotations

import time
from collections.abc import Iterator
from functools import cache
from typing import Any

import pytest

from noughts import IllegalMoveError, InvalidOptionError, State, parse_position, parse_spec
from noughts.ai import Kind, Limits, Value, make_player, parse_player
from noughts.ai.compiled import WRAP_UP_DECAY, WRAP_UP_GUESS, KernelAlphaBetaPlayer, KernelMCTSPlayer, _QubicGuard
from noughts.core import Player
from noughts.kernels.games import perft

from support import playout

PLAYERS = ["kmcts", "kalphabeta"]
SPECS = ["ultimate", "ultimate:tiebreak=boards", "nine-board", "qubic"]

# Ultimate: x has won the top-left and top boards and threatens the top-right one (cell
# 3). o must play 33: every other o move sends x to a decided board, from where x may
# play anywhere, and wins.
ULTIMATE_BLOCK = "xxx....../xxx....../xx...oo../ooo....../ooo....../........./o......../xoxxoxoxo/xoxxoxoxo o 3"
ULTIMATE_WIN = "xxx....../xxx....../xx......./oo......./oo......./oo......./o.o....../........./......... x 3"
ULTIMATE_WIN_IN_3 = "oxxx.xo../oxoooxxo./xo.oxxxox/.xx...xxx/..oo..oxx/xoooxx.ox/o.oooo..x/oo.xxox.o/.xo..ox.o x -"
QUBIC_WIN_IN_3 = "o.../..../..../o..x|..../x..x/.oxo/....|o.x./o.../.x../.o..|..../..../..../x... x"


def limits(name: str) -> Limits:
    """A small budget that still finds the short wins below."""
    return Limits(nodes=20_000) if name == "kmcts" else Limits(depth=4)


@pytest.mark.parametrize("name", PLAYERS)
def test_takes_a_win_in_one(name: str) -> None:
    analysis = make_player(name, seed=3).analyze(parse_position("ultimate", ULTIMATE_WIN), limits(name))
    assert (analysis.moves[0].text, analysis.value) == ("33", Value.win(1))


@pytest.mark.parametrize("name", PLAYERS)
def test_blocks_a_loss_in_one(name: str) -> None:
    analysis = make_player(name, seed=5).analyze(parse_position("ultimate", ULTIMATE_BLOCK), limits(name))
    assert analysis.moves[0].text == "33"
    assert all(info.value == Value.loss(2) for info in analysis.moves[1:])


@pytest.mark.parametrize("name", PLAYERS)
def test_forced_win_in_3_in_ultimate(name: str) -> None:
    state = parse_position("ultimate", ULTIMATE_WIN_IN_3)
    analysis = make_player(name, seed=4).analyze(state, limits(name))
    # MCTS-Solver proves the win, its plies a bound; the full-width search its distance.
    assert (analysis.moves[0].text, analysis.value) == ("52", Value.win(3, bound=name == "kmcts"))
    assert [info.value.kind for info in analysis.moves[1:]].count(Kind.WIN) == 0


@pytest.mark.parametrize(
    ("position", "seed", "best", "value"),
    [
        (ULTIMATE_WIN, 3, "33", Value.win(1)),
        (ULTIMATE_BLOCK, 5, "33", None),
        (ULTIMATE_WIN_IN_3, 4, "52", Value.win(3, bound=True)),
    ],
)
def test_implicit_minimax_finds_the_known_answers(position: str, seed: int, best: str, value: Value | None) -> None:
    # The evaluation orders and weighs the children; the proofs stay the solver's.
    player = parse_player(f"kmcts:minimax=0.3:seed={seed}")
    analysis = player.analyze(parse_position("ultimate", position), Limits(nodes=20_000))
    assert analysis.moves[0].text == best
    if value is not None:
        assert analysis.value == value
    else:
        assert all(info.value == Value.loss(2) for info in analysis.moves[1:])


def test_implicit_minimax_on_random_positions_values_every_move_and_is_reproducible() -> None:
    for seed in range(3):
        for state, _ in playout("ultimate", seed)[:-1:7]:
            first = parse_player(f"kmcts:minimax=0.5:seed={seed}").analyze(state, Limits(nodes=2000))
            again = parse_player(f"kmcts:minimax=0.5:seed={seed}").analyze(state, Limits(nodes=2000))
            assert sorted(info.move for info in first.moves) == state.legal_moves()
            assert [(i.text, i.value, i.visits) for i in first.moves] == [
                (i.text, i.value, i.visits) for i in again.moves
            ]


def test_implicit_minimax_changes_the_search_only_in_ultimate() -> None:
    ultimate = parse_spec("ultimate").initial().play_text("55")
    plain, weighed = (
        parse_player(f"kmcts:seed=1{extra}").analyze(ultimate, Limits(nodes=3000)) for extra in ("", ":minimax=0.3")
    )
    assert [i.visits for i in plain.moves] != [i.visits for i in weighed.moves]
    nine = parse_spec("nine-board").initial().play_text("55")
    plain, weighed = (
        parse_player(f"kmcts:seed=1{extra}").analyze(nine, Limits(nodes=3000)) for extra in ("", ":minimax=0.3")
    )
    assert [(i.text, i.visits) for i in plain.moves] == [(i.text, i.visits) for i in weighed.moves]


@pytest.mark.parametrize("threats", [True, False])
def test_forced_win_in_3_in_qubic(threats: bool) -> None:
    state = parse_position("qubic", QUBIC_WIN_IN_3)
    analysis = KernelAlphaBetaPlayer(depth=3, seed=5, threats=threats).analyze(state)
    # The threat search proves the win, its plies a bound; the full-width search its distance.
    assert (analysis.moves[0].text, analysis.value) == ("223", Value.win(3, bound=threats))


# x wins in 7 by threats (233, then two more), but at depth 3 only if the forced blocks
# between x's threats cost no depth: counted as plies, the win lies beyond the horizon.
QUBIC_WIN_IN_7 = ".x../..../..../....|..../..../..../..x.|.o../..../.x../xx..|.o.o/..../x.o./.o.o x"


def test_forced_blocks_cost_no_depth_in_qubic() -> None:
    state = parse_position("qubic", QUBIC_WIN_IN_7)
    analysis = KernelAlphaBetaPlayer(depth=3, seed=1, threats=False).analyze(state)
    assert analysis.value == Value.win(7)
    assert forced(state, KernelAlphaBetaPlayer(seed=1, threats=False), 7, Limits(depth=3))


@pytest.mark.slow
def test_wins_found_through_forced_blocks_are_real_wins() -> None:
    # Without the threat search, every win a shallow search claims (most of them lie
    # beyond its depth in plies), checked against every defence.
    player = KernelAlphaBetaPlayer(depth=3, seed=1, threats=False)
    found = []
    for seed in range(40):
        for state, _ in playout("qubic", seed)[10:-1:3]:
            value = player.analyze(state).value
            if value.kind is Kind.WIN and value.plies is not None and value.plies >= 5:
                found.append(value.plies)
                assert forced(state, player, value.plies, Limits(depth=3)), state.to_text()
    assert len(found) >= 5 and max(found) >= 7


def wins_now(state: State[Any]) -> bool:
    return any(state.play(m).outcome is not None for m in state.legal_moves())


def forced(state: State[Any], player: KernelAlphaBetaPlayer, plies: int, limits: Limits = Limits(depth=1)) -> bool:
    """Whether the player's answers win within `plies` against every defence: each of
    its moves is taken from a new analysis, every defender reply is tried."""
    analysis = player.analyze(state, limits)
    after = state.play(analysis.best)
    if after.outcome is not None:
        return after.outcome.winner is state.turn
    if plies < 3:
        return False
    return all(
        (reply := after.play(m)).outcome is None and (wins_now(reply) or forced(reply, player, plies - 2, limits))
        for m in after.legal_moves()
    )


@pytest.mark.slow
def test_threat_sequences_found_in_random_qubic_positions_are_real_wins() -> None:
    # Every forced win the threat search claims, checked against every defence.
    player = KernelAlphaBetaPlayer(seed=1)
    found = []
    for seed in range(40):
        for state, _ in playout("qubic", seed)[10:-1:3]:
            value = player.analyze(state, Limits(depth=1)).value
            if value.kind is Kind.WIN and value.plies is not None and value.plies >= 5:
                found.append(value.plies)
                assert forced(state, player, value.plies)
    assert len(found) >= 5


def tree_size(state: State[Any], cap: int) -> int:
    """The number of nodes below `state` (the kernels' perft, depth by depth), or a
    number above `cap` as soon as it passes it."""
    total = 0
    for depth in range(1, 82):
        count = perft(state, depth)
        total += count
        if count == 0 or total > cap:
            break
    return total


@cache
def exact(state: State[Any]) -> tuple[int, int]:
    """(result, plies) for the player to move, by exhaustive negamax: quick wins and
    slow losses preferred."""
    if state.outcome is not None:
        return (0 if state.outcome.winner is None else -1, 0)
    results = []
    for move in state.legal_moves():
        result, plies = exact(state.play(move))
        results.append((-result, plies + 1))
    return max(results, key=lambda r: (r[0], -r[1] if r[0] > 0 else r[1]))


def as_value(result: tuple[int, int]) -> Value:
    kind, plies = result
    return Value.draw() if kind == 0 else (Value.win(plies) if kind > 0 else Value.loss(plies))


def ends_searched_whole(spec: str, seeds: int) -> Iterator[tuple[int, State[Any], dict[str, Value]]]:
    """For each seed's random game that has one, the earliest of its last positions whose
    whole tree is small, with every move's value by a plain search of that tree."""
    for seed in range(seeds):
        steps = playout(spec, seed)
        state = next((s for s, _ in steps[:-1] if tree_size(s, 20_000) <= 20_000), None)
        if state is not None:
            values = {state.move_text(m): as_value(exact(state.play(m))).negated() for m in state.legal_moves()}
            yield seed, state, values


@pytest.mark.parametrize("spec", ["ultimate", "nine-board"])
def test_proven_values_agree_with_exhaustive_search_near_the_end(spec: str) -> None:
    checked = 0
    for seed, state, values in ends_searched_whole(spec, 60):
        if checked >= 60:
            break
        for name in PLAYERS:
            analysis = make_player(name, seed=seed).analyze(state, Limits(nodes=200_000, depth=12))
            for info in analysis.moves:
                value, truth = info.value, values[info.text]
                if value.exact:
                    # A bound (MCTS-Solver's plies) is never below the distance.
                    assert value.kind is truth.kind, (name, state.to_text(), info.text)
                    assert (value.plies or 0) >= (truth.plies or 0) if value.bound else value == truth
                    checked += 1
    assert checked >= 25  # nine-board games end early, with big trees: fewer small ones


@pytest.mark.parametrize("spec", ["ultimate", "nine-board"])
def test_kmcts_endgame_values_every_move_exactly_as_the_exhaustive_search(spec: str) -> None:
    """Below its empty cells, kmcts's endgame option answers with the exact search: every
    move's value exact and equal to a plain search of the whole tree."""
    checked = 0
    for seed, state, values in ends_searched_whole(spec, 40):
        if checked >= 8:
            break
        analysis = make_player("kmcts", endgame=81, iterations=500, seed=seed).analyze(state)
        assert analysis.player == "kmcts+endgame"
        assert {info.text: info.value for info in analysis.moves} == values, state.to_text()
        decision = make_player("kmcts", endgame=81, iterations=500, seed=seed).decide(state)
        assert decision.moves[0].value == max(values.values(), key=Value.sort_key)
        checked += 1
    assert checked >= 4


def test_kmcts_endgame_waits_for_its_empty_cells() -> None:
    """Above the option's empty cells (and with it off) the tree search decides alone."""
    late = parse_position(
        "ultimate",
        "xoxxoooxx/xo.x..x../o.ooxx..o/oxx..ooxx/x..ox.x.x/x...o.x../ooo....../o.x.o...o/o.xox.x.o o -",
    )
    assert make_player("kmcts", endgame=33, iterations=300, seed=1).analyze(late).player == "kmcts"  # 34 empty
    assert make_player("kmcts", iterations=300, seed=1).analyze(late).player == "kmcts"
    solved = make_player("kmcts", endgame=34, iterations=300, seed=1).analyze(late)
    assert solved.player == "kmcts+endgame" and all(info.value.exact for info in solved.moves)
    assert make_player("kmcts", endgame=81, iterations=300, seed=1).analyze(parse_spec("qubic").initial()).player == (
        "kmcts"  # ultimate and nine-board only
    )
    # The threshold is for 2 s a move: at a quarter of that, four cells fewer (30 < 34),
    # and at 2 s the same position is searched exactly.
    assert make_player("kmcts", endgame=34, time=0.5, seed=1).analyze(late).player == "kmcts"
    assert make_player("kmcts", endgame=34, time=2, seed=1).analyze(late).player == "kmcts+endgame"


def only_draws(state: State[Any]) -> bool:
    """Whether every way the game can go from `state` ends in a draw."""
    if state.outcome is not None:
        return state.outcome.winner is None
    return all(only_draws(state.play(move)) for move in state.legal_moves())


def test_contempt_makes_a_draw_a_small_loss_for_the_player_searching() -> None:
    # Positions where every line ends in a draw, a few plies before the end: every move
    # not proven at once (a move that ends the game is a proven draw) is estimated at
    # minus the contempt, whichever side the draws fall on.
    found = 0
    for seed in range(300):
        steps = playout("ultimate", seed)
        for state, _ in steps[-7:-2]:
            if found >= 6 or tree_size(state, 3000) > 3000 or not only_draws(state):
                continue
            for contempt in (0.0, 0.25, 1.0):
                player = KernelMCTSPlayer(iterations=3000, seed=seed, solver=False, contempt=contempt)
                values = {info.value for info in player.analyze(state).moves if not info.value.exact}
                assert values == {Value.estimate(-contempt)}, (state.to_text(), contempt, values)
            found += 1
    assert found >= 6


@pytest.mark.parametrize("spec", SPECS)
@pytest.mark.parametrize("name", PLAYERS)
def test_every_legal_move_valued_and_a_legal_choice(spec: str, name: str) -> None:
    for seed in range(3):
        for state, _ in playout(spec, seed)[:-1:7]:
            player = make_player(name, seed=seed)
            analysis = player.analyze(state, Limits(nodes=2000, depth=2))
            assert sorted(info.move for info in analysis.moves) == state.legal_moves()
            assert analysis.pv[0] == analysis.moves[0].text
            assert analysis.nodes > 0
            assert player.choose(state, Limits(nodes=2000, depth=2)) in state.legal_moves()


@pytest.mark.parametrize("name", PLAYERS)
def test_time_limit_is_respected_loosely(name: str) -> None:
    state = parse_spec("ultimate").initial()
    make_player(name).analyze(state, Limits(nodes=100, depth=1))  # compiled or loaded
    started = time.perf_counter()
    spent = time.thread_time()
    make_player(name, time=0.2).analyze(state)
    # The search's CPU time, not the wall clock's: on a loaded machine (a test suite on two
    # cores beside other work) the wall clock also counts the waits for a core.
    assert time.thread_time() - spent < 1.0
    assert time.perf_counter() - started < 10.0


@pytest.mark.parametrize(("name", "budget"), [("kmcts", Limits(nodes=3000)), ("kalphabeta", Limits(depth=5))])
def test_same_seed_same_analysis(name: str, budget: Limits) -> None:
    state = parse_spec("ultimate").initial().play_text("55")
    first, second = make_player(name, seed=9).analyze(state, budget), make_player(name, seed=9).analyze(state, budget)
    assert [(i.text, i.value, i.visits) for i in first.moves] == [(i.text, i.value, i.visits) for i in second.moves]
    assert first.pv == second.pv


def test_kmcts_keeps_its_tree_for_the_next_move() -> None:
    player = KernelMCTSPlayer(seed=1)
    state = parse_spec("ultimate").initial()
    analysis = player.analyze(state, Limits(nodes=20_000))
    ours = state.play(analysis.best)
    theirs = ours.play(ours.legal_moves()[0])
    again = player.analyze(theirs, Limits(nodes=1000))
    # The root's visits include what the first search spent below this position.
    assert sum(info.visits or 0 for info in again.moves) > 1000
    player.reset()
    fresh = player.analyze(theirs, Limits(nodes=1000))
    assert sum(info.visits or 0 for info in fresh.moves) == 1000


def test_kmcts_answers_from_a_kept_node_proven_at_its_first_visit() -> None:
    # After 52 and any reply x wins at once: the search proves such positions as soon as
    # it reaches them, without children; kept as the new root, one still gets them.
    player = KernelMCTSPlayer(seed=4)
    state = parse_position("ultimate", ULTIMATE_WIN_IN_3)
    assert player.choose(state, Limits(nodes=20_000)) == state.game.parse_move("52")
    for reply in state.play_text("52").legal_moves():
        player.analyze(state, Limits(nodes=20_000))
        after = state.play_text("52").play(reply)
        analysis = player.analyze(after, Limits(nodes=100))
        assert analysis.value == Value.win(1)
        assert after.play(analysis.best).outcome is not None


def test_kmcts_stops_its_search_in_time_for_the_rest_of_its_decision(monkeypatch: pytest.MonkeyPatch) -> None:
    """The tree search's deadline is the decision's start plus its time, less the work
    after the search (measured on each decision), so reusing the tree and reporting fit
    inside the time; checked on the deadlines given, not on a clock (how far a search
    overruns depends on the machine's load)."""
    from noughts.kernels import tree

    calls: list[tuple[float, float]] = []
    search = tree.search

    def recording(*args: Any) -> Any:
        calls.append((time.perf_counter(), float(args[7])))  # deadline
        return search(*args)

    player = KernelMCTSPlayer(seed=1)
    state = parse_spec("ultimate").initial()
    player.choose(state, Limits(nodes=100))  # the kernels loaded
    monkeypatch.setattr(tree, "search", recording)
    for _ in range(4):
        started = time.perf_counter()
        analysis = player.decide(state, Limits(time=0.05))
        ended = time.perf_counter()
        searching, deadline = calls[-1]
        assert started < searching < ended
        assert deadline <= started + 0.05 - WRAP_UP_GUESS * WRAP_UP_DECAY**4
        # The reported time is the whole decision's, tree reuse included.
        assert searching - started <= analysis.time <= ended - started
        state = state.play(analysis.best)


def test_kmcts_without_reuse_starts_afresh() -> None:
    player = KernelMCTSPlayer(seed=1, reuse=False)
    state = parse_spec("nine-board").initial()
    player.analyze(state, Limits(nodes=5000))
    again = player.analyze(state, Limits(nodes=500))
    assert sum(info.visits or 0 for info in again.moves) == 500


def test_options_arrive_as_text() -> None:
    player = parse_player("kmcts:iterations=500:c=0.7:seed=2:reuse=0:guided=false:contempt=0.2:endgame=40:minimax=0.3")
    assert isinstance(player, KernelMCTSPlayer)
    assert (player.iterations, player.c, player.reuse, player.guided) == (500, 0.7, False, False)
    assert (player.contempt, player.endgame, player.minimax) == (0.2, 40, 0.3)
    searcher = parse_player("kalphabeta:depth=3:seed=1:threats=false")
    assert isinstance(searcher, KernelAlphaBetaPlayer)
    assert (searcher.defaults.depth, searcher.threats) == (3, False)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("kmcts:time=0", "time must be"),
        ("kmcts:iterations=1.5", "iterations must be a whole number"),
        ("kmcts:c=-1", "c must be"),
        ("kmcts:reuse=maybe", "reuse takes true or false"),
        ("kmcts:guided=2", "guided takes true or false"),
        ("kmcts:contempt=1.5", "contempt is a fraction of a loss"),
        ("kmcts:contempt=-0.1", "contempt must be"),
        ("kmcts:endgame=-1", "endgame must be"),
        ("kmcts:endgame=2.5", "endgame must be a whole number"),
        ("kmcts:minimax=1.5", "minimax is a share of the choice"),
        ("kmcts:minimax=-0.1", "minimax must be"),
        ("kalphabeta:depth=0", "depth must be"),
        ("kalphabeta:seed=x", "seed must be a whole number"),
    ],
)
def test_bad_options_are_refused(text: str, message: str) -> None:
    with pytest.raises(InvalidOptionError, match=message):
        parse_player(text)


@pytest.mark.parametrize("name", PLAYERS)
def test_other_games_and_finished_games_are_refused(name: str) -> None:
    with pytest.raises(InvalidOptionError, match="ultimate and nine-board"):
        make_player(name).analyze(parse_spec("ultimate:forget=true").initial())
    finished = parse_position("ultimate", ULTIMATE_WIN).play_text("33")
    assert finished.outcome is not None and finished.outcome.winner is Player.X
    with pytest.raises(IllegalMoveError, match="game is over"):
        make_player(name).analyze(finished)


def test_qubic_keeps_time_to_check_the_chosen_move_under_a_time_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    """The search stops early enough for the check that the chosen move leaves the
    opponent no forced win: with a time limit it used to take every second, and the
    check then never ran. Checked on the deadlines the search and the check are given
    (REFUTE_SHARE of the time kept back), not on a clock: how far a search overruns its
    deadline depends on the machine's load."""
    from noughts.kernels import negamax

    searched_until: list[float] = []
    checked_until: list[float] = []
    search_root, refute = negamax.search_root, _QubicGuard.refute

    def search(*args: Any) -> Any:
        searched_until.append(float(args[13]))  # search_end
        return search_root(*args)

    def check(self: _QubicGuard, state: State[Any], order: list[Any], values: Any, end: float) -> None:
        checked_until.append(end)
        refute(self, state, order, values, end)

    player = KernelAlphaBetaPlayer(seed=1)
    player.choose(parse_spec("qubic").initial(), Limits(depth=1))  # the kernels loaded
    monkeypatch.setattr(negamax, "search_root", search)
    monkeypatch.setattr(_QubicGuard, "refute", check)
    for state, _ in playout("qubic", 0)[4:20:4]:  # no forced win for the player to move
        searched_until.clear()
        player.analyze(state, Limits(time=0.5))
        assert searched_until  # the search ran, every depth with the same deadline
        assert set(searched_until) == {checked_until[-1] - 0.5 * KernelAlphaBetaPlayer.REFUTE_SHARE}
    assert len(checked_until) == 4
