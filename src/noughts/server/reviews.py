"""Reviews kept: a game's review is computed once, in the background, and stored in the
online store's database; asked again it is answered from there at once, and while it is
being computed its progress is (so that no request waits minutes for it).

A game sent by a page (`POST /api/review`) is kept under a hash of what decides its
review (`review_key`); an online game's under its id, reviewed by `ONLINE_LEVEL` at
`ONLINE_SECONDS` a position, started when the game ends.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field, replace

from fastapi.responses import JSONResponse

from noughts.ai.levels import Level
from noughts.competition.clock import now_ms
from noughts.server.models import ReviewProgress
from noughts.server.online.actions import GameRow
from noughts.server.online.service import Online
from noughts.server.replay import Replayed, replay
from noughts.thinking.lanes import SERVER, Asker, Thinking

log = logging.getLogger(__name__)

#: The reviewer of online games, and its time a position: an ultimate game of 60 plies
#: takes about half a minute.
ONLINE_LEVEL: Level = "max"
ONLINE_SECONDS = 0.5
#: Games shorter than this are not reviewed when they end (aborted, resigned at once).
MIN_REVIEWED_MOVES = 2
#: Failed reviews remembered until someone asks (who is told why), the oldest forgotten
#: first beyond this many.
MAX_FAILED = 1000


def review_key(spec: str, start: str | None, moves: list[str], level: Level, seconds: float) -> str:
    """The key a page's game's review is kept under: a hash of the game (its canonical
    spec and moves), the reviewer and its time a position.

    >>> review_key("classic", None, ["5", "1"], "max", 0.5) == review_key("classic", None, ["5", "1"], "max", 0.5)
    True
    >>> review_key("classic", None, ["5", "1"], "max", 0.5) == review_key("classic", None, ["5", "1"], "max", 1.0)
    False
    """
    text = json.dumps([spec, start, moves, level, seconds], separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


def online_key(game_id: str) -> str:
    """The key an online game's review is computed under in this process."""
    return f"game:{game_id}"


@dataclass
class Running:
    """A review being computed in this process: `done` of the game's `total` positions."""

    key: str
    total: int
    done: int = 0
    task: asyncio.Task[str] = field(init=False)
    #: Whether someone was told of its failure already (between the task's end and its
    #: done callback, an ask reads the failure from the task itself).
    told: bool = False

    def advance(self, done: int) -> None:
        self.done = done


#: A review, kept (its JSON), or its progress.
Answer = str | Running


def computing(running: Running, location: str) -> JSONResponse:
    """The answer while `running` is computed: its progress (`ReviewProgress`), 202, and
    where to ask again."""
    progress = ReviewProgress(key=running.key, done=running.done, total=running.total)
    return JSONResponse(progress.model_dump(), status_code=202, headers={"Location": location})


class Reviews:
    """The reviews kept in `online`'s store and computed in `pool`, each once: two asks
    in one process share the computation; across processes the first stored wins."""

    def __init__(self, pool: Thinking, online: Online) -> None:
        self.pool = pool
        self.online = online
        self.running: dict[str, Running] = {}
        self.failed: dict[str, BaseException] = {}
        self._started: set[asyncio.Task[None]] = set()  # held: the loop keeps weak references

    async def of_page_game(
        self, game: Replayed, start: str | None, level: Level, seconds: float, asker: Asker = SERVER
    ) -> Answer:
        """A page's game's review if kept, else its progress (started now for `asker`,
        within their quota of reviews, unless it is under way)."""
        spec, moves = game.game.spec, game.moves
        key = review_key(spec, start, moves, level, seconds)
        store = self.online.store

        async def keep(data: str) -> str:
            return await store.call(store.keep_review, key, spec, level, seconds, data, now_ms())

        await self.online.start()
        answer = await self._kept_or_running(key, lambda: store.call(store.kept_review, key))
        return answer or self._start(key, game, level, seconds, keep, asker)

    async def of_page_key(self, key: str) -> Answer | None:
        """A page's game's review by its key, or its progress; None if it was never asked for."""
        store = self.online.store
        await self.online.start()
        return await self._kept_or_running(key, lambda: store.call(store.kept_review, key))

    async def of_online_game(self, row: GameRow, start: bool = True) -> Answer | None:
        """A finished online game's review, or its progress: started now unless it is
        under way or `start` is false (None then)."""
        key = online_key(row.id)
        store = self.online.store

        async def keep(data: str) -> str:
            return await store.call(store.add_review, row.id, ONLINE_LEVEL, data, None, now_ms())

        answer = await self._kept_or_running(key, lambda: store.call(store.review, row.id))
        if answer is not None or not start:
            return answer
        return self._start(key, replay(row.spec, None, row.moves.split()), ONLINE_LEVEL, ONLINE_SECONDS, keep)

    def game_ended(self, row: GameRow) -> None:
        """Starts the review of an online game that just ended, in the background (the
        "computer analysis" its players and spectators then see)."""
        if len(row.moves.split()) < MIN_REVIEWED_MOVES:
            return

        async def review() -> None:
            try:
                await self.of_online_game(row)
            except Exception:
                log.exception("the review of game %s did not start", row.id)

        self._started.add(task := asyncio.create_task(review(), name=f"noughts-review-{row.id}"))
        task.add_done_callback(self._started.discard)

    async def wait(self, running: Running, seconds: float) -> Answer:
        """The review once done within `seconds`, else its progress."""
        if seconds > 0:
            try:
                return await asyncio.wait_for(asyncio.shield(running.task), seconds)
            except TimeoutError:
                pass
            except Exception:
                self.failed.pop(running.key, None)  # told now
                running.told = True
                raise
        return self._finished(running) or running

    async def stop(self) -> None:
        """Cancels the reviews under way (the server stops; asked again, they start anew)."""
        tasks = [running.task for running in self.running.values()]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    async def _kept_or_running(self, key: str, kept: Callable[[], Awaitable[str | None]]) -> Answer | None:
        failure = self.failed.pop(key, None)
        if failure is not None:
            raise failure
        running = self.running.get(key)
        if running is not None:
            return self._finished(running) or running
        stored = await kept()
        if stored is not None:
            return stored
        # Started by another request while the store was read.
        running = self.running.get(key)
        return None if running is None else self._finished(running) or running

    def _finished(self, running: Running) -> str | None:
        """A finished review's result, or None while it runs (a failed one's error)."""
        if not running.task.done():
            return None
        self.failed.pop(running.key, None)  # told now
        running.told = not running.task.cancelled() and running.task.exception() is not None
        return running.task.result()

    def _start(
        self,
        key: str,
        game: Replayed,
        level: Level,
        seconds: float,
        keep: Callable[[str], Awaitable[str]],
        asker: Asker = SERVER,
    ) -> Running:
        running = self.running[key] = Running(key, len(game.states))

        async def compute() -> str:
            # The one place reviews are sent to the pool.
            # Kept for whoever asks next, it goes on if its asker leaves (no `gone`).
            data = await self.pool.review(game, level, seconds, replace(asker, gone=None), running.advance)
            return await keep(json.dumps(data))

        def done(task: asyncio.Task[str]) -> None:
            self.running.pop(key, None)  # kept in the store from now on, or failed
            failure = None if task.cancelled() else task.exception()
            if failure is not None and not running.told:
                # Told to the next to ask, once; the ask after that starts it anew.
                log.warning("the review %s failed: %s", key, failure)
                self.failed[key] = failure
                if len(self.failed) > MAX_FAILED:
                    del self.failed[next(iter(self.failed))]

        running.task = asyncio.create_task(compute(), name=f"noughts-review-{key[:16]}")
        running.task.add_done_callback(done)
        return running
