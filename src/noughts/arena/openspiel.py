"""OpenSpiel's bots as players, on every game: OpenSpiel's own game where it has one
(classic, mnk, ultimate), else ours as `noughts.spiel` registers it (`spiel_moves`). Its
uniform random bot, its MCTS bot (random rollouts; C++ on its own games, Python on ours),
a policy played by sampling (OpenSpiel's ``PolicyBot``: a tabular policy from CFR, say)
and any ``pyspiel.Bot`` a factory of yours returns. The specs (``--openspiel`` of
``noughts arena``)::

    random[:seed=N]
    mcts[:time=S][:c=C][:rollouts=N][:simulations=N][:seed=N]
    cfr[:iterations=N][:seed=N]                 CFR+'s average policy, solved first (classic only)
    policy:MODULE:FUNCTION[:KEY=VALUE...]       FUNCTION(game, **options) -> an OpenSpiel Policy
    bot:MODULE:FUNCTION[:KEY=VALUE...]          FUNCTION(game, player, seed, **options) -> a pyspiel.Bot

MCTS's budget is a number of simulations; for a time per move it is set from the bot's
rate measured once per game in each worker process, so that a game with a given seed is
replayed exactly. The other bots take no time limit.
"""

from __future__ import annotations

import importlib
import time
from collections.abc import Callable
from typing import Any

from noughts.ai import AIPlayer, Analysis, Kind, Limits, MoveInfo, Value
from noughts.ai.base import coerce_option, require_moves
from noughts.arena.spiel_moves import (
    available,
    is_ours,
    marks_in_turn,
    move_of,
    placements,
    pyspiel,
    spiel_game,
    start_at,
)
from noughts.arena.tracker import StateTracker
from noughts.core import Game, InvalidOptionError, Player, State

__all__ = ["BOTS", "OpenSpielBot", "OpenSpielMCTS", "available", "openspiel_player", "spiel_game"]

#: Seconds per move when neither the bot's spec nor the arena gives a time.
DEFAULT_TIME = 1.0
#: The bots by name, with what each takes, for the messages.
BOTS = {
    "random": "random[:seed=N]",
    "mcts": "mcts[:time=S][:c=C][:rollouts=N][:simulations=N][:seed=N]",
    "cfr": "cfr[:iterations=N][:seed=N]",
    "policy": "policy:MODULE:FUNCTION[:KEY=VALUE...]",
    "bot": "bot:MODULE:FUNCTION[:KEY=VALUE...]",
}
_RATES: dict[str, float] = {}
#: CFR's policies for classic by iterations, solved once in each worker process.
_POLICIES: dict[int, Any] = {}
#: (OpenSpiel game, player id, seed) -> a pyspiel.Bot for that player.
BotFactory = Callable[[Any, int, int], Any]


def openspiel_player(spec: str, seed: int, default_time: float | None) -> OpenSpielBot:
    """The player for an OpenSpiel bot spec (the module's docstring lists them); every
    mistake in it is an InvalidOptionError saying what was expected."""
    name, *parts = spec.strip().split(":")
    if name not in BOTS:
        raise InvalidOptionError(f"unknown OpenSpiel bot {name!r}; the bots are: {', '.join(BOTS.values())}")
    if name in ("policy", "bot"):
        if len(parts) < 2 or not parts[0] or not parts[1] or "=" in parts[0] + parts[1]:
            raise InvalidOptionError(f"OpenSpiel {name} takes {BOTS[name]}, not {spec!r}")
        function = _function(parts[0], parts[1], name)
        options = _options(name, parts[2:], None)
        bot_seed = int(options.pop("seed", seed))
        if name == "bot":
            return OpenSpielBot(
                spec, lambda game, player, seed_: _checked_bot(function(game, player, seed_, **options)), bot_seed
            )
        return OpenSpielBot(spec, lambda game, player, _: _policy_bot(function(game, **options), player, bot_seed))
    if name == "mcts":
        options = _options(name, parts, ("time", "c", "rollouts", "simulations", "seed"))
        seconds = options.get("time", default_time)
        return OpenSpielMCTS(
            time=DEFAULT_TIME if seconds is None and "simulations" not in options else seconds,
            simulations=options.get("simulations"),
            c=float(options.get("c", 2.0)),
            rollouts=int(options.get("rollouts", 1)),
            seed=int(options.get("seed", seed)),
        )
    if name == "cfr":
        options = _options(name, parts, ("iterations", "seed"))
        iterations = int(options.get("iterations", 64))
        bot_seed = int(options.get("seed", seed))
        return OpenSpielBot(spec, lambda game, player, _: _policy_bot(cfr_policy(game, iterations), player, bot_seed))
    options = _options(name, parts, ("seed",))
    bot_seed = int(options.get("seed", seed))
    return OpenSpielBot(spec, lambda game, player, _: pyspiel().make_uniform_random_bot(player, bot_seed))


def _options(name: str, parts: list[str], allowed: tuple[str, ...] | None) -> dict[str, Any]:
    """``key=value`` parts as options; `allowed` None takes any key (a factory's own)."""
    options: dict[str, Any] = {}
    for part in parts:
        key, eq, value = part.partition("=")
        if not eq or not key or (allowed is not None and key not in allowed):
            raise InvalidOptionError(f"OpenSpiel {name} takes {BOTS[name]}; not {part!r}")
        options[key] = coerce_option(value)
    return options


def _function(module_name: str, attribute: str, name: str) -> Callable[..., Any]:
    """The factory ``module:function``, found now so that a misspelt one stops the arena
    before any game (its own imports run here, in the arena's process, too)."""
    try:
        module = importlib.import_module(module_name)
    except ImportError as e:
        raise InvalidOptionError(f"OpenSpiel {name}: cannot import module {module_name!r} ({e})") from None
    function = getattr(module, attribute, None)
    if not callable(function):
        raise InvalidOptionError(f"OpenSpiel {name}: module {module_name!r} has no function {attribute!r}")
    return function  # type: ignore[no-any-return]


def _checked_bot(bot: Any) -> Any:
    if not isinstance(bot, pyspiel().Bot):
        raise InvalidOptionError(f"OpenSpiel bot: the factory returned {type(bot).__name__}, not a pyspiel.Bot")
    return bot


def _policy_bot(policy: Any, player: int, seed: int) -> Any:
    """OpenSpiel's PolicyBot: plays `policy` by sampling its probabilities."""
    import numpy as np

    policy_module = importlib.import_module("open_spiel.python.policy")
    if not isinstance(policy, policy_module.Policy):
        raise InvalidOptionError(f"OpenSpiel policy: the factory returned {type(policy).__name__}, not a Policy")
    bots = importlib.import_module("open_spiel.python.bots.policy")

    class PolicyBot(bots.PolicyBot):  # type: ignore[misc, name-defined]
        def step(self, state: Any) -> int:
            legal = state.legal_actions()
            # OpenSpiel's PolicyBot tests its actions with any(), so a lone action 0 (the
            # last free cell being the first) reads as none and it answers INVALID_ACTION.
            return int(legal[0]) if len(legal) == 1 else int(super().step(state))

    return PolicyBot(player, np.random.RandomState(seed), policy)


def cfr_policy(game: Any, iterations: int) -> Any:
    """CFR+'s average policy after `iterations` (OpenSpiel's C++ solver): near a Nash
    equilibrium of the whole game, so it can only be built for a small one (classic:
    about half a second an iteration; 64 bring its NashConv to about 0.01)."""
    if game.get_type().short_name != "tic_tac_toe":
        raise InvalidOptionError("OpenSpiel cfr solves the whole game first: classic only")
    if iterations not in _POLICIES:
        _POLICIES[iterations] = _solve(game, iterations)
    return _POLICIES[iterations]


def _solve(game: Any, iterations: int) -> Any:
    solver = pyspiel().CFRPlusSolver(game)
    for _ in range(iterations):
        solver.evaluate_and_update_policy()
    policy_module = importlib.import_module("open_spiel.python.policy")

    # The C++ policy as a Python one, asked state by state: PolicyBot takes a Python
    # Policy, and copying the whole table (300,000 states) into one takes longer. The
    # solver stays referenced: its average policy reads the solver's tables (a crash
    # once the solver was collected).
    class AveragePolicy(policy_module.Policy):  # type: ignore[misc, name-defined]
        def __init__(self) -> None:
            super().__init__(game, [0, 1])
            self.solver = solver
            self.average = solver.average_policy()

        def action_probabilities(self, state: Any, player_id: int | None = None) -> dict[int, float]:
            return dict(self.average.action_probabilities(state))

    return AveragePolicy()


class OpenSpielBot(AIPlayer):
    """Any pyspiel.Bot as a player, kept in step with our game on an OpenSpiel state of
    its own: `factory(game, player, seed)` makes the bot of one side of one game."""

    def __init__(self, name: str, factory: BotFactory, seed: int = 0) -> None:
        self.name = f"openspiel-{name}"
        self.factory, self.seed = factory, seed
        self.tracker = StateTracker()
        self.spiel: Any = None
        self.bots: dict[tuple[Any, ...], Any] = {}

    def reset(self) -> None:
        self.tracker.reset()
        self.spiel = None

    def analyze(self, state: State[Any], limits: Limits = Limits()) -> Analysis:
        started = time.perf_counter()
        moves = require_moves(state)
        game = spiel_game(state.game)
        bot = self._bot(state.game, game, 0 if state.turn is Player.X else 1, limits)
        self._sync(state, game)
        # A free move in OpenSpiel's ultimate is two decisions of the bot: the board, then
        # the cell.
        while True:
            action = bot.step(self.spiel)
            player = self.spiel.current_player()
            if action not in self.spiel.legal_actions():
                raise InvalidOptionError(f"{self.name} chose action {action}, not legal in {state.to_text()}")
            move = move_of(self.spiel, action)
            for other in self.bots.values():
                if other is not bot:
                    other.inform_action(self.spiel, player, action)
            self.spiel.apply_action(action)
            if move is not None:
                break
        if move not in moves:
            raise InvalidOptionError(f"OpenSpiel's move {move!r} is not legal in {state.to_text()}")
        self.tracker.last = state.play(move)
        ordered = [move, *(m for m in moves if m != move)]
        infos = [MoveInfo(m, state.move_text(m), Value(Kind.UNKNOWN)) for m in ordered]
        return Analysis(self.name, infos, [infos[0].text], None, self._nodes(), time.perf_counter() - started)

    def _bot(self, ours: Game[Any, Any], game: Any, player: int, limits: Limits) -> Any:
        """The bot for this game and side, made once (a CFR policy is solved once)."""
        key = (ours.spec, player)
        if key not in self.bots:
            try:
                self.bots[key] = self.factory(game, player, self.seed)
            except TypeError as e:  # a factory of the user's called with what it does not take
                raise InvalidOptionError(f"{self.name}: its factory failed: {e}") from None
        return self.bots[key]

    def _nodes(self) -> int:
        return 0

    def _sync(self, state: State[Any], game: Any) -> None:
        """Play the moves since the last state the bot knew on its own OpenSpiel state,
        telling its bots (a bot may keep a state of its own, as OpenSpiel's API allows)."""
        path = self.tracker.moves_to(state) if self.spiel is not None else None
        if path is None:
            self.tracker.reset()
            self.spiel = game.new_initial_state()
            for bot in self.bots.values():
                bot.restart()
            path = self.tracker.moves_to(state)
            if path is None:
                # Too far from the start to search: our registered games stand at any
                # state; OpenSpiel's own are played to it.
                placed = start_at(game, state)
                if placed is not None:
                    self.spiel, self.tracker.last = placed, state
                    return
                path = marks_in_turn(state)
        current: State[Any] = self.tracker.last or state.game.initial()
        for move in path:
            for action in placements(self.spiel)[move]:
                player = self.spiel.current_player()
                for bot in self.bots.values():
                    bot.inform_action(self.spiel, player, action)
                self.spiel.apply_action(action)
            current = current.play(move)
        self.tracker.last = current


class OpenSpielMCTS(OpenSpielBot):
    """pyspiel.MCTSBot with RandomRolloutEvaluator, its budget a time or simulations."""

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
        super().__init__("mcts", self._make, seed)
        self.name = "openspiel-mcts"
        self.time, self.simulations, self.c, self.rollouts = time, simulations, c, rollouts
        self.budget = 0

    def _make(self, game: Any, player: int, seed: int) -> Any:
        return _mcts_bot(game, self.c, self.rollouts, self.budget, seed, solve=True)

    def _bot(self, ours: Game[Any, Any], game: Any, player: int, limits: Limits) -> Any:
        # One bot for both sides (MCTS searches for whoever is to move), made again when
        # the budget changes.
        self.budget = self._budget(ours, game, limits.time)
        key = (ours.spec, self.budget)
        if key not in self.bots:
            self.bots = {key: self._make(game, player, self.seed)}
        return self.bots[key]

    def _nodes(self) -> int:
        return self.budget

    def _budget(self, ours: Game[Any, Any], game: Any, limit: float | None) -> int:
        seconds = limit if limit is not None else self.time
        if seconds is None:
            assert self.simulations is not None
            return self.simulations
        rate = _rate(ours.spec, game, self.c, self.rollouts)
        budget = max(1, int(rate * seconds))
        return budget if self.simulations is None else min(budget, self.simulations)


def _rate(spec: str, game: Any, c: float, rollouts: int) -> float:
    """Simulations per second of the bot from the start of `game` (measured once)."""
    if spec not in _RATES:
        simulations, elapsed = 100, 0.0
        while elapsed < 0.2:
            simulations *= 2
            # Without the solver: a proof would stop the search early and the rate
            # would be wrong (and keep doubling).
            bot = _mcts_bot(game, c, rollouts, simulations, 0, solve=False)
            state = game.new_initial_state()
            started = time.perf_counter()
            bot.step(state)
            elapsed = time.perf_counter() - started
        _RATES[spec] = simulations / elapsed
    return _RATES[spec]


def _mcts_bot(game: Any, c: float, rollouts: int, simulations: int, seed: int, solve: bool) -> Any:
    """OpenSpiel's MCTS with random rollouts: its C++ bot on its own games, its Python
    bot on ours (the C++ bot segfaults on any Python game, OpenSpiel's own
    python_tic_tac_toe too: open-spiel 2.0.2)."""
    if not is_ours(game):
        evaluator = pyspiel().RandomRolloutEvaluator(rollouts, seed)
        return pyspiel().MCTSBot(game, evaluator, c, simulations, 1000, solve, seed, False)
    import numpy as np

    mcts = importlib.import_module("open_spiel.python.algorithms.mcts")
    random_state = np.random.RandomState(seed)
    evaluator = mcts.RandomRolloutEvaluator(rollouts, random_state)
    return mcts.MCTSBot(game, c, simulations, evaluator, solve=solve, random_state=random_state)
