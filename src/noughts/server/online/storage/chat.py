"""Games' chat in the database: the lines, who mutes whom, and reports for moderators."""

from __future__ import annotations

import contextlib
from dataclasses import dataclass
from typing import cast

from sqlalchemy import Engine, Table, delete, func, insert, select
from sqlalchemy.exc import IntegrityError

from noughts.server.online.storage.store import lock_user
from noughts.server.online.storage.tables import ChatMessage, ChatMute, ChatReport, User

_lines = cast(Table, ChatMessage.__table__)
_mutes = cast(Table, ChatMute.__table__)
_reports = cast(Table, ChatReport.__table__)
_users = cast(Table, User.__table__)
#: The newest lines of a game sent to a socket that opens.
BACKLOG = 100


class ChatTooFastError(Exception):
    """The player sent as many lines as the window allows."""


@dataclass(frozen=True)
class ChatLine:
    id: int
    game_id: str
    user_id: int
    name: str
    #: players or spectators.
    channel: str
    text: str
    at: int


class ChatBook:
    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def say(
        self, game_id: str, user_id: int, name: str, channel: str, text: str, now: int, burst: int, window_ms: int
    ) -> ChatLine:
        """Stores a line unless `user_id` sent `burst` lines in the `window_ms` before
        (ChatTooFastError). The count and the write hold the user's row, so lines sent
        at once from two sockets or processes cannot both pass it."""
        with self.engine.begin() as c:
            lock_user(c, user_id)
            recent = c.execute(
                select(func.count()).where(_lines.c.user_id == user_id, _lines.c.created_at > now - window_ms)
            ).scalar_one()
            if recent >= burst:
                raise ChatTooFastError
            values = {"game_id": game_id, "user_id": user_id, "channel": channel, "text": text, "created_at": now}
            line_id = c.execute(insert(_lines).values(**values)).inserted_primary_key[0]  # type: ignore[index]
        return ChatLine(int(line_id), game_id, user_id, name, channel, text, now)

    def lines(self, game_id: str, limit: int = BACKLOG) -> list[ChatLine]:
        """A game's newest `limit` lines, oldest first."""
        with self.engine.connect() as c:
            rows = c.execute(
                select(_lines, _users.c.name)
                .join(_users, _users.c.id == _lines.c.user_id)
                .where(_lines.c.game_id == game_id)
                .order_by(_lines.c.id.desc())
                .limit(limit)
            ).all()
        return [ChatLine(r.id, r.game_id, r.user_id, r.name, r.channel, r.text, r.created_at) for r in reversed(rows)]

    def line(self, line_id: int) -> ChatLine | None:
        with self.engine.connect() as c:
            by = _users.c.id == _lines.c.user_id
            r = c.execute(select(_lines, _users.c.name).join(_users, by).where(_lines.c.id == line_id)).first()
        return ChatLine(r.id, r.game_id, r.user_id, r.name, r.channel, r.text, r.created_at) if r else None

    def mute(self, user_id: int, muted_id: int, now: int) -> None:
        # Muting twice (two tabs) is muting once.
        with contextlib.suppress(IntegrityError), self.engine.begin() as c:
            c.execute(insert(_mutes).values(user_id=user_id, muted_id=muted_id, created_at=now))

    def unmute(self, user_id: int, muted_id: int) -> None:
        with self.engine.begin() as c:
            c.execute(delete(_mutes).where(_mutes.c.user_id == user_id, _mutes.c.muted_id == muted_id))

    def muted(self, user_id: int) -> dict[int, str]:
        """Whom `user_id` mutes: their ids and names."""
        with self.engine.connect() as c:
            rows = c.execute(
                select(_users.c.id, _users.c.name)
                .join(_mutes, _mutes.c.muted_id == _users.c.id)
                .where(_mutes.c.user_id == user_id)
            ).all()
        return {r.id: r.name for r in rows}

    def report(self, reporter_id: int, message_id: int, reason: str, now: int) -> None:
        with self.engine.begin() as c:
            values = {"reporter_id": reporter_id, "message_id": message_id, "reason": reason, "created_at": now}
            c.execute(insert(_reports).values(**values))
