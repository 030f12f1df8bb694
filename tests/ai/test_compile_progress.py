"""What `noughts prepare` says while it compiles: how far it is and the time left."""

from __future__ import annotations

import io

import pytest
from rich.console import Console

from noughts.ai.compiled import COMPILE_SECONDS, COMPILES, Compiling
from noughts.cli import _progress_line
from noughts.terminal.preparing import compile_with_a_bar


def test_the_time_left_comes_from_the_pace_of_the_functions_done() -> None:
    first = Compiling("games.perft_kernel", 0, 0.0)
    assert first.seconds_left() == COMPILE_SECONDS  # nothing timed yet: the measured figure
    half = Compiling("tree.search", COMPILES // 2, 40.0)  # twice as slow as measured
    assert half.seconds_left() == pytest.approx(40.0 * COMPILES / (COMPILES // 2) - 40.0)
    assert half.seconds_left(now=50.0) == pytest.approx(half.seconds_left() - 10.0)
    # More functions than measured (a kernel added): never done before it is, never negative.
    late = Compiling("proof.prove", COMPILES + 30, 90.0)
    assert late.done < 1 and late.seconds_left() >= 0


def test_without_a_terminal_a_line_every_twenty_functions(capsys: pytest.CaptureFixture[str]) -> None:
    for count in range(1, 62):
        _progress_line(Compiling("tree.search", count, count * 0.2))
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 4 and "timing it" in lines[0]
    assert lines[1].startswith("  compiling the fast engine: 12%, 4 s so far, about ") and lines[1].endswith(" s left")


def test_the_bar_names_the_function_and_ends_full() -> None:
    out = io.StringIO()
    console = Console(file=out, force_terminal=True, width=100)

    def prepare(progress):  # type: ignore[no-untyped-def]
        for count in range(1, COMPILES + 1):
            progress(Compiling(f"kernel{count}", count, count * 0.01))
        return 1.5

    assert compile_with_a_bar(prepare, console) == 1.5
    shown = out.getvalue()
    assert "compiling" in shown and "100%" in shown
