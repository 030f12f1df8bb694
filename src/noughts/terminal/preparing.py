"""The fast engine's compilation with a progress bar, where a terminal shows one: the
function numba compiles, how far it is and about how long is left, at the pace of the
functions done."""

from __future__ import annotations

import time
from collections.abc import Callable

from rich.console import Console
from rich.progress import BarColumn, Progress, ProgressColumn, Task, TextColumn, TimeElapsedColumn
from rich.text import Text

from noughts.ai.compiled import Compiling

__all__ = ["compile_with_a_bar"]


class _Left(ProgressColumn):
    """About how long is left, from the step under way's estimate."""

    def render(self, task: Task) -> Text:
        step: Compiling | None = task.fields.get("step")
        if step is None or task.finished:
            return Text("")
        left = step.seconds_left(task.fields["clock"]())
        return Text(f"about {left:.0f} s left" if left >= 1 else "nearly done", style="progress.remaining")


def compile_with_a_bar(
    prepare: Callable[[Callable[[Compiling], None]], float], console: Console | None = None
) -> float:
    """`prepare` (noughts.ai.compiled.prepare) run with a bar on `console`; its seconds."""
    started = time.perf_counter()

    def clock() -> float:
        return time.perf_counter() - started

    columns = (
        TextColumn("  compiling {task.fields[what]:<26}"),
        BarColumn(),
        TextColumn("{task.percentage:>3.0f}%"),
        TimeElapsedColumn(),
        _Left(),
    )
    with Progress(*columns, console=console or Console(), transient=False, refresh_per_second=4) as bar:
        task = bar.add_task("compiling", total=1.0, what="the fast engine", step=None, clock=clock)

        def heard(step: Compiling) -> None:
            bar.update(task, completed=step.done, what=step.what, step=step)

        seconds = prepare(heard)
        bar.update(task, completed=1.0, what="the fast engine")
    return seconds
