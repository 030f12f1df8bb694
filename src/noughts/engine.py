"""The text protocol other programs use to drive the engine, in the style of GTP.

One command a line on stdin; every answer starts with ``= `` (success) or ``? ``
(error, with the reason) and ends with an empty line, the only empty line in it. As in
GTP, a command may start with a number, which the answer repeats (``7 turn`` ->
``=7 x``). A command that fails changes nothing.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any, TextIO, cast

from noughts import __version__
from noughts.ai import AIPlayer, Analysis, Limits, make_player
from noughts.ai.base import takes_seed
from noughts.ai.capabilities import capabilities
from noughts.ai.levels import LEVELS, level_player, level_spec
from noughts.core import NoughtsError, State, closest, parse_int, shown
from noughts.kernels import require_kernels
from noughts.records import GameRecord
from noughts.registry import game_keys, parse_spec

__all__ = ["CommandError", "EngineSession", "serve"]


class CommandError(Exception):
    """A command that cannot be carried out; the message is the answer after ``? ``."""


class EngineSession:
    """The protocol's state: the game, the states played so far, the moves between."""

    def __init__(self) -> None:
        self.states: list[State[Any]] = [parse_spec("classic").initial()]
        self.moves: list[Any] = []
        self.finished = False
        # Players live as long as the game, so that a search can reuse its tree.
        self.players: dict[tuple[tuple[str, str], ...], AIPlayer] = {}
        self.commands: dict[str, Callable[[list[str]], str]] = {
            "name": lambda args: "noughts",
            "version": lambda args: __version__,
            "protocol_version": lambda args: "1",
            "list_commands": lambda args: "\n".join(sorted(self.commands)),
            "known_command": self._known_command,
            "games": lambda args: " ".join(game_keys()),
            "new": self._new,
            "game": lambda args: self.state.game.spec,
            "position": self._position,
            "play": self._play,
            "legal": lambda args: " ".join(self.state.legal_move_texts()),
            "turn": lambda args: self.state.turn.value,
            "status": lambda args: self.state.status,
            "undo": self._undo,
            "moves": lambda args: " ".join(self.state.game.move_text(m) for m in self.moves),
            "record": self._record,
            "show": lambda args: "\n" + self.state.diagram(),
            "genmove": self._genmove,
            "analyze": self._analyze,
            "quit": self._quit,
        }

    @property
    def state(self) -> State[Any]:
        return self.states[-1]

    def handle(self, line: str) -> str | None:
        """The full answer to one input line (None for a blank or comment line)."""
        line = line.split("#", 1)[0].strip()
        if not line:
            return None
        words = line.split()
        ident = ""
        if words[0].isdigit():
            ident = words.pop(0)
            if not words:
                return f"?{ident} no command after the id\n\n"
        name, args = words[0].lower(), words[1:]
        command = self.commands.get(name)
        try:
            if command is None:
                raise CommandError(f"unknown command {shown(name)}; 'list_commands' lists them")
            body = command(args)
        except (CommandError, NoughtsError) as e:
            return _framed(f"?{ident}", str(e))
        return _framed(f"={ident}", body)

    # -- commands -------------------------------------------------------------------

    def _known_command(self, args: list[str]) -> str:
        return "true" if args and args[0].lower() in self.commands else "false"

    def _new(self, args: list[str]) -> str:
        if not args:
            raise CommandError(f"new needs a game: {' '.join(game_keys())}")
        game = parse_spec(" ".join(args))
        self.states, self.moves = [game.initial()], []
        self.players.clear()
        return game.spec

    def _position(self, args: list[str]) -> str:
        if not args:
            return self.state.to_text()
        state = self.state.game.parse_position(" ".join(args))
        self.states, self.moves = [state], []
        self.players.clear()
        return ""

    def _play(self, args: list[str]) -> str:
        if len(args) != 1:
            raise CommandError("play takes one move, e.g. 'play 5'")
        state = self.state
        move = state.game.parse_move(args[0])
        self.states.append(state.play(move))
        self.moves.append(move)
        return ""

    def _undo(self, args: list[str]) -> str:
        if not self.moves:
            raise CommandError("nothing to undo")
        self.states.pop()
        self.moves.pop()
        return ""

    def _record(self, args: list[str]) -> str:
        fmt = args[0].lower() if args else "text"
        record = GameRecord.from_states(self.states, self.moves)
        if fmt == "json":
            return record.to_json_text(indent=None).strip()
        if fmt != "text":
            raise CommandError("record takes 'text' or 'json'")
        # Framed without the blank line between the headers and the moves (`_framed`):
        # a record reads the same without it.
        return "\n" + record.to_text()

    def _think(self, args: list[str], every_move: bool = True) -> Analysis:
        """Run the player that `args` name (level=, player= with its options, time=):
        its analysis of every move, or only the one behind its move (`decide`)."""
        options = _options(args)
        time = options.pop("time", None)
        seconds = None
        if time is not None:
            try:
                seconds = float(time)
            except ValueError:
                raise CommandError(f"time takes a number of seconds, not {shown(time)}") from None
            if not seconds > 0:
                raise CommandError(f"time takes a positive number of seconds, not {shown(time)}")
        limits = Limits(time=seconds)
        state = self.state
        if state.is_over:
            raise CommandError(f"the game is over ({state.status})")
        if "level" in options and "player" in options:
            raise CommandError("give a level or a player, not both")
        key = tuple(sorted(options.items()))
        player = self.players.get(key)
        if player is None:
            player = self.players[key] = self._player(state, options)
        return player.analyze(state, limits) if every_move else player.decide(state, limits)

    def _player(self, state: State[Any], options: dict[str, str]) -> AIPlayer:
        """The player that `options` name: a level (and ``level=perfect``, exact play
        where the game has it), or a player with its options. Every player takes
        ``seed=``: a deterministic one (perfect, the compiled alpha-beta) ignores it."""
        options = dict(options)
        seed = _seed(options.pop("seed", None))
        level = options.pop("level", None)
        if level is None:
            name = options.pop("player", "random")
            if name == "perfect":
                _check_table_built(state)
            if seed is not None and takes_seed(name):
                options["seed"] = str(seed)
            return make_player(name, **options)
        if options:
            raise CommandError(f"a level takes only seed= and time=, not {', '.join(options)}")
        if level == "perfect":
            if not capabilities(state.game).perfect:
                raise CommandError(
                    f"no perfect player for {state.game.spec}: level=max plays {level_spec(state.game, 'max')} here"
                )
            _check_table_built(state)
            return make_player("perfect")
        if level not in LEVELS:
            known = [*LEVELS, "perfect"]
            raise CommandError(
                f"unknown level {shown(level)}{closest(level, known)}; the levels are: {', '.join(LEVELS)}, and perfect"
            )
        return level_player(state.game, level, seed)

    def _genmove(self, args: list[str]) -> str:
        analysis = self._think(args, every_move=False)
        state = self.state
        self.states.append(state.play(analysis.best))
        self.moves.append(analysis.best)
        return state.game.move_text(analysis.best)

    def _analyze(self, args: list[str]) -> str:
        """One line per legal move, best first; then a summary line starting ``info``."""
        analysis = self._think(args or ["level=max"])
        return "\n".join([*analysis.lines(), "info " + analysis.summary()])

    def _quit(self, args: list[str]) -> str:
        self.finished = True
        return ""


def _check_table_built(state: State[Any]) -> None:
    """Refuses perfect play from a table that a command builds (gobblet's) before it is
    built: the player would build it first, minutes of a silent wait for a program that
    waits on the answer (a GUI's time-out)."""
    if capabilities(state.game).table != "command":
        return
    from noughts.ai import gobblet_table
    from noughts.games.gobblet import Gobblet

    game = cast(Gobblet, state.game)  # the only game whose table a command builds
    # Without the kernels the table can be neither built nor read: say that first.
    require_kernels(f"perfect play in {state.game.spec} (its solved table)")
    if not gobblet_table.is_built(game):
        raise CommandError(
            f"perfect play in {state.game.spec} reads its solved table, which is not built on this machine:"
            f" {gobblet_table.BUILD_NOTE}; level=max plays at once without it"
        )


def _framed(status: str, body: str) -> str:
    """One answer: `status` (``=7``, ``?``) and the body's first line, its other lines,
    then the empty line that ends it. An empty line (or one of blanks) inside would end
    the answer early for a client reading answer by answer, and the rest would read as
    the next answer: the body's are left out. Every line break is a newline."""
    first, *rest = body.splitlines() or [""]
    return "\n".join([f"{status} {first}".rstrip(), *(line for line in rest if line.strip())]) + "\n\n"


def _seed(text: str | None) -> int | None:
    return None if text is None else parse_int(text, "seed")


def _options(args: list[str]) -> dict[str, str]:
    options = {}
    for arg in args:
        name, eq, value = arg.partition("=")
        if not eq or not name or not value:
            raise CommandError(f"{shown(arg)} is not an option: write name=value")
        options[name.lower()] = value
    return options


def serve(stdin: TextIO = sys.stdin, stdout: TextIO = sys.stdout) -> int:
    """Answer commands until ``quit`` or the end of input."""
    session = EngineSession()
    for line in stdin:
        answer = session.handle(line)
        if answer is not None:
            stdout.write(answer)
            stdout.flush()
        if session.finished:
            break
    return 0
