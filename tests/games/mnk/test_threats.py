"""Threat-space search on m,n,k boards: every forced win it reports is checked move by
move with the game engine, on known positions and on seeded random ones."""

from __future__ import annotations

import random

import pytest

from noughts import Player, parse_position, parse_spec
from noughts.ai import Kind, make_player, parse_player
from noughts.core import InvalidOptionError, Outcome
from noughts.games.mnk.rules import MnkState
from noughts.games.mnk.threats import ThreatWin, TreeWin, applies, forced_win, replay, vcf, vct

#: X to move: e2 (four on row 2), c4 forced; f3 (four on the diagonal), g4 forced; e3
#: makes two fours, c3 and g3. Alpha-beta at depth 3 sees none of it.
SEVEN = ("mnk:m=7:n=7:k=4", "..xxox./xooo..o/...x.../......./......./......./....... x")
#: O to move; x threatens a win by fours in 7 plies (e3, d3, f4, d2, f2).
SEVEN_DEFEND = ("mnk:m=7:n=7:k=4", "......o/......o/.....xx/x.....o/.x....x/o....../....... o")
#: O to move wins by five fours; found by seeded random play.
FIFTEEN = (
    "mnk:m=15:n=15:k=5",
    "xo.o........ooo/oxxo.......oxxx/o.o.........xxx/.o..oxxo....x../.xo.o..x....o../"
    "..xx.x.......o./..o.x........../.xox.........../.xo............/.............../"
    ".............../.............../.............../.............../............... o",
)

#: O to move wins by threes in 9 plies (e4 first), not by fours alone.
SEVEN_THREES = ("mnk:m=7:n=7:k=4", "......./......./...o.../...o.../...x.../......./...x..x o")


def check_win(state: MnkState, win: ThreatWin) -> None:
    """Play `win` on the engine: after each attacker move the game is won, or every
    defender reply but the recorded block leaves the attacker a winning move (the block
    cell; at the end one of `finish`) and no reply wins for the defender."""
    attacker = state.turn
    line = win.line
    assert len(line) % 2 == 1 and len(line) + (2 if win.finish else 0) == win.plies
    for at in range(0, len(line), 2):
        state = state.play(line[at])
        if state.is_over:
            assert state.outcome is not None and state.outcome.winner is attacker
            assert at == len(line) - 1 and not win.finish
            return
        block = line[at + 1] if at + 1 < len(line) else None
        assert block is not None or len(win.finish) >= 2
        for reply in state.legal_moves():
            after = state.play(reply)
            assert not after.is_over, f"the defender's {state.move_text(reply)} ends the game"
            if reply == block:
                continue
            cells = [block] if block is not None else [c for c in win.finish if c != reply]
            assert any(after.play(c).outcome == Outcome(attacker) for c in cells), state.move_text(reply)
        if block is None:
            return
        state = state.play(block)
    raise AssertionError("the line ends without a win")


def check_tree(state: MnkState, within: int, nodes: int = 200_000) -> None:
    """`vct`'s claim that the player to move wins within `within` plies, checked by
    induction on the engine: its move, then every legal reply, each leaving a position
    with a shorter claimed win (a sequence of fours, by `check_win`, at the bottom)."""
    mine, theirs = (state.x, state.o) if state.turn is Player.X else (state.o, state.x)
    win = vct(state.game, mine, theirs, nodes)
    assert win is not None and win.plies <= within, (state.to_text(), win, within)
    if isinstance(win, ThreatWin):
        check_win(state, win)
        return
    after = state.play(win.move)
    assert not after.is_over
    for reply in after.legal_moves():
        child = after.play(reply)
        assert isinstance(child, MnkState) and not child.is_over
        check_tree(child, win.plies - 2, nodes)


def texts(state: MnkState, moves: tuple[int, ...]) -> list[str]:
    return [state.move_text(m) for m in moves]


def test_finds_the_seven_ply_win_on_7x7() -> None:
    state = parse_position(*SEVEN)
    assert isinstance(state, MnkState)
    win = forced_win(state)
    assert win is not None
    assert texts(state, win.line) == ["e2", "c4", "f3", "g4", "e3"]
    assert win.plies == 7
    check_win(state, win)


def test_finds_a_long_win_on_15x15() -> None:
    state = parse_position(*FIFTEEN)
    assert isinstance(state, MnkState)
    win = forced_win(state)
    assert win is not None and win.plies >= 9
    check_win(state, win)


def test_the_defender_s_four_must_be_blocked_first() -> None:
    """x has three in a row with an open end, but o's four must be filled first, and
    that block makes no four: no win by fours."""
    state = parse_position("mnk:m=7:n=7:k=4", "......./......./..xx.../..xo.../...o.../...o.../....... x")
    assert isinstance(state, MnkState)
    assert forced_win(state) is None


@pytest.mark.parametrize(("spec", "games"), [("mnk:m=7:n=7:k=4", 12), ("mnk:m=15:n=15:k=5", 3)])
def test_every_win_found_in_random_games_is_real(spec: str, games: int) -> None:
    """Seeded random games played near the marks already down, so that fours and near
    misses abound: each win found is verified on the engine."""
    game = parse_spec(spec)
    rng = random.Random(7)
    found = 0
    for _ in range(games):
        state = game.initial()
        while not state.is_over:
            assert isinstance(state, MnkState)
            win = forced_win(state)
            if win is not None:
                check_win(state, win)
                found += 1
            state = state.play(rng.choice(_near(state)))
    assert found >= games  # the check really ran


def _near(state: MnkState) -> list[int]:
    m, cells = state.game.m, state.game.cells
    taken = state.x | state.o
    moves = state.legal_moves()
    steps = (-m - 1, -m, -m + 1, -1, 1, m - 1, m, m + 1)
    near = [c for c in moves if any(0 <= c + s < cells and taken >> (c + s) & 1 for s in steps)]
    return near or moves


def test_finds_a_win_by_threes_and_every_reply_loses() -> None:
    state = parse_position(*SEVEN_THREES)
    assert isinstance(state, MnkState)
    assert forced_win(state) is None
    win = vct(state.game, state.o, state.x)
    assert isinstance(win, TreeWin) and state.move_text(win.move) == "e4" and win.plies == 9
    check_tree(state, win.plies)


@pytest.mark.slow
def test_every_win_by_threes_in_random_games_is_real() -> None:
    game = parse_spec("mnk:m=7:n=7:k=4")
    rng = random.Random(3)
    trees = 0
    for _ in range(2):
        state = game.initial()
        while not state.is_over:
            assert isinstance(state, MnkState)
            mine, theirs = (state.x, state.o) if state.turn is Player.X else (state.o, state.x)
            win = vct(game, mine, theirs, nodes=5000)
            if isinstance(win, TreeWin):
                check_tree(state, win.plies)
                trees += 1
            state = state.play(rng.choice(_near(state)))
    assert trees


def test_replay_checks_a_known_line_in_another_position() -> None:
    state = parse_position(*SEVEN)
    assert isinstance(state, MnkState)
    win = forced_win(state)
    assert win is not None
    game = state.game
    assert replay(game, state.x, state.o, win.attacker_moves) == ThreatWin(win.line, win.finish, 0)
    # An o mark on the first move's cell, or on a cell of the closing double four,
    # breaks the line; one far away does not.
    for cell, holds in ((win.line[0], False), (win.finish[0], False), (game.parse_move("a7"), True)):
        again = replay(game, state.x, state.o | 1 << cell, win.attacker_moves)
        assert (again is not None) is holds, game.move_text(cell)


def test_a_node_cap_stops_the_search() -> None:
    state = parse_position(*FIFTEEN)
    assert isinstance(state, MnkState)
    assert forced_win(state, nodes=2) is None
    assert vcf(state.game, state.o, state.x, nodes=2) is None


def test_only_mnk_boards_without_forget() -> None:
    assert applies(parse_spec("mnk:m=7:n=7:k=4"))
    assert not applies(parse_spec("mnk:m=7:n=7:k=4:forget=true:keep=5"))
    assert not applies(parse_spec("qubic"))


# -- the player -----------------------------------------------------------------------


def test_alphabeta_plays_the_forced_win_and_reports_its_distance() -> None:
    state = parse_position(*SEVEN)
    plain = make_player("alphabeta", depth=3).analyze(state)
    assert plain.value.kind is Kind.SCORE  # beyond its horizon
    for method in ("analyze", "choose"):
        player = make_player("alphabeta", depth=3, threats=True)
        if method == "choose":
            assert state.move_text(player.choose(state)) == "e2"
            continue
        analysis = player.analyze(state)
        assert analysis.moves[0].text == "e2"
        assert analysis.value.kind is Kind.WIN and analysis.value.plies == 7
        assert analysis.pv == ["e2", "c4", "f3", "g4", "e3"]
        assert len(analysis.moves) == len(state.legal_moves())


def test_alphabeta_stops_the_opponent_s_forced_win() -> None:
    state = parse_position(*SEVEN_DEFEND)
    assert isinstance(state, MnkState)
    plain = make_player("alphabeta", depth=2).choose(state)
    assert forced_win(state.play(plain)) is not None  # without the option it loses
    player = make_player("alphabeta", depth=2, threats=True)
    move = player.choose(state)
    assert forced_win(state.play(move), nodes=1_000_000) is None
    analysis = player.analyze(state)
    assert analysis.best == move
    # The moves it walked past are reported as losses, each checked on the engine.
    losses = [info for info in analysis.moves if info.value.kind is Kind.LOSS]
    assert losses
    for info in losses:
        child = state.play(info.move)
        assert isinstance(child, MnkState)
        win = forced_win(child, nodes=1_000_000)
        assert win is not None and info.value.plies is not None and info.value.plies <= win.plies + 1
        check_win(child, win)


def test_the_option_changes_nothing_elsewhere() -> None:
    state = parse_position("classic", "xx./oo./x.. o")
    with_threats = make_player("alphabeta", depth=3, threats=True, seed=1).analyze(state)
    without = make_player("alphabeta", depth=3, seed=1).analyze(state)
    assert with_threats.lines() == without.lines()


def test_with_threes_alphabeta_also_plays_wins_by_threes() -> None:
    state = parse_position(*SEVEN_THREES)
    assert make_player("alphabeta", depth=2, threats=True).analyze(state).value.kind is not Kind.WIN
    analysis = parse_player("alphabeta:depth=2:threats=true:threes=true").analyze(state)
    assert analysis.moves[0].text == "e4"
    assert analysis.value.text == "win in at most 9"  # a threat search's plies: a bound


def test_threes_needs_threats() -> None:
    with pytest.raises(InvalidOptionError, match="threes needs threats=true"):
        make_player("alphabeta", threes=True)
