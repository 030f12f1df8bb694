"""gobblet's solved table (noughts.ai.gobblet_table), checked against the rules.

The quick tests solve the smallest figure set that can make a line (one figure of each
size, ``gobblet:copies=1``: 94,342 classes, built in a second through the same code as
the published game) and check it move by move against the readable rules. The slow ones
check that set against a second method over the State protocol on every reachable
position (tests/reference/gobblet_solve_ref.py: its counts, and each position's value
against its moves by the rules, which proves the whole table right), and the
published game's table (when ``noughts solve gobblet`` has built it into the cache:
minutes) on samples and games.
"""

from __future__ import annotations

import random
import threading
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from noughts.ai import gobblet_strategy, gobblet_table
from noughts.ai.base import Kind, Limits, make_player
from noughts.ai.levels import level_player
from noughts.ai.solve import PerfectPlayer, _negate, _rank
from noughts.core import Player, State
from noughts.games.gobblet import Gobblet, GobbletState
from noughts.kernels import gobblet as kernels
from reference import gobblet_solve_ref as gobblet_rules_reference

from support import the_users_gobblet_table

SMALL = Gobblet(copies=1)


@pytest.fixture(autouse=True)
def _tmp_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NOUGHTS_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(gobblet_table, "_TABLES", {})


def _fresh(state: GobbletState) -> GobbletState:
    return GobbletState._make(state.game, state.board, state.turn, ())


def _check_moves(table: gobblet_table.GobbletTable, state: GobbletState) -> None:
    """The table's code of `state` is the best of its moves' codes, by the rules."""
    if state.outcome is not None:
        assert table.code(state) == (1 if state.outcome.winner is state.turn else -1), state.to_text()
        return
    best = max((_negate(table.code(_fresh(state.play(m)))) for m in state.legal_moves()), key=_rank)
    assert table.code(state) == best, state.to_text()


def _random_positions(game: Gobblet, seed: int, games: int) -> list[GobbletState]:
    rng = random.Random(seed)
    found = []
    for _ in range(games):
        state = _fresh(game.initial())
        while True:
            found.append(state)
            if state.outcome is not None or len(found) % 40 == 0:
                break
            state = _fresh(state.play(rng.choice(state.legal_moves())))
    return found


@pytest.mark.slow  # make test-slow, for make test's 6 minutes
def test_small_set_agrees_with_the_rules_move_by_move() -> None:
    table = gobblet_table.solve(SMALL)
    for state in _random_positions(SMALL, seed=1, games=100):
        _check_moves(table, state)


def test_small_set_counts_and_start() -> None:
    counts = gobblet_table.counts(SMALL)
    # Reproduced by a plain search over the rules in the slow test below.
    assert counts["positions"] == 1_494_118
    assert counts["terminal_positions"] == 94_080
    assert counts["classes"] == 94_342
    table = gobblet_table.solve(SMALL)
    assert table.positions == counts["positions"]
    assert table.start_value.kind is Kind.DRAW  # one figure of each size: no forced win


def test_every_symmetry_and_colour_has_one_slot() -> None:
    table = gobblet_table.solve(SMALL)
    state = SMALL.parse_position(".,S,l/.,L,./.,.,. o")
    mirrored = SMALL.parse_position("l,S,./.,L,./.,.,. o")
    swapped = SMALL.parse_position(".,s,L/.,l,./.,.,. x")
    assert table.index(state) == table.index(mirrored) == table.index(swapped)


@pytest.mark.parametrize(("sizes", "copies"), [(3, 2), (3, 1), (2, 2), (1, 2)])
def test_the_plain_index_is_the_kernels_index(sizes: int, copies: int) -> None:
    """`Classes` (the shipped books' keys) and `small` read a plain-Python index, so that
    they need neither numpy nor numba: it is the kernels' one."""
    plain, lay = gobblet_table._index(sizes, copies), kernels.layout(sizes, copies)
    assert plain.comp_of == {int(key): i for key, i in enumerate(lay.comp_of.tolist()) if i >= 0}
    assert plain.sym == lay.sym.tolist()
    assert plain.rank == lay.rank.tolist()
    assert plain.slots == lay.slots


def test_build_resumes_from_a_checkpoint(monkeypatch: pytest.MonkeyPatch) -> None:
    # Two sizes, two copies: wins up to 33 plies away, so the build has many levels.
    game = Gobblet(sizes=2)
    monkeypatch.setattr(gobblet_table, "_CHECKPOINT_EVERY", 0.0)
    monkeypatch.setattr(gobblet_table, "SMALL_SLOTS", 0)  # checkpoints as for the big one

    def stop(phase: str, fraction: float, seconds: float) -> None:
        if phase == "depth 5":
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        gobblet_table.solve(game, stop)
    assert gobblet_table.load(game) is None
    resumed: list[str] = []
    table = gobblet_table.solve(game, lambda phase, fraction, seconds: resumed.append(phase))
    assert resumed[0] == "depth 5"  # not the first pass again, nor the levels before
    values = np.array(table.values)
    monkeypatch.setattr(gobblet_table, "_TABLES", {})
    gobblet_table._values_path(game).unlink()
    assert (np.asarray(gobblet_table.solve(game).values) == values).all()
    assert gobblet_table.solve(game).start_value.kind is Kind.DRAW


def test_the_progress_shows_the_time_left_at_the_pace_so_far() -> None:
    # Half the work in 2 minutes: 2 more at that pace (issue 56: no time left was shown).
    assert gobblet_table.progress_line("depth 7", 0.5, 120.0).endswith("50.0% depth 7, 2.0 min, about 2.0 min left")
    assert gobblet_table.time_left(0.25, 60.0) == 180.0
    assert "left" not in gobblet_table.progress_line("classes", 0.005, 3.0)  # too early to tell
    assert "left" not in gobblet_table.progress_line("reachable, ply 4", 1.0, 30.0)


def test_an_interrupted_build_says_what_it_kept(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from noughts.cli import main

    game = Gobblet(sizes=2)
    assert "no checkpoint was written yet" in gobblet_table.kept(game)
    monkeypatch.setattr(gobblet_table, "_CHECKPOINT_EVERY", 0.0)
    monkeypatch.setattr(gobblet_table, "SMALL_SLOTS", 0)  # checkpoints as for the big one

    def ctrl_c(phase: str, fraction: float, seconds: float) -> None:
        if phase == "depth 5":
            raise KeyboardInterrupt

    monkeypatch.setattr(gobblet_table, "stderr_progress", ctrl_c)
    assert main(["solve", "gobblet:sizes=2"]) == 130
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1, err
    assert err[0].startswith("noughts solve: stopped; kept the build's checkpoint (its levels up to depth 5")
    assert err[0].endswith("`noughts solve gobblet:sizes=2` again resumes from it")
    resumed: list[str] = []
    gobblet_table.solve(game, lambda phase, fraction, seconds: resumed.append(phase))
    assert resumed[0] == "depth 5"


def test_threads_in_small_pieces_build_the_same_table_as_one(monkeypatch: pytest.MonkeyPatch) -> None:
    # Pieces of 4,096 slots and a buffer of 200 entries make every pass run on both
    # threads, and collecting stop (its buffer full) and resume hundreds of times.
    game = SMALL
    monkeypatch.setattr(gobblet_table, "threads", lambda: 1)
    one = np.array(gobblet_table.solve(game).values)
    one_counts = gobblet_table.counts(game)
    for name in ("values.npy", "counts.json"):
        gobblet_table._file(game, name).unlink()
    monkeypatch.setattr(gobblet_table, "_TABLES", {})
    monkeypatch.setattr(gobblet_table, "threads", lambda: 2)
    monkeypatch.setattr(gobblet_table, "_CHUNK", 512)
    monkeypatch.setattr(gobblet_table, "_buffer", lambda: np.empty(200, dtype=np.int64))
    stops = {"level_collect": 0, "reach_collect": 0}
    for kernel in stops:
        real_kernel = getattr(kernels, kernel)

        def counted(lo: int, hi: int, *rest: Any, _kernel: Any = real_kernel, _name: str = kernel) -> Any:
            result = _kernel(lo, hi, *rest)
            stops[_name] += result[0] < hi  # stopped before the piece's end: the buffer was full
            return result

        monkeypatch.setattr(kernels, kernel, counted)
    names: set[str] = set()
    real = gobblet_table._in_threads

    def watched(task: Any, pieces: list[tuple[int, int]], done: Any) -> None:
        def named(lo: int, hi: int) -> Any:
            names.add(threading.current_thread().name)
            return task(lo, hi)

        real(named, pieces, done)

    monkeypatch.setattr(gobblet_table, "_in_threads", watched)
    two = np.array(gobblet_table.solve(game).values)
    assert len([n for n in names if n.startswith("gobblet")]) == 2
    assert (one == two).all()
    assert gobblet_table.counts(game) | {"seconds": 0} == one_counts | {"seconds": 0}
    assert stops["level_collect"] > 100 and stops["reach_collect"] > 100


def test_perfect_never_loses_the_small_set() -> None:
    table = gobblet_table.solve(SMALL)
    rng = random.Random(3)
    for side in (Player.X, Player.O):
        _play_checked(SMALL, table, side, level_player(SMALL, "medium", seed=1), rng)
        for _ in range(3):
            _play_checked(SMALL, table, side, None, rng)


def test_a_player_with_a_clock_never_starts_the_big_build() -> None:
    state = Gobblet().initial().play_text("L5").play_text("M1").play_text("S9")  # past the opening book
    analysis = PerfectPlayer().analyze(state, Limits(time=0.2))
    # Only what the shipped strategy plays to the end is valued (gobblet_strategy.kept_value).
    for info in analysis.moves:
        kept = gobblet_strategy.kept_value(state.play(info.move))
        assert info.value.kind is Kind.UNKNOWN if kept is None else info.value == kept.negated(1), info
    assert not gobblet_table.is_built(Gobblet())
    # max falls back to its search meanwhile.
    analysis = level_player(Gobblet(), "max", seed=1).analyze(state, Limits(time=0.3))
    assert analysis.moves and not gobblet_table.is_built(Gobblet())


@pytest.mark.slow
@pytest.mark.timeout(3600)  # 188,674 classes of positions through the readable rules: minutes
def test_small_set_agrees_with_a_second_method_on_every_position() -> None:
    table = gobblet_table.solve(SMALL)
    reached = gobblet_rules_reference.reach(SMALL)
    counts = gobblet_table.counts(SMALL)
    assert reached.positions == counts["positions"]
    assert reached.symmetric_positions == counts["symmetric_positions"]
    assert reached.classes == counts["classes"]
    assert reached.terminal_positions == counts["terminal_positions"]
    assert reached.terminal_symmetric_positions == counts["terminal_symmetric_positions"]
    assert reached.terminal_classes == counts["terminal_classes"]
    assert gobblet_rules_reference.check(reached, table.code) == []


# -- the published game (slow: its table takes minutes to build) ------------------------


@pytest.fixture
def full_table(monkeypatch: pytest.MonkeyPatch) -> gobblet_table.GobbletTable:
    """The published game's table (see `the_users_gobblet_table`: minutes to build, so
    ``make test-slow`` builds it before the tests)."""
    table: gobblet_table.GobbletTable = the_users_gobblet_table(monkeypatch)
    return table


@pytest.mark.slow
@pytest.mark.timeout(1800)
def test_full_table_agrees_with_the_rules_on_samples_and_game_ends(full_table: gobblet_table.GobbletTable) -> None:
    game = Gobblet()
    for state in _random_positions(game, seed=5, games=300):
        _check_moves(full_table, state)
        _check_short(full_table, state, 2)
    # The last plies of random games, searched exactly over the rules to their end.
    rng = random.Random(6)
    for _ in range(40):
        state = _fresh(game.initial())
        trail = [state]
        while state.outcome is None:
            state = _fresh(state.play(rng.choice(state.legal_moves())))
            trail.append(state)
        for before_end in trail[-4:]:
            _check_short(full_table, before_end, 3)


def _short(state: GobbletState, depth: int) -> int | None:
    """The code of `state` when a plain negamax over the rules proves it within `depth`
    plies (every win or loss that near, with its distance), else None."""
    if state.outcome is not None:
        return 1 if state.outcome.winner is state.turn else -1
    if depth == 0:
        return None
    codes = [_short(_fresh(state.play(m)), depth - 1) for m in state.legal_moves()]
    wins = [_negate(c) for c in codes if c is not None and c < 0]
    if wins:
        return min(wins)  # the quickest: every win within reach was found
    if all(c is not None and c > 0 for c in codes):
        return min(_negate(c) for c in codes if c is not None)  # the slowest loss
    return None


def _check_short(table: gobblet_table.GobbletTable, state: GobbletState, depth: int) -> None:
    code = table.code(state)
    near = code != 0 and abs(code) - 1 <= depth
    assert _short(state, depth) == (code if near else None), state.to_text()


def _play_checked(
    game: Gobblet, table: gobblet_table.GobbletTable, perfect_side: Player, opponent: Any, rng: random.Random
) -> None:
    """A game of perfect as `perfect_side` against `opponent` (a player, or None for
    random moves after a random opening ply): perfect never turns a won or drawn
    position into a worse one, so it loses only where the table said it was lost."""
    perfect = make_player("perfect")
    state: State[Any] = game.initial()
    if opponent is None:
        state = state.play(rng.choice(state.legal_moves()))
    first = None
    while not state.is_over:
        if state.turn is perfect_side:
            before = table.value(state)
            first = first or before
            state = state.play(perfect.choose(state))
            after = table.value(state).negated()
            assert after.kind is before.kind, state.to_text()
        elif opponent is None:
            state = state.play(rng.choice(state.legal_moves()))
        else:
            state = state.play(opponent.choose(state, Limits(time=1)))
    assert state.outcome is not None and first is not None
    if first.kind is Kind.WIN:
        assert state.outcome.winner is perfect_side
    elif first.kind is Kind.DRAW:
        assert state.outcome.winner in (perfect_side, None)


@pytest.mark.slow
@pytest.mark.timeout(1800)
@pytest.mark.parametrize(("side", "games"), [(Player.X, 200), (Player.O, 100)])
def test_perfect_loses_only_lost_positions_in_the_published_game(
    full_table: gobblet_table.GobbletTable, side: Player, games: int
) -> None:
    game = Gobblet()
    rng = random.Random(7)
    for level in ("easy", "medium", "hard", "max"):
        _play_checked(game, full_table, side, level_player(game, level, seed=1), rng)
    for _ in range(games):
        _play_checked(game, full_table, side, None, rng)


@pytest.mark.slow
@pytest.mark.timeout(1800)
def test_max_as_x_wins_from_the_start_against_every_reply(full_table: gobblet_table.GobbletTable) -> None:
    """The level `max` as x, with the table (issue 40, item 7): after its first move each
    of o's replies, o then played on by `hard` and by random moves (seeded per game),
    and x wins every game, as the start's value (x wins in 13) says it must."""
    game = Gobblet()
    start = game.initial()
    assert full_table.value(start).kind is Kind.WIN
    first = level_player(game, "max", seed=1).decide(start).best
    after = start.play(first)
    for index, reply in enumerate(after.legal_moves()):
        rng = random.Random(index)
        for opponent in (level_player(game, "hard", seed=index), None):
            x = level_player(game, "max", seed=index)
            state: State[Any] = after.play(reply)
            while not state.is_over:
                if state.turn is Player.X:
                    state = state.play(x.choose(state))
                elif opponent is None:
                    state = state.play(rng.choice(state.legal_moves()))
                else:
                    state = state.play(opponent.choose(state))
            assert state.outcome is not None
            assert state.outcome.winner is Player.X, (start.move_text(first), after.move_text(reply), opponent)
