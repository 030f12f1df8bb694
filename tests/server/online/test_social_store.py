"""The social tables on SQLite and PostgreSQL through their real drivers: a challenge
expires at its time (the clock is the caller's: nothing sleeps), is answered once, and
two sent at once to the same player make one; notifications are kept read or unread,
the newest kept."""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor

import pytest

from noughts.server.online import actions
from noughts.server.online.actions import ActionError, GameRow
from noughts.server.online.protocol import ChallengeView
from noughts.server.online.service import Online
from noughts.server.online.service.rooms import room_row
from noughts.server.online.storage.social import (
    KEPT_NOTIFICATIONS,
    PENDING,
    ChallengeRow,
    NotificationRow,
    SocialBook,
)
from noughts.server.online.storage.store import Store, UserRow
from server.online.people import FAST, unique

pytestmark = pytest.mark.both_databases
T0 = 1_800_000_000_000
MINUTE = 60_000


@pytest.fixture
def store(database_url: str) -> Iterator[Store]:
    made = Store(database_url)
    made.migrate()
    yield made
    made.close()


def person(store: Store) -> UserRow:
    name = f"s{secrets.token_hex(4)}"
    return store.create_user(name, name, "hash", False, T0)


def challenge_of(by: UserRow, to: UserRow, at: int = T0, expiry: int = 10 * MINUTE) -> ChallengeRow:
    return ChallengeRow(
        id=secrets.token_urlsafe(6), challenger_id=by.id, challenged_id=to.id, spec="classic", rated=False,
        side="x", clock_initial_ms=None, clock_increment_ms=None, days_per_move=None, state=PENDING, reason=None,
        game_id=None, created_at=at, expires_at=at + expiry,
    )  # fmt: skip


def game_of(row: ChallengeRow) -> GameRow:
    room = room_row(row.spec, row.rated, row.challenger_id, row.side, False, None, 0, T0)
    return actions.join(room, row.challenged_id, False, T0).row


def error_of(call: object, *args: object) -> str:
    with pytest.raises(ActionError) as caught:
        call(*args)  # type: ignore[operator]
    return caught.value.error


def test_a_challenge_expires_at_its_time_and_is_answered_once(store: Store) -> None:
    book = SocialBook(store.engine)
    ann, bob, cat = person(store), person(store), person(store)
    row = challenge_of(ann, bob)
    book.add_challenge(row, most=10)
    assert error_of(book.add_challenge, challenge_of(ann, bob), 10) == "already-challenged"
    assert book.pending(bob.id, T0 + MINUTE) == ([row], [])
    # Past its time it is expired: in no list, and accepting it makes no game.
    late = T0 + 10 * MINUTE
    assert book.pending(bob.id, late) == ([], []) and book.challenge(row.id).state_at(late) == "expired"  # type: ignore[union-attr]
    assert error_of(book.accept, row.id, bob.id, late, game_of) == "challenge-expired"
    # ... and another may be sent then.
    book.add_challenge(challenge_of(ann, bob, at=late), most=10)
    assert error_of(book.accept, row.id, cat.id, T0, game_of) == "not-yours"
    accepted, game = book.accept(row.id, bob.id, T0 + MINUTE, game_of)
    assert (accepted.state, accepted.game_id) == ("accepted", game.id)
    assert store.game(game.id).state == "playing"
    assert error_of(book.accept, row.id, bob.id, T0 + MINUTE, game_of) == "challenge-accepted"
    assert error_of(book.decline, row.id, bob.id, "later", T0 + MINUTE) == "challenge-accepted"


def test_two_challenges_at_once_make_one(store: Store) -> None:
    book = SocialBook(store.engine)
    ann, bob = person(store), person(store)

    def send(_: int) -> str:
        try:
            book.add_challenge(challenge_of(ann, bob), most=10)
        except ActionError as e:
            return e.error
        return "sent"

    with ThreadPoolExecutor(4) as pool:
        results = sorted(pool.map(send, range(4)))
    assert results == ["already-challenged"] * 3 + ["sent"]
    assert len(book.pending(ann.id, T0)[1]) == 1


def test_notifications_are_kept_read_or_unread_and_the_newest_kept(store: Store) -> None:
    book = SocialBook(store.engine)
    ann, bob = person(store), person(store)

    def note(user: UserRow, i: int, game: str | None = None) -> NotificationRow:
        return NotificationRow(0, user.id, "your-move", "x", game, None, None, f"n{i}", False, T0 + i)

    for i in range(KEPT_NOTIFICATIONS + 5):
        book.notify(note(ann, i))
    shown, unread = book.notifications(ann.id, 500)
    assert unread == len(shown) == KEPT_NOTIFICATIONS and shown[0].text == f"n{KEPT_NOTIFICATIONS + 4}"
    # One "your move" a game: the newest replaces the unread one.
    book.notify(note(bob, 1, "g1"))
    book.notify(note(bob, 2, "g1"), replaces_unread_of_game=True)
    assert [n.text for n in book.notifications(bob.id, 10)[0]] == ["n2"]
    bobs = [n.id for n in book.notifications(bob.id, 10)[0]]
    assert book.mark_read(ann.id, bobs) == KEPT_NOTIFICATIONS  # not Ann's: nothing changes
    assert book.mark_read(ann.id, [shown[0].id]) == KEPT_NOTIFICATIONS - 1
    assert book.mark_read(ann.id, None) == 0
    assert book.notifications(bob.id, 10)[1] == 1


def test_the_service_expires_a_challenge_on_its_own_clock(database_url: str) -> None:
    """`Social.clock` is the service's time: moved past the expiry, the challenge is
    expired for both players and accepting it is refused, with nobody waiting 10 minutes."""

    async def run() -> None:
        online = Online(database_url, None, FAST)
        await online.start()
        try:
            now = [T0]
            online.social.clock = lambda: now[0]
            ann, bob = [
                await online.store.call(online.store.create_user, n, n, None, False, T0)
                for n in (unique("e"), unique("e"))
            ]
            shown = await online.social.challenge(ann, bob.name, "classic", False, "x", 5, 0, None)
            assert isinstance(shown, ChallengeView) and shown.expires_at == T0 + round(FAST.challenge_expiry * 1000)
            now[0] = shown.expires_at - 1
            assert [c.id for c in (await online.social.pending(bob))[0]] == [shown.id]
            now[0] = shown.expires_at
            assert await online.social.pending(bob) == ([], []) and await online.social.pending(ann) == ([], [])
            with pytest.raises(ActionError) as refused:
                await online.social.accept(bob, shown.id)
            assert refused.value.error == "challenge-expired"
        finally:
            await online.stop()

    asyncio.run(run())
