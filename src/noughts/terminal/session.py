"""One sitting at the terminal: games against the computer or between two people at one
keyboard, the board redrawn after every move, commands at the prompt, and a record of
every game written when it ends — also when it ends with Ctrl-C or end of input.

Input is read with a plain ``input`` (given as `read`, so tests and the menu can share
it); every bad entry is answered with one line and the prompt comes again.
"""

from __future__ import annotations

import datetime
import enum
import re
import signal
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.text import Text

from noughts.ai.base import AIPlayer, Analysis, Limits
from noughts.ai.levels import DEFAULT_LEVEL, level_player, level_spec
from noughts.core import Game, NoughtsError, Player, State
from noughts.i18n import gettext
from noughts.records import GameRecord
from noughts.terminal.aliases import read_move
from noughts.terminal.guide import help_text
from noughts.terminal.render import player_text, render, sentence
from noughts.terminal.thinking import table_note, think
from noughts.terminal.values import meaning, move_words, outlook, plies, rest_words, traps

__all__ = ["PlayConfig", "Session", "default_record_path"]


Reader = Callable[[str], str]

#: Exit status after Ctrl-C, as shells report a process ended by SIGINT.
INTERRUPTED = 130
#: How many of its best moves --explain shows (a gomoku board has 224 first replies).
EXPLAINED = 5


@dataclass(frozen=True)
class PlayConfig:
    """What ``noughts play`` was asked for."""

    game: Game[Any, Any]
    #: True: two people at this terminal; False: a person against the computer.
    two_humans: bool = False
    #: The person's side in the first game (against the computer), or player 1's side.
    side: Player = Player.X
    level: str = DEFAULT_LEVEL
    explain: bool = False
    #: Where the first game's record goes (later games get -2, -3... before the suffix);
    #: None: a file named after the game and the time, in the current directory.
    record: Path | None = None
    seed: int | None = None
    #: Seconds the computer may think per move; None: the level's own budget.
    think_time: float | None = None


@dataclass(frozen=True)
class Seat:
    """Who plays one side in the current game."""

    name: str  # for the record's header
    label: str  # for people: "you", "the computer", "player 1"
    computer: bool


class _Turn(enum.Enum):
    MOVED = "moved"
    UNDONE = "undone"
    QUIT = "quit"


def default_record_path(game: Game[Any, Any], now: datetime.datetime | None = None) -> Path:
    """``noughts-<game>-<date>-<time>.txt`` in the current directory, not yet taken."""
    stamp = (now or datetime.datetime.now()).strftime("%Y%m%d-%H%M%S")
    slug = re.sub(r"[^A-Za-z0-9=-]+", "-", game.spec)
    path = Path(f"noughts-{slug}-{stamp}.txt")
    number = 2
    while path.exists():
        path = Path(f"noughts-{slug}-{stamp}-{number}.txt")
        number += 1
    return path


#: The signals that end a game with its record saved (SIGHUP is not on Windows).
_STOP_SIGNALS = [s for s in (getattr(signal, "SIGTERM", None), getattr(signal, "SIGHUP", None)) if s is not None]


class Stopped(Exception):  # noqa: N818 (a stop, not an error)
    """SIGTERM or SIGHUP (the terminal closed) reached the game: it saves what was
    played, as Ctrl-C does, and ends with the signal's conventional status."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum
        self.why = "hung up" if signum == getattr(signal, "SIGHUP", None) else "terminated"


def _raise_stopped(signum: int, frame: object) -> None:
    # The game is ending and saving: a second SIGTERM or SIGHUP (systems and people send
    # one again when the first seems lost) must not cut the save short. `Session.run`
    # puts the previous handlers back when it returns.
    for other in _STOP_SIGNALS:
        signal.signal(other, signal.SIG_IGN)
    raise Stopped(signum)


def _catch_stop_signals() -> dict[int, Any]:
    """Turns SIGTERM and SIGHUP into `Stopped` in the main thread; the handlers they
    replace, to put back. (Elsewhere than the main thread signals cannot be caught.)"""
    previous: dict[int, Any] = {}
    for signum in _STOP_SIGNALS:
        try:
            previous[signum] = signal.signal(signum, _raise_stopped)
        except ValueError:
            break
    return previous


def _numbered(path: Path, number: int) -> Path:
    return path if number == 1 else path.with_name(f"{path.stem}-{number}{path.suffix}")


def write_record(record: GameRecord, path: Path) -> None:
    """The record as JSON when `path` ends in .json, else as text."""
    text = record.to_json_text() if path.suffix.lower() == ".json" else record.to_text()
    path.write_text(text, encoding="utf-8")


class Session:
    """Plays games until the person declines another; ``run`` returns the exit status."""

    def __init__(self, config: PlayConfig, console: Console, read: Reader = input) -> None:
        self.config = config
        self.console = console
        self.read = read
        game = config.game
        self.computer: AIPlayer | None = None
        if not config.two_humans:
            self.computer = level_player(game, config.level, config.seed)
        self._hinter: AIPlayer | None = None
        self.limits = Limits(time=config.think_time) if config.think_time else Limits()
        self.number = 0  # of the current game
        self.states: list[State[Any]] = []
        self.moves: list[Any] = []
        self.seats: dict[Player, Seat] = {}
        self.unsaved = False  # the current game has moves that are in no file yet

    # -- the sitting ------------------------------------------------------------------

    def run(self) -> int:
        side = self.config.side
        previous = _catch_stop_signals()
        try:
            while True:
                if not self._play(side) or not self._again():
                    return 0
                side = side.other  # the first move alternates between the two
        except KeyboardInterrupt:
            self._save_unfinished("interrupted")
            return INTERRUPTED
        except EOFError:
            self._save_unfinished("end of input")
            return 0
        except Stopped as stop:
            self._save_unfinished(stop.why)
            return 128 + stop.signum
        finally:
            for signum, handler in previous.items():
                signal.signal(signum, handler)

    def _seats(self, side: Player) -> dict[Player, Seat]:
        if self.config.two_humans:
            one, two = gettext("player {number}", number=1), gettext("player {number}", number=2)
            return {side: Seat("player 1", one, False), side.other: Seat("player 2", two, False)}
        level = self.config.level
        return {
            side: Seat("human", gettext("you"), False),
            side.other: Seat(f"noughts {level}", gettext("the computer"), True),
        }

    def _play(self, side: Player) -> bool:
        """One game; False when the person quit."""
        game = self.config.game
        self.number += 1
        self.states, self.moves = [game.initial()], []
        self.seats = self._seats(side)
        if self.computer is not None:
            self.computer.reset()
        self._introduce()
        self._show()
        while not self.state.is_over:
            if self.seats[self.state.turn].computer:
                self._computer_turn()
            else:
                turn = self._human_turn()
                if turn is _Turn.QUIT:
                    self._save_unfinished("quit")
                    return False
            self._show()
        self._announce()
        self._save(self._record(self.state.status, "normal"), "record saved to")
        return True

    @property
    def state(self) -> State[Any]:
        return self.states[-1]

    def _introduce(self) -> None:
        config = self.config
        game: dict[str, Text | str] = {"number": str(self.number), "spec": config.game.spec}
        if config.two_humans:
            (first, one), (second, two) = sorted(self.seats.items(), key=lambda item: item[1].label)
            template = gettext(
                "game {number}: {spec} — {first} plays {first_side}, {second} plays {second_side}. "
                "X moves first. Type help for the rules and commands."
            )
            parts: dict[str, Text | str] = {"first": one.label, "first_side": player_text(first), "second": two.label}
            intro = sentence(template, **game, **parts, second_side=player_text(second))
        else:
            human = next(p for p, seat in self.seats.items() if not seat.computer)
            template = gettext(
                "game {number}: {spec} — you play {side}, the computer {other} at level {level}. "
                "X moves first. Type help for the rules and commands."
            )
            intro = sentence(
                template, **game, side=player_text(human), other=player_text(human.other), level=config.level
            )
        self.console.print(intro)

    def _show(self) -> None:
        last = self.moves[-1] if self.moves else None
        self.console.print()
        # A finished game's result comes once, from _announce, with who won in words.
        board = render(self.state, last, self.console.width, result=False)
        self.console.print(board, crop=False, overflow="ignore")

    def _announce(self) -> None:
        outcome = self.state.outcome
        assert outcome is not None  # called once the game is over
        if outcome.winner is None:
            verdict = gettext("a draw.")
        elif self.config.two_humans:
            verdict = gettext("{player} wins!", player=self.seats[outcome.winner].label)
        else:
            verdict = gettext("the computer wins.") if self.seats[outcome.winner].computer else gettext("you win!")
        # The outcome's words are the library's (English, as the records write them).
        said = gettext("Game over: {outcome} — {verdict}", outcome=outcome.describe(), verdict=verdict)
        self.console.print(Text(said, style="bold"))

    def _again(self) -> bool:
        while True:
            answer = self.read(gettext("Play again? [Y/n] ")).strip().lower()
            if answer in ("", "y", "yes"):
                return True
            if answer in ("n", "no", "q", "quit"):
                return False
            self.console.print(gettext("Answer y or n."))

    # -- the computer -----------------------------------------------------------------

    def _computer_turn(self) -> None:
        assert self.computer is not None  # only seated when playing against the computer
        state = self.state
        # Valuing every move costs an alpha-beta level depth on big boards: only when
        # asked to explain its moves.
        note = table_note(state.game, self.config.level)
        analysis, seconds = think(
            self.console,
            self.computer,
            state,
            self.limits,
            note or gettext("the computer is thinking…"),
            self.config.explain,
        )
        move = analysis.best
        # As the seed programs did and the web does: what the move leaves, on the web's
        # scale, and how long it took, for everyone.
        template = gettext("the computer ({side}) plays {move} — {outlook}")
        line = sentence(
            template,
            side=player_text(state.turn),
            move=state.move_text(move),
            outlook=outlook(analysis.value, state.turn, analysis.scale),
        )
        took = gettext("{seconds} s", seconds=f"{seconds:.2f}")
        self.console.print(line + Text(f"  [{took}]", style="bright_black"), highlight=False)
        if self.config.explain:
            self._explain(analysis, state.turn)
        self._push(state.play(move), move)

    def _explain(self, analysis: Analysis, mover: Player) -> None:
        shown = analysis.moves[:EXPLAINED]
        width = max(len(info.text) for info in shown) + 2
        self.console.print(gettext("its best moves, for {side}:", side=mover.value.upper()), highlight=False)
        for info in shown:
            self.console.print(f"  {info.text.ljust(width)}{move_words(info, mover, analysis.scale)}", highlight=False)
        rest = analysis.moves[EXPLAINED:]
        if rest:
            more = gettext("and {n} more, {value}", n=len(rest), value=rest_words(rest, mover, analysis.scale))
            self.console.print(f"  {more}", highlight=False)
        facts = [analysis.player]
        if analysis.depth is not None:
            facts.append(gettext("{plies} deep", plies=plies(analysis.depth)))
        facts.append(gettext("{nodes} positions in {seconds} s", nodes=analysis.nodes, seconds=f"{analysis.time:.2f}"))
        if len(analysis.pv) > 1:
            facts.append(gettext("the line it expects: {line}", line=" ".join(analysis.pv)))
        self.console.print("  (" + "; ".join(facts) + ")", highlight=False)

    # -- the person -------------------------------------------------------------------

    def _human_turn(self) -> _Turn:
        seat = self.seats[self.state.turn]
        side = self.state.turn.value.upper()
        if self.config.two_humans:
            prompt = gettext("{player} ({side}): ", player=seat.label, side=side)
        else:
            prompt = gettext("your move ({side}): ", side=side)
        while True:
            entry = self.read(prompt).strip()
            if not entry:
                continue
            word, _, rest = entry.partition(" ")
            command = word.lower()
            if command in ("help", "?"):
                self.console.print(help_text(self.config.game), highlight=False)
            elif command == "hint":
                self._hint()
            elif command == "moves":
                self._list_moves()
            elif command == "save":
                self._save_command(rest.strip())
            elif command in ("quit", "exit"):
                return _Turn.QUIT
            elif command == "undo":
                if self._undo():
                    return _Turn.UNDONE
            else:
                try:
                    move = read_move(self.state, entry)
                    after = self.state.play(move)
                except NoughtsError as e:
                    self.console.print(gettext("{problem} (help lists the commands)", problem=str(e)), highlight=False)
                    continue
                self._push(after, move)
                return _Turn.MOVED

    def _push(self, state: State[Any], move: Any) -> None:
        self.states.append(state)
        self.moves.append(move)
        self.unsaved = True

    def _undo(self) -> bool:
        """Take back plies up to and including the last one a person played."""
        movers = [s.turn for s in self.states[:-1]]
        humans = [i for i, p in enumerate(movers) if not self.seats[p].computer]
        if not humans:
            self.console.print(gettext("nothing to undo yet"))
            return False
        keep = humans[-1]
        taken = [self.state.game.move_text(m) for m in self.moves[keep:]]
        del self.states[keep + 1 :]
        del self.moves[keep:]
        self.console.print(gettext("took back {moves}", moves=" ".join(taken)), highlight=False)
        return True

    def _hint(self) -> None:
        if self._hinter is None:
            # Deliberate mistakes make poor advice: hints come from the level's search
            # without them, and from medium at least; where the game is solved, from the
            # table, whose values are exact (a heuristic score there would only mislead).
            game = self.config.game
            level = "medium" if self.config.level == "easy" else self.config.level
            if level_spec(game, "max") == "perfect":
                level = "max"
            self._hinter = level_player(game, level, self.config.seed, mistakes=False)
        analysis, _ = think(self.console, self._hinter, self.state, self.limits, gettext("looking for a hint…"))
        mover, scale = self.state.turn, analysis.scale
        best = analysis.moves[0]
        why = meaning(best.value, scale) + traps(best, mover)
        if not best.value.exact:
            # How sure: how far it looked, since an estimate is only as good as that.
            depth = f" {plies(analysis.depth)} deep" if analysis.depth is not None else ""
            why += f", from a search{depth} over {analysis.nodes:,} positions"
        text = f"hint: {best.text} ({why})"
        if len(analysis.pv) > 1:
            text += f"; the line it expects: {' '.join(analysis.pv)}"
        others = [f"{m.text} ({move_words(m, mover, scale)})" for m in analysis.moves[1:4]]
        if others:
            text += f"; next best: {', '.join(others)}"
        self.console.print(text, highlight=False)

    def _list_moves(self) -> None:
        if not self.moves:
            self.console.print(gettext("no moves yet"))
            return
        record = self._record("ongoing", "normal")
        body = record.to_text().split("\n\n", 1)[1].strip()
        self.console.print(body.removesuffix("ongoing").strip(), highlight=False)

    def _save_command(self, name: str) -> None:
        if not name:
            self.console.print(gettext("save needs a file name: save FILE"))
            return
        self._save(self._record(self.state.status, "normal"), "saved to", Path(name))

    # -- records ----------------------------------------------------------------------

    def _record(self, result: str, termination: str) -> GameRecord:
        seats = self.seats
        return GameRecord.from_states(
            self.states,
            self.moves,
            x=seats[Player.X].name,
            o=seats[Player.O].name,
            date=datetime.date.today().isoformat(),
            result=result,
            termination=termination,
        )

    def _record_path(self) -> Path:
        if self.config.record is not None:
            return _numbered(self.config.record, self.number)
        return default_record_path(self.config.game)

    def _save(self, record: GameRecord, message: str, path: Path | None = None) -> None:
        target = path or self._record_path()
        try:
            write_record(record, target)
        except OSError as e:
            self.console.print(f"could not write {target}: {e.strerror or e}", highlight=False)
            return
        if path is None:
            self.unsaved = False
        self.console.print(f"{message} {target}", highlight=False)

    def _save_unfinished(self, why: str) -> None:
        """Called when the game ends before its result: keep what was played."""
        self.console.print()
        if not self.moves:
            self.console.print(f"{why}: no moves were played, so there is no record to save")
            return
        if not self.unsaved:  # a finished game, its record written already
            self.console.print(why)
            return
        self._save(self._record("ongoing", "abandoned"), f"{why}: the game so far is saved to")
