"""OpenSpiel's MCTS bot (the C++ ``MCTSBot`` with random rollouts) as a player, for
the games OpenSpiel has too: classic, mnk and ultimate, without Forget mode.

Moves are translated through OpenSpiel's action strings: ``x(row,col)`` for a
placement and, in ultimate, ``Choose local board b`` followed by
``Local board b: x(row,col)`` when the player may choose the board — one of our moves
is then two OpenSpiel actions, both chosen by the bot.

The bot's budget is a number of simulations; for a time per move it is set from the
bot's rate measured once per game in each worker process, so that a game with a
given seed is replayed exactly.
"""

from __future__ import annotations

import importlib
import itertools
import re
import time
from typing import Any

from noughts.ai import AIPlayer, Analysis, Kind, Limits, MoveInfo, Value
from noughts.ai.base import coerce_option, require_moves
from noughts.arena.tracker import StateTracker
from noughts.core import Game, InvalidOptionError, Player, State
from noughts.games.geometry import bits
from noughts.games.mnk import Mnk, MnkState
from noughts.games.ultimate import NINE_BOARD, Ultimate

__all__ = ["OpenSpielMCTS", "available", "openspiel_player", "spiel_game"]

_CELL = re.compile(r"(?:Local board (\d): )?[xo]\((\d+),(\d+)\)")
#: Seconds per move when neither the bot's spec nor the arena gives a time.
DEFAULT_TIME = 1.0
_RATES: dict[str, float] = {}


def available() -> bool:
    """Whether pyspiel can be imported (the open-spiel package is installed)."""
    try:
        _pyspiel()
    except ImportError:
        return False
    return True


def _pyspiel() -> Any:
    # Imported by name: OpenSpiel is optional and ships no type information.
    return importlib.import_module("pyspiel")


def spiel_game(game: Game[Any, Any]) -> Any:
    """OpenSpiel's game with our rules, or InvalidOptionError for one it lacks."""
    pyspiel = _pyspiel()

    if isinstance(game, Mnk) and not game.forget:
        if (game.m, game.n, game.k) == (3, 3, 3):
            return pyspiel.load_game("tic_tac_toe")
        return pyspiel.load_game("mnk", {"m": game.m, "n": game.n, "k": game.k})
    if isinstance(game, Ultimate) and game.rule != NINE_BOARD and game.spec == "ultimate":
        return pyspiel.load_game("ultimate_tic_tac_toe")
    raise InvalidOptionError(
        f"OpenSpiel has no game with the rules of {game.spec}; its bots play classic, mnk and ultimate (no options)"
    )


def openspiel_player(spec: str, seed: int, default_time: float | None) -> OpenSpielMCTS:
    """The bot for ``mcts[:time=S][:c=C][:rollouts=N][:simulations=N]``."""
    name, *parts = spec.strip().split(":")
    if name != "mcts":
        raise InvalidOptionError(f"unknown OpenSpiel bot {name!r}; the bots are: mcts")
    options: dict[str, Any] = {}
    for part in parts:
        key, eq, value = part.partition("=")
        if not eq or key not in ("time", "c", "rollouts", "simulations", "seed"):
            raise InvalidOptionError(f"OpenSpiel mcts takes time=, c=, rollouts=, simulations=, seed=; not {part!r}")
        options[key] = coerce_option(value)
    seconds = options.get("time", default_time)
    return OpenSpielMCTS(
        time=DEFAULT_TIME if seconds is None and "simulations" not in options else seconds,
        simulations=options.get("simulations"),
        c=float(options.get("c", 2.0)),
        rollouts=int(options.get("rollouts", 1)),
        seed=int(options.get("seed", seed)),
    )


class OpenSpielMCTS(AIPlayer):
    """pyspiel.MCTSBot with RandomRolloutEvaluator, kept in step with our game."""

    name = "openspiel-mcts"

    def __init__(
        self,
        time: float | None = DEFAULT_TIME,
        simulations: int | None = None,
        c: float = 2.0,
        rollouts: int = 1,
        seed: int = 0,
    ) -> None:
        if time is None and simulations is None:
            raise InvalidOptionError("OpenSpiel mcts needs a time or a number of simulations")
        self.time, self.simulations, self.c, self.rollouts, self.seed = time, simulations, c, rollouts, seed
        self.tracker = StateTracker()
        self.spiel: Any = None
        self.bot: Any = None
        self.bot_key: tuple[str, int] | None = None

    def reset(self) -> None:
        self.tracker.reset()
        self.spiel = None

    def analyze(self, state: State[Any], limits: Limits = Limits()) -> Analysis:
        pyspiel = _pyspiel()

        started = time.perf_counter()
        moves = require_moves(state)
        game = spiel_game(state.game)
        simulations = self._budget(state.game, game, limits.time)
        if self.bot_key != (state.game.spec, simulations):
            evaluator = pyspiel.RandomRolloutEvaluator(self.rollouts, self.seed)
            self.bot = pyspiel.MCTSBot(game, evaluator, self.c, simulations, 1000, True, self.seed, False)
            self.bot_key = (state.game.spec, simulations)
        self._sync(state, game)
        # A free move in ultimate is two decisions of the bot: the board, then the cell.
        while True:
            action = self.bot.step(self.spiel)
            text = self.spiel.action_to_string(self.spiel.current_player(), action)
            self.spiel.apply_action(action)
            if not text.startswith("Choose local board"):
                break
        move = _cell(text, _width(self.spiel))
        if move not in moves:
            raise InvalidOptionError(f"OpenSpiel's move {text!r} is not legal in {state.to_text()}")
        self.tracker.last = state.play(move)
        ordered = [move, *(m for m in moves if m != move)]
        infos = [MoveInfo(m, state.move_text(m), Value(Kind.UNKNOWN)) for m in ordered]
        return Analysis(self.name, infos, [infos[0].text], None, simulations, time.perf_counter() - started)

    def _budget(self, ours: Game[Any, Any], game: Any, limit: float | None) -> int:
        seconds = limit if limit is not None else self.time
        if seconds is None:
            assert self.simulations is not None
            return self.simulations
        rate = _rate(ours.spec, game, self.c, self.rollouts)
        budget = max(1, int(rate * seconds))
        return budget if self.simulations is None else min(budget, self.simulations)

    def _sync(self, state: State[Any], game: Any) -> None:
        """Play the moves since the last state the bot knew on its own OpenSpiel state."""
        path = self.tracker.moves_to(state) if self.spiel is not None else None
        if path is None:
            self.tracker.reset()
            self.spiel = game.new_initial_state()
            path = self.tracker.moves_to(state)
            if path is None:
                path = _marks_in_turn(state)
        current: State[Any] = self.tracker.last or state.game.initial()
        for move in path:
            for action in placements(self.spiel)[move]:
                self.spiel.apply_action(action)
            current = current.play(move)
        self.tracker.last = current


def _marks_in_turn(state: State[Any]) -> list[Any]:
    """Moves that lead from the start to `state`, when it is too far for the search: on
    an m,n,k board (without Forget mode) the marks alone make the position, and any
    order of them, X and O alternating, is a legal way to it (a game that goes on has
    no line, so no part of it has one either). Ultimate needs its real history."""
    if not isinstance(state, MnkState) or state.ages is not None:
        raise InvalidOptionError("OpenSpiel's bot plays ultimate only from the initial position")
    x, o = list(bits(state.x)), list(bits(state.o))
    path = [cell for pair in itertools.zip_longest(x, o) for cell in pair if cell is not None]
    if len(x) - len(o) != (0 if state.turn is Player.X else 1):
        raise InvalidOptionError(f"{state.to_text()} has a mark count OpenSpiel cannot reach")
    return path


def placements(spiel_state: Any) -> dict[int, list[int]]:
    """Our move -> the OpenSpiel actions that make it, for the player to move (our moves
    are cell indices: row * width + column, plus 9 * board in ultimate)."""
    player = spiel_state.current_player()
    width = _width(spiel_state)
    found: dict[int, list[int]] = {}
    for action in spiel_state.legal_actions():
        text = spiel_state.action_to_string(player, action)
        if text.startswith("Choose local board"):
            child = spiel_state.clone()
            child.apply_action(action)
            for move, path in placements(child).items():
                found[move] = [action, *path]
            continue
        found[_cell(text, width)] = [action]
    return found


def _width(spiel_state: Any) -> int:
    params = spiel_state.get_game().get_parameters()
    return int(params.get("m", 3))


def _cell(text: str, width: int) -> int:
    match = _CELL.fullmatch(text)
    if match is None:
        raise InvalidOptionError(f"unexpected OpenSpiel action {text!r}")
    board, row, col = match.groups()
    return (int(board) * 9 if board else 0) + int(row) * width + int(col)


def _rate(spec: str, game: Any, c: float, rollouts: int) -> float:
    """Simulations per second of the bot from the start of `game` (measured once)."""
    pyspiel = _pyspiel()

    if spec not in _RATES:
        simulations, elapsed = 100, 0.0
        while elapsed < 0.2:
            simulations *= 2
            # Without the solver: a proof would stop the search early and the rate
            # would be wrong (and keep doubling).
            evaluator = pyspiel.RandomRolloutEvaluator(rollouts, 0)
            bot = pyspiel.MCTSBot(game, evaluator, c, simulations, 1000, False, 0, False)
            state = game.new_initial_state()
            started = time.perf_counter()
            bot.step(state)
            elapsed = time.perf_counter() - started
        _RATES[spec] = simulations / elapsed
    return _RATES[spec]
