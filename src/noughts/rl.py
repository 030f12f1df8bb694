"""Reinforcement learning: every game as a PettingZoo AEC environment (two agents,
``player_0`` for X, who moves first, and ``player_1`` for O) and as a Gymnasium
environment for one agent against any Noughts player.
Needs ``noughts[rl]`` (pettingzoo, gymnasium, numpy).

The encoding is `noughts.encoding.Encoding`, the same for both classes:

* actions: ``Discrete(N)``, one per move the game can ever have: a cell in the m,n,k
  games, ultimate, nine-board and qubic (the move's own number); in gobblet and
  matryoshka the 27 placements (size, cell), then in gobblet the 81 board moves (from,
  to). `NoughtsEnv.move` and `NoughtsEnv.action` translate.
* observations: ``{"observation": planes, "action_mask": mask}``, int8 arrays of 0 and
  1. The planes are a (rows, columns, planes) picture of the board seen by the agent
  observing: its marks, then its opponent's (in gobblet, its figures by size, then the
  opponent's, covered ones included); ultimate and nine-board add the cells the player
  to move may play (which board is forced). Forget mode adds ``2 * keep`` planes, the
  agent's then its opponent's: plane t holds the marks that vanish on that player's
  (t+1)-th placement from now, so the first shows the mark that goes next and together
  they give the age order. Where a position can recur (Forget mode, gobblet) its third
  occurrence is a draw, so two last planes count the earlier ones: the first all 1 if
  the position stood once before, the second all 1 if twice (the drawn end).
* rewards: +1 for a win, -1 for a loss, 0 for a draw, at the end of the game. An
  action the position does not allow loses the game for the agent who took it (-1, and
  ``infos[agent]["illegal"]`` says why), as PettingZoo's classic games do.
* ``render_mode``: ``"ansi"`` (the text diagram), ``"rgb_array"`` (a picture, 24
  pixels a cell) or ``"human"`` (the diagram printed to standard output at every reset
  and step; ``render()`` then returns None).

The names follow PettingZoo's and Gymnasium's conventions, with `VERSION` (raised
whenever observations, actions or rewards change): `env` (the environment with
PettingZoo's standard wrappers) and `raw_env` build the PettingZoo environment, named
``noughts_KEY_v0`` in its metadata (``noughts_nine_board_v0``); importing this module
registers the Gymnasium id ``noughts/KEY-v0`` of every registry key for
`SingleAgentEnv` (Gymnasium 1.x loads no plugins by entry point, so
``gymnasium.make("noughts.rl:noughts/classic-v0")`` imports it for you).

>>> env = NoughtsEnv("classic")
>>> env.reset(seed=1)
>>> env.agent_selection, int(env.action_space("player_0").n)
('player_0', 9)
>>> env.step(env.action("5"))
>>> observation, reward, terminated, truncated, info = env.last()
>>> env.agent_selection, observation["action_mask"].tolist()
('player_1', [1, 1, 1, 1, 0, 1, 1, 1, 1])
"""

from __future__ import annotations

from typing import Any

from noughts.core import Game, InvalidOptionError, MissingExtraError, Player, State

try:
    import gymnasium
    import numpy as np
    import numpy.typing as npt
    from gymnasium import spaces
    from gymnasium.error import ResetNeeded
    from pettingzoo import AECEnv  # type: ignore[import-untyped]
    from pettingzoo.utils import AgentSelector, wrappers  # type: ignore[import-untyped]
except ModuleNotFoundError as e:
    raise MissingExtraError("noughts.rl", e, "rl") from e

from noughts.ai import AIPlayer, Limits, seeded_player
from noughts.ai.levels import LEVELS, level_player
from noughts.encoding import Array, Encoding
from noughts.registry import GAMES, parse_spec

__all__ = ["RENDER_FPS", "VERSION", "NoughtsEnv", "SingleAgentEnv", "env", "gymnasium_id", "pettingzoo_name", "raw_env"]

#: The environments' version, in their names: raised whenever the observations, the
#: actions or the rewards change meaning.
VERSION = 0
#: Frames a second for recorders of ``rgb_array`` frames (a game's moves, slowly).
RENDER_FPS = 2
#: The agents, named as PettingZoo recommends: X (who moves first) and O.
_AGENTS = {Player.X: "player_0", Player.O: "player_1"}
_RENDER_MODES = ("ansi", "rgb_array", "human")


def pettingzoo_name(key: str) -> str:
    """The PettingZoo name of a registry key's environment: ``noughts_nine_board_v0``."""
    return f"noughts_{key.replace('-', '_')}_v{VERSION}"


def gymnasium_id(key: str) -> str:
    """The Gymnasium id of a registry key's `SingleAgentEnv`: ``noughts/nine-board-v0``."""
    return f"noughts/{key}-v{VERSION}"


def _metadata(key: str) -> dict[str, Any]:
    return {"render_modes": list(_RENDER_MODES), "render_fps": RENDER_FPS, "name": pettingzoo_name(key)}


class NoughtsEnv(AECEnv):  # type: ignore[misc]
    """A game as a PettingZoo AEC environment: agents ``player_0`` (X, moves first) and
    ``player_1`` (O).

    `game` is a spec or a Game; `max_plies` truncates a game that goes on that long
    (None: the rules end every game, by repetition where the game can cycle)."""

    def __init__(
        self, game: str | Game[Any, Any] = "classic", render_mode: str | None = None, max_plies: int | None = None
    ):
        super().__init__()
        self.game = parse_spec(game) if isinstance(game, str) else game
        """The game played."""
        # The game's own name: an instance's metadata, since one class serves every game.
        self.metadata = {**_metadata(self.game.key), "is_parallelizable": False}
        """PettingZoo's metadata: the render modes, ``render_fps`` and this game's versioned
        ``name``."""
        self.render_mode = _render_mode(render_mode)
        """``ansi``, ``rgb_array``, ``human`` or None."""
        self.max_plies = max_plies
        """Plies after which a game is truncated; None: the rules end every game."""
        self.encoding = Encoding(self.game)
        """Actions and observations (`noughts.encoding.Encoding`)."""
        self.possible_agents = list(_AGENTS.values())
        """``player_0`` (X) and ``player_1`` (O)."""
        self.agents = list(self.possible_agents)
        """The agents still in the game (PettingZoo's)."""
        self.action_spaces = {a: spaces.Discrete(self.encoding.actions) for a in self.possible_agents}
        """Each agent's action space: one action per move the game can ever have."""
        self.observation_spaces = {a: _observation_space(self.encoding) for a in self.possible_agents}
        """Each agent's observation space: the board's planes and the action mask."""
        self.state_now: State[Any] = self.game.initial()
        """The position now."""
        self._reset_bookkeeping()

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """`agent`'s observation space."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """`agent`'s action space."""
        return self.action_spaces[agent]

    def action(self, text: str) -> int:
        """The action number of a move written in the game's notation."""
        return self.encoding.index[self.game.parse_move(text)]

    def move(self, action: int) -> Any:
        """The move an action number stands for."""
        return self.encoding.moves[action]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new game from the initial position (nothing is random: `seed` is accepted, as
        the API asks)."""
        # Nothing here is random: the seed is accepted, as the API asks, and not needed.
        self.state_now = self.game.initial()
        self.agents = list(self.possible_agents)
        self._reset_bookkeeping()
        _show(self.render_mode, self.state_now)

    def _reset_bookkeeping(self) -> None:
        self.plies = 0
        self.rewards = dict.fromkeys(self.agents, 0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._selector = AgentSelector(self.agents)
        self.agent_selection = self._selector.reset()

    def observe(self, agent: str) -> dict[str, Array]:
        """What `agent` sees: the board's planes from its side, and its action mask (all 0
        unless it is to move)."""
        me = Player.X if agent == _AGENTS[Player.X] else Player.O
        on_move = agent == self.agent_selection and not self.state_now.is_over
        mask = self.encoding.mask(self.state_now) if on_move else np.zeros(self.encoding.actions, dtype=np.int8)
        return {"observation": self.encoding.planes(self.state_now, me), "action_mask": mask}

    def step(self, action: Any) -> None:
        """The selected agent takes `action`: an illegal one loses it the game (-1,
        ``infos[agent]["illegal"]`` says why)."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0
        self.rewards = dict.fromkeys(self.agents, 0)
        move = self.encoding.moves[int(action)] if 0 <= int(action) < self.encoding.actions else None
        if move is None or move not in self.state_now.legal_moves():
            self.rewards[agent] = -1
            self.terminations = dict.fromkeys(self.agents, True)
            self.infos[agent]["illegal"] = f"action {action} is not a legal move here"
        else:
            self.state_now = self.state_now.play(move)
            self.plies += 1
            outcome = self.state_now.outcome
            if outcome is not None:
                if outcome.winner is not None:
                    winner = _AGENTS[outcome.winner]
                    self.rewards[winner] = 1
                    self.rewards[_AGENTS[outcome.winner.other]] = -1
                self.terminations = dict.fromkeys(self.agents, True)
            elif self.max_plies is not None and self.plies >= self.max_plies:
                self.truncations = dict.fromkeys(self.agents, True)
        self.agent_selection = self._selector.next()
        self._accumulate_rewards()
        _show(self.render_mode, self.state_now)

    def render(self) -> str | npt.NDArray[np.uint8] | None:
        """The board in the `render_mode`: text (``ansi``), a picture (``rgb_array``), or
        None (``human``, printed at each step already)."""
        return _render(self.render_mode, self.encoding, self.state_now)

    def close(self) -> None:
        """Nothing to release."""
        pass


class SingleAgentEnv(gymnasium.Env[dict[str, Any], np.int64]):
    """One side of a game as a Gymnasium environment, against a Noughts player.

    `opponent` is a level (``easy`` ... ``max``), a player spec (``mcts:iterations=200``)
    or an `AIPlayer`; given as text, it is built again at each reset with a seed drawn
    from the environment's, so that a seeded episode replays exactly. A seed written in
    the spec (``random:seed=5``) is kept instead: the opponent then starts every episode
    with that same seed, whatever the environment's. An `AIPlayer` is only `reset`
    between episodes, its randomness its own. `side` is the learner's (``x`` moves
    first); `limits` is the opponent's budget a move.

    >>> env = SingleAgentEnv("classic", opponent="random", side="o")
    >>> observation, info = env.reset(seed=3)
    >>> int(observation["observation"][:, :, 1].sum())  # the opponent has moved
    1
    """

    metadata: dict[str, Any] = {"render_modes": list(_RENDER_MODES), "render_fps": RENDER_FPS}  # noqa: RUF012 - gymnasium's own attribute
    """Gymnasium's metadata: the render modes and ``render_fps``."""

    def __init__(
        self,
        game: str | Game[Any, Any] = "classic",
        opponent: str | AIPlayer = "random",
        side: str = "x",
        limits: Limits = Limits(),
        render_mode: str | None = None,
        max_plies: int | None = None,
    ) -> None:
        self.game = parse_spec(game) if isinstance(game, str) else game
        """The game played."""
        if side not in ("x", "o"):
            raise InvalidOptionError(f"side is x or o, not {side!r}")
        self.render_mode = _render_mode(render_mode)
        """``ansi``, ``rgb_array``, ``human`` or None."""
        self.me = Player.X if side == "x" else Player.O
        """The learner's side."""
        self.opponent_spec = opponent
        """The opponent as given: a level, a player spec or an `AIPlayer`."""
        self.opponent = opponent if isinstance(opponent, AIPlayer) else self._build(opponent, None)
        """The opponent of this episode (built again at each reset from a text
        `opponent_spec`)."""
        self.limits = limits
        """The opponent's budget a move."""
        self.max_plies = max_plies
        """Plies after which an episode is truncated; None: the rules end every game."""
        self.encoding = Encoding(self.game)
        """Actions and observations (`noughts.encoding.Encoding`)."""
        self.action_space = spaces.Discrete(self.encoding.actions)
        """One action per move the game can ever have."""
        self.observation_space = _observation_space(self.encoding)
        """The board's planes and the action mask."""
        self.state_now: State[Any] = self.game.initial()
        """The position now."""
        self.plies = 0
        """Plies played in this episode, both sides'."""
        # Set once step() has reported the end (terminated or truncated): until reset,
        # another step is an error, not a move in a game that is over.
        self._ended = True

    def _build(self, spec: str, seed: int | None) -> AIPlayer:
        return level_player(self.game, spec, seed) if spec in LEVELS else seeded_player(spec, seed)

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Array], dict[str, Any]]:
        """A new episode (the opponent moves first when the learner is O): the observation
        and an empty info."""
        super().reset(seed=seed)
        if isinstance(self.opponent_spec, str):
            self.opponent = self._build(self.opponent_spec, int(self.np_random.integers(2**31)))
        self.opponent.reset()
        self.state_now = self.game.initial()
        self.plies = 0
        self._ended = False
        if self.state_now.turn is not self.me:
            self._reply()
        _show(self.render_mode, self.state_now)
        return self._observation(), {}

    def step(self, action: Any) -> tuple[dict[str, Array], float, bool, bool, dict[str, Any]]:
        """Play `action` and the opponent's answer: observation, reward (+1, -1, 0 at the
        end; -1 for an illegal action, which ends the episode), terminated, truncated,
        info. ResetNeeded once the episode has ended."""
        if self._ended:
            raise ResetNeeded("the episode is over (it reported terminated or truncated): call reset() first")
        index = int(action)
        move = self.encoding.moves[index] if 0 <= index < self.encoding.actions else None
        if move is None or move not in self.state_now.legal_moves():
            self._ended = True
            return self._observation(), -1.0, True, False, {"illegal": f"action {action} is not a legal move here"}
        self.state_now = self.state_now.play(move)
        self.plies += 1
        if not self.state_now.is_over:
            self._reply()
        outcome = self.state_now.outcome
        reward = 0.0 if outcome is None or outcome.winner is None else (1.0 if outcome.winner is self.me else -1.0)
        truncated = outcome is None and self.max_plies is not None and self.plies >= self.max_plies
        self._ended = outcome is not None or truncated
        _show(self.render_mode, self.state_now)
        return self._observation(), reward, outcome is not None, truncated, {}

    def _reply(self) -> None:
        self.state_now = self.state_now.play(self.opponent.choose(self.state_now, self.limits))
        self.plies += 1

    def _observation(self) -> dict[str, Array]:
        return {
            "observation": self.encoding.planes(self.state_now, self.me),
            "action_mask": self.encoding.mask(self.state_now),
        }

    def render(self) -> str | npt.NDArray[np.uint8] | None:
        """The board in the `render_mode`: text (``ansi``), a picture (``rgb_array``), or
        None (``human``, printed at each step already)."""
        return _render(self.render_mode, self.encoding, self.state_now)


def raw_env(
    game: str | Game[Any, Any] = "classic", render_mode: str | None = None, max_plies: int | None = None
) -> NoughtsEnv:
    """The PettingZoo environment without wrappers (PettingZoo's ``raw_env``)."""
    return NoughtsEnv(game, render_mode=render_mode, max_plies=max_plies)


def env(game: str | Game[Any, Any] = "classic", render_mode: str | None = None, max_plies: int | None = None) -> Any:
    """The PettingZoo environment with the standard wrappers of PettingZoo's own games:
    an action out of range is an error (``AssertOutOfBoundsWrapper``) and so is a step
    before ``reset`` (``OrderEnforcingWrapper``). An illegal action in range loses the
    game, in the environment itself (PettingZoo's ``TerminateIllegalWrapper`` does the
    same).

    >>> game = env("ultimate")
    >>> game.reset(seed=1)
    >>> game.metadata["name"], game.agent_selection
    ('noughts_ultimate_v0', 'player_0')
    """
    wrapped = wrappers.AssertOutOfBoundsWrapper(raw_env(game, render_mode=render_mode, max_plies=max_plies))
    return wrappers.OrderEnforcingWrapper(wrapped)


def _render_mode(mode: str | None) -> str | None:
    if mode is not None and mode not in _RENDER_MODES:
        raise InvalidOptionError(f"render_mode is one of {', '.join(_RENDER_MODES)}, not {mode!r}")
    return mode


def _show(mode: str | None, state: State[Any]) -> None:
    # The human mode draws by itself at every reset and step, as Gymnasium asks.
    if mode == "human":
        print(state.diagram(), end="\n\n")


def _observation_space(encoding: Encoding) -> spaces.Dict:
    return spaces.Dict(
        {
            "observation": spaces.Box(low=0, high=1, shape=encoding.shape, dtype=np.int8),
            "action_mask": spaces.Box(low=0, high=1, shape=(encoding.actions,), dtype=np.int8),
        }
    )


def _render(mode: str | None, encoding: Encoding, state: State[Any]) -> str | npt.NDArray[np.uint8] | None:
    if mode is None:
        gymnasium.logger.warn("render() called without a render_mode (ansi, rgb_array or human)")
        return None
    if mode == "human":
        return None  # shown at each step already
    if mode == "ansi":
        return state.diagram()
    return encoding.image(state)


for _key in GAMES:
    gymnasium.register(gymnasium_id(_key), entry_point="noughts.rl:SingleAgentEnv", kwargs={"game": _key})
