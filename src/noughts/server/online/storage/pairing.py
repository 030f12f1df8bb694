"""Quick pairing in the database: the players waiting for a game (`seeks`), and the
pairing of two of them into a game that starts at once.

A pairing is one transaction: the two seeks are locked, the game is written already
started, and both seeks get its id. On PostgreSQL the candidates are read FOR UPDATE
SKIP LOCKED, so two processes pairing at once never take the same player (one skips
the seek the other holds, and pairs it on a later try); SQLite writes one transaction at
a time. Whoever asks next (either player's poll, from any process) pairs; a seek once
paired is never paired again.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from dataclasses import asdict, dataclass, replace
from typing import Any, cast

from sqlalchemy import Connection, Table, delete, insert, or_, select, update

from noughts.server.online import actions
from noughts.server.online.actions import GameRow
from noughts.server.online.storage.store import Store, lock_user
from noughts.server.online.storage.tables import Game, Rating, Seek, User

__all__ = ["Pairing", "SeekRow", "window"]

_seeks = cast(Table, Seek.__table__)
_games = cast(Table, Game.__table__)
_users = cast(Table, User.__table__)
_ratings = cast(Table, Rating.__table__)

#: The rating difference two waiting players are paired across at first, how fast it
#: widens while they wait (points a second), and the widest: a player who waits half a
#: minute is paired with anyone in the pool.
WINDOW_START = 150.0
WINDOW_GROWTH = 50.0
WINDOW_MAX = 2000.0


def window(waited_ms: int) -> float:
    """How far from a player's rating an opponent may be after waiting `waited_ms`."""
    return min(WINDOW_MAX, WINDOW_START + WINDOW_GROWTH * max(0, waited_ms) / 1000)


@dataclass(frozen=True)
class SeekRow:
    user_id: int
    spec: str
    rated: bool
    clock_initial_ms: int | None
    clock_increment_ms: int | None
    rating: float
    joined_at: int
    game_id: str | None = None
    #: After this long unpaired, a bot fills in (None: never).
    bot_after_ms: int | None = None

    @classmethod
    def from_mapping(cls, m: Any) -> SeekRow:
        return cls(**{name: m[name] for name in cls.__dataclass_fields__})


class Pairing:
    """The quick-pairing pool of online play's database (`store`)."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.engine = store.engine

    def seek(self, row: SeekRow) -> SeekRow:
        """Puts the player in the pool instead of any seek of theirs before, and answers
        the seek that stands. While the game their seek was paired into goes on, that
        seek stays and is answered: another press of "play now" must not hide the game
        (nor make a second one). A player's seeks take turns (`lock_user`), so of many
        sent at once exactly one stands; the seek's own row is read FOR UPDATE, so a
        pairing of it in flight is waited for and seen."""
        with self.engine.begin() as c:
            lock_user(c, row.user_id)
            found = c.execute(select(_seeks).where(_seeks.c.user_id == row.user_id).with_for_update()).first()
            if found is not None and found.game_id is not None:
                state = c.execute(select(_games.c.state).where(_games.c.id == found.game_id)).scalar()
                if state in (actions.OPEN, actions.PLAYING):
                    return SeekRow.from_mapping(found._mapping)
            c.execute(delete(_seeks).where(_seeks.c.user_id == row.user_id))
            c.execute(insert(_seeks).values(**asdict(row)))
        return row

    def status(self, user_id: int) -> SeekRow | None:
        with self.engine.connect() as c:
            found = c.execute(select(_seeks).where(_seeks.c.user_id == user_id)).first()
        return None if found is None else SeekRow.from_mapping(found._mapping)

    def cancel(self, user_id: int) -> SeekRow | None:
        """Leaves the pool. A seek paired already stays (its game has started): it is
        answered instead, so the player learns the game."""
        with self.engine.begin() as c:
            c.execute(delete(_seeks).where(_seeks.c.user_id == user_id, _seeks.c.game_id.is_(None)))
            found = c.execute(select(_seeks).where(_seeks.c.user_id == user_id)).first()
        return None if found is None else SeekRow.from_mapping(found._mapping)

    def pair(
        self,
        user_id: int,
        now: int,
        start: Callable[[SeekRow, SeekRow, bool], GameRow],
        bot_for: Callable[[SeekRow, dict[int, float]], int] | None = None,
    ) -> GameRow | None:
        """Pairs the player's seek with the longest-waiting one of the same game, clock
        and ratedness whose rating both players' windows take in; `start(me, other,
        me_x)` makes their game, started, with me as x when `me_x`: the colour goes to
        whoever played x less in their last games. When nobody fits and the seek has
        waited its `bot_after_ms`, `bot_for(me, the bots' ratings in the game)` names
        the bot that fills in. The game, or None when nobody fits yet (or the seek is
        gone or paired already)."""
        with self.engine.begin() as c:
            mine = c.execute(select(_seeks).where(_seeks.c.user_id == user_id).with_for_update()).first()
            if mine is None or mine.game_id is not None:
                return None
            me = SeekRow.from_mapping(mine._mapping)
            candidates = c.execute(
                select(_seeks)
                .where(
                    _seeks.c.spec == me.spec,
                    _seeks.c.rated == me.rated,
                    _seeks.c.clock_initial_ms.is_(None)
                    if me.clock_initial_ms is None
                    else _seeks.c.clock_initial_ms == me.clock_initial_ms,
                    _seeks.c.clock_increment_ms.is_(None)
                    if me.clock_increment_ms is None
                    else _seeks.c.clock_increment_ms == me.clock_increment_ms,
                    _seeks.c.game_id.is_(None),
                    _seeks.c.user_id != user_id,
                )
                .order_by(_seeks.c.joined_at, _seeks.c.user_id)
                .with_for_update(skip_locked=True)
            ).all()
            mine_window = window(now - me.joined_at)
            for found in candidates:
                other = SeekRow.from_mapping(found._mapping)
                if abs(other.rating - me.rating) <= min(mine_window, window(now - other.joined_at)):
                    mine_x, theirs_x = _x_share(c, me.user_id), _x_share(c, other.user_id)
                    me_x = mine_x < theirs_x or (mine_x == theirs_x and secrets.choice((True, False)))
                    game = start(me, other, me_x)
                    c.execute(insert(_games).values(**asdict(game)))
                    c.execute(
                        update(_seeks).where(_seeks.c.user_id.in_([me.user_id, other.user_id])).values(game_id=game.id)
                    )
                    return game
            if bot_for is not None and me.bot_after_ms is not None and now - me.joined_at >= me.bot_after_ms:
                bots = select(_users.c.id).where(_users.c.bot.is_not(None)).scalar_subquery()
                rated = c.execute(
                    select(_ratings.c.user_id, _ratings.c.rating).where(
                        _ratings.c.spec == me.spec, _ratings.c.user_id.in_(bots)
                    )
                ).all()
                bot = replace(me, user_id=bot_for(me, {r.user_id: r.rating for r in rated}), bot_after_ms=None)
                mine_x, theirs_x = _x_share(c, me.user_id), _x_share(c, bot.user_id)
                me_x = mine_x < theirs_x or (mine_x == theirs_x and secrets.choice((True, False)))
                game = start(me, bot, me_x)
                c.execute(insert(_games).values(**asdict(game)))
                c.execute(update(_seeks).where(_seeks.c.user_id == me.user_id).values(game_id=game.id))
                return game
        return None

    def waiting(self, spec: str | None = None) -> list[SeekRow]:
        """The unpaired seeks, the longest waiting first (of `spec` if given)."""
        with self.engine.connect() as c:
            query = select(_seeks).where(_seeks.c.game_id.is_(None)).order_by(_seeks.c.joined_at)
            if spec is not None:
                query = query.where(_seeks.c.spec == spec)
            return [SeekRow.from_mapping(r._mapping) for r in c.execute(query)]


def _x_share(c: Connection, user_id: int, last: int = 10) -> float:
    """The share of the player's last games (started) they played as x."""
    rows = c.execute(
        select(_games.c.x_id)
        .where(or_(_games.c.x_id == user_id, _games.c.o_id == user_id), _games.c.started_at.is_not(None))
        .order_by(_games.c.started_at.desc())
        .limit(last)
    ).all()
    return sum(1 for r in rows if r.x_id == user_id) / len(rows) if rows else 0.5
