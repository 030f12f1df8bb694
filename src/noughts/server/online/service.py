"""Online play as one object: the store, the fan-out, accounts and the games in play.

Every change follows one order: the core validates it, the database commits it, the
actor gets the acknowledgement, then the event goes out to everyone watching. Events
are stamped with the game's version and ply and hold the whole public state, except
a move's, which holds what the move changed (clients apply it to the version before).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import logging
import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field, replace
from typing import Any

from noughts.core import NoughtsError
from noughts.registry import parse_spec
from noughts.server.online import accounts, actions
from noughts.server.online.accounts import AccountError, Passwords, TooManyAttemptsError, make_quota, make_throttle
from noughts.server.online.actions import ActionError, Change, GameRow
from noughts.server.online.bots import HOUSE, PRIOR, Bots
from noughts.server.online.clock import MAX_INCREMENT, MAX_MINUTES, MIN_MINUTES, now_ms
from noughts.server.online.config import OnlineConfig
from noughts.server.online.presence import make_presence
from noughts.server.online.ratings import Glicko
from noughts.server.online.realtime import Fanout, Listener, make_fanout
from noughts.server.online.snapshots import move_patch, snapshot, summary
from noughts.server.online.storage.pairing import Pairing, SeekRow
from noughts.server.online.storage.puzzles import PuzzleBook
from noughts.server.online.storage.store import NameTakenError, NotFoundError, Store, TooManyBotsError, UserRow
from noughts.server.online.storage.tournaments import ARENA, UPCOMING, TournamentError, TournamentRow, Tournaments
from noughts.study.answer_keys import unprovable_here

log = logging.getLogger(__name__)

LOBBY = "lobby"
_DEADLINE = re.compile(r'\{"type": "event", "deadline": (null|\d+)')
#: Moves of one online game at most: far beyond any real game of the family.
MAX_PLIES = 2000
#: Bot accounts a player may make for their programs, and how long a bot's token lasts
#: (a new one replaces it: `Online.new_bot_token`).
MAX_ENGINE_BOTS = 5
#: The longest a correspondence move may take, in days (lichess offers 1 to 14).
MAX_DAYS = 14
BOT_TOKEN_DAYS = 365


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


def tournament_game(t: TournamentRow, x: int, o: int, now: int) -> GameRow:
    """A game of tournament `t` between x and o, started at `now` (as quick pairing's)."""
    minutes = None if t.clock_initial_ms is None else t.clock_initial_ms / 60_000
    increment = (t.clock_increment_ms or 0) / 1000
    room = room_row(t.spec, t.rated, x, "x", False, minutes, increment, now)
    return actions.join(room, o, False, now).row


def tournament_channel(tournament_id: str) -> str:
    return f"tournament:{tournament_id}"


def game_channel(game_id: str) -> str:
    return f"game:{game_id}"


@dataclass
class Advances:
    """A tournament's advances asked for in this process: one runs at a time, and every
    ask that comes meanwhile shares the next one (`next`, done when it is), which reads
    the database after all of them."""

    next: asyncio.Future[None] | None = None
    #: Whether any ask sharing `next` brings news (a join, a game over) for the page.
    changed: bool = False
    runner: asyncio.Task[None] | None = None


@dataclass
class LiveGame:
    """A game with sockets in this process: its listeners, the sockets of each
    logged-in user here, and the timer that ends it when the clock of the player to move
    runs out."""

    id: str
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    present: dict[int, int] = field(default_factory=dict)
    sockets: int = 0
    timer: asyncio.TimerHandle | None = None
    clock_listener: Listener | None = None
    presence_lock: asyncio.Lock = field(default_factory=asyncio.Lock)


class Online:
    """Online play on the database at `database_url`, fanned out through `redis_url`
    (None: this process only)."""

    def __init__(self, database_url: str, redis_url: str | None, config: OnlineConfig) -> None:
        self.config = config
        self.database_url = database_url
        self.store = Store(database_url)
        self.puzzles = PuzzleBook(self.store, unprovable_here())
        self.pairing = Pairing(self.store)
        self.tournaments = Tournaments(self.store)
        #: The tournaments' pages as last computed in this process, by id, with the time
        #: (routes.tournaments serves them again for a second).
        self.tournament_views: dict[str, Any] = {}  # routes.tournaments.Computed by id
        self.fanout: Fanout = make_fanout(redis_url, config.redis_prefix)
        self.passwords = Passwords(config.argon2_time_cost, config.argon2_memory_kib)
        self.throttle = make_throttle(redis_url, config)
        self.signups = make_quota(redis_url, config, "signup", config.signups_per_address)
        self.guests = make_quota(redis_url, config, "guest", config.guests_per_address)
        # Each Argon2 hash takes `argon2_memory_kib` of memory while it runs.
        self._hashing = asyncio.Semaphore(config.hashing_at_once)
        self.presence = make_presence(redis_url, self.store, config, self.publish_presence)
        self.live: dict[str, LiveGame] = {}
        #: Checks of who arrived at a game that just started (see `Presence.seated`).
        self._arrivals: set[asyncio.Task[None]] = set()
        self._started = False
        self._starting = asyncio.Lock()
        #: Called with each game that ends in this process (the app looks for puzzles in it).
        self.on_finished: Callable[[GameRow], Awaitable[None]] | None = None
        self._after_games: set[asyncio.Task[None]] = set()
        self._sweeper: asyncio.Task[None] | None = None
        self.bots = Bots(
            self.store,
            lambda game_id, bot, text, ply: self.move(game_id, bot, text, ply, lambda _: None),
            self.act,
            config.disconnect_grace,
        )
        self._bot_sweeper: asyncio.Task[None] | None = None
        self._tournament_sweeper: asyncio.Task[None] | None = None
        self._advances: dict[str, Advances] = {}

    async def start(self) -> None:
        """Brings the schema up to date and connects the fan-out; idempotent."""
        async with self._starting:
            if self._started:
                return
            await self.store.call(self.store.migrate)
            # Puzzles of a newer release than the one that migrated the database.
            await self.store.call(self.puzzles.sync_shipped, now_ms())
            await self.bots.ensure()
            await self.fanout.start()
            await self.presence.start()
            self._sweeper = asyncio.create_task(self._sweep_abandoned(), name="noughts-abandoned")
            self._bot_sweeper = asyncio.create_task(self.bots.sweep(), name="noughts-bots")
            self._tournament_sweeper = asyncio.create_task(self._sweep_tournaments(), name="noughts-tournaments")
            self._started = True

    async def stop(self) -> None:
        if self._started:
            for live in self.live.values():
                if live.timer:
                    live.timer.cancel()
            sweepers = [t for t in (self._sweeper, self._bot_sweeper, self._tournament_sweeper) if t is not None]
            runners = [a.runner for a in self._advances.values() if a.runner is not None]
            tasks = [*self._arrivals, *self._after_games, *sweepers, *runners]
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
            await self.bots.stop()
            self._sweeper = self._bot_sweeper = self._tournament_sweeper = None
            await self.presence.close()
            await self.fanout.close()
            self._started = False
        for brake in (self.throttle, self.signups, self.guests):
            await brake.close()
        self.store.close()

    # -- accounts -----------------------------------------------------------------------

    async def _hash(self, password: str) -> str:
        async with self._hashing:
            return await asyncio.to_thread(self.passwords.hash, password)

    async def _verify(self, stored: str | None, password: str) -> bool:
        async with self._hashing:
            return await asyncio.to_thread(self.passwords.verify, stored, password)

    async def sign_up(
        self, name: str, password: str, address: str, device: str | None = None
    ) -> tuple[UserRow, str, str]:
        accounts.check_name(name)
        accounts.check_password(password)
        try:
            await self.signups.attempt([accounts.ADDRESS_KEY + address])
        except TooManyAttemptsError as e:
            raise TooManyAttemptsError(e.wait, "new accounts from your address") from None
        hashed = await self._hash(password)
        try:
            user = await self.store.call(self.store.create_user, name, accounts.name_key(name), hashed, False, now_ms())
        except NameTakenError:
            raise AccountError("name-taken", f"the name {name!r} is taken: choose another", "name", 409) from None
        return user, await self._session(user), await self._remember(user, address, device)

    async def log_in(
        self, name: str, password: str, address: str, device: str | None = None, session: str | None = None
    ) -> tuple[UserRow, str, str]:
        """The user, a new session token, and the browser's device token (`device`, the
        one it sent, or a new one). Failures are braked per name, name and address, and
        address; but an attempt from a browser or an address the account logged in from
        before, or with a session of the account, only by that place's own failures."""
        user = await self.store.call(self.store.user_by_key, accounts.name_key(name))
        keys, cleared = await self._brake_keys(user, name, address, device, session)
        await self.throttle.attempt(keys)
        ok = await self._verify(user.password_hash if user else None, password)
        if user is None or not ok:
            raise AccountError("wrong-credentials", "wrong name or password", None, 401)
        await self.throttle.succeeded(keys, cleared=cleared)
        return user, await self._session(user), await self._remember(user, address, device)

    async def _brake_keys(
        self, user: UserRow | None, name: str, address: str, device: str | None, session: str | None
    ) -> tuple[list[str], int]:
        """The brake's keys of a log-in, and how many a success clears. The same
        look-ups run whether the name exists or not, so their time does not tell."""
        holder = await self.user_for(session)
        if user is not None and holder is not None and holder.id == user.id and session is not None:
            return [accounts.DEVICE_KEY + accounts.token_hash(session)], 1
        browser = accounts.device_hash(device) if device and len(device) <= 100 else None
        place = accounts.address_hash(address)
        since = now_ms() - self.config.known_login_days * 86_400_000
        asked = [k for k in (browser, place) if k is not None]
        known = await self.store.call(self.store.known_logins, user.id if user else 0, asked, since)
        if browser in known:
            return [accounts.DEVICE_KEY + browser], 1
        if place in known:
            # Strangers' failures on the name (from elsewhere) or on the address (other
            # names) do not count; the name's from this address do.
            return [accounts.login_keys(name, address)[1]], 1
        return accounts.login_keys(name, address), 2

    async def _remember(self, user: UserRow, address: str, device: str | None) -> str:
        """Notes the browser and the address `user` logged in from; the browser's device
        token (a new one if it had none)."""
        if not device or len(device) > 100:
            device = accounts.new_device()
        places = [accounts.device_hash(device), accounts.address_hash(address)]
        await self.store.call(self.store.remember_login, user.id, places, now_ms())
        return device

    async def guest(self, address: str) -> tuple[UserRow, str]:
        try:
            await self.guests.attempt([accounts.ADDRESS_KEY + address])
        except TooManyAttemptsError as e:
            raise TooManyAttemptsError(e.wait, "new guests from your address") from None
        for _ in range(5):
            name = accounts.guest_name()
            try:
                user = await self.store.call(self.store.create_user, name, name, None, True, now_ms())
            except NameTakenError:
                continue
            return user, await self._session(user)
        raise AccountError("busy", "no guest name is free: try again", None, 503)

    async def create_engine_bot(self, owner: UserRow, name: str) -> tuple[UserRow, str]:
        """A bot account of `owner`'s for a program to play through `noughts bot`, and
        its token (shown once)."""
        if owner.guest or owner.bot is not None:
            raise AccountError("not-allowed", "sign up to make bot accounts (guests and bots cannot)", None, 403)
        accounts.check_name(name)
        try:
            bot = await self.store.call(
                self.store.add_engine_bot, name, accounts.name_key(name), owner.id, now_ms(), MAX_ENGINE_BOTS
            )
        except NameTakenError:
            raise AccountError("name-taken", f"the name {name!r} is taken: choose another", "name", 409) from None
        except TooManyBotsError:
            raise AccountError(
                "too-many-bots", f"a player has at most {MAX_ENGINE_BOTS} bot accounts", None, 409
            ) from None
        return bot, await self._session(bot, BOT_TOKEN_DAYS)

    async def engine_bots(self, owner: UserRow) -> list[UserRow]:
        return await self.store.call(self.store.bots_of, owner.id)

    async def new_bot_token(self, owner: UserRow, name: str) -> tuple[UserRow, str]:
        """A new token for `owner`'s bot `name`; its earlier ones stop working."""
        bot = await self.store.call(self.store.user_by_key, accounts.name_key(name))
        if bot is None or bot.owner_id != owner.id:
            raise AccountError("no-such-bot", f"you have no bot {name!r}", None, 404)
        await self.store.call(self.store.drop_sessions_of, bot.id)
        return bot, await self._session(bot, BOT_TOKEN_DAYS)

    async def decline(self, game_id: str, user: UserRow) -> Change:
        return await self.change(game_id, lambda row: actions.decline(row, user.id, now_ms()))

    async def _session(self, user: UserRow, days: int | None = None) -> str:
        token, hashed = accounts.new_token()
        expires = now_ms() + (self.config.session_days if days is None else days) * 86_400_000
        await self.store.call(self.store.add_session, hashed, user.id, expires)
        return token

    async def user_for(self, token: str | None) -> UserRow | None:
        if not token or len(token) > 100:
            return None
        return await self.store.call(self.store.session_user, accounts.token_hash(token), now_ms())

    async def log_out(self, token: str) -> None:
        await self.store.call(self.store.drop_session, accounts.token_hash(token))

    # -- rooms --------------------------------------------------------------------------

    @staticmethod
    def _checked(user: UserRow, spec: str, rated: bool, minutes: float | None, increment: float) -> str:
        """The canonical spec of a game `user` may ask for, or the ActionError saying why not."""
        try:
            game = parse_spec(spec)
        except NoughtsError as e:
            raise ActionError("invalid-spec", str(e)) from None
        if rated and user.guest:
            raise ActionError("guest-rated", "guests play casual games only: sign up to play rated games")
        if minutes is not None and not MIN_MINUTES <= minutes <= MAX_MINUTES:
            raise ActionError("invalid-clock", f"a clock has {MIN_MINUTES} to {MAX_MINUTES} minutes")
        if not 0 <= increment <= MAX_INCREMENT:
            raise ActionError("invalid-clock", f"the increment is 0 to {MAX_INCREMENT} seconds")
        return game.spec

    async def create_room(
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
            raise ActionError("invalid-side", "side is x, o or random")
        if days is not None and (minutes is not None or not 1 <= days <= MAX_DAYS):
            raise ActionError("invalid-clock", f"a correspondence game has 1 to {MAX_DAYS} days a move, and no minutes")
        canonical = self._checked(user, spec, rated, minutes, increment)
        row = room_row(canonical, rated, user.id, side, private, minutes, increment, now_ms(), days)
        await self.store.call(self.store.add_game, row)
        if not private:
            await self.publish_lobby()
        return row

    # -- quick pairing --------------------------------------------------------------------

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
            raise ActionError("invalid-wait", "a bot fills in after 0 to 600 seconds of waiting, or never")
        canonical = self._checked(user, spec, rated, minutes, increment)
        now = now_ms()
        ratings = {r.spec: r for r in await self.store.call(self.store.ratings_of, user.id)}
        stored = ratings.get(canonical)
        rating = stored.rating if stored is not None else Glicko().rating
        initial = round(minutes * 60_000) if minutes is not None else None
        increment_ms = round(increment * 1000) if minutes is not None else None
        bot_after_ms = None if bot_after is None else round(bot_after * 1000)
        row = SeekRow(user.id, canonical, rated, initial, increment_ms, rating, now, None, bot_after_ms)
        await self.store.call(self.pairing.seek, row)
        return await self.pairing_status(user) or row

    async def pairing_status(self, user: UserRow) -> SeekRow | None:
        """`user`'s seek after trying to pair it again (its window widens while it waits)."""
        now = now_ms()

        def start(me: SeekRow, other: SeekRow, me_x: bool) -> GameRow:
            minutes = None if me.clock_initial_ms is None else me.clock_initial_ms / 60_000
            increment = (me.clock_increment_ms or 0) / 1000
            room = room_row(me.spec, me.rated, me.user_id, "x" if me_x else "o", False, minutes, increment, now)
            return actions.join(room, other.user_id, False, now).row

        game = await self.store.call(self.pairing.pair, user.id, now, start, self._fill_in)
        if game is not None:
            self._await_arrivals(game)
            self.bots.turn(game)
        return await self.store.call(self.pairing.status, user.id)

    def _fill_in(self, seek: SeekRow, ratings: dict[int, float]) -> int:
        """The house bot to pair `seek` with: the one nearest its rating in the game
        (`ratings`: the bots' there; a level's `PRIOR` until it has one)."""
        return min(self.bots.levels, key=lambda b: abs(ratings.get(b, PRIOR[self.bots.levels[b]]) - seek.rating))

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
                raise ActionError(
                    "no-such-bot", f"there is no bot {bot!r}: the house bots are {', '.join(HOUSE.values())}"
                )
        if side not in ("x", "o", "random"):
            raise ActionError("invalid-side", "side is x, o or random")
        canonical = self._checked(user, spec, rated, minutes, increment)
        now = now_ms()
        room = room_row(canonical, rated, user.id, side, engine is not None, minutes, increment, now)
        if engine is not None:
            challenge = replace(room, invited_id=engine.id)
            await self.store.call(self.store.add_game, challenge)
            return challenge
        assert found is not None
        row = actions.join(room, found[0], False, now).row
        await self.store.call(self.store.add_game, row)
        self._await_arrivals(row)
        self.bots.turn(row)
        return row

    async def leave_pool(self, user: UserRow) -> SeekRow | None:
        """Leaves the pool; a seek paired already is answered (its game has started)."""
        return await self.store.call(self.pairing.cancel, user.id)

    async def join(self, game_id: str, user: UserRow) -> Change:
        return await self.change(game_id, lambda row: actions.join(row, user.id, user.guest, now_ms()))

    async def cancel(self, game_id: str, user: UserRow) -> Change:
        return await self.change(game_id, lambda row: actions.cancel(row, user.id, now_ms()))

    # -- playing ------------------------------------------------------------------------

    async def game(self, game_id: str) -> GameRow:
        try:
            return await self.store.call(self.store.game, game_id)
        except NotFoundError:
            raise ActionError("no-such-game", f"there is no game {game_id!r}") from None

    async def snapshot(self, row: GameRow) -> dict[str, Any]:
        ids = {i for i in (row.creator_id, row.x_id, row.o_id) if i is not None}
        users = self.store.known_users(ids)
        if users is None:
            users = await self.store.call(self.store.users, ids)
        return snapshot(row, users, now_ms())

    async def summaries(self, rows: list[GameRow], boards: bool = False) -> list[dict[str, Any]]:
        ids = {i for r in rows for i in (r.creator_id, r.x_id, r.o_id) if i is not None}
        users = await self.store.call(self.store.users, ids)
        return [summary(r, users, boards) for r in rows]

    async def move(
        self, game_id: str, user: UserRow | None, text: str, ply: int | None, acknowledge: Callable[[Change], None]
    ) -> Change:
        now = now_ms()
        uid = user.id if user else None

        def play(row: GameRow) -> Change:
            if row.ply >= MAX_PLIES:
                raise ActionError("too-long", f"an online game ends after {MAX_PLIES} plies")
            return actions.move(row, uid, text, ply, now)

        return await self.change(game_id, play, acknowledge, cached=True)

    async def act(
        self, game_id: str, user: UserRow | None, action: str, acknowledge: Callable[[Change], None] | None = None
    ) -> Change:
        now = now_ms()
        grace = round(self.config.disconnect_grace * 1000)
        uid = user.id if user else None
        return await self.change(game_id, lambda row: actions.act(row, uid, action, now, grace), acknowledge)

    async def change(
        self,
        game_id: str,
        action: Callable[[GameRow], Change],
        acknowledge: Callable[[Change], None] | None = None,
        cached: bool = False,
    ) -> Change:
        """Commits `action`'s change, acknowledges it, then publishes it. Actions on one
        game in this process take turns; between processes the store's version check
        and the (game, ply) key settle races."""
        live = self.live.get(game_id)
        if live is not None:
            async with live.lock:
                change = await self._commit(game_id, action, cached)
        else:
            change = await self._commit(game_id, action, cached)
        if acknowledge is not None:
            acknowledge(change)
        await self.publish_change(change)
        if change.finished and change.row.state == actions.OVER and self.on_finished is not None:
            task = asyncio.create_task(self._after_game(change.row), name=f"noughts-finished-{game_id}")
            self._after_games.add(task)
            task.add_done_callback(self._after_games.discard)
        if change.finished:
            # Its tournament, if any, pairs the players again or starts the next round.
            task = asyncio.create_task(self._after_tournament_game(game_id), name=f"noughts-tournament-{game_id}")
            self._after_games.add(task)
            task.add_done_callback(self._after_games.discard)
        started = change.row if change.kind == "start" else change.created
        if started is not None:
            self._await_arrivals(started)
        self.bots.turn(change.row)
        self.bots.answer(change.row)
        if change.created is not None:
            self.bots.turn(change.created)
        return change

    async def _after_game(self, row: GameRow) -> None:
        assert self.on_finished is not None
        try:
            await self.on_finished(row)
        except Exception:
            log.exception("the work after game %s ended failed", row.id)

    async def _sweep_abandoned(self) -> None:
        """Ends, now and then, the games whose player has been gone for `abandon_after`
        (whoever is left: an engine bot never claims), those whose first move has not
        come `first_move_wait` after it was due, and those whose clock ran out with
        nobody there to see it (every process sweeps; the store's version check lets
        one end each game)."""
        after = round(self.config.abandon_after * 1000)
        wait = round(self.config.first_move_wait * 1000)
        while True:
            await asyncio.sleep(max(0.2, min(self.config.abandon_after, self.config.first_move_wait) / 4))
            try:
                now = now_ms()
                end = functools.partial(actions.abandon, now=now, after_ms=after)
                for row in await self.store.call(self.store.abandoned_games, now - after):
                    # ActionError: somebody came back, or another process ended it first.
                    with contextlib.suppress(ActionError):
                        await self.change(row.id, end)
                abort = functools.partial(actions.no_show, now=now, wait_ms=wait)
                for row in await self.store.call(self.store.unstarted_games, now - wait):
                    with contextlib.suppress(ActionError):  # moved meanwhile, or ended
                        await self.change(row.id, abort)
                # Clocks that ran out with nobody connected (a correspondence game's days).
                for row in await self.store.call(self.store.overdue_games, now):
                    await self._flag(row.id)
            except Exception:
                log.exception("ending abandoned games failed")

    # -- tournaments ----------------------------------------------------------------------

    async def create_tournament(
        self, user: UserRow, kind: str, name: str, spec: str, rated: bool, minutes: float | None, increment: float,
        duration: int | None, rounds: int | None, starts_in: float,
    ) -> TournamentRow:  # fmt: skip
        """A new tournament, upcoming until `starts_in` minutes from now (its creator may
        start it earlier). Guests may play in tournaments but not create them."""
        if user.guest:
            raise TournamentError("guest-tournament", "sign up to create tournaments")
        canonical = self._checked(user, spec, rated, minutes, increment)
        if not name.strip():
            raise TournamentError("invalid-tournament", "a tournament needs a name")
        if kind == ARENA and duration is None:
            raise TournamentError("invalid-tournament", "an arena needs a duration (minutes)")
        if kind != ARENA and rounds is None:
            raise TournamentError("invalid-tournament", "a Swiss needs a number of rounds")
        now = now_ms()
        row = TournamentRow(
            id=actions.new_game_id(), kind=kind, name=name.strip(), spec=canonical, rated=rated,
            clock_initial_ms=round(minutes * 60_000) if minutes is not None else None,
            clock_increment_ms=round(increment * 1000) if minutes is not None else None,
            creator_id=user.id, state=UPCOMING, minutes=duration if kind == ARENA else None,
            rounds=rounds if kind != ARENA else None, round=0, starts_at=now + round(starts_in * 60_000),
            ends_at=None, created_at=now, finished_at=None,
        )  # fmt: skip
        await self.store.call(self.tournaments.create, row, self.config.tournaments_per_player)
        await self.advance_tournament(row.id)
        return row

    async def join_tournament(self, tournament_id: str, user: UserRow) -> None:
        t = await self.store.call(self.tournaments.get, tournament_id)
        if t.rated and user.guest:
            raise ActionError("guest-rated", "guests play casual games only: sign up to play rated tournaments")
        ratings = {r.spec: r for r in await self.store.call(self.store.ratings_of, user.id)}
        stored = ratings.get(t.spec)
        rating = stored.rating if stored is not None else Glicko().rating
        await self.store.call(self.tournaments.join, tournament_id, user.id, rating, now_ms())
        await self.advance_tournament(tournament_id)

    async def withdraw_tournament(self, tournament_id: str, user: UserRow) -> None:
        await self.store.call(self.tournaments.withdraw, tournament_id, user.id)
        await self.advance_tournament(tournament_id)

    async def start_tournament(self, tournament_id: str, user: UserRow) -> None:
        await self.store.call(self.tournaments.start_now, tournament_id, user.id, now_ms())
        await self.advance_tournament(tournament_id)

    async def advance_tournament(self, tournament_id: str, changed: bool = True) -> None:
        """Does what the tournament needs now (`Tournaments.advance`), once the caller's
        change is in the database; returns when that is done. Asks that come while an
        advance of the tournament runs here share the next one: one advance pairs every
        player waiting, and in a big arena, where games end by the dozen each second,
        each game's end queueing its own advance on the tournament's row (each reading
        all its games) delayed the pairings by seconds (bench/tournament_load.py)."""
        advances = self._advances.setdefault(tournament_id, Advances())
        if advances.next is None:
            advances.next = asyncio.get_running_loop().create_future()
        advances.changed |= changed
        done = advances.next
        if advances.runner is None:
            advances.runner = asyncio.create_task(
                self._run_advances(tournament_id, advances), name=f"noughts-advance-{tournament_id}"
            )
        await asyncio.shield(done)

    async def _run_advances(self, tournament_id: str, advances: Advances) -> None:
        try:
            while advances.next is not None:
                done, changed = advances.next, advances.changed
                advances.next, advances.changed = None, False
                try:
                    await self._advance(tournament_id, wait=True, changed=changed)
                except asyncio.CancelledError:
                    done.cancel()
                    raise
                except Exception as e:
                    done.set_exception(e)
                    done.add_done_callback(lambda f: f.exception())  # retrieved, if its askers left
                else:
                    done.set_result(None)
        finally:
            if advances.next is not None:
                advances.next.cancel()
            advances.runner = None
            self._advances.pop(tournament_id, None)

    async def _advance(self, tournament_id: str, wait: bool, changed: bool) -> list[GameRow]:
        """One advance; the games started. Its page is told when something changed:
        `changed`, the askers' news, or what the advance did."""
        now = now_ms()
        make_game = functools.partial(tournament_game, now=now)
        advanced = await self.store.call(self.tournaments.advance, tournament_id, now, make_game, wait)
        for game in advanced.games:
            self._await_arrivals(game)
        if changed or advanced.changed:
            await self.publish_tournament(tournament_id, advanced.games)
        return advanced.games

    async def publish_tournament(self, tournament_id: str, games: list[GameRow]) -> None:
        """Tells the tournament's pages (every process's, through the fanout) to ask for it
        again, and each newly paired player which game is theirs, so that nobody waits
        for a poll to start playing."""
        ids = {i for g in games for i in (g.x_id, g.o_id) if i is not None}
        names = await self.store.call(self.store.users, ids) if ids else {}
        paired = {names[i].name: g.id for g in games for i in (g.x_id, g.o_id) if i is not None and i in names}
        event = {"type": "tournament", "id": tournament_id, "paired": paired}
        await self.fanout.publish(tournament_channel(tournament_id), json.dumps(event))

    async def _after_tournament_game(self, game_id: str) -> None:
        try:
            tournament_id = await self.store.call(self.tournaments.tournament_of, game_id)
            if tournament_id is not None:
                await self.advance_tournament(tournament_id)
        except Exception:
            log.exception("advancing the tournament of game %s failed", game_id)

    async def _sweep_tournaments(self) -> None:
        """Now and then, advances every tournament that may need it: starts the due,
        ends an arena whose time is up, and picks up after a restart or a game whose end
        another process saw (every process sweeps; the row lock lets one act at a time)."""
        while True:
            await asyncio.sleep(self.config.tournament_sweep)
            try:
                for tournament_id in await self.store.call(self.tournaments.due, now_ms()):
                    await self._advance(tournament_id, wait=False, changed=False)
            except Exception:
                log.exception("advancing the tournaments failed")

    def _await_arrivals(self, row: GameRow) -> None:
        async def check() -> None:
            await asyncio.sleep(self.config.arrival_wait)
            try:
                await self.presence.seated(row, since, self.bots.levels.keys())
            except Exception:
                log.exception("marking who never arrived at game %s failed", row.id)

        since = now_ms()
        task = asyncio.create_task(check(), name=f"noughts-arrivals-{row.id}")
        self._arrivals.add(task)
        task.add_done_callback(self._arrivals.discard)

    async def _commit(self, game_id: str, action: Callable[[GameRow], Change], cached: bool) -> Change:
        try:
            return await self.store.apply_soon(game_id, action, cached)
        except NotFoundError:
            raise ActionError("no-such-game", f"there is no game {game_id!r}") from None

    async def publish_change(self, change: Change) -> None:
        row = change.row
        event: dict[str, Any] = {
            "type": "event",
            # Second, right after the type: every process reads it with `_DEADLINE`.
            "deadline": row.deadline(),
            "kind": change.kind,
            "by": change.by,
            "move": change.move,
            "version": row.version,
            "ply": row.ply,
        }
        if change.kind == "move" and not change.finished:
            event["patch"] = move_patch(row, now_ms())
        else:
            event["game"] = await self.snapshot(row)
        await self.fanout.publish(game_channel(row.id), json.dumps(event))
        if change.kind in ("start", "cancel") and not row.private:
            await self.publish_lobby()

    async def publish_presence(self, row: GameRow) -> None:
        event = {
            "type": "presence",
            "version": row.version,
            "ply": row.ply,
            "away": {"x": row.x_left_at, "o": row.o_left_at},
        }
        await self.fanout.publish(game_channel(row.id), json.dumps(event))

    async def lobby_message(self) -> str:
        rows = await self.store.call(self.store.open_rooms)
        return json.dumps({"type": "lobby", "rooms": await self.summaries(rows)})

    async def publish_lobby(self) -> None:
        await self.fanout.publish(LOBBY, await self.lobby_message())

    # -- sockets of this process ----------------------------------------------------------

    async def attach(self, row: GameRow, listener: Listener) -> LiveGame:
        """A socket of this process starts listening to the game of `row`."""
        live = self.live.get(row.id)
        if live is None:
            live = self.live[row.id] = LiveGame(row.id)
            live.clock_listener = lambda message: self._clock_event(row.id, message)
            await self.fanout.subscribe(game_channel(row.id), live.clock_listener)
            self.watch_clock(row.id, row.deadline())
        live.sockets += 1
        await self.fanout.subscribe(game_channel(row.id), listener)
        return live

    async def detach(self, live: LiveGame, listener: Listener) -> None:
        await self.fanout.unsubscribe(game_channel(live.id), listener)
        live.sockets -= 1
        if live.sockets == 0:
            if live.timer:
                live.timer.cancel()
            if live.clock_listener:
                await self.fanout.unsubscribe(game_channel(live.id), live.clock_listener)
            self.live.pop(live.id, None)

    def _clock_event(self, game_id: str, message: str) -> None:
        # Every event of every game passes here: its head is enough, no need to parse
        # the whole state.
        found = _DEADLINE.match(message)
        if found:
            self.watch_clock(game_id, int(found.group(1)) if found.group(1) != "null" else None)

    async def arrived(self, live: LiveGame, user_id: int) -> None:
        """A user's socket opened: if they play this game, they are no longer away."""
        live.present[user_id] = live.present.get(user_id, 0) + 1
        if live.present[user_id] == 1:
            await self._presence(live, user_id)

    async def left(self, live: LiveGame, user_id: int) -> None:
        live.present[user_id] -= 1
        if live.present[user_id] == 0:
            del live.present[user_id]
            await self._presence(live, user_id)

    async def _presence(self, live: LiveGame, user_id: int) -> None:
        # One change of a game's presence at a time, each written as things stand when
        # its turn comes: a socket closing while the same player's new one opens (a
        # reconnect) must not leave them marked away.
        async with live.presence_lock:
            here = user_id in live.present
            await (self.presence.here if here else self.presence.gone)(live.id, user_id)
            await self._write_presence(live.id, user_id, None if here else now_ms())

    async def _write_presence(self, game_id: str, user_id: int, left_at: int | None) -> None:
        # Read at the moment of arriving or leaving: the creator of a room gets a side
        # only when somebody joins.
        row = await self.store.call(self.store.game, game_id)
        side = row.side_of(user_id)
        if side is None or row.state != actions.PLAYING:
            return
        if (row.x_left_at if side == "x" else row.o_left_at) == left_at:
            return
        await self.store.call(self.store.set_left, game_id, side, left_at)
        await self.publish_presence(await self.store.call(self.store.game, game_id))

    def watch_clock(self, game_id: str, deadline: int | None) -> None:
        """Ends the game on time at `deadline` unless a move comes first (every process
        with sockets on the game watches; the store lets one of them win)."""
        live = self.live.get(game_id)
        if live is None:
            return
        if live.timer is not None:
            live.timer.cancel()
            live.timer = None
        if deadline is None:
            return
        loop = asyncio.get_running_loop()
        delay = max(0.0, (deadline - now_ms()) / 1000) + 0.01
        live.timer = loop.call_later(delay, lambda: asyncio.ensure_future(self._flag(game_id)))

    async def _flag(self, game_id: str) -> None:
        try:
            await self.act(game_id, None, "flag")
        except ActionError:
            pass  # a move, a resignation or another process got there first
        except Exception:
            log.exception("ending game %s on time failed", game_id)
