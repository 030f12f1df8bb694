"""Lag compensation and the server's pauses, as lichess's clocks bound them."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from noughts.competition.clock import Lag, Pauses, lag_gain

gains = st.sampled_from([lag_gain(ms, inc) for ms in (600, 15_000, 60_000, 180_000, 600_000) for inc in (0, 2_000)])


@given(gains, st.lists(st.integers(-5_000, 60_000), max_size=40))
def test_what_is_given_back_never_exceeds_the_quota_nor_the_delay(gain: int, delays: list[int]) -> None:
    lag = Lag.start(gain)
    total_given = 0
    for delay in delays:
        given_back, after = lag.compensate(delay, gain)
        assert 0 <= given_back <= max(0, delay) and given_back <= lag.quota_ms
        assert 0 <= after.quota_ms <= 7 * gain and 0 <= after.grace_ms <= after.quota_ms
        total_given += given_back
        lag = after
    # Over a game a player is given back at most the start's quota and a gain a move.
    assert total_given <= 3 * gain + gain * len(delays)


def test_the_gain_follows_the_games_length() -> None:
    assert [lag_gain(ms, 0) for ms in (5_000, 15_000, 30_000, 100_000, 180_000, 3_600_000)] == [
        200, 200, 250, 600, 1000, 1000,
    ]  # fmt: skip
    assert lag_gain(60_000, 1_000) == lag_gain(100_000, 0)  # 1+1 is as long as 1:40


@given(st.lists(st.tuples(st.integers(0, 10_000), st.integers(0, 2_000)), max_size=20), st.integers(0, 12_000))
def test_pauses_within_a_span_count_each_millisecond_once(spans: list[tuple[int, int]], start: int) -> None:
    pauses = Pauses()
    covered: set[int] = set()
    # Recorded as they end (as the watcher records them), overlapping or not.
    for begin, length in sorted(spans, key=lambda span: span[0] + span[1]):
        pauses.record(begin, begin + length)
        covered.update(range(begin, begin + length))
    end = start + 3_000
    assert pauses.within(start, end) == len([ms for ms in covered if start <= ms < end])


def test_old_pauses_are_dropped() -> None:
    pauses = Pauses(keep_ms=1_000)
    pauses.record(0, 100)
    pauses.record(5_000, 5_100)
    assert (pauses.within(0, 200), pauses.within(4_000, 6_000)) == (0, 100)
