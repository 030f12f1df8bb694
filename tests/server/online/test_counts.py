"""How many watch a game (told on its socket) and how many are online (the lobby's list)."""

from __future__ import annotations

from collections.abc import Callable

from server.online.people import Person
from server.online.test_play import start


def test_spectators_are_counted_once_a_person_and_players_are_not(people: Callable[[], Person]) -> None:
    ann, _, game_id, a, b = start(people)
    assert b.expect("spectators")["count"] == 0
    carol = people().sign_up()
    carol.socket(game_id)
    assert a.expect("spectators")["count"] == 1
    carol.socket(game_id)  # a second tab of the same person
    visitor = people()
    watching = visitor.socket(game_id)
    # Told on each opening: carol's second tab left the count at 1, the visitor made it 2.
    assert [a.expect("spectators")["count"] for _ in range(2)] == [1, 2]
    assert ann.http.get("/api/online/rooms").json()["online"] == 4  # ann, bob, carol and the visitor
    watching.ws.close()
    assert a.expect("spectators")["count"] == 1
    assert ann.http.get("/api/online/rooms").json()["online"] == 3
