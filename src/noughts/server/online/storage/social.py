"""Players between themselves in the database: challenges, follows, blocks and
notifications. Each method is one transaction; a check and the write it guards (one
challenge a pair, a challenge accepted once) hold a row so that two requests at once
cannot both pass it (`store.lock_user`, or the challenge's own row)."""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from dataclasses import asdict, dataclass, fields
from typing import Any, cast

from sqlalchemy import Connection, Engine, Table, and_, delete, func, insert, or_, select, update
from sqlalchemy.exc import IntegrityError

from noughts.server.online.actions import PLAYING, ActionError, ForbiddenError, GameRow, MissingError, TooManyError
from noughts.server.online.storage.store import lock_user
from noughts.server.online.storage.tables import (
    Block,
    Challenge,
    Follow,
    Game,
    Notification,
    Tournament,
    TournamentPlayer,
    User,
)

_challenges = cast(Table, Challenge.__table__)
_follows = cast(Table, Follow.__table__)
_blocks = cast(Table, Block.__table__)
_notifications = cast(Table, Notification.__table__)
_games = cast(Table, Game.__table__)
_users = cast(Table, User.__table__)
_entries = cast(Table, TournamentPlayer.__table__)
_tournaments = cast(Table, Tournament.__table__)

PENDING, ACCEPTED, DECLINED, CANCELLED, EXPIRED = "pending", "accepted", "declined", "cancelled", "expired"
#: Notifications kept a player: older ones are dropped as new ones come.
KEPT_NOTIFICATIONS = 100


@dataclass(frozen=True)
class ChallengeRow:
    """A row of `challenges` (storage.tables.Challenge says what each field means)."""

    id: str
    challenger_id: int
    challenged_id: int
    spec: str
    rated: bool
    side: str
    clock_initial_ms: int | None
    clock_increment_ms: int | None
    days_per_move: int | None
    state: str
    reason: str | None
    game_id: str | None
    created_at: int
    expires_at: int

    @classmethod
    def from_mapping(cls, values: Any) -> ChallengeRow:
        return cls(**{f.name: values[f.name] for f in fields(cls)})

    def state_at(self, now: int) -> str:
        """Its state as of `now`: a pending challenge past its time is expired."""
        return EXPIRED if self.state == PENDING and now >= self.expires_at else self.state


@dataclass(frozen=True)
class NotificationRow:
    id: int
    user_id: int
    kind: str
    actor: str | None
    game_id: str | None
    challenge_id: str | None
    tournament_id: str | None
    text: str
    read: bool
    created_at: int

    @classmethod
    def from_mapping(cls, values: Any) -> NotificationRow:
        return cls(**{f.name: values[f.name] for f in fields(cls)})


#: Makes the game of an accepted challenge.
MakeGame = Callable[[ChallengeRow], GameRow]


def _blocked_between(c: Connection, a: int, b: int) -> bool:
    either = or_(
        and_(_blocks.c.user_id == a, _blocks.c.blocked_id == b),
        and_(_blocks.c.user_id == b, _blocks.c.blocked_id == a),
    )
    return c.execute(select(func.count()).where(either)).scalar_one() > 0


def _refuse_if_blocked(c: Connection, a: int, b: int) -> None:
    if _blocked_between(c, a, b):
        # Which of the two blocked is not said: a block is not announced.
        raise ForbiddenError("blocked", "you cannot challenge this player")


class SocialBook:
    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    # -- challenges -------------------------------------------------------------------

    def add_challenge(self, row: ChallengeRow, most: int) -> None:
        """Stores a new pending challenge, unless the two block each other (`blocked`),
        the challenger has one pending to the same player already
        (`already-challenged`) or `most` pending in all (TooManyError)."""
        with self.engine.begin() as c:
            lock_user(c, row.challenger_id)
            _refuse_if_blocked(c, row.challenger_id, row.challenged_id)
            pending = and_(
                _challenges.c.challenger_id == row.challenger_id,
                _challenges.c.state == PENDING,
                _challenges.c.expires_at > row.created_at,
            )
            to_them = c.execute(
                select(func.count()).where(pending, _challenges.c.challenged_id == row.challenged_id)
            ).scalar_one()
            if to_them:
                raise ActionError(
                    "already-challenged", "you have challenged this player already: wait for their answer"
                )
            if c.execute(select(func.count()).where(pending)).scalar_one() >= most:
                raise TooManyError("too-many-challenges", f"at most {most} challenges wait for an answer at once")
            c.execute(insert(_challenges).values(**asdict(row)))

    def challenge(self, challenge_id: str) -> ChallengeRow | None:
        with self.engine.connect() as c:
            found = c.execute(select(_challenges).where(_challenges.c.id == challenge_id)).first()
        return ChallengeRow.from_mapping(found._mapping) if found else None

    def _pending(self, c: Connection, challenge_id: str, now: int) -> ChallengeRow:
        """The challenge, its row held; an error unless it is pending."""
        found = c.execute(select(_challenges).where(_challenges.c.id == challenge_id).with_for_update()).first()
        if found is None:
            raise MissingError("no-such-challenge", f"there is no challenge {challenge_id[:40]!r}")
        row = ChallengeRow.from_mapping(found._mapping)
        state = row.state_at(now)
        if state != PENDING:
            raise ActionError(f"challenge-{state}", f"this challenge was {state} already")
        return row

    def accept(self, challenge_id: str, user_id: int, now: int, make_game: MakeGame) -> tuple[ChallengeRow, GameRow]:
        """The challenged player accepts: the game made and the challenge marked, together."""
        with self.engine.begin() as c:
            row = self._pending(c, challenge_id, now)
            if row.challenged_id != user_id:
                raise ForbiddenError("not-yours", "this challenge is not to you")
            _refuse_if_blocked(c, row.challenger_id, row.challenged_id)
            game = make_game(row)
            c.execute(insert(_games).values(**asdict(game)))
            c.execute(update(_challenges).where(_challenges.c.id == row.id).values(state=ACCEPTED, game_id=game.id))
        return ChallengeRow(**{**asdict(row), "state": ACCEPTED, "game_id": game.id}), game

    def decline(self, challenge_id: str, user_id: int, reason: str, now: int) -> ChallengeRow:
        with self.engine.begin() as c:
            row = self._pending(c, challenge_id, now)
            if row.challenged_id != user_id:
                raise ForbiddenError("not-yours", "this challenge is not to you")
            c.execute(update(_challenges).where(_challenges.c.id == row.id).values(state=DECLINED, reason=reason))
        return ChallengeRow(**{**asdict(row), "state": DECLINED, "reason": reason})

    def cancel(self, challenge_id: str, user_id: int, now: int) -> ChallengeRow:
        with self.engine.begin() as c:
            row = self._pending(c, challenge_id, now)
            if row.challenger_id != user_id:
                raise ForbiddenError("not-yours", "only its challenger may cancel a challenge")
            c.execute(update(_challenges).where(_challenges.c.id == row.id).values(state=CANCELLED))
        return ChallengeRow(**{**asdict(row), "state": CANCELLED})

    def pending(self, user_id: int, now: int) -> tuple[list[ChallengeRow], list[ChallengeRow]]:
        """The challenges to `user_id` and from them that wait for an answer, oldest first."""
        live = and_(_challenges.c.state == PENDING, _challenges.c.expires_at > now)
        with self.engine.connect() as c:
            incoming = c.execute(
                select(_challenges)
                .where(live, _challenges.c.challenged_id == user_id)
                .order_by(_challenges.c.created_at)
            ).all()
            outgoing = c.execute(
                select(_challenges)
                .where(live, _challenges.c.challenger_id == user_id)
                .order_by(_challenges.c.created_at)
            ).all()
        return [ChallengeRow.from_mapping(r._mapping) for r in incoming], [
            ChallengeRow.from_mapping(r._mapping) for r in outgoing
        ]

    # -- follows and blocks -------------------------------------------------------------

    def follow(self, user_id: int, followed_id: int, now: int) -> None:
        # Following twice (two tabs) is following once.
        with contextlib.suppress(IntegrityError), self.engine.begin() as c:
            c.execute(insert(_follows).values(user_id=user_id, followed_id=followed_id, created_at=now))

    def unfollow(self, user_id: int, followed_id: int) -> None:
        with self.engine.begin() as c:
            c.execute(delete(_follows).where(_follows.c.user_id == user_id, _follows.c.followed_id == followed_id))

    def following(self, user_id: int) -> dict[int, str]:
        """Whom `user_id` follows: their ids and names."""
        with self.engine.connect() as c:
            rows = c.execute(
                select(_users.c.id, _users.c.name)
                .join(_follows, _follows.c.followed_id == _users.c.id)
                .where(_follows.c.user_id == user_id)
                .order_by(_users.c.name_key)
            ).all()
        return {r.id: r.name for r in rows}

    def block(self, user_id: int, blocked_id: int, now: int) -> None:
        """Blocks, and drops the follows between the two (lichess does the same)."""
        with self.engine.begin() as c:
            if not c.execute(
                select(func.count()).where(_blocks.c.user_id == user_id, _blocks.c.blocked_id == blocked_id)
            ).scalar_one():
                c.execute(insert(_blocks).values(user_id=user_id, blocked_id=blocked_id, created_at=now))
            c.execute(
                delete(_follows).where(
                    or_(
                        and_(_follows.c.user_id == user_id, _follows.c.followed_id == blocked_id),
                        and_(_follows.c.user_id == blocked_id, _follows.c.followed_id == user_id),
                    )
                )
            )

    def unblock(self, user_id: int, blocked_id: int) -> None:
        with self.engine.begin() as c:
            c.execute(delete(_blocks).where(_blocks.c.user_id == user_id, _blocks.c.blocked_id == blocked_id))

    def blocked(self, user_id: int) -> dict[int, str]:
        """Whom `user_id` blocks: their ids and names."""
        with self.engine.connect() as c:
            rows = c.execute(
                select(_users.c.id, _users.c.name)
                .join(_blocks, _blocks.c.blocked_id == _users.c.id)
                .where(_blocks.c.user_id == user_id)
            ).all()
        return {r.id: r.name for r in rows}

    def relation(self, user_id: int, other_id: int) -> tuple[bool, bool]:
        """Whether `user_id` follows `other_id`, and whether they block them."""
        with self.engine.connect() as c:
            follows = c.execute(
                select(func.count()).where(_follows.c.user_id == user_id, _follows.c.followed_id == other_id)
            ).scalar_one()
            blocks = c.execute(
                select(func.count()).where(_blocks.c.user_id == user_id, _blocks.c.blocked_id == other_id)
            ).scalar_one()
        return bool(follows), bool(blocks)

    # -- notifications --------------------------------------------------------------------

    def notify(self, row: NotificationRow, replaces_unread_of_game: bool = False) -> NotificationRow:
        """Stores a notification (its id is the database's); with
        `replaces_unread_of_game`, an unread one of the same kind and game goes (one
        "your move" a game, the newest). Only the newest `KEPT_NOTIFICATIONS` stay."""
        values = {k: v for k, v in asdict(row).items() if k != "id"}
        with self.engine.begin() as c:
            mine = _notifications.c.user_id == row.user_id
            if replaces_unread_of_game and row.game_id is not None:
                c.execute(
                    delete(_notifications).where(
                        mine,
                        _notifications.c.kind == row.kind,
                        _notifications.c.game_id == row.game_id,
                        _notifications.c.read.is_(False),
                    )
                )
            new_id = int(c.execute(insert(_notifications).values(**values)).inserted_primary_key[0])  # type: ignore[index]
            oldest_kept = c.execute(
                select(_notifications.c.id)
                .where(mine)
                .order_by(_notifications.c.id.desc())
                .offset(KEPT_NOTIFICATIONS - 1)
                .limit(1)
            ).scalar()
            if oldest_kept is not None:
                c.execute(delete(_notifications).where(mine, _notifications.c.id < oldest_kept))
        return NotificationRow(**{**asdict(row), "id": new_id})

    def notifications(self, user_id: int, limit: int) -> tuple[list[NotificationRow], int]:
        """`user_id`'s newest `limit` notifications, newest first, and how many are unread."""
        mine = _notifications.c.user_id == user_id
        with self.engine.connect() as c:
            rows = c.execute(select(_notifications).where(mine).order_by(_notifications.c.id.desc()).limit(limit)).all()
            unread = c.execute(select(func.count()).where(mine, _notifications.c.read.is_(False))).scalar_one()
        return [NotificationRow.from_mapping(r._mapping) for r in rows], int(unread)

    def mark_read(self, user_id: int, ids: list[int] | None) -> int:
        """Marks `user_id`'s notifications `ids` (None: all) read; how many are unread now.
        Another player's ids change nothing."""
        mine = _notifications.c.user_id == user_id
        with self.engine.begin() as c:
            chosen = mine if ids is None else and_(mine, _notifications.c.id.in_(ids))
            c.execute(update(_notifications).where(chosen).values(read=True))
            unread = c.execute(select(func.count()).where(mine, _notifications.c.read.is_(False))).scalar_one()
        return int(unread)

    def mark_challenge_read(self, user_id: int, challenge_id: str) -> None:
        """The notification of a challenge answered is read: the answer was the reading."""
        with self.engine.begin() as c:
            c.execute(
                update(_notifications)
                .where(_notifications.c.user_id == user_id, _notifications.c.challenge_id == challenge_id)
                .values(read=True)
            )

    def tournament_players(self, tournament_id: str) -> tuple[str, list[int]]:
        """A tournament's name and the players entered in it (withdrawn ones left out)."""
        with self.engine.connect() as c:
            name = c.execute(select(_tournaments.c.name).where(_tournaments.c.id == tournament_id)).scalar()
            rows = c.execute(
                select(_entries.c.user_id).where(
                    _entries.c.tournament_id == tournament_id, _entries.c.withdrawn.is_(False)
                )
            ).all()
        return str(name or "A tournament"), [r.user_id for r in rows]

    def playing_among(self, user_ids: set[int]) -> dict[int, str]:
        """The game each of `user_ids` is playing now (the newest, if several)."""
        with self.engine.connect() as c:
            rows = c.execute(
                select(_games.c.id, _games.c.x_id, _games.c.o_id)
                .where(_games.c.state == PLAYING, or_(_games.c.x_id.in_(user_ids), _games.c.o_id.in_(user_ids)))
                .order_by(_games.c.started_at)
            ).all()
        found: dict[int, str] = {}
        for r in rows:
            for uid in (r.x_id, r.o_id):
                if uid in user_ids:
                    found[uid] = r.id
        return found
