"""Bad input and races: a clear error frame (or a closed socket for abuse), the game
untouched and the server up."""

from __future__ import annotations

import gc
import logging
import socket
import threading
import time
from collections.abc import Callable

import pytest
from websockets.exceptions import ConnectionClosed

from noughts.server.online import actions
from noughts.server.online.actions import ActionError
from noughts.server.online.storage.store import Store
from server.online.people import GameSocket, Person, unique
from server.online.shared import database_url, server
from server.online.test_actions import open_row
from server.online.test_play import alternate, start

# One server for the module (server/online/shared.py): each test with people of its own.
__all__ = ["database_url", "server"]  # fixtures


def drain(sock: GameSocket) -> tuple[list[str], int | None]:
    """The errors a socket gets until it is closed, and the close code."""
    errors = []
    while True:
        try:
            message = sock.receive()
        except ConnectionClosed as closed:
            return errors, closed.rcvd.code if closed.rcvd else None
        if message["type"] == "error":
            errors.append(message["error"])


#: Frames a hostile client sends, and the error each gets.
BAD_FRAMES = [
    ("{not json", "bad-json"),
    ("[" * 2000 + "]" * 2000, "bad-json"),  # 4,000 bytes nested deeper than the parser's stack
    ("[1, 2]", "bad-message"),
    ('{"type": 5}', "bad-message"),
    ('{"type": "teleport"}', "unknown-type"),
    ('{"type": "move"}', "bad-message"),
    ('{"type": "move", "move": "5", "ply": -1}', "bad-message"),
    ('{"type": "move", "move": "5", "ply": true}', "bad-message"),
    ('{"type": "move", "move": "zz", "ply": 1}', "invalid-move"),
    ('{"type": "move", "move": "5", "ply": 1}', "illegal-move"),
    ('{"type": "move", "move": "1", "ply": 0}', "stale-ply"),
    ('{"type": "ping", "id": "\\ud800"}', "bad-message"),  # an id UTF-8 cannot carry back
    ('{"type": "move", "move": "\\udc00", "ply": 1, "id": "a\\udc00"}', "bad-message"),
]


def test_bad_messages_get_an_error_and_change_nothing(people: Callable[[], Person]) -> None:
    """Each frame in turn on one game's socket (a game each cost a second of set-up
    apiece): its error, the game unchanged, the socket still open."""
    _, _, _game_id, a, b = start(people)
    alternate(a, b, "5")
    before = a.state
    for frame, error in BAD_FRAMES:
        b.send(frame)
        assert b.expect("error")["error"] == error, frame[:40]
        b.send({"type": "resync"})
        after = b.expect("state")["game"]
        assert (after["moves"], after["version"]) == (before["moves"], before["version"]), frame[:40]
    assert b.move("1")["type"] == "ack"  # the socket and the game carry on


def test_out_of_turn_and_not_your_game(people: Callable[[], Person]) -> None:
    _, _, game_id, a, b = start(people)
    assert b.move("5")["error"] == "not-your-turn"
    stranger = people().sign_up().socket(game_id)
    assert stranger.move("5")["error"] == "not-a-player"
    assert a.state["ply"] == 0 and a.move("5")["type"] == "ack"


def test_unknown_game(people: Callable[[], Person], server: str) -> None:
    from websockets.sync.client import connect

    with connect(server.replace("http", "ws", 1) + "/api/online/games/nope/ws") as ws:
        assert '"no-such-game"' in str(ws.recv(timeout=5))
        with pytest.raises(ConnectionClosed) as closed:
            ws.recv(timeout=5)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 4404


def test_oversized_frame_closes_the_socket(people: Callable[[], Person]) -> None:
    _, _, _, a, b = start(people)
    b.send('{"type": "ping", "pad": "' + "x" * 10_000 + '"}')
    assert drain(b) == (["too-large"], 1009)
    assert a.move("5")["type"] == "ack"  # the server is up, the game goes on


def test_the_frame_limit_counts_bytes_not_characters(people: Callable[[], Person]) -> None:
    _, _, _, a, b = start(people)
    b.send('{"type": "ping", "pad": "' + "\N{GRINNING FACE}" * 1100 + '"}')  # 1,125 characters, 4,425 bytes
    assert drain(b) == (["too-large"], 1009)
    assert a.move("5")["type"] == "ack"


def test_binary_frames_are_refused(people: Callable[[], Person]) -> None:
    _, _, _, a, _ = start(people)
    a.ws.send(b"\x00\x01")
    assert a.expect("error")["error"] == "text-only"


def test_a_flood_is_told_then_cut_off(people: Callable[[], Person]) -> None:
    _, _, _, a, b = start(people)
    for i in range(200):
        try:
            b.send({"type": "ping", "id": i})
        except ConnectionClosed:
            break
    errors, code = drain(b)
    assert "rate-limited" in errors and errors[-1] == "flood"
    assert code == 1008
    assert a.move("5")["type"] == "ack"


def test_cross_site_sockets_are_refused(people: Callable[[], Person]) -> None:
    ann = people().sign_up()
    game_id = ann.room()
    with pytest.raises(Exception, match=r"403|rejected"):
        ann.socket(game_id, Origin="https://evil.example")


@pytest.mark.both_databases
def test_two_sockets_racing_for_one_ply_one_wins(people: Callable[[], Person]) -> None:
    """The same player in two tabs sends different moves for ply 1 at once."""
    ann, _, game_id, a, b = start(people)
    a2 = ann.socket(game_id)
    answers: dict[str, dict[str, object]] = {}

    def send(sock: object, move: str) -> None:
        answers[move] = sock.act("move", move=move, ply=0)  # type: ignore[attr-defined]

    threads = [threading.Thread(target=send, args=(s, m)) for s, m in ((a, "5"), (a2, "1"))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    kinds = sorted(str(answer["type"]) for answer in answers.values())
    assert kinds == ["ack", "error"]
    loser = next(answer for answer in answers.values() if answer["type"] == "error")
    assert loser["error"] == "stale-ply"
    b.send({"type": "resync"})
    assert len(b.expect("state")["game"]["moves"]) == 1


def test_the_database_takes_one_move_per_ply(database_url: str) -> None:
    """Below the server's per-game lock: two writers (two server processes, say) commit
    moves for the same ply at once; the (game, ply) key and the version let one in."""
    store = Store(database_url)
    store.migrate()
    user_a = store.create_user(unique("a"), unique("a"), None, True, 1)
    user_b = store.create_user(unique("b"), unique("b"), None, True, 1)
    row = open_row(user_a.id)
    store.add_game(row)
    store.apply(row.id, lambda r: actions.join(r, user_b.id, True, 1, coin="x"))
    results: list[str] = []
    # PostgreSQL: both read ply 0 before either writes. SQLite: a writer locks the file
    # before reading (BEGIN IMMEDIATE), so the second reads the first's move.
    barrier = None if store.is_sqlite else threading.Barrier(2)

    def play(move: str) -> None:
        def action(r: actions.GameRow) -> actions.Change:
            if barrier is not None and r.ply == 0:
                barrier.wait(5)
            return actions.move(r, user_a.id, move, 0, 2)

        try:
            store.apply(row.id, action)
            results.append("won")
        except ActionError as e:
            results.append(e.error)

    threads = [threading.Thread(target=play, args=(m,)) for m in ("5", "1")]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(results) == ["stale-ply", "won"]
    assert [m for _, m, _, _ in store.move_rows(row.id)] in (["5"], ["1"])
    assert store.game(row.id).ply == 1
    store.close()


def test_a_socket_whose_client_left_closes_without_a_traceback(
    people: Callable[[], Person], caplog: pytest.LogCaptureFixture
) -> None:
    """Clients that drop their connection mid-exchange (an oversized frame, then gone;
    events on their way to a client that left) end their handler quietly: no
    traceback from the socket's writer or close, in the app's log or asyncio's."""
    uvicorn_log = logging.getLogger("uvicorn")  # it does not pass its records on to the root
    uvicorn_log.addHandler(caplog.handler)
    try:
        with caplog.at_level(logging.WARNING):
            ann, bob, game_id, a, b = start(people)
            for _ in range(3):
                gone = bob.socket(game_id)
                gone.send('{"type": "ping", "pad": "' + "x" * 10_000 + '"}')  # closes with 1009 ...
                gone.ws.socket.shutdown(socket.SHUT_RDWR)  # ... to a client already gone
                watcher = ann.socket(game_id)
                watcher.ws.socket.shutdown(socket.SHUT_RDWR)  # events will find it gone
            alternate(a, b, "5", "1", "9")
            assert b.move("3")["type"] == "ack"
            time.sleep(0.5)  # the handlers of the sockets that left end meanwhile
            gc.collect()  # a task whose exception nobody read says so when collected
        noisy = [r for r in caplog.records if r.levelno >= logging.WARNING]
        assert not noisy, [f"{r.name}: {r.getMessage()}" for r in noisy]
    finally:
        uvicorn_log.removeHandler(caplog.handler)
