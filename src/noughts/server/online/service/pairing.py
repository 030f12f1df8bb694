"""Quick pairing: players waiting for a game and clock are paired with each other, or
after a while with a house bot of about their rating."""

from __future__ import annotations

from noughts.competition.clock import now_ms
from noughts.competition.ratings import Glicko
from noughts.server.online import actions
from noughts.server.online.actions import GameRow, InvalidError
from noughts.server.online.bots import PRIOR, Bots
from noughts.server.online.service.play import Play
from noughts.server.online.service.rooms import checked, room_row
from noughts.server.online.storage.pairing import Pairing, SeekRow
from noughts.server.online.storage.store import Store, UserRow


class QuickPairing:
    """The pool of seeks; `book` is where they are stored."""

    def __init__(self, store: Store, play: Play, bots: Bots) -> None:
        self.store, self.play, self.bots = store, play, bots
        self.book = Pairing(store)

    async def seek(
        self,
        user: UserRow,
        spec: str,
        rated: bool,
        minutes: float | None,
        increment: float,
        bot_after: float | None = None,
    ) -> SeekRow:
        """Puts `user` in the quick-pairing pool for this game and clock (instead of any
        earlier seek), and pairs them at once if someone fits; after `bot_after`
        seconds unpaired (None: never), a bot of about their rating fills in. While a
        game quick pairing made them goes on, the answer is that game (`Pairing.seek`)."""
        if bot_after is not None and not 0 <= bot_after <= 600:
            raise InvalidError("invalid-wait", "a bot fills in after 0 to 600 seconds of waiting, or never")
        canonical = checked(user, spec, rated, minutes, increment)
        now = now_ms()
        ratings = {r.spec: r for r in await self.store.call(self.store.ratings_of, user.id, user.id)}
        stored = ratings.get(canonical)
        rating = stored.rating if stored is not None else Glicko().rating
        initial = round(minutes * 60_000) if minutes is not None else None
        increment_ms = round(increment * 1000) if minutes is not None else None
        bot_after_ms = None if bot_after is None else round(bot_after * 1000)
        row = SeekRow(user.id, canonical, rated, initial, increment_ms, rating, now, None, bot_after_ms)
        await self.store.call(self.book.seek, row)
        return await self.status(user) or row

    async def status(self, user: UserRow) -> SeekRow | None:
        """`user`'s seek after trying to pair it again (its window widens while it waits)."""
        now = now_ms()

        def start(me: SeekRow, other: SeekRow, me_x: bool) -> GameRow:
            minutes = None if me.clock_initial_ms is None else me.clock_initial_ms / 60_000
            increment = (me.clock_increment_ms or 0) / 1000
            room = room_row(me.spec, me.rated, me.user_id, "x" if me_x else "o", False, minutes, increment, now)
            return actions.join(room, other.user_id, False, now).row

        game = await self.store.call(self.book.pair, user.id, now, start, self._fill_in)
        if game is not None:
            self.play.await_arrivals(game)
            self.bots.turn(game)
        return await self.store.call(self.book.status, user.id)

    def _fill_in(self, seek: SeekRow, ratings: dict[int, float]) -> int:
        """The house bot to pair `seek` with: the one nearest its rating in the game
        (`ratings`: the bots' there; a level's `PRIOR` until it has one)."""
        return min(self.bots.levels, key=lambda b: abs(ratings.get(b, PRIOR[self.bots.levels[b]]) - seek.rating))

    async def leave(self, user: UserRow) -> SeekRow | None:
        """Leaves the pool; a seek paired already is answered (its game has started)."""
        return await self.store.call(self.book.cancel, user.id)
