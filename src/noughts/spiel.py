"""Every Noughts game as an OpenSpiel Python game, so that OpenSpiel's algorithms (MCTS,
alpha-beta, CFR where it applies, the Python AlphaZero) run on them. Needs
``noughts[openspiel]`` (and numpy).

Importing this module registers ``noughts_KEY`` for every registry key (``-`` as
``_``: ``noughts_nine_board``), with the game's options as OpenSpiel parameters. Import
it before ``pyspiel.load_game("noughts_...")``: OpenSpiel 2.0.2 has no hook through
which an installed package registers its games (no entry point; ``load_game`` looks
the name up in C++ and says only "Unknown game"), so until then the names are unknown.
`load` imports it for you.

>>> import pyspiel
>>> game = load("ultimate")  # the same as pyspiel.load_game("noughts_ultimate")
>>> state = game.new_initial_state()
>>> state.apply_action(state.string_to_action("53"))
>>> state.legal_actions()[:3], state.current_player()
([18, 19, 20], 1)
>>> pyspiel.load_game("noughts_mnk", {"m": 4, "n": 4, "k": 3}).num_distinct_actions()
16

Parameters out of range are refused as OpenSpiel refuses them for its own games, with
``pyspiel.SpielError``.

Actions and observations are those of `noughts.encoding.Encoding` (an action per move the
game can have; the observation tensor is the board's planes seen by the player
observing), player 0 is X, returns are +1/-1/0. Games that can repeat positions
(forget mode, gobblet) end by the rules' threefold repetition; OpenSpiel needs a
bound on the length besides, so a game reaching `MAX_GAME_LENGTH` plies is a draw.
"""

from __future__ import annotations

from typing import Any

from noughts.core import Game, InvalidMoveError, MissingExtraError, NoughtsError, Player, State

try:
    import numpy as np
    import pyspiel  # type: ignore[import-not-found, unused-ignore]
    from open_spiel.python.observation import IIGObserverForPublicInfoGame  # type: ignore[import-untyped]
except ModuleNotFoundError as e:
    raise MissingExtraError("noughts.spiel", e, "openspiel") from e

from noughts.encoding import Encoding
from noughts.registry import GAMES, make_game, parse_spec

__all__ = ["MAX_GAME_LENGTH", "load", "short_name", "tree_game"]

#: Plies after which a game that can cycle is declared a draw.
MAX_GAME_LENGTH = 1000


def short_name(key: str) -> str:
    """The OpenSpiel name of a registry key: ``noughts_nine_board``."""
    return "noughts_" + key.replace("-", "_")


def load(spec: str) -> Any:
    """``pyspiel.load_game`` of a Noughts game spec (``classic:forget``, ``mnk:m=4:n=4:k=4``)."""
    game = parse_spec(spec)
    settable = GAMES[game.key].option_names()
    return pyspiel.load_game(short_name(game.key), {k: v for k, v in game.options.items() if k in settable})


def tree_game(spec: str) -> Any:
    """The whole game tree of a small game (classic, mnk up to about 3x3) as OpenSpiel's
    C++ extensive-form game (``pyspiel.load_efg_game``), for the algorithms that walk the
    whole tree at every step, CFR above all: through the Python game each step of CFR on
    classic's 549,946 nodes takes about 40 s, on this copy about half a second.

    The tree is the Python game's, walked once: the same moves (named by their text) in
    the same order of actions, the same returns, and each decision its own information
    set, as in any perfect-information game.

    >>> game = tree_game("mnk:m=2:n=2:k=2")
    >>> game.num_distinct_actions(), game.new_initial_state().legal_actions()
    (4, [0, 1, 2, 3])
    """
    spiel_game = load(spec)
    if spiel_game.max_length > 10:  # 10 plies: up to 10! = 3.6 million nodes
        raise ValueError(f"{spec}: its tree is too big to build (at most 10 plies, not {spiel_game.max_length})")
    encoding: Encoding = spiel_game.encoding
    lines = [f'EFG 2 R "{short_name(spiel_game.noughts.key)}" {{ "X" "O" }}', '""']
    decisions, terminals = [0, 0], 0

    def walk(state: State[Any]) -> None:
        nonlocal terminals
        if state.is_over:
            terminals += 1
            first, second = _returns(state)
            lines.append(f't "" {terminals} "" {{ {first} {second} }}')
            return
        player = 0 if state.turn is Player.X else 1
        decisions[player] += 1
        moves = sorted(state.legal_moves(), key=encoding.index.__getitem__)
        names = " ".join(f'"{state.move_text(move)}"' for move in moves)
        lines.append(f'p "" {player + 1} {decisions[player]} "" {{ {names} }} 0')
        for move in moves:
            walk(state.play(move))

    walk(spiel_game.noughts.initial())
    return pyspiel.load_efg_game("\n".join(lines) + "\n")


def _returns(state: State[Any]) -> tuple[float, float]:
    """+1 to the winner, -1 to the loser, 0 each for a draw or a game still going."""
    outcome = state.outcome
    if outcome is None or outcome.winner is None:
        return 0.0, 0.0
    return (1.0, -1.0) if outcome.winner is Player.X else (-1.0, 1.0)


def _game_class(key: str) -> tuple[Any, type]:
    entry = GAMES[key]
    defaults = entry.defaults()
    # OpenSpiel parameters are int, bool, float or str: our options are all of these.
    game_type = pyspiel.GameType(
        short_name=short_name(key),
        long_name=f"Noughts {key}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.DETERMINISTIC,
        information=pyspiel.GameType.Information.PERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=2,
        min_num_players=2,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=dict(defaults),
    )

    class SpielGame(pyspiel.Game):  # type: ignore[misc]
        def __init__(self, params: dict[str, Any] | None = None) -> None:
            options = {**defaults, **(params or {})}
            try:
                self.noughts: Game[Any, Any] = make_game(key, **options)
            except NoughtsError as e:  # OpenSpiel's own error at its boundary, as for its own games
                raise pyspiel.SpielError(f"{short_name(key)}: {e}") from e
            self.encoding = Encoding(self.noughts)
            can_cycle = getattr(self.noughts, "forget", False) or key == "gobblet"
            # Without cycles, a game lasts at most a ply a cell (Connect Four: 42 plies of
            # 7 moves), or a ply a move where the moves are the cells.
            length = MAX_GAME_LENGTH if can_cycle else getattr(self.noughts, "cells", len(self.encoding.moves))
            if key == "matryoshka":
                length = 12  # six figures each
            info = pyspiel.GameInfo(
                num_distinct_actions=self.encoding.actions,
                max_chance_outcomes=0,
                num_players=2,
                min_utility=-1.0,
                max_utility=1.0,
                utility_sum=0.0,
                max_game_length=length,
            )
            super().__init__(game_type, info, options)
            self.max_length = length

        def __reduce__(self) -> tuple[Any, tuple[str, dict[str, Any]]]:
            # Unpickled by loading it again: pyspiel's own pickling of a game would skip
            # __init__, and with it our rules.
            return pyspiel.load_game, (short_name(key), self.get_parameters())

        def new_initial_state(self) -> SpielState:
            return SpielState(self)

        def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> Any:
            if iig_obs_type is None or (iig_obs_type.public_info and not iig_obs_type.perfect_recall):
                return Observer(self.encoding, params)
            # The information state (perfect recall) of a perfect-information game: the
            # moves so far, as OpenSpiel's own Python games give it.
            return IIGObserverForPublicInfoGame(iig_obs_type, params)

    SpielGame.__name__ = SpielGame.__qualname__ = f"Noughts_{key.replace('-', '_')}"
    return game_type, SpielGame


class SpielState(pyspiel.State):  # type: ignore[misc]
    """An OpenSpiel state holding a Noughts state (`state_now`).

    An action the position does not allow raises ``pyspiel.SpielError``, as OpenSpiel's
    own games do. ``undo_action(player, action)`` takes back the last action: OpenSpiel
    2.0.2 gives Python games no undo hook, so this class keeps its own history and
    answers ``history()``, ``full_history()``, ``history_str()`` and ``move_number()``
    from it; OpenSpiel's C++ code (``pyspiel.serialize_game_and_state``) still sees
    the actions taken back, so serialize a state only if nothing was undone.
    """

    def __init__(self, game: Any) -> None:
        super().__init__(game)
        self.noughts: Game[Any, Any] = game.noughts
        """The Noughts game."""
        self.encoding: Encoding = game.encoding
        """Actions and observations (`noughts.encoding.Encoding`)."""
        self.max_length: int = game.max_length
        """Plies after which the game is a draw (`MAX_GAME_LENGTH` where it can cycle)."""
        self.state_now: State[Any] = self.noughts.initial()
        """The Noughts state now."""
        self.plies = 0
        """Plies played."""
        # The states before each action, with who took it: what undo_action restores.
        self._taken: list[tuple[State[Any], int, int]] = []

    def current_player(self) -> int:
        """0 for X, 1 for O, ``pyspiel.PlayerId.TERMINAL`` once the game is over."""
        if self.is_terminal():
            return int(pyspiel.PlayerId.TERMINAL)
        return 0 if self.state_now.turn is Player.X else 1

    def _legal_actions(self, player: int) -> list[int]:
        return sorted(self.encoding.index[move] for move in self.state_now.legal_moves())

    def _apply_action(self, action: int) -> None:
        if not 0 <= action < self.encoding.actions:
            raise pyspiel.SpielError(f"action {action} is not an action of {self.noughts.spec}")
        player = self.current_player()
        try:
            after = self.state_now.play(self.encoding.moves[action])
        except NoughtsError as e:
            # OpenSpiel's algorithms and tests expect its own error type, whatever the game.
            raise pyspiel.SpielError(f"action {action}: {e}") from None
        self._taken.append((self.state_now, player, action))
        self.state_now = after
        self.plies += 1

    def undo_action(self, player: int, action: int) -> None:
        """Take back the last action, which `player` took (OpenSpiel's signature)."""
        if not self._taken or self._taken[-1][1:] != (player, action):
            last = f"player {self._taken[-1][1]}'s action {self._taken[-1][2]}" if self._taken else "nothing"
            raise pyspiel.SpielError(f"cannot undo player {player}'s action {action}: the last action was {last}")
        self.state_now = self._taken.pop()[0]
        self.plies -= 1

    def history(self) -> list[int]:
        """The actions taken, in order (those undone left out)."""
        return [action for _, _, action in self._taken]

    def full_history(self) -> Any:
        """The actions taken with who took them, as ``pyspiel.PlayerAction`` values."""
        # pyspiel.PlayerAction has no constructor in Python: a fresh state's C++ history
        # of the same actions gives them.
        replay = self.get_game().new_initial_state()
        for action in self.history():
            replay.apply_action(action)
        return pyspiel.State.full_history(replay)

    def history_str(self) -> str:
        """`history` as text: ``4, 0``."""
        return ", ".join(str(action) for action in self.history())

    def move_number(self) -> int:
        """How many actions were taken (and not undone)."""
        return len(self._taken)

    def _action_to_string(self, player: int, action: int) -> str:
        return str(self.noughts.move_text(self.encoding.moves[action]))

    def _string_to_action(self, player: int, text: str) -> int:
        try:
            return self.encoding.index[self.noughts.parse_move(text)]
        except InvalidMoveError as e:
            raise ValueError(str(e)) from None

    def is_terminal(self) -> bool:
        """Whether the game is over, by the rules or by `max_length`."""
        return self.state_now.is_over or self.plies >= self.max_length

    def returns(self) -> list[float]:
        """Each player's return: +1 to the winner, -1 to the loser, 0 each for a draw or a
        game going on."""
        return list(_returns(self.state_now))

    def __str__(self) -> str:
        return str(self.state_now.to_text())


class Observer:
    """The PyObserver of OpenSpiel: the board's planes seen by `player`, flat in `tensor`."""

    def __init__(self, encoding: Encoding, params: Any) -> None:
        if params:
            raise ValueError(f"observation parameters are not supported: {params}")
        self.encoding = encoding
        self.tensor = np.zeros(int(np.prod(encoding.shape)), np.float32)
        self.dict = {"observation": self.tensor.reshape(encoding.shape)}

    def set_from(self, state: SpielState, player: int) -> None:
        me = Player.X if player == 0 else Player.O
        self.dict["observation"][...] = self.encoding.planes(state.state_now, me)

    def string_from(self, state: SpielState, player: int) -> str:
        return str(state.state_now.to_text())


for _key in GAMES:
    _type, _class = _game_class(_key)
    pyspiel.register_game(_type, _class)
    # Found by name, as pickle needs: multiprocessing passes games to other processes
    # (AlphaZero's actors and evaluators, for one).
    globals()[_class.__name__] = _class
