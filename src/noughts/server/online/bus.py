"""What a part of online play did that other parts react to, inside one process: a
change committed to a game, a clock that reached its deadline, a player's presence that
changed, a tournament that started, a span the clocks stood still.

The part that did it publishes the event; the parts that care subscribe to its type
(`noughts.server.online.service.Online` lists who reacts to what, in one place). So a
part depends only on the parts it calls, never on one that reacts to it: the play
does not know the bots, the tournaments or the notifications, which follow its games.
Across processes the fan-out carries what others must see (`realtime`); this is the
process's own wiring.
"""

from __future__ import annotations

import asyncio
import inspect
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from noughts.server.online.actions import Change, GameRow
from noughts.server.online.storage.db import log_failure

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Changed:
    """A change committed to a game in this process, after its acknowledgement and its
    publication to the game's watchers."""

    change: Change


@dataclass(frozen=True)
class ClockDue:
    """A clock this process watches reached its deadline: the game may be over on time."""

    game_id: str


@dataclass(frozen=True)
class PresenceChanged:
    """Who of a game's players is away changed (`row` is the game as it is now)."""

    row: GameRow


@dataclass(frozen=True)
class TournamentStarted:
    tournament_id: str


@dataclass(frozen=True)
class Paused:
    """This process could not serve the games from `start` to `end` (ms since 1970): a
    Redis outage, during which no move crossed between processes."""

    start: int
    end: int


Event = Changed | ClockDue | PresenceChanged | TournamentStarted | Paused
E = TypeVar("E", Changed, ClockDue, PresenceChanged, TournamentStarted, Paused)
Handler = Callable[[E], Awaitable[None] | None]


class Bus:
    """Handlers by the type of event they take, called in the order they subscribed. A
    handler's failure is logged and stops neither the others nor the publisher (a move
    is acknowledged whatever a notification does)."""

    def __init__(self) -> None:
        self._handlers: dict[type, list[Callable[[Any], Awaitable[None] | None]]] = {}
        self._tasks: set[asyncio.Task[None]] = set()

    def subscribe(self, kind: type[E], handler: Handler[E]) -> None:
        self._handlers.setdefault(kind, []).append(handler)

    def publish(self, event: Event) -> None:
        """Calls each handler of `event` now; those that are coroutines go on as tasks
        of their own (`tasks`)."""
        for handler in self._handlers.get(type(event), ()):
            try:
                result = handler(event)
            except Exception:
                log_failure(log, "handling %s failed", event)
                continue
            if inspect.isawaitable(result):
                task = asyncio.ensure_future(self._guarded(result, event))
                self._tasks.add(task)
                task.add_done_callback(self._tasks.discard)

    async def deliver(self, event: Event) -> None:
        """Calls each handler of `event` in turn, waiting for each: for a publisher whose
        next step needs them done (the presence publishes before it forgets)."""
        for handler in self._handlers.get(type(event), ()):
            try:
                result = handler(event)
                if inspect.isawaitable(result):
                    await result
            except Exception:
                log_failure(log, "handling %s failed", event)

    async def _guarded(self, work: Awaitable[None], event: Event) -> None:
        try:
            await work
        except Exception:
            log_failure(log, "handling %s failed", event)

    def tasks(self) -> list[asyncio.Task[None]]:
        """The handlers still running (to cancel when the app stops)."""
        return list(self._tasks)
