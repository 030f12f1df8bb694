"""Rooms: a game asked for, open until somebody joins it (or, a challenge, until the bot
invited accepts or declines it)."""

from __future__ import annotations

from dataclasses import replace

from noughts.competition.clock import MAX_INCREMENT, MAX_MINUTES, MIN_MINUTES, now_ms
from noughts.core import NoughtsError
from noughts.registry import parse_spec
from noughts.server.online import accounts, actions
from noughts.server.online.actions import Change, ForbiddenError, GameRow, InvalidError, MissingError
from noughts.server.online.bots import HOUSE, Bots
from noughts.server.online.service.play import Play
from noughts.server.online.storage.store import Store, UserRow

#: The longest a correspondence move may take, in days (lichess offers 1 to 14).
MAX_DAYS = 14


def room_row(
    spec: str,
    rated: bool,
    creator: int,
    side: str,
    private: bool,
    minutes: float | None,
    increment: float,
    now: int,
    days: int | None = None,
) -> GameRow:
    """A new open room (checked by the caller); with `days`, a correspondence game."""
    if days is not None:
        minutes, increment = days * 24 * 60.0, 0.0
    return GameRow(
        id=actions.new_game_id(), spec=spec, rated=rated, private=private, creator_id=creator,
        creator_side=side, x_id=None, o_id=None, state=actions.OPEN, result="ongoing", termination=None,
        moves="", ply=0, version=0, days_per_move=days,
        clock_initial_ms=round(minutes * 60_000) if minutes is not None else None,
        clock_increment_ms=round(increment * 1000) if minutes is not None else None,
        x_ms=None, o_ms=None, turn_started_at=None, draw_offer=None, takeback_offer=None, rematch_offer=None,
        rematch_id=None, x_left_at=None, o_left_at=None, x_rating_before=None, x_rating_after=None,
        o_rating_before=None, o_rating_after=None, created_at=now, started_at=None, ended_at=None,
    )  # fmt: skip


def checked(user: UserRow, spec: str, rated: bool, minutes: float | None, increment: float) -> str:
    """The canonical spec of a game `user` may ask for (a room, a seek, a challenge, a
    tournament), or the ActionError saying why not."""
    try:
        game = parse_spec(spec)
    except NoughtsError as e:
        raise InvalidError("invalid-spec", str(e)) from None
    if rated and user.guest:
        raise ForbiddenError("guest-rated", "guests play casual games only: sign up to play rated games")
    if minutes is not None and not MIN_MINUTES <= minutes <= MAX_MINUTES:
        raise InvalidError("invalid-clock", f"a clock has {MIN_MINUTES} to {MAX_MINUTES} minutes")
    if not 0 <= increment <= MAX_INCREMENT:
        raise InvalidError("invalid-clock", f"the increment is 0 to {MAX_INCREMENT} seconds")
    return game.spec


class Rooms:
    """Making rooms and challenges, joining, cancelling and declining them."""

    def __init__(self, store: Store, play: Play, bots: Bots) -> None:
        self.store, self.play, self.bots = store, play, bots

    async def create(
        self,
        user: UserRow,
        spec: str,
        rated: bool,
        side: str,
        private: bool,
        minutes: float | None,
        increment: float,
        days: int | None = None,
    ) -> GameRow:
        """A room; with `days`, for a correspondence game (that many days a move)."""
        if side not in ("x", "o", "random"):
            raise InvalidError("invalid-side", "side is x, o or random")
        if days is not None and (minutes is not None or not 1 <= days <= MAX_DAYS):
            raise InvalidError(
                "invalid-clock", f"a correspondence game has 1 to {MAX_DAYS} days a move, and no minutes"
            )
        canonical = checked(user, spec, rated, minutes, increment)
        row = room_row(canonical, rated, user.id, side, private, minutes, increment, now_ms(), days)
        await self.store.call(self.store.add_game, row)
        if not private:
            await self.play.publish_lobby()
        return row

    async def challenge(
        self, user: UserRow, bot: str, spec: str, rated: bool, side: str, minutes: float | None, increment: float
    ) -> GameRow:
        """A game against the bot called `bot`: a house bot's starts at once (it always
        accepts); an engine bot's is a private room that only it may join, which its
        program accepts or declines (`noughts bot`)."""
        found = self.bots.by_name(bot)
        engine = None
        if found is None:
            engine = await self.store.call(self.store.user_by_key, accounts.name_key(bot))
            if engine is None or engine.bot != "engine":
                raise MissingError(
                    "no-such-bot", f"there is no bot {bot!r}: the house bots are {', '.join(HOUSE.values())}"
                )
        if side not in ("x", "o", "random"):
            raise InvalidError("invalid-side", "side is x, o or random")
        canonical = checked(user, spec, rated, minutes, increment)
        now = now_ms()
        room = room_row(canonical, rated, user.id, side, engine is not None, minutes, increment, now)
        if engine is not None:
            challenge = replace(room, invited_id=engine.id)
            await self.store.call(self.store.add_game, challenge)
            return challenge
        assert found is not None
        row = actions.join(room, found[0], False, now).row
        await self.store.call(self.store.add_game, row)
        self.play.await_arrivals(row)
        self.bots.turn(row)
        return row

    async def join(self, game_id: str, user: UserRow) -> Change:
        return await self.play.change(game_id, lambda row: actions.join(row, user.id, user.guest, now_ms()))

    async def cancel(self, game_id: str, user: UserRow) -> Change:
        return await self.play.change(game_id, lambda row: actions.cancel(row, user.id, now_ms()))

    async def decline(self, game_id: str, user: UserRow) -> Change:
        return await self.play.change(game_id, lambda row: actions.decline(row, user.id, now_ms()))
