"""The games in play: every change of a game goes through `Play.change`.

Every change follows one order: the core validates it, the database commits it, the
actor gets the acknowledgement, then the event goes out to everyone watching. Events
are stamped with the game's version and ply and hold the whole public state, except
a move's, which holds what the move changed (clients apply it to the version before).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
from collections.abc import Callable
from typing import Any

from noughts.competition.clock import Pauses, now_ms
from noughts.server.online import actions
from noughts.server.online.actions import ActionError, Change, GameRow, MissingError
from noughts.server.online.bus import Bus, Changed, ClockDue, Paused, PresenceChanged
from noughts.server.online.config import OnlineConfig
from noughts.server.online.presence import Presence
from noughts.server.online.protocol import Event, Lobby, encode
from noughts.server.online.protocol import Presence as PresenceFrame
from noughts.server.online.realtime import LOBBY, Fanout, game_channel
from noughts.server.online.service.live import LiveGames
from noughts.server.online.snapshots import move_patch, snapshot, summary
from noughts.server.online.storage.db import log_failure
from noughts.server.online.storage.store import NotFoundError, Store, UserRow

log = logging.getLogger(__name__)

#: Moves of one online game at most: far beyond any real game of the family.
MAX_PLIES = 2000


class Play:
    """Moves and actions on the games, their events, the lobby's, and the sweep that
    ends the games nobody will end. Each change committed here is told to the `bus`
    (`Changed`) once its watchers have it: the bots, the tournaments and the
    notifications follow the games from there."""

    def __init__(
        self, store: Store, fanout: Fanout, config: OnlineConfig, presence: Presence, live: LiveGames, bus: Bus
    ) -> None:
        self.store, self.fanout, self.config = store, fanout, config
        self.presence, self.live, self.bus = presence, live, bus
        #: When this process stood still (`noughts.server.online.stalls`, and a Redis
        #: outage): given back to the players whose clocks ran meanwhile.
        self.pauses = Pauses()
        #: Checks of who arrived at a game that just started (see `Presence.seated`).
        self._arrivals: set[asyncio.Task[None]] = set()

    def tasks(self) -> list[asyncio.Task[None]]:
        """The work still running after a change (to cancel when the app stops)."""
        return list(self._arrivals)

    # -- what it does when told (`Online` subscribes these) ------------------------------

    async def clock_due(self, event: ClockDue) -> None:
        await self.flag(event.game_id)

    async def presence_changed(self, event: PresenceChanged) -> None:
        await self.publish_presence(event.row)

    def paused(self, event: Paused) -> None:
        self.pauses.record(event.start, event.end)

    async def game(self, game_id: str) -> GameRow:
        try:
            return await self.store.call(self.store.game, game_id)
        except NotFoundError:
            raise MissingError("no-such-game", f"there is no game {game_id!r}") from None

    async def snapshot(self, row: GameRow) -> dict[str, Any]:
        ids = {i for i in (row.creator_id, row.x_id, row.o_id) if i is not None}
        users = self.store.known_users(ids)
        if users is None:
            users = await self.store.call(self.store.users, ids)
        # Not on a move's path (a move's event carries a patch): on connecting, a resync
        # and the other events, where a read of the ratings is cheap beside the rest.
        now = now_ms()
        players = {i for i in (row.x_id, row.o_id) if i is not None}
        around = await self.store.call(self.store.surroundings, row.id, row.spec, players, now)
        return snapshot(row, users, around, now)

    async def summaries(self, rows: list[GameRow], boards: bool = False) -> list[dict[str, Any]]:
        ids = {i for r in rows for i in (r.creator_id, r.x_id, r.o_id) if i is not None}
        users = await self.store.call(self.store.users, ids)
        return [summary(r, users, boards) for r in rows]

    async def move(
        self,
        game_id: str,
        user: UserRow | None,
        text: str,
        ply: int | None,
        acknowledge: Callable[[Change], None],
        spent_ms: int | None = None,
        lag_ms: int | None = None,
    ) -> Change:
        """Plays `text`; `spent_ms` and `lag_ms` are the player's own timing of it (see
        `actions.MoveTiming`)."""
        now = now_ms()
        uid = user.id if user else None

        def play(row: GameRow) -> Change:
            if row.ply >= MAX_PLIES:
                raise ActionError("too-long", f"an online game ends after {MAX_PLIES} plies")
            timing = actions.MoveTiming(self._paused_since(row, now), spent_ms, lag_ms)
            return actions.move(row, uid, text, ply, now, timing)

        return await self.change(game_id, play, acknowledge, cached=True)

    async def act(
        self, game_id: str, user: UserRow | None, action: str, acknowledge: Callable[[Change], None] | None = None
    ) -> Change:
        now = now_ms()
        grace = round(self.config.disconnect_grace * 1000)
        uid = user.id if user else None
        return await self.change(
            game_id,
            lambda row: actions.act(row, uid, action, now, grace, self._paused_since(row, now)),
            acknowledge,
        )

    def _paused_since(self, row: GameRow, now: int) -> int:
        """This process's pauses since `row`'s turn began."""
        return self.pauses.within(row.turn_started_at, now) if row.turn_started_at is not None else 0

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
        started = change.row if change.kind == "start" else change.created
        if started is not None:
            self.await_arrivals(started)
        self.bus.publish(Changed(change))
        return change

    def await_arrivals(self, row: GameRow) -> None:
        """Marks away, `arrival_wait` from now, the players of the game just started at
        `row` who have not opened its page by then."""

        async def check() -> None:
            await asyncio.sleep(self.config.arrival_wait)
            try:
                # The house bots play without a socket: never away.
                players = {i for i in (row.x_id, row.o_id) if i is not None}
                users = await self.store.call(self.store.users, players)
                house = {i for i, user in users.items() if user.house_bot}
                await self.presence.seated(row, since, house)
            except Exception:
                log_failure(log, "marking who never arrived at game %s failed", row.id)

        since = now_ms()
        task = asyncio.create_task(check(), name=f"noughts-arrivals-{row.id}")
        self._arrivals.add(task)
        task.add_done_callback(self._arrivals.discard)

    async def sweep_abandoned(self) -> None:
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
                    await self.flag(row.id)
            except Exception:
                log_failure(log, "ending abandoned games failed")

    async def flag(self, game_id: str) -> None:
        """Ends the game on time if its clock has run out."""
        try:
            await self.act(game_id, None, "flag")
        except ActionError as e:
            # A move, a resignation or another process got there first; or this process
            # stood still since the turn began, which the player is given back: the
            # flag falls that much later.
            if e.error == "no-flag":
                row = await self.game(game_id)
                deadline = row.deadline()
                if deadline is not None:
                    self.live.watch_clock(game_id, deadline + self._paused_since(row, now_ms()))
        except Exception:
            log_failure(log, "ending game %s on time failed", game_id)

    async def _commit(self, game_id: str, action: Callable[[GameRow], Change], cached: bool) -> Change:
        try:
            return await self.store.apply_soon(game_id, action, cached)
        except NotFoundError:
            raise MissingError("no-such-game", f"there is no game {game_id!r}") from None

    async def publish_change(self, change: Change) -> None:
        row = change.row
        patched = change.kind == "move" and not change.finished
        event = Event(
            deadline=row.deadline(),
            kind=change.kind,
            by=change.by,
            move=change.move,
            version=row.version,
            ply=row.ply,
            patch=move_patch(row, now_ms()) if patched else None,
            game=None if patched else await self.snapshot(row),
        )
        await self.fanout.publish(game_channel(row.id), encode(event))
        if change.kind in ("start", "cancel") and not row.private:
            await self.publish_lobby()

    async def publish_presence(self, row: GameRow) -> None:
        presence = PresenceFrame(version=row.version, ply=row.ply, away={"x": row.x_left_at, "o": row.o_left_at})
        await self.fanout.publish(game_channel(row.id), encode(presence))

    async def lobby_message(self) -> str:
        rows = await self.store.call(self.store.open_rooms)
        return encode(Lobby(rooms=await self.summaries(rows)))

    async def publish_lobby(self) -> None:
        await self.fanout.publish(LOBBY, await self.lobby_message())
