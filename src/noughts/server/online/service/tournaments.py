"""Running the tournaments: creating, joining, leaving and starting them, and advancing
each (pairing its players, starting its rounds, ending it) when something changes and
on a sweep."""

from __future__ import annotations

import asyncio
import functools
import logging
from collections.abc import Awaitable
from dataclasses import dataclass
from typing import Any

from noughts.competition.clock import now_ms
from noughts.competition.ratings import Glicko
from noughts.server.online import actions
from noughts.server.online.actions import ForbiddenError, GameRow, InvalidError
from noughts.server.online.bus import Bus, Changed, TournamentStarted
from noughts.server.online.config import OnlineConfig
from noughts.server.online.protocol import TournamentNews, encode
from noughts.server.online.realtime import Fanout, tournament_channel
from noughts.server.online.service.play import Play
from noughts.server.online.service.rooms import checked, room_row
from noughts.server.online.storage.db import log_failure
from noughts.server.online.storage.store import Store, UserRow
from noughts.server.online.storage.tournaments import ARENA, UPCOMING, TournamentRow, Tournaments
from noughts.server.online.texts import text_fault

log = logging.getLogger(__name__)


def tournament_game(t: TournamentRow, x: int, o: int, now: int) -> GameRow:
    """A game of tournament `t` between x and o, started at `now` (as quick pairing's)."""
    minutes = None if t.clock_initial_ms is None else t.clock_initial_ms / 60_000
    increment = (t.clock_increment_ms or 0) / 1000
    room = room_row(t.spec, t.rated, x, "x", False, minutes, increment, now)
    return actions.join(room, o, False, now).row


@dataclass
class Advances:
    """A tournament's advances asked for in this process: one runs at a time, and every
    ask that comes meanwhile shares the next one (`next`, done when it is), which reads
    the database after all of them."""

    next: asyncio.Future[None] | None = None
    #: Whether any ask sharing `next` brings news (a join, a game over) for the page.
    changed: bool = False
    runner: asyncio.Task[None] | None = None


class TournamentRunner:
    """The tournaments of this process; `book` is where they are stored. It follows the
    games as they end (`after`) and tells the `bus` of each tournament it started
    (`TournamentStarted`: its players are told)."""

    def __init__(self, store: Store, fanout: Fanout, config: OnlineConfig, play: Play, bus: Bus) -> None:
        self.store, self.fanout, self.config, self.play, self.bus = store, fanout, config, play, bus
        self.book = Tournaments(store)
        #: The tournaments' pages as last computed in this process, by id, with the time
        #: (routes.tournaments serves them again for a second).
        self.views: dict[str, Any] = {}  # routes.tournaments.Computed by id
        self._advances: dict[str, Advances] = {}

    def tasks(self) -> list[asyncio.Task[None]]:
        """The advances running (to cancel when the app stops)."""
        return [a.runner for a in self._advances.values() if a.runner is not None]

    async def create(
        self, user: UserRow, kind: str, name: str, spec: str, rated: bool, minutes: float | None, increment: float,
        duration: int | None, rounds: int | None, starts_in: float,
    ) -> TournamentRow:  # fmt: skip
        """A new tournament, upcoming until `starts_in` minutes from now (its creator may
        start it earlier). Guests may play in tournaments but not create them."""
        if user.guest:
            raise ForbiddenError("guest-tournament", "sign up to create tournaments")
        canonical = checked(user, spec, rated, minutes, increment)
        fault = text_fault(name.strip())
        if fault is not None:
            raise InvalidError("invalid-tournament", f"a tournament's name {fault}")
        if kind == ARENA and duration is None:
            raise InvalidError("invalid-tournament", "an arena needs a duration (minutes)")
        if kind != ARENA and rounds is None:
            raise InvalidError("invalid-tournament", "a Swiss needs a number of rounds")
        now = now_ms()
        row = TournamentRow(
            id=actions.new_game_id(), kind=kind, name=name.strip(), spec=canonical, rated=rated,
            clock_initial_ms=round(minutes * 60_000) if minutes is not None else None,
            clock_increment_ms=round(increment * 1000) if minutes is not None else None,
            creator_id=user.id, state=UPCOMING, minutes=duration if kind == ARENA else None,
            rounds=rounds if kind != ARENA else None, round=0, starts_at=now + round(starts_in * 60_000),
            ends_at=None, created_at=now, finished_at=None,
        )  # fmt: skip
        await self.store.call(self.book.create, row, self.config.tournaments_per_player)
        await self.advance(row.id)
        return row

    async def join(self, tournament_id: str, user: UserRow) -> None:
        t = await self.store.call(self.book.get, tournament_id)
        if t.rated and user.guest:
            raise ForbiddenError("guest-rated", "guests play casual games only: sign up to play rated tournaments")
        ratings = {r.spec: r for r in await self.store.call(self.store.ratings_of, user.id, user.id)}
        stored = ratings.get(t.spec)
        rating = stored.rating if stored is not None else Glicko().rating
        await self.store.call(self.book.join, tournament_id, user.id, rating, now_ms())
        await self.advance(tournament_id)

    async def withdraw(self, tournament_id: str, user: UserRow) -> None:
        await self.store.call(self.book.withdraw, tournament_id, user.id)
        await self.advance(tournament_id)

    async def start(self, tournament_id: str, user: UserRow) -> None:
        await self.store.call(self.book.start_now, tournament_id, user.id, now_ms())
        await self.advance(tournament_id)

    async def advance(self, tournament_id: str, changed: bool = True) -> None:
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
        advanced = await self.store.call(self.book.advance, tournament_id, now, make_game, wait)
        for game in advanced.games:
            self.play.await_arrivals(game)
        if changed or advanced.changed:
            await self.publish(tournament_id, advanced.games)
        if advanced.started:
            self.bus.publish(TournamentStarted(tournament_id))
        return advanced.games

    async def publish(self, tournament_id: str, games: list[GameRow]) -> None:
        """Tells the tournament's pages (every process's, through the fanout) to ask for it
        again, and each newly paired player which game is theirs, so that nobody waits
        for a poll to start playing."""
        ids = {i for g in games for i in (g.x_id, g.o_id) if i is not None}
        names = await self.store.call(self.store.users, ids) if ids else {}
        paired = {names[i].name: g.id for g in games for i in (g.x_id, g.o_id) if i is not None and i in names}
        news = TournamentNews(id=tournament_id, paired=paired)
        await self.fanout.publish(tournament_channel(tournament_id), encode(news))

    def after(self, event: Changed) -> Awaitable[None] | None:
        """A game changed: if it ended, its tournament, if any, pairs the players again
        or starts the next round."""
        return self.game_ended(event.change.row.id) if event.change.finished else None

    async def game_ended(self, game_id: str) -> None:
        """The game's tournament, if any, pairs its players again or starts the next round."""
        try:
            tournament_id = await self.store.call(self.book.tournament_of, game_id)
            if tournament_id is not None:
                await self.advance(tournament_id)
        except Exception:
            log_failure(log, "advancing the tournament of game %s failed", game_id)

    async def sweep(self) -> None:
        """Now and then, advances every tournament that may need it: starts the due,
        ends an arena whose time is up, and picks up after a restart or a game whose end
        another process saw (every process sweeps; the row lock lets one act at a time)."""
        while True:
            await asyncio.sleep(self.config.tournament_sweep)
            try:
                for tournament_id in await self.store.call(self.book.due, now_ms()):
                    await self._advance(tournament_id, wait=False, changed=False)
            except Exception:
                log_failure(log, "advancing the tournaments failed")
