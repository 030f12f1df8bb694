"""The computer thinks on a worker thread while the terminal shows a spinner: the main
thread stays free to animate it and to receive Ctrl-C at once."""

from __future__ import annotations

import threading
import time
from typing import Any

from rich.console import Console

from noughts.ai.base import AIPlayer, Analysis, Limits
from noughts.core import State

__all__ = ["think"]

#: How often the main thread looks up from waiting; short, so that Ctrl-C is prompt.
_POLL = 0.05


def think(
    console: Console, player: AIPlayer, state: State[Any], limits: Limits, message: str, every_move: bool = True
) -> tuple[Analysis, float]:
    """`player`'s analysis of `state` (of every move, or with `every_move` False only
    the one behind its move: `AIPlayer.decide`) and the wall-clock seconds it took,
    with `message` and a spinner on the console meanwhile. KeyboardInterrupt reaches the caller at once;
    the abandoned search then runs on in its daemon thread until the program ends."""
    outcome: list[Analysis] = []
    failure: list[BaseException] = []

    def work() -> None:
        try:
            outcome.append(player.analyze(state, limits) if every_move else player.decide(state, limits))
        except BaseException as e:  # handed over to the main thread, which raises it
            failure.append(e)

    worker = threading.Thread(target=work, name="noughts-think", daemon=True)
    started = time.perf_counter()
    with console.status(message, spinner="dots"):
        worker.start()
        while worker.is_alive():
            worker.join(_POLL)
    if failure:
        raise failure[0]
    return outcome[0], time.perf_counter() - started
