"""The rules of online games as pure functions: joins, moves, clocks, offers."""

from __future__ import annotations

from dataclasses import replace

import pytest

from noughts.competition import clock
from noughts.server.online import actions
from noughts.server.online.actions import ActionError, GameRow

ANN, BOB, EVE = 1, 2, 3


def open_row(creator: int = ANN, **fields: object) -> GameRow:
    """An open room of classic by `creator`, who plays X."""
    row = GameRow(
        id=actions.new_game_id(), spec="classic", rated=False, private=False, creator_id=creator, creator_side="x",
        x_id=None, o_id=None, state=actions.OPEN, result="ongoing", termination=None, moves="", ply=0, version=0,
        clock_initial_ms=None, clock_increment_ms=None, x_ms=None, o_ms=None, turn_started_at=None, draw_offer=None,
        takeback_offer=None, rematch_offer=None, rematch_id=None, x_left_at=None, o_left_at=None,
        x_rating_before=None, x_rating_after=None, o_rating_before=None, o_rating_after=None, created_at=0,
        started_at=None, ended_at=None,
    )  # fmt: skip
    return replace(row, **fields)  # type: ignore[arg-type]


def playing(*moves: str, **fields: object) -> GameRow:
    row = actions.join(open_row(**fields), BOB, False, 0).row
    for i, move in enumerate(moves):
        row = actions.move(row, ANN if i % 2 == 0 else BOB, move, i, 0).row
    return row


def test_join_settles_sides() -> None:
    assert actions.join(open_row(creator_side="o"), BOB, False, 5).row.x_id == BOB
    randomly = actions.join(open_row(creator_side="random"), BOB, False, 5, coin="o").row
    assert (randomly.x_id, randomly.o_id, randomly.state, randomly.version) == (BOB, ANN, "playing", 1)


@pytest.mark.parametrize(
    ("row", "user", "guest", "error"),
    [
        (open_row(), ANN, False, "own-room"),
        (open_row(rated=True), BOB, True, "guest-rated"),
        (open_row(state="playing"), BOB, False, "room-closed"),
    ],
)
def test_join_refusals(row: GameRow, user: int, guest: bool, error: str) -> None:
    with pytest.raises(ActionError) as refused:
        actions.join(row, user, guest, 0)
    assert refused.value.error == error


def test_a_winning_move_ends_the_game() -> None:
    row = playing("1", "4", "2", "5", "3")
    assert (row.state, row.result, row.termination, row.ply) == ("over", "x-wins", "normal", 5)


@pytest.mark.parametrize(
    ("moves", "user", "text", "ply", "error"),
    [
        ((), BOB, "5", 0, "not-your-turn"),
        ((), EVE, "5", 0, "not-a-player"),
        (("5",), BOB, "5", 1, "illegal-move"),
        (("5",), BOB, "0", 1, "invalid-move"),
        (("5",), BOB, "1", 0, "stale-ply"),
    ],
)
def test_move_refusals(moves: tuple[str, ...], user: int, text: str, ply: int, error: str) -> None:
    with pytest.raises(ActionError) as refused:
        actions.move(playing(*moves), user, text, ply, 0)
    assert refused.value.error == error


def test_clock_starts_after_both_have_moved_and_flags() -> None:
    row = playing(clock_initial_ms=1000, clock_increment_ms=100)
    row = actions.move(row, ANN, "5", 0, 10_000).row
    row = actions.move(row, BOB, "1", 1, 20_000).row  # untimed: both clocks still full
    assert (row.x_ms, row.o_ms, row.deadline()) == (1000, 1000, 21_000)
    row = actions.move(row, ANN, "9", 2, 20_400).row  # 400 ms spent, 100 ms added
    assert (row.x_ms, row.deadline()) == (700, 21_400)
    assert row.clocks(20_900) == clock.Clocks(700, 500, "o")
    late = actions.move(row, BOB, "3", 3, 21_400)
    assert (late.kind, late.row.result, late.row.termination, late.row.ply) == ("flag", "x-wins", "time", 3)


def test_takeback_rewinds_to_before_the_askers_last_move() -> None:
    row = playing("5", "1", "9")
    asked = actions.act(row, BOB, "takeback-request", 0, 0).row
    back = actions.act(asked, ANN, "takeback-accept", 0, 0)
    assert (back.row.moves, back.truncate_to) == ("5", 1)


def test_claim_needs_the_opponent_away_long_enough() -> None:
    row = playing("5", "1", o_left_at=None)
    with pytest.raises(ActionError, match="connected"):
        actions.act(row, ANN, "claim", 10_000, 5000)
    away = replace(row, o_left_at=8000)
    with pytest.raises(ActionError, match="in 3 s"):
        actions.act(away, ANN, "claim", 10_000, 5000)
    won = actions.act(away, ANN, "claim", 13_000, 5000).row
    assert (won.result, won.termination) == ("x-wins", "abandoned")


def test_a_game_both_players_left_is_ended_as_a_claim_would_end_it() -> None:
    row = replace(playing("5", "1"), x_left_at=1000, o_left_at=3000)
    with pytest.raises(ActionError) as refused:
        actions.abandon(row, 5999, 5000)  # the first left only 4,999 ms ago
    assert refused.value.error == "not-abandoned"
    ended = actions.abandon(row, 6000, 5000)
    assert (ended.kind, ended.row.state, ended.row.result, ended.row.termination) == (
        "claim",
        "over",
        "o-wins",  # X left first
        "abandoned",
    )
    early = actions.abandon(replace(playing("5"), x_left_at=1000, o_left_at=1000), 8000, 5000)
    assert (early.kind, early.row.state) == ("abort", "aborted")
    with pytest.raises(ActionError):
        actions.abandon(ended.row, 9000, 5000)


@pytest.mark.parametrize(
    ("moves", "away", "state", "result"),
    [
        (("5", "1", "9"), "x", "over", "o-wins"),
        (("5", "1", "9"), "o", "over", "x-wins"),
        (("5", "1"), "o", "over", "x-wins"),
        (("5",), "x", "aborted", "ongoing"),  # before the second move: aborted
        ((), "o", "aborted", "ongoing"),
    ],
)
def test_the_server_ends_a_game_one_player_left_whoever_stays(
    moves: tuple[str, ...], away: str, state: str, result: str
) -> None:
    """Issue 41: a game whose present player never claims (an engine bot) stayed in
    play forever. The player away for `after_ms` loses (or the game is aborted)."""
    row = replace(playing(*moves), **{f"{away}_left_at": 1000})  # type: ignore[arg-type]
    with pytest.raises(ActionError) as refused:
        actions.abandon(row, 5999, 5000)
    assert refused.value.error == "not-abandoned"
    ended = actions.abandon(row, 6000, 5000).row
    assert (ended.state, ended.result) == (state, result)
    assert ended.termination == ("abandoned" if state == "over" else None)
    with pytest.raises(ActionError) as here:
        actions.abandon(replace(row, x_left_at=None, o_left_at=None), 60_000, 5000)
    assert here.value.error == "not-abandoned"
    correspondence = replace(row, days_per_move=3)
    with pytest.raises(ActionError, match="correspondence"):
        actions.abandon(correspondence, 60_000, 5000)


@pytest.mark.parametrize(("moves", "late"), [((), "x"), (("5",), "o"), (("1",), "o")])
def test_a_first_move_not_made_in_time_aborts_the_game(moves: tuple[str, ...], late: str) -> None:
    """Both players may be connected: a player who does not start (a stuck program, a
    player gone without closing the page) is marked away since their turn began."""
    row = replace(playing(*moves), turn_started_at=2000)
    with pytest.raises(ActionError) as early:
        actions.no_show(row, 6999, 5000)
    assert early.value.error == "not-late"
    aborted = actions.no_show(row, 7000, 5000)
    assert (aborted.kind, aborted.row.state, aborted.row.result) == ("abort", "aborted", "ongoing")
    assert (aborted.row.x_left_at, aborted.row.o_left_at) == ((2000, None) if late == "x" else (None, 2000))
    already = actions.no_show(replace(row, **{f"{late}_left_at": 1500}), 7000, 5000).row  # type: ignore[arg-type]
    assert (already.x_left_at if late == "x" else already.o_left_at) == 1500  # away before: kept
    with pytest.raises(ActionError) as started:
        actions.no_show(replace(playing("5", "1"), turn_started_at=0), 60_000, 5000)
    assert started.value.error == "started"
    with pytest.raises(ActionError, match="correspondence"):
        actions.no_show(replace(row, days_per_move=3), 60_000, 5000)
    with pytest.raises(ActionError):
        actions.no_show(aborted.row, 60_000, 5000)


def _clocked(initial_ms: int = 300_000) -> GameRow:
    """A game of 5 minutes a side whose clocks run: both have moved, o's move at 0."""
    row = playing(clock_initial_ms=initial_ms, clock_increment_ms=0)
    row = actions.move(row, ANN, "5", 0, -20_000).row
    return actions.move(row, BOB, "1", 1, 0).row


def test_the_networks_delay_is_given_back_up_to_the_quota() -> None:
    row = _clocked()
    gain = clock.lag_gain(300_000, 0)
    assert (gain, row.lag("x")) == (1000, clock.Lag(3000))
    # x thought 2 s by its own clock; the server counted 2.3 s: 300 ms were the network's.
    timed = actions.move(row, ANN, "9", 2, 2_300, actions.MoveTiming(spent_ms=2_000)).row
    assert timed.x_ms == 298_000
    assert timed.lag("x") == clock.Lag(3000 - 300 + 1000, 60)
    # A client that says it spent nothing after 20 s gets its quota back, no more.
    lying = actions.move(row, ANN, "9", 2, 20_000, actions.MoveTiming(spent_ms=0)).row
    assert (lying.x_ms, lying.lag("x").quota_ms) == (300_000 - 17_000, 1000)
    # Without its timing, the lag it reports (or none) is what is given back.
    assert actions.move(row, ANN, "9", 2, 5_000, actions.MoveTiming(lag_ms=150)).row.x_ms == 295_150
    assert actions.move(row, ANN, "9", 2, 5_000).row.x_ms == 295_000


def test_the_servers_pauses_are_given_back_whole_and_spend_no_quota() -> None:
    row = _clocked()
    # The server stood still 2 s of the 5 the turn took; x timed 3 s: nothing was x's.
    moved = actions.move(row, ANN, "9", 2, 5_000, actions.MoveTiming(paused_ms=2_000, spent_ms=3_000)).row
    assert (moved.x_ms, moved.lag("x").quota_ms) == (297_000, 3000 + 1000)
    # A pause longer than the turn gives back the turn, not more.
    whole = actions.move(row, ANN, "9", 2, 1_000, actions.MoveTiming(paused_ms=9_000)).row
    assert whole.x_ms == 300_000


def test_a_move_on_its_way_beats_the_flag_and_a_late_one_loses() -> None:
    row = replace(_clocked(initial_ms=60_000), x_ms=1_000, x_lag_quota_ms=1_200, x_lag_ms=400)
    # x's clock shows 0 at 1,000; their grace is their recent lag (400 ms).
    assert (row.clock_end(), row.deadline()) == (1_000, 1_400)
    with pytest.raises(ActionError, match="nobody's time"):
        actions.act(row, None, "flag", 1_399, 0)
    assert actions.act(row, None, "flag", 1_400, 0).kind == "flag"
    # The server stood still 500 ms meanwhile: the flag falls that much later.
    with pytest.raises(ActionError, match="nobody's time"):
        actions.act(row, None, "flag", 1_800, 0, paused_ms=500)
    # A move the server counted 1.3 s for, timed 0.95 s by x, keeps x in the game.
    on_time = actions.move(row, ANN, "9", 2, 1_300, actions.MoveTiming(spent_ms=950))
    assert (on_time.kind, on_time.row.x_ms) == ("move", 50)
    late = actions.move(row, ANN, "9", 2, 1_300, actions.MoveTiming(spent_ms=1_290))
    assert (late.kind, late.row.termination) == ("flag", "time")


def test_correspondence_has_no_lag_compensation() -> None:
    row = replace(_clocked(), days_per_move=1, clock_initial_ms=86_400_000, x_ms=86_400_000)
    assert row.lag_gain == 0 and row.deadline() == row.clock_end()
    moved = actions.move(row, ANN, "9", 2, 10_000, actions.MoveTiming(spent_ms=0)).row
    assert moved.x_lag_quota_ms is None
