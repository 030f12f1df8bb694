"""A program that speaks the engine protocol (``noughts engine`` or any other) as a
player: started once per worker process and kept between games, told ``new SPEC``
and the moves played (``play``), asked ``genmove``.

A program that dies, answers an error or something that is not a legal move, or
does not answer in time forfeits the game (`noughts.match.ForfeitError`) with a message
saying what it did; the process is then stopped and started afresh for the next game.
"""

from __future__ import annotations

import queue
import shlex
import subprocess
import threading
import time
from collections.abc import Callable
from typing import Any

from noughts.ai import AIPlayer, Analysis, Kind, Limits, MoveInfo, Value
from noughts.arena.tracker import StateTracker
from noughts.core import InvalidOptionError, NoughtsError, State
from noughts.match import ForfeitError

__all__ = ["EnginePlayer", "engine_player"]

#: Seconds a program may take to start and to answer anything but genmove.
STARTUP_TIME = 20.0
#: genmove may take the time per move plus this much (process and pipe overhead)...
MARGIN = 2.0
#: ...or this long when the arena gives no time per move (the program's own budget).
UNTIMED_GENMOVE = 60.0

_RUNNING: dict[str, EnginePlayer] = {}


def engine_player(name: str, command: str, kind: type[EnginePlayer] | None = None) -> EnginePlayer:
    """The worker's player for `name` (an `EnginePlayer`, or `kind`, a protocol's subclass),
    started on first use and reused by later games."""
    kind = kind or EnginePlayer
    player = _RUNNING.get(name)
    if player is None or player.command != command or type(player) is not kind:
        player = _RUNNING[name] = kind(name, command)
    return player


class EnginePlayer(AIPlayer):
    """`command` run as a subprocess speaking the engine protocol; `options` (``name=value``
    texts, such as ``level=max``) are sent with every genmove, and a process's first
    genmove may take `warm_up` seconds more than the others (`noughts engine` loads its
    players' tables and compiled code then: seconds on a busy machine)."""

    def __init__(self, name: str, command: str, options: tuple[str, ...] = (), warm_up: float = 0.0) -> None:
        self.name, self.command, self.options, self.warm_up = name, command, options, warm_up
        try:
            self.argv = shlex.split(command)
            """The command line, split as a shell would."""
        except ValueError as e:
            raise InvalidOptionError(f"engine {name}: cannot read the command line {command!r}: {e}") from None
        if not self.argv:
            raise InvalidOptionError(f"engine {name}: the command line is empty")
        self.process: subprocess.Popen[str] | None = None
        """The running program; None before the first game and after `stop`."""
        self.lines: queue.Queue[str | None] = queue.Queue()
        """The program's output lines, as they come (None: it closed its output)."""
        self.tracker = StateTracker()
        """The game as the program was told it: the moves since, sent before the next genmove."""
        self.game_spec: str | None = None
        """The game the program was last told (``new SPEC``)."""
        self.errors: list[str | None] = []
        """The lines of the program's error output (None: it closed it): shown when it forfeits."""
        self._stderr_reader: threading.Thread | None = None
        #: Whether the running process has answered a genmove yet.
        self.warm = False

    # -- the player API -----------------------------------------------------------

    def reset(self) -> None:
        self.tracker.reset()
        self.game_spec = None

    def analyze(self, state: State[Any], limits: Limits = Limits()) -> Analysis:
        started = time.perf_counter()
        self._sync(state)
        timed = () if limits.time is None else (f"time={limits.time:g}",)
        command = " ".join(("genmove", *self.options, *timed))
        patience = UNTIMED_GENMOVE if limits.time is None else limits.time + MARGIN
        if not self.warm:
            patience += self.warm_up
        answer = self.ask(command, patience, termination="time")
        self.warm = True
        return self.played(state, answer, state.game.parse_move, started, "genmove with ")

    def played(
        self, state: State[Any], answer: str, read: Callable[[str], Any], started: float, asked: str = ""
    ) -> Analysis:
        """The analysis of the program's `answer` in `state`, its move read by `read`; an
        answer that is no legal move forfeits (the program stopped)."""
        try:
            move = read(answer)
            after = state.play(move)
        except (ValueError, NoughtsError) as e:
            self.stop()
            raise ForfeitError(f"{self.name} answered {asked}{answer!r}: {e}") from None
        self.tracker.last = after
        moves = [move, *(m for m in state.legal_moves() if m != move)]
        infos = [MoveInfo(m, state.move_text(m), Value(Kind.UNKNOWN)) for m in moves]
        return Analysis(self.name, infos, [infos[0].text], None, 0, time.perf_counter() - started)

    # -- keeping the program's game in step ------------------------------------------

    def _sync(self, state: State[Any]) -> None:
        if self.process is None or self.process.poll() is not None:
            self._start()
        if self.game_spec != state.game.spec:
            self.ask(f"new {state.game.spec}", STARTUP_TIME)
            self.game_spec = state.game.spec
            self.tracker.reset()
        path = self.tracker.moves_to(state)
        if path is None:
            self.ask(f"position {state.to_text()}", STARTUP_TIME)
        else:
            for move in path:
                self.ask(f"play {state.game.move_text(move)}", STARTUP_TIME)
        self.tracker.last = state

    # -- the process ----------------------------------------------------------------

    def _start(self) -> None:
        self.stop()
        try:
            self.process = subprocess.Popen(
                self.argv,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
                bufsize=1,
            )
        except OSError as e:
            raise ForfeitError(f"{self.name}: cannot start {self.command!r}: {e}") from None
        self.lines = queue.Queue()
        self.errors = []
        self.warm = False
        # Reader threads: a blocking readline could not time out, and an unread stderr
        # pipe that fills up would stall the program.
        threading.Thread(target=_pump, args=(self.process.stdout, self.lines.put), daemon=True).start()
        self._stderr_reader = threading.Thread(
            target=_pump, args=(self.process.stderr, self.errors.append), daemon=True
        )
        self._stderr_reader.start()
        self.game_spec = None
        self.tracker.reset()

    def stop(self) -> None:
        """End the program (politely first)."""
        process, self.process = self.process, None
        if process is None or process.poll() is not None:
            return
        try:
            assert process.stdin is not None
            process.stdin.write("quit\n")
            process.stdin.close()
            process.wait(1)
        except (OSError, subprocess.TimeoutExpired):
            process.kill()
            process.wait()

    def ask(self, command: str, patience: float, termination: str = "abandoned") -> str:
        """Send `command`; the text of its ``=`` answer. Anything else forfeits."""
        self.send(command)
        deadline = time.monotonic() + patience
        answer: list[str] = []
        while True:
            line = self.read_line(command, deadline, patience, termination).rstrip("\n")
            if not answer and not line.strip():
                continue  # blank lines between answers
            if line.strip():
                answer.append(line)
                continue
            break
        first = answer[0]
        if first.startswith("="):
            return " ".join([first[1:].strip(), *answer[1:]]).strip()
        if first.startswith("?"):
            raise self._failure(f"{self.name} refused '{command}': {first[1:].strip()}")
        raise self._failure(f"{self.name} answered '{command}' with {first!r}, not '= ...' or '? ...'")

    def send(self, command: str) -> None:
        """Write `command` to the program; a program that has stopped forfeits."""
        process = self.process
        assert process is not None and process.stdin is not None
        try:
            process.stdin.write(command + "\n")
            process.stdin.flush()
        except OSError:
            raise self._failure(f"{self.name} stopped before '{command}'") from None

    def read_line(self, command: str, deadline: float, patience: float, termination: str = "abandoned") -> str:
        """The program's next line, answering `command`, by `deadline` (a monotonic time,
        `patience` seconds after it was sent); silence or an exit forfeits."""
        try:
            line = self.lines.get(timeout=max(deadline - time.monotonic(), 0))
        except queue.Empty:
            raise self._failure(f"{self.name} did not answer '{command}' within {patience:g} s", termination) from None
        if line is None:
            raise self._failure(f"{self.name} exited during '{command}'")
        return line

    def _failure(self, message: str, termination: str = "abandoned") -> ForfeitError:
        """A forfeit with the end of the program's error output, the program stopped."""
        process = self.process
        if process is not None and process.poll() is None:
            process.kill()
        if process is not None:
            process.wait()
        if self._stderr_reader is not None:
            self._stderr_reader.join(1)  # the last words of a program that crashed
        self.process = None
        tail = [line.strip() for line in self.errors if line and line.strip()][-3:]
        return ForfeitError(message + (f" (stderr: {' | '.join(tail)})" if tail else ""), termination)


def _pump(stream: Any, put: Any) -> None:
    for line in stream:
        put(line)
    put(None)
