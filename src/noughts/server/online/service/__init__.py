"""Online play as one object, `Online`, made of a part per concern that the routes call:

- `accounts` (`Accounts`): sign-ups, log-ins, guests, sessions, players' bot accounts;
- `rooms` (`Rooms`): rooms and challenges to bots, joined, cancelled or declined;
- `play` (`Play`): moves and actions, their events, the lobby's, the abandoned games;
- `live` (`LiveGames`): the games with sockets in this process, their players' presence
  and clocks;
- `pairing` (`QuickPairing`): the quick-pairing pool;
- `tournaments` (`TournamentRunner`): tournaments, advanced as their games end;
- `chat` (`Chat`): the games' chat, its mutes and reports;
- `social` (`Social`): challenges between players, follows, blocks, notifications.

They share the store (and `profiles`, what a profile counts), the fan-out (`fanout`),
the presence of players between processes (`presence`), the house bots (`bots`) and the puzzles (`puzzles`).
"""

from __future__ import annotations

import asyncio

from noughts.competition.clock import now_ms
from noughts.server.online.bots import Bots
from noughts.server.online.bus import Bus, Changed, ClockDue, Paused, PresenceChanged, TournamentStarted
from noughts.server.online.config import OnlineConfig
from noughts.server.online.presence import make_presence
from noughts.server.online.realtime import Fanout, make_fanout
from noughts.server.online.service.accounts import Accounts
from noughts.server.online.service.chat import Chat
from noughts.server.online.service.live import LiveGames
from noughts.server.online.service.pairing import QuickPairing
from noughts.server.online.service.play import Play
from noughts.server.online.service.rooms import Rooms
from noughts.server.online.service.social import Social
from noughts.server.online.service.tournaments import TournamentRunner
from noughts.server.online.stalls import watch_stalls
from noughts.server.online.storage.profiles import Profiles
from noughts.server.online.storage.puzzles import PuzzleBook
from noughts.server.online.storage.store import Store
from noughts.study.answer_keys import unprovable_here

__all__ = ["Online"]


class Online:
    """Online play on the database at `database_url`, fanned out through `redis_url`
    (None: this process only)."""

    def __init__(self, database_url: str, redis_url: str | None, config: OnlineConfig) -> None:
        self.config = config
        self.store = Store(database_url)
        self.puzzles = PuzzleBook(self.store, unprovable_here())
        self.profiles = Profiles(self.store.engine)
        self.bus = Bus()
        self.fanout: Fanout = make_fanout(redis_url, config.redis_prefix, self.bus)
        self.accounts = Accounts(self.store, redis_url, config)
        # Each part is made after the parts it calls; what it reacts to comes by the bus.
        self.presence = make_presence(redis_url, self.store, config, self.bus)
        self.live = LiveGames(self.store, self.fanout, self.presence, self.bus)
        self.play = Play(self.store, self.fanout, config, self.presence, self.live, self.bus)
        self.bots = Bots(self.store, self.play, config.disconnect_grace)
        self.rooms = Rooms(self.store, self.play, self.bots)
        self.pairing = QuickPairing(self.store, self.play, self.bots)
        self.tournaments = TournamentRunner(self.store, self.fanout, config, self.play, self.bus)
        self.chat = Chat(self.store, self.fanout, config)
        self.social = Social(self.store, self.fanout, self.rooms, self.live, config)
        # Who reacts to what, in the order they are told.
        self.bus.subscribe(Changed, self.bots.after)  # a bot to move or to answer an offer
        self.bus.subscribe(Changed, self.tournaments.after)  # a tournament's game ended
        self.bus.subscribe(Changed, self.social.after)  # a rematch offered, a move to notify
        self.bus.subscribe(ClockDue, self.play.clock_due)
        self.bus.subscribe(PresenceChanged, self.play.presence_changed)
        self.bus.subscribe(Paused, self.play.paused)  # a Redis outage: the clocks give it back
        self.bus.subscribe(TournamentStarted, self.social.tournament_started)
        self._started = False
        self._starting = asyncio.Lock()
        self._sweepers: list[asyncio.Task[None]] = []

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
            self._sweepers = [
                asyncio.create_task(self.play.sweep_abandoned(), name="noughts-abandoned"),
                asyncio.create_task(self.bots.sweep(), name="noughts-bots"),
                asyncio.create_task(self.tournaments.sweep(), name="noughts-tournaments"),
                asyncio.create_task(watch_stalls(self.play.pauses), name="noughts-stalls"),
            ]
            self._started = True

    async def stop(self) -> None:
        if self._started:
            self.live.stop()
            tasks = [*self.play.tasks(), *self._sweepers, *self.tournaments.tasks(), *self.social.tasks()]
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
            await self.bots.stop()
            self._sweepers = []
            await self.presence.close()
            await self.fanout.close()
            self._started = False
        await self.accounts.close()
        self.store.close()
