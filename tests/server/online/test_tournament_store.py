"""Tournaments in the database, driven with explicit times (no server, no waiting):
an arena from its start to its end with known pairings and standings, and two stores
(as two server processes would) advancing the same tournaments at once without pairing
anybody twice."""

from __future__ import annotations

import secrets
import threading
from collections.abc import Iterator

import pytest

from noughts.competition.tournaments import arena, swiss
from noughts.server.online import actions
from noughts.server.online.actions import ForbiddenError, MissingError, TooManyError
from noughts.server.online.service.tournaments import tournament_game
from noughts.server.online.storage.store import Store
from noughts.server.online.storage.tournaments import (
    ARENA,
    ARENA_OVERTIME_MS,
    FINISHED,
    RUNNING,
    SWISS,
    UPCOMING,
    TournamentError,
    TournamentRow,
    Tournaments,
    arena_games,
    swiss_games,
)

T0 = 1_800_000_000_000


@pytest.fixture
def store(database_url: str) -> Iterator[Store]:
    s = Store(database_url)
    s.migrate()
    yield s
    s.close()


def _users(store: Store, n: int) -> list[int]:
    return [store.create_user(name := f"t{secrets.token_hex(5)}", name, None, False, T0).id for _ in range(n)]


def _tournament(tournaments: Tournaments, creator: int, kind: str, **fields: int) -> TournamentRow:
    row = TournamentRow(
        id=actions.new_game_id(), kind=kind, name="test", spec="classic", rated=False, clock_initial_ms=None,
        clock_increment_ms=None, creator_id=creator, state=UPCOMING, minutes=fields.get("minutes"),
        rounds=fields.get("rounds"), round=0, starts_at=T0 + 60_000, ends_at=None, created_at=T0, finished_at=None,
    )  # fmt: skip
    return tournaments.create(row, most=5)


def _advance(tournaments: Tournaments, tid: str, now: int, wait: bool = True) -> list[actions.GameRow]:
    return tournaments.advance(tid, now, lambda t, x, o: tournament_game(t, x, o, now), wait).games


def _end(store: Store, game: actions.GameRow, winner: str, now: int) -> None:
    """Ends the game: the loser resigns, or a draw is offered and accepted."""
    if winner == "draw":
        store.apply(game.id, lambda row: actions.act(row, game.x_id, "draw-offer", now, 0))
        store.apply(game.id, lambda row: actions.act(row, game.o_id, "draw-accept", now, 0))
    else:
        loser = game.o_id if winner == "x" else game.x_id
        store.apply(game.id, lambda row: actions.act(row, loser, "resign", now, 0))


def test_an_arena_from_start_to_end(store: Store) -> None:
    tournaments = Tournaments(store)
    a, b, c, d = _users(store, 4)
    t = _tournament(tournaments, a, ARENA, minutes=10)
    for i, user in enumerate((a, b, c, d)):
        tournaments.join(t.id, user, 1500.0 + 100 * (3 - i), T0 + i)  # a 1800 ... d 1500
    with pytest.raises(TournamentError, match="already"):
        tournaments.join(t.id, a, 1500.0, T0)
    assert _advance(tournaments, t.id, T0 + 59_000) == []  # not yet
    now = T0 + 60_000
    first = _advance(tournaments, t.id, now)
    assert tournaments.get(t.id).state == RUNNING and tournaments.get(t.id).ends_at == now + 600_000
    # Everyone at 0: by rating, a-b and c-d.
    assert [(g.x_id, g.o_id) for g in first] == [(a, b), (c, d)]
    assert _advance(tournaments, t.id, now) == []  # all busy
    ab, cd = first
    _end(store, ab, "x", now + 1000)  # a wins
    # a and b are free, but just met: they wait for c and d.
    assert _advance(tournaments, t.id, now + 1000) == []
    _end(store, cd, "x", now + 2000)  # c wins
    # a (2, 1800) and c (2, 1600), then b (1700) and d; no rematch. Each pair played
    # the same colours: x to the one ranked higher.
    second = _advance(tournaments, t.id, now + 2000)
    assert [(g.x_id, g.o_id) for g in second] == [(a, c), (b, d)]
    ac, db = second
    _end(store, ac, "x", now + 3000)  # a: two wins in a row, on fire
    _end(store, db, "draw", now + 4000)
    third = _advance(tournaments, t.id, now + 4000)
    # By score: a 4, c 2, b 1 (1700), d 1 (1500). a met c last: a takes b, c takes d.
    # x to who played it less: b (x once, o once) against a (x twice); d (o twice).
    assert [(g.x_id, g.o_id) for g in third] == [(b, a), (d, c)]
    ba, dc = third
    _end(store, ba, "o", now + 5000)  # a wins on fire: 4
    # Time is up with d-c still playing: no new pairings, the game still counts.
    end = now + 600_000
    assert _advance(tournaments, t.id, end) == []
    assert tournaments.get(t.id).state == RUNNING
    _end(store, dc, "o", end + 1000)  # c wins
    assert _advance(tournaments, t.id, end + 1000) == []
    assert tournaments.get(t.id).state == FINISHED
    with pytest.raises(TournamentError, match="over"):
        tournaments.join(t.id, a, 1500.0, end + 2000)
    _, entries, pairings = tournaments.details(t.id)
    table = arena.standings({e.user_id: e.rating for e in entries}, arena_games(pairings))
    # b and d have a point each: b's performance (lost to 1800 twice, drew 1500: 1367)
    # is above d's (lost to 1600 twice, drew 1700: 1300).
    assert [(s.rank, s.id, s.score, s.sheet, s.performance) for s in table] == [
        (1, a, 8, "2 2 4", 2167),
        (2, c, 4, "2 0 2", 1767),
        (3, b, 1, "0 1 0", 1367),
        (4, d, 1, "0 1 0", 1300),
    ]


def test_an_arena_ends_after_its_overtime_though_a_game_never_does(store: Store) -> None:
    """Two players sitting at an untimed game without moving (both there, so nobody
    claims it) held the arena open for ever: past the overtime it ends without them."""
    tournaments = Tournaments(store)
    a, b, c, d = _users(store, 4)
    t = _tournament(tournaments, a, ARENA, minutes=1)
    for i, user in enumerate((a, b, c, d)):
        tournaments.join(t.id, user, 1500.0, T0 + i)
    now = T0 + 60_000
    ab, _cd = _advance(tournaments, t.id, now)
    _end(store, ab, "x", now + 1000)
    end = now + 60_000
    assert _advance(tournaments, t.id, end) == []
    assert _advance(tournaments, t.id, end + ARENA_OVERTIME_MS - 1) == []
    assert tournaments.get(t.id).state == RUNNING  # c and d may still finish in time
    assert _advance(tournaments, t.id, end + ARENA_OVERTIME_MS) == []
    assert tournaments.get(t.id).state == FINISHED
    _, entries, pairings = tournaments.details(t.id)
    table = arena.standings({e.user_id: e.rating for e in entries}, arena_games(pairings))
    assert {s.id: s.score for s in table} == {a: 2, b: 0, c: 0, d: 0}  # c-d's game does not count
    with pytest.raises(TournamentError, match="over"):
        tournaments.join(t.id, c, 1500.0, end + ARENA_OVERTIME_MS + 1)


@pytest.mark.both_databases
def test_two_stores_advancing_at_once_pair_nobody_twice(database_url: str) -> None:
    one, two = Store(database_url), Store(database_url)
    one.migrate()
    try:
        stores = [Tournaments(one), Tournaments(two)]
        users = _users(one, 12)
        swiss_t = _tournament(stores[0], users[0], SWISS, rounds=3)
        arena_t = _tournament(stores[0], users[0], ARENA, minutes=60)
        for user in users:
            stores[0].join(swiss_t.id, user, 1500.0, T0)
            stores[1].join(arena_t.id, user, 1500.0, T0)
        now = T0 + 60_000

        def race(tid: str) -> list[actions.GameRow]:
            made: list[actions.GameRow] = []
            barrier = threading.Barrier(4)

            def advance(tournaments: Tournaments) -> None:
                barrier.wait()
                for _ in range(5):
                    made.extend(_advance(tournaments, tid, now, wait=bool(secrets.randbelow(2))))

            threads = [threading.Thread(target=advance, args=(s,)) for s in stores * 2]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join(60)
            return made

        for tid in (swiss_t.id, arena_t.id):
            games = race(tid)
            players = [p for g in games for p in (g.x_id, g.o_id)]
            assert len(games) == 6 and sorted(players) == sorted(users)  # each once
        # The Swiss's round over, racing again makes exactly one second round.
        for g in _playing(stores[0], swiss_t.id):
            _end(one, g, "x", now)
        games = race(swiss_t.id)
        assert len(games) == 6 and sorted(p for g in games for p in (g.x_id, g.o_id)) == sorted(users)
        assert stores[1].get(swiss_t.id).round == 2
    finally:
        one.close()
        two.close()


def _playing(tournaments: Tournaments, tid: str) -> list[actions.GameRow]:
    """The tournament's games still being played."""
    _, _, pairings = tournaments.details(tid)
    return [tournaments.store.game(p.game_id) for p in pairings if p.live and p.game_id is not None]


def test_withdrawing_and_starting(store: Store) -> None:
    tournaments = Tournaments(store)
    a, b, c = _users(store, 3)
    t = _tournament(tournaments, a, SWISS, rounds=2)
    tournaments.join(t.id, b, 1500.0, T0)
    with pytest.raises(ForbiddenError, match="only the tournament's creator"):
        tournaments.start_now(t.id, b, T0)
    tournaments.withdraw(t.id, b)  # before the start: gone entirely
    with pytest.raises(TournamentError) as refused:
        tournaments.withdraw(t.id, b)
    assert refused.value.error == "not-joined"
    tournaments.join(t.id, c, 1500.0, T0)
    tournaments.start_now(t.id, a, T0 + 5)
    # One player: the Swiss ends at once, with nothing played.
    assert _advance(tournaments, t.id, T0 + 5) == [] and tournaments.get(t.id).state == FINISHED
    with pytest.raises(MissingError) as missing:
        tournaments.get("nope")
    assert missing.value.error == "no-such-tournament"
    # A player has at most five tournaments not finished (that one is).
    for _ in range(5):
        _tournament(tournaments, a, ARENA, minutes=10)
    with pytest.raises(TooManyError) as many:
        _tournament(tournaments, a, ARENA, minutes=10)
    assert many.value.error == "too-many-tournaments"


def test_an_arena_pauses_a_player_whose_game_ended_for_their_absence(store: Store) -> None:
    tournaments = Tournaments(store)
    a, b, c = _users(store, 3)
    t = _tournament(tournaments, a, ARENA, minutes=10)
    for user in (a, b, c):
        tournaments.join(t.id, user, 1500.0, T0)
    now = T0 + 60_000
    (ab,) = _advance(tournaments, t.id, now)
    assert (ab.x_id, ab.o_id) == (a, b)
    # b never opens the game; a claims it (before the second move: aborted).
    store.set_left(ab.id, "o", now)
    store.apply(ab.id, lambda row: actions.act(row, a, "claim", now + 1000, 0))
    # b is paused; a (free) is paired with c, who was waiting.
    (ac,) = _advance(tournaments, t.id, now + 1000)
    assert {ac.x_id, ac.o_id} == {a, c}
    _, entries, _ = tournaments.details(t.id)
    assert {e.user_id: e.withdrawn for e in entries} == {a: False, b: True, c: False}
    # b comes back: in again, and not paused again for the game they left before.
    tournaments.join(t.id, b, 1500.0, now + 2000)
    assert _advance(tournaments, t.id, now + 2000) == []  # a and c are playing
    _end(store, ac, "x", now + 3000)
    again = _advance(tournaments, t.id, now + 3000)
    assert len(again) == 1 and b in (again[0].x_id, again[0].o_id)


def test_a_swiss_pauses_a_player_who_left_and_their_opponent_scores_the_win(store: Store) -> None:
    """Issue 41: a Swiss player who never came to their game kept being paired, and the
    opponent who was there scored 0 (the game was aborted before its second move)."""
    tournaments = Tournaments(store)
    a, b, c, d, e = _users(store, 5)
    t = _tournament(tournaments, a, SWISS, rounds=3)
    for user in (a, b, c, d, e):
        tournaments.join(t.id, user, 1500.0, T0)
    now = T0 + 60_000
    first = _advance(tournaments, t.id, now)
    assert len(first) == 2
    # One player of the first game never opens it (away since the start, the server's
    # sweep ends it); one of the second does not make their first move though there.
    never, waits = first[0], first[1]
    store.set_left(never.id, "o", now)
    store.apply(never.id, lambda row: actions.abandon(row, now + 60_000, 60_000))
    store.apply(waits.id, lambda row: actions.no_show(row, now + 60_000, 60_000))
    assert {g.x_id for g in first} | {g.o_id for g in first} == {a, b, c, d, e} - {_bye(tournaments, t.id)}
    second = _advance(tournaments, t.id, now + 60_000)
    _, entries, pairings = tournaments.details(t.id)
    paused = {never.o_id, waits.x_id}  # o never came; x (to move) never started
    assert {p.user_id for p in entries if p.withdrawn} == paused
    assert not paused & {i for g in second for i in (g.x_id, g.o_id)}  # not paired again
    ratings = {p.user_id: p.rating for p in entries}
    score = {s.id: s.score for s in swiss.standings(ratings, swiss_games([p for p in pairings if p.round == 1]))}
    assert (score[never.x_id], score[never.o_id], score[waits.o_id], score[waits.x_id]) == (1.0, 0.0, 1.0, 0.0)
    # The paused player who comes back is paired again from the next round.
    tournaments.join(t.id, never.o_id, 1500.0, now + 61_000)
    for g in second:
        _end(store, g, "x", now + 62_000)
    third = _advance(tournaments, t.id, now + 62_000)
    assert never.o_id in {i for g in third for i in (g.x_id, g.o_id)} | {_bye(tournaments, t.id)}


def _bye(tournaments: Tournaments, tid: str) -> int | None:
    """Who has the bye in the tournament's current round."""
    t, _, pairings = tournaments.details(tid)
    return next((p.x_id for p in pairings if p.round == t.round and p.o_id is None), None)
