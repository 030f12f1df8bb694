"""Noticing when this process stands still: its event loop held up by a long collection,
a blocking call or a machine starved of CPU. Each such span is recorded in the play's
`Pauses`, and a player whose clock ran during it is given that time back (a move made
meanwhile waited in the socket's buffer, unread, through no fault of theirs)."""

from __future__ import annotations

import asyncio

from noughts.competition.clock import Pauses, now_ms

#: Seconds between the watcher's looks: a wake-up costs microseconds.
TICK = 0.05
#: The shortest hold-up recorded (milliseconds): less is the ordinary jitter of a busy
#: loop, within any clock's display.
LEAST_MS = 100


async def watch_stalls(pauses: Pauses, tick: float = TICK, least_ms: int = LEAST_MS) -> None:
    """Records in `pauses` every span this loop woke up `least_ms` or more late; runs
    until cancelled."""
    loop = asyncio.get_running_loop()
    while True:
        before = loop.time()
        await asyncio.sleep(tick)
        late_ms = round((loop.time() - before - tick) * 1000)
        if late_ms >= least_ms:
            end = now_ms()
            pauses.record(end - late_ms, end)
