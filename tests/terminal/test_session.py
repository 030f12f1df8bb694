"""The sitting in-process, where a test decides exactly when a signal lands (the tests
through a pseudo-terminal, tests/terminal/test_play.py, cannot)."""

from __future__ import annotations

import io
import signal
import sys
import threading
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

from noughts import parse_spec
from noughts.records import GameRecord
from noughts.terminal.session import PlayConfig, Session

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="SIGHUP and pthread_kill are POSIX")


def _signal_main_thread(signum: int) -> None:
    # To the main thread, whose next bytecode then runs the Python handler: the moment
    # is the test's, not the scheduler's.
    signal.pthread_kill(threading.main_thread().ident or 0, signum)


class _SignalOnNextPrint(Console):
    """A console that sends `signum` the first time it is written to after `arm`."""

    def __init__(self, signum: int) -> None:
        super().__init__(file=io.StringIO(), width=100)
        self.signum = signum
        self.armed = False

    def print(self, *args: Any, **kwargs: Any) -> None:
        super().print(*args, **kwargs)
        if self.armed:
            self.armed = False
            _signal_main_thread(self.signum)


def test_a_second_stop_signal_while_saving_does_not_cut_the_save_short(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    before = {s: signal.getsignal(s) for s in (signal.SIGTERM, signal.SIGHUP)}
    console = _SignalOnNextPrint(signal.SIGHUP)
    entries = iter(["55"])

    def read(prompt: str) -> str:
        entry = next(entries, None)
        if entry is not None:
            return entry
        # The second prompt: the system stops the game, and says so again (SIGHUP) as
        # soon as the game starts to save.
        console.armed = True
        _signal_main_thread(signal.SIGTERM)
        return "never read: the signal's handler raises first"

    config = PlayConfig(game=parse_spec("nine-board"), two_humans=True, record=tmp_path / "game.txt")
    status = Session(config, console, read=read).run()

    assert status == 128 + signal.SIGTERM
    output = console.file.getvalue()  # type: ignore[attr-defined]
    assert "terminated: the game so far is saved to" in output
    record = GameRecord.parse((tmp_path / "game.txt").read_text(encoding="utf-8"))
    assert record.moves == ["55"]
    assert (record.result, record.termination) == ("ongoing", "abandoned")
    assert {s: signal.getsignal(s) for s in before} == before, "the handlers from before are back"
