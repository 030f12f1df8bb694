"""The computer thinks on a worker thread while the terminal shows a spinner: the main
thread stays free to animate it and to receive Ctrl-C at once."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any, TypeVar

from rich.console import Console

from noughts.ai.base import AIPlayer, Analysis, Limits
from noughts.core import Game, State

__all__ = ["think"]

T = TypeVar("T")

#: How often the main thread looks up from waiting; short, so that Ctrl-C is prompt.
_POLL = 0.05


def think(
    console: Console, player: AIPlayer, state: State[Any], limits: Limits, message: str, every_move: bool = True
) -> tuple[Analysis, float]:
    """`player`'s analysis of `state` (of every move, or with `every_move` False only
    the one behind its move: `AIPlayer.decide`) and the wall-clock seconds it took,
    with `message` and a spinner on the console meanwhile (and, the first time a game
    of the compiled players comes, a word on preparing them: not counted as thinking).
    KeyboardInterrupt reaches the caller at once."""
    _prepare_kernels(console, player)
    started = time.perf_counter()
    analysis = _in_worker(
        console, message, lambda: player.analyze(state, limits) if every_move else player.decide(state, limits)
    )
    return analysis, time.perf_counter() - started


def _prepare_kernels(console: Console, player: AIPlayer) -> None:
    """Before a compiled player's first search, the kernels are compiled (once per
    machine, when the set-up did not) or loaded (seconds), saying which, so that neither
    is taken for thinking; a player without them (every level up to medium) waits for
    neither."""
    if not player.uses_kernels:
        return
    from noughts.ai.compiled import COMPILE_ESTIMATE, is_cached, is_ready, prepare

    if is_ready():
        return
    if is_cached():
        _in_worker(console, "loading the fast engine", prepare)
    else:
        from noughts.terminal.preparing import compile_with_a_bar

        console.print(f"preparing the fast engine, once for this machine: {COMPILE_ESTIMATE}")
        compile_with_a_bar(prepare, console)  # its own live display: not under _in_worker's spinner


def _in_worker(console: Console, message: str, job: Callable[[], T]) -> T:
    """`job`'s result, computed on a worker thread with `message` and a spinner on the
    console meanwhile. KeyboardInterrupt reaches the caller at once; an abandoned job
    runs on in its daemon thread until the program ends."""
    outcome: list[T] = []
    failure: list[BaseException] = []

    def work() -> None:
        try:
            outcome.append(job())
        except BaseException as e:  # handed over to the main thread, which raises it
            failure.append(e)

    worker = threading.Thread(target=work, name="noughts-think", daemon=True)
    with console.status(message, spinner="dots"):
        worker.start()
        while worker.is_alive():
            worker.join(_POLL)
    if failure:
        raise failure[0]
    return outcome[0]


def table_note(game: Game[Any, Any], level: str) -> str | None:
    """What a person waits for before `level`'s first answer: the exact table's build."""
    from noughts.ai.capabilities import capabilities
    from noughts.ai.levels import level_spec
    from noughts.ai.solve import is_cached

    if level_spec(game, level) != "perfect" or capabilities(game).table != "first use" or is_cached(game):
        return None
    return (
        f"building the exact table of {game.spec} first (once, then cached: seconds; without "
        "numba 4x4, 3x5 and 2x8 take half a minute)"
    )
