"""The write path of games: changes committed together (group commit), each answered
with its own result, and a batch that meets another writer's change done one by one;
on SQLite and PostgreSQL. Moves acknowledged by a server killed with SIGKILL while
many were in flight are all there after the restart."""

from __future__ import annotations

import asyncio
import os
import signal
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from websockets.exceptions import ConnectionClosed

from noughts.server.online import actions
from noughts.server.online.actions import ActionError, Change, GameRow
from noughts.server.online.storage.store import NotFoundError, Store, UserRow
from server.online.people import GameSocket, Person, unique
from server.online.servers import serving
from server.online.test_actions import open_row


@pytest.fixture
def store(database_url: str) -> Iterator[Store]:
    store = Store(database_url)
    store.migrate()
    yield store
    store.close()


def users(store: Store) -> tuple[UserRow, UserRow]:
    x, o = unique("x"), unique("o")
    return store.create_user(x, x, None, True, 1), store.create_user(o, o, None, True, 1)


def started(store: Store, x: UserRow, o: UserRow) -> GameRow:
    """A classic game between `x` and `o`, stored and started."""
    row = open_row(x.id)
    store.add_game(row)
    return store.apply(row.id, lambda r: actions.join(r, o.id, True, 1, coin="x")).row


def play(user: UserRow, move: str, ply: int | None = None) -> Callable[[GameRow], Change]:
    return lambda row: actions.move(row, user.id, move, ply, 2)


def test_a_batch_answers_each_change_and_commits_the_accepted_ones(store: Store) -> None:
    x, o = users(store)
    games = [started(store, x, o) for _ in range(4)]
    results = store.apply_all(
        [
            (games[0].id, play(x, "5"), True),
            (games[1].id, play(o, "5"), True),  # not O's turn
            ("no-such-game", play(x, "5"), True),
            (games[2].id, play(x, "1"), False),
            (games[3].id, play(x, "10"), True),  # no such cell
            # Two changes of one game in one batch: the second sees the first.
            (games[0].id, play(o, "1", 1), True),
        ]
    )
    assert [type(r).__name__ for r in results] == [
        "Change", "ActionError", "NotFoundError", "Change", "ActionError", "Change",
    ]  # fmt: skip
    assert isinstance(results[1], ActionError) and results[1].error == "not-your-turn"
    assert isinstance(results[4], ActionError) and results[4].error == "invalid-move"
    assert [(r.row.ply, r.move) for r in results if isinstance(r, Change)] == [(1, "5"), (1, "1"), (2, "1")]
    assert store.game(games[0].id).moves == "5 1"
    assert [m for _, m, _, _ in store.move_rows(games[0].id)] == ["5", "1"]
    assert store.game(games[1].id).ply == 0 and store.game(games[3].id).ply == 0
    assert store.game(games[2].id).moves == "1"


def test_a_batch_meeting_another_writers_move_is_applied_one_by_one(database_url: str, store: Store) -> None:
    """This process knows a game at ply 0; another process has played ply 1 since.
    X's move, valid on the stale row, collides with it: the batch is undone and each
    of its changes is judged again on the rows as they are."""
    x, o = users(store)
    contested, other = started(store, x, o), started(store, x, o)
    elsewhere = Store(database_url)
    try:
        elsewhere.apply(contested.id, play(x, "5"))
    finally:
        elsewhere.close()
    results = store.apply_all([(contested.id, play(x, "9"), True), (other.id, play(x, "9"), True)])
    assert isinstance(results[0], ActionError) and results[0].error == "not-your-turn"
    assert isinstance(results[1], Change) and results[1].row.moves == "9"
    assert [m for _, m, _, _ in store.move_rows(contested.id)] == ["5"]
    assert store.game(other.id).moves == "9"


def test_changes_asked_for_together_share_transactions(store: Store) -> None:
    x, o = users(store)
    games = [started(store, x, o) for _ in range(30)]
    batches: list[int] = []
    apply_all = store.apply_all

    def counted(requests: list[tuple[str, Callable[[GameRow], Change], bool]]) -> list[Change | Exception]:
        batches.append(len(requests))
        return apply_all(requests)

    store.apply_all = counted  # type: ignore[method-assign]

    async def run() -> list[Change | BaseException]:
        moves = [store.apply_soon(g.id, play(x, "5"), cached=True) for g in games]
        moves.append(store.apply_soon(games[0].id, play(x, "1"), cached=True))  # already played: refused
        return await asyncio.gather(*moves, return_exceptions=True)

    results = asyncio.run(run())
    assert sum(batches) == 31 and len(batches) < 31
    assert [r.row.id for r in results[:30] if isinstance(r, Change)] == [g.id for g in games]
    assert isinstance(results[30], ActionError) and results[30].error == "not-your-turn"
    assert all(store.game(g.id).moves == "5" for g in games)
    with pytest.raises(NotFoundError):
        asyncio.run(store.apply_soon("no-such-game", play(x, "5")))


def last_ack(sock: GameSocket, ply: int) -> int:
    """The ply of the last ack a socket got before its server died (`ply` if none)."""
    while True:
        try:
            message = sock.receive(timeout=5)
        except (ConnectionClosed, TimeoutError):
            return ply
        if message["type"] == "ack":
            ply = message["ply"]


@pytest.mark.slow  # a server killed and restarted: the default run keeps test_kill_9_loses_no_acknowledged_move
def test_kill_9_with_many_moves_in_flight_loses_no_acknowledged_one(tmp_path: Path) -> None:
    database = f"sqlite:///{tmp_path / 'noughts.db'}"
    openings = ["5", "1", "9", "3", "7"]
    with serving(database) as (process, base):
        players = [(Person(base).guest(), Person(base).guest()) for _ in range(6)]
        games = []
        for ann, bob in players:
            game_id = ann.room("classic")
            bob.join(game_id)
            games.append((game_id, ann.socket(game_id), bob.socket(game_id)))
        # Every game's mover sends at once, again and again: the moves of several games
        # share transactions. The last round is in flight when the server dies.
        for ply, move in enumerate(openings):
            for _, a, b in games:
                (a if ply % 2 == 0 else b).send({"type": "move", "move": move, "ply": ply})
            if ply < len(openings) - 1:
                for _, a, b in games:
                    (a if ply % 2 == 0 else b).expect("ack", ply=ply + 1)
                    (b if ply % 2 == 0 else a).expect("event", ply=ply + 1)
        os.kill(process.pid, signal.SIGKILL)
        process.wait(10)
        acknowledged = {game_id: last_ack(a, len(openings) - 1) for game_id, a, _ in games}
    with serving(database) as (_, base):
        visitor = Person(base)
        for game_id, _, _ in games:
            stored = visitor.http.get(f"/api/online/games/{game_id}").json()["moves"]
            assert len(stored) >= acknowledged[game_id] and stored == openings[: len(stored)]
        visitor.close()
    for ann, bob in players:
        ann.close()
        bob.close()


def test_a_server_starting_alone_counts_engine_bots_away_and_house_bots_here(store: Store) -> None:
    """An engine bot plays through its program's socket, which a restart closed as it
    closed everybody's: left marked present, a bot whose program never came back held
    its opponent's game for ever (nobody could claim it, the server never ended it)."""
    person = store.create_user(name := unique("p"), name, None, False, 1)
    house = store.add_bot(name := unique("h"), name, "easy", 1)
    engine = store.add_engine_bot(name := unique("e"), name, person.id, 1, most=5)
    with_house, with_engine = started(store, person, house), started(store, engine, person)
    store.mark_all_away(5000)
    house_game, engine_game = store.game(with_house.id), store.game(with_engine.id)
    assert (house_game.x_left_at, house_game.o_left_at) == (5000, None)
    assert (engine_game.x_left_at, engine_game.o_left_at) == (5000, 5000)


@pytest.mark.both_databases
@pytest.mark.parametrize("end", ["abandon", "no_show"])
def test_processes_sweeping_one_abandoned_game_at_once_end_it_once(database_url: str, end: str) -> None:
    """Every server process sweeps for abandoned games: of several ending the same one
    at once, one does; the others are told it is over."""
    import threading

    stores = [Store(database_url) for _ in range(4)]
    stores[0].migrate()
    try:
        x, o = users(stores[0])
        row = started(stores[0], x, o)
        if end == "abandon":
            stores[0].set_left(row.id, "o", 1)
        action = (
            (lambda r: actions.abandon(r, 100_000, 1000))
            if end == "abandon"
            else (lambda r: actions.no_show(r, 100_000, 1000))
        )
        start = threading.Barrier(len(stores))
        outcomes: list[str] = []

        def sweep(store: Store) -> None:
            start.wait()
            try:
                outcomes.append(store.apply(row.id, action).row.state)
            except ActionError as e:
                outcomes.append(e.error)

        threads = [threading.Thread(target=sweep, args=(s,)) for s in stores]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert sorted(outcomes) == sorted(["aborted"] + ["game-over"] * (len(stores) - 1))
        ended = stores[0].game(row.id)
        assert (ended.state, ended.version) == ("aborted", row.version + 1)
    finally:
        for store in stores:
            store.close()
