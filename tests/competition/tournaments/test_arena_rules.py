"""An arena's points and pairings (no database), as lichess scores and pairs."""

from __future__ import annotations

from noughts.competition.tournaments.arena import ArenaGame, Waiting, pair_waiting, standings


def test_streaks_double_the_points_until_a_game_that_is_not_a_win() -> None:
    r = {1: 1500.0, 2: 1500.0}
    # 1: win 2, win 2, win 4 (on fire), draw 2 (ends the fire), win 2, loss 0, aborted (nothing).
    results = ["x", "x", "x", "draw", "x", "o", None]
    table = {s.id: s for s in standings(r, [ArenaGame(1, 2, w, 1500, 1500) for w in results])}
    assert (table[1].score, table[1].sheet, table[1].games, table[1].wins) == (12, "2 2 4 2 2 0", 6, 4)
    assert (table[2].score, table[2].sheet) == (3, "0 0 0 1 0 2")
    assert not table[1].on_fire
    three = standings(r, [ArenaGame(1, 2, "x", 1500, 1500)] * 2)
    assert three[0].id == 1 and three[0].on_fire


def test_rank_by_score_then_performance() -> None:
    r = {1: 1500.0, 2: 1500.0, 3: 1500.0, 4: 1500.0}
    # 1 beat a 1900 player, 3 beat a 1100 one: same score, 1's performance is higher.
    games = [ArenaGame(3, 4, "x", 1500, 1100), ArenaGame(1, 2, "x", 1500, 1900)]
    table = standings(r, games)
    assert [(s.rank, s.id, s.score, s.performance) for s in table] == [
        (1, 1, 2, 2400), (2, 3, 2, 1600), (3, 2, 0, 1000), (4, 4, 0, 1000)
    ]  # fmt: skip
    assert table[3].performance == 1000 and standings({5: 1500.0}, [])[0].performance is None


def test_waiting_players_pair_by_score_without_an_immediate_rematch() -> None:
    waiting = [Waiting(1, 6, 1500, last_opponent=2), Waiting(2, 4, 1500, last_opponent=1), Waiting(3, 2, 1500)]
    # 1 and 2 just played: 1 takes 3; 2 waits.
    assert pair_waiting(waiting, players=5) == [(1, 3)]
    # x to whoever played it less.
    assert pair_waiting([Waiting(1, 0, 1500, balance=1), Waiting(2, 0, 1400)], players=4) == [(2, 1)]
    # Only two players in the arena: they play again rather than wait forever.
    assert pair_waiting(waiting[:2], players=2) == [(1, 2)]
    assert pair_waiting(waiting[:2], players=3) == []
