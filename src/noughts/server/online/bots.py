"""The computer online: a bot account for each level (``noughts-easy`` to
``noughts-max``), rated in every game like anybody, challenged from the lobby or a
profile, and filling in for quick pairing when a player has waited as long as they chose.

A bot thinks in the server's worker pool (the app's `ThinkingPool`, through `think`),
never in the event loop, so its games never hold up anybody else's. Whoever commits a
change after which a bot is to move starts its turn (`Bots.turn`); every process also
sweeps now and then (`Bots.sweep`) for a bot turn that nobody took, a process having
stopped between a move and the bot's answer, so no game waits on a bot forever. Two
processes answering the same turn race like two sockets do: the ply check lets one in.

A bot is never away (it plays wherever a server runs); when its human opponent has been
away for the disconnect grace, the bot claims the game, as a person would. It answers
what it is asked at once: a takeback is granted in a casual game and declined in a rated
one (as lichess's computer does), and a draw is accepted when the bot's own analysis
does not have it ahead. An offer that a stopped process left unanswered is answered by
the sweep.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from typing import Protocol

from noughts.ai.levels import LEVEL_CARDS, LEVELS
from noughts.competition.clock import move_budget, now_ms
from noughts.server.online import actions
from noughts.server.online.accounts import name_key
from noughts.server.online.actions import ActionError, Change, GameRow, turn_of
from noughts.server.online.bus import Changed
from noughts.server.online.storage.db import log_failure
from noughts.server.online.storage.store import Store, UserRow

__all__ = ["HOUSE", "PRIOR", "Assess", "Bots", "CannotThinkError", "Think", "think_seconds"]

log = logging.getLogger(__name__)

#: The house bots: each level's account name.
HOUSE: dict[str, str] = {level: f"noughts-{level}" for level in LEVELS}
#: Where a level's bot stands in a game before it has played rated games in it
#: (`LevelCard.house_rating`).
PRIOR: dict[str, float] = {level: card.house_rating for level, card in LEVEL_CARDS.items()}


class CannotThinkError(Exception):
    """`think` or `assess` could not reach the computer (its workers or their Redis are
    away): the sweep tries the turn again, and the log says so once, not every time."""


#: (spec, moves, level, seconds or None for the level's own limits) -> the move's text.
Think = Callable[[str, list[str], str, float | None], Awaitable[str]]
#: (spec, moves, level, seconds) -> the expected result for the player to move, 0 to 1
#: (`noughts.ai.base.win_chance`), None when the analysis cannot tell.
Assess = Callable[[str, list[str], str, float], Awaitable[float | None]]


class Plays(Protocol):
    """What the bots do in their games (`noughts.server.online.service.play.Play`)."""

    async def move(
        self, game_id: str, user: UserRow | None, text: str, ply: int | None, acknowledge: Callable[[Change], None]
    ) -> Change: ...

    async def act(self, game_id: str, user: UserRow | None, action: str) -> Change: ...


#: How often a process looks for bot turns that nobody took, and how old such a turn
#: must be (one being thought elsewhere is younger than its budget plus this).
SWEEP_SECONDS = 1.0
UNTAKEN_MS = 10_000
#: A bot accepts a draw when its analysis gives it at most this expected result (a draw
#: counts half): when it is not clearly ahead, as a fair opponent would. It looks this
#: long (its level's search without deliberate slips).
DRAW_AT_MOST = 0.55
ASSESS_SECONDS = 1.0


def think_seconds(row: GameRow) -> float | None:
    """The time a bot takes for its move: without a clock its level's own (None); with
    one, a 25th of what is left plus most of the increment, so that it never flags."""
    if not row.has_clock:
        return None
    left = (row.x_ms if turn_of(row.ply) == "x" else row.o_ms) or 0
    return move_budget(left, row.clock_increment_ms or 0)


class Bots:
    """The bots of online play (its `store`, and the `play` they move and claim in):
    their accounts, and their turns in games, started as the games change (`after`)."""

    def __init__(self, store: Store, play: Plays, grace_seconds: float) -> None:
        self.store, self.play, self.grace_seconds = store, play, grace_seconds
        self.think: Think | None = None  # set by the app: the worker pool's
        self.assess: Assess | None = None  # likewise
        #: Bot accounts by user id, with their levels.
        self.levels: dict[int, str] = {}
        self._thinking: set[str] = set()
        self._answering: set[str] = set()
        self._tasks: set[asyncio.Task[None]] = set()
        #: Why the bots cannot think now (None: they can), for one line per outage.
        self._cannot: str | None = None

    def _cannot_think(self, error: CannotThinkError) -> None:
        if self._cannot is None:
            log.warning("the bots cannot think (%s): their turns wait until the computer is back", error)
        self._cannot = str(error)

    def _can_think(self) -> None:
        if self._cannot is not None:
            log.warning("the bots think again")
            self._cannot = None

    async def ensure(self) -> None:
        """Creates the house bots' accounts that are missing."""
        store = self.store
        for level, name in HOUSE.items():
            user = await store.call(store.add_bot, name, name_key(name), level, now_ms())
            self.levels[user.id] = level

    async def accounts(self) -> list[UserRow]:
        return await self.store.call(self.store.bots)

    def _account(self, user_id: int) -> UserRow:
        level = self.levels[user_id]
        return UserRow(user_id, HOUSE[level], False, bot=level)

    def is_bot(self, user_id: int | None) -> bool:
        return user_id in self.levels

    def by_name(self, name: str) -> tuple[int, str] | None:
        """The bot called `name` (any case): its id and level."""
        for user_id, level in self.levels.items():
            if name_key(HOUSE[level]) == name_key(name):
                return user_id, level
        return None

    def after(self, event: Changed) -> None:
        """A game changed: a bot to move there, or to answer an offer, starts on it."""
        change = event.change
        self.turn(change.row)
        self.answer(change.row)
        if change.created is not None:
            self.turn(change.created)

    def turn(self, row: GameRow) -> None:
        """Starts the bot's move in `row` if a bot is to move there (and not already
        thinking in this process)."""
        if self.think is None or row.state != actions.PLAYING or row.id in self._thinking:
            return
        mover = row.x_id if turn_of(row.ply) == "x" else row.o_id
        if mover not in self.levels:
            return
        self._thinking.add(row.id)
        task = asyncio.create_task(self._move(row, mover), name=f"noughts-bot-{row.id}")
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _move(self, row: GameRow, bot_id: int) -> None:
        assert self.think is not None
        try:
            text = await self.think(row.spec, row.move_list, self.levels[bot_id], think_seconds(row))
            self._can_think()
            bot = self._account(bot_id)
            # ActionError: the game moved on meanwhile (another process answered, it ended).
            with contextlib.suppress(ActionError):
                await self.play.move(row.id, bot, text, row.ply, lambda _: None)
        except CannotThinkError as e:
            self._cannot_think(e)
        except Exception:
            log_failure(log, "bot move in game %s failed", row.id)
        finally:
            self._thinking.discard(row.id)

    def answer(self, row: GameRow) -> None:
        """Starts the answer to an offer a bot has been made in `row` (a draw, a
        takeback), unless this process is answering it already."""
        if self.assess is None or row.state != actions.PLAYING or row.id in self._answering:
            return
        for what, offering in (("draw", row.draw_offer), ("takeback", row.takeback_offer)):
            bot_id = row.o_id if offering == "x" else row.x_id if offering == "o" else None
            if bot_id in self.levels:
                assert bot_id is not None
                self._answering.add(row.id)
                task = asyncio.create_task(self._answer(row, bot_id, what), name=f"noughts-bot-answer-{row.id}")
                self._tasks.add(task)
                task.add_done_callback(self._tasks.discard)
                return

    async def _answer(self, row: GameRow, bot_id: int, what: str) -> None:
        assert self.assess is not None
        try:
            if what == "takeback":
                verdict = "takeback-decline" if row.rated else "takeback-accept"
            else:
                chance = await self.assess(row.spec, row.move_list, self.levels[bot_id], ASSESS_SECONDS)
                self._can_think()
                bot_to_move = (row.x_id if turn_of(row.ply) == "x" else row.o_id) == bot_id
                mine = None if chance is None else chance if bot_to_move else 1.0 - chance
                verdict = "draw-accept" if mine is not None and mine <= DRAW_AT_MOST else "draw-decline"
            # ActionError: withdrawn or answered meanwhile, or the game moved on or ended.
            with contextlib.suppress(ActionError):
                await self.play.act(row.id, self._account(bot_id), verdict)
        except CannotThinkError as e:
            self._cannot_think(e)
        except Exception:
            log_failure(log, "bot answer in game %s failed", row.id)
        finally:
            self._answering.discard(row.id)

    async def sweep(self) -> None:
        """Now and then: the bot turns nobody took, and the games whose human has been
        away past the grace (the bot claims them)."""
        grace = round(self.grace_seconds * 1000)
        while True:
            await asyncio.sleep(SWEEP_SECONDS)
            try:
                now = now_ms()
                for row in await self.store.call(self.store.bot_games):
                    await self._look(row, now, grace)
            except Exception:
                log_failure(log, "the bots' sweep failed")

    async def _look(self, row: GameRow, now: int, grace: int) -> None:
        for side, user_id, other_left in (("x", row.x_id, row.o_left_at), ("o", row.o_id, row.x_left_at)):
            if user_id not in self.levels:
                continue
            if other_left is not None and now - other_left >= grace:
                bot = self._account(user_id)
                with contextlib.suppress(ActionError):  # back meanwhile, or over
                    await self.play.act(row.id, bot, "claim")
                return
            if turn_of(row.ply) == side and now - (row.turn_started_at or row.started_at or now) >= UNTAKEN_MS:
                self.turn(row)
        self.answer(row)

    async def stop(self) -> None:
        for task in self._tasks:
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
