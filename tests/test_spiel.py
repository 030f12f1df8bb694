"""Every game as an OpenSpiel game: OpenSpiel's own random-simulation checks on each
key and option set, and OpenSpiel's algorithms playing them."""

from __future__ import annotations

import copy
import pickle

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import cfr, exploitability, mcts, minimax

from noughts import parse_spec
from noughts.encoding import Encoding
from noughts.registry import GAMES
from noughts.spiel import load, short_name, tree_game

from support import ENCODED_SPECS, sampled

#: Every game key and every option that changes the encoding or the rules' ending (random
#: games of the Forget modes run to hundreds of plies: half a second for ultimate's).
SPECS = ENCODED_SPECS


# make test: every third variant (each game key among them); all in make test-slow.
@pytest.mark.parametrize("spec", sampled(SPECS, 3, also=("connect4",)))
def test_openspiels_random_simulation_checks(spec: str) -> None:
    game = load(spec)
    assert game.get_type().short_name == short_name(parse_spec(spec).key)
    pyspiel.random_sim_test(game, num_sims=3, serialize=False, verbose=False)


def test_every_key_is_registered_under_its_name() -> None:
    registered = set(pyspiel.registered_names())
    assert {f"noughts_{key.replace('-', '_')}" for key in GAMES} <= registered
    assert pyspiel.load_game("noughts_nine_board").num_distinct_actions() == 81


def test_options_are_parameters() -> None:
    game = pyspiel.load_game("noughts_mnk", {"m": 15, "n": 15, "k": 5})
    assert game.num_distinct_actions() == 225
    assert game.max_game_length() == 225
    assert load("classic:forget").max_game_length() == 1000  # forget mode can cycle


@pytest.mark.parametrize(
    ("name", "params", "said"),
    [
        ("noughts_mnk", {"m": 0}, "noughts_mnk: m and n must be between 1 and 26"),
        ("noughts_mnk", {"k": 9}, "noughts_mnk: "),
        ("noughts_qubic", {"n": 1}, "noughts_qubic: "),
        ("noughts_mnk", {"zz": 1}, "Unknown parameter 'zz'"),  # OpenSpiel's own check, for comparison
    ],
)
def test_parameters_out_of_range_raise_openspiels_error_as_its_own_games_do(
    name: str, params: dict[str, int], said: str
) -> None:
    with pytest.raises(pyspiel.SpielError, match=said):
        pyspiel.load_game(name, params)


def play(game: pyspiel.Game, texts: list[str]) -> pyspiel.State:
    state = game.new_initial_state()
    for text in texts:
        state.apply_action(state.string_to_action(text))
    return state


def test_a_won_game_returns_one_and_minus_one() -> None:
    state = play(load("classic"), ["1", "4", "2", "5", "3"])
    assert state.is_terminal() and state.returns() == [1.0, -1.0]
    assert str(state) == parse_spec("classic").parse_position("xxx/oo./... o").to_text()


def test_the_observation_tensor_is_the_encodings_planes() -> None:
    state = play(load("ultimate"), ["53", "31"])
    planes = Encoding(parse_spec("ultimate")).planes(
        parse_spec("ultimate").initial().play_text("53").play_text("31"), parse_spec("classic").initial().turn
    )
    assert np.array_equal(np.asarray(state.observation_tensor(0)).reshape(9, 9, 3), planes)


def test_forget_modes_tensor_holds_the_order_of_the_marks() -> None:
    # x placed 1, 5, 6 here and 6, 5, 1 there: the same marks, but 1 goes next in the
    # first and 6 in the second, and OpenSpiel's observation tells them apart.
    first, second = (
        play(load("classic:forget"), ["1", "3", "5", "7", "6"]),
        play(load("classic:forget"), ["6", "3", "5", "7", "1"]),
    )
    assert str(first).split()[0] == str(second).split()[0]
    assert first.observation_tensor(1) != second.observation_tensor(1)
    assert len(first.observation_tensor(1)) == 3 * 3 * (2 + 2 * 3 + 2)  # marks, ages, repetitions


def test_openspiels_alpha_beta_solves_a_position() -> None:
    # x to move with two ways to win and o threatening: the search finds a win in one.
    state = play(load("classic"), ["1", "4", "2", "5"])
    value, action = minimax.alpha_beta_search(state.get_game(), state=state, maximizing_player_id=0)
    assert value == 1.0 and state.action_to_string(0, action) in ("3", "6")


def test_openspiels_mcts_bot_finds_the_win_in_ultimate() -> None:
    # OpenSpiel's Python MCTS (its C++ bot expects C++ states to clone).
    game = load("nine-board")
    state = play(game, ["51", "15", "52", "25"])  # x to move: 53 completes a line in board 5
    bot = mcts.MCTSBot(game, 1.4, 300, mcts.RandomRolloutEvaluator(1, np.random.RandomState(7)), solve=True)
    assert state.action_to_string(0, bot.step(state)) == "53"


def test_a_clone_shares_the_immutable_parts_and_goes_its_own_way() -> None:
    state = play(load("classic"), ["5"])
    clone = state.clone()
    clone.apply_action(clone.string_to_action("1"))
    assert str(state).startswith("...") and not str(clone).startswith("...")
    assert copy.deepcopy(state.state_now) is state.state_now  # immutable: no copy needed


@pytest.mark.slow  # CFR's iterations (9 s); the other OpenSpiel algorithms' tests run in make test
def test_openspiels_cfr_runs_on_a_registered_game() -> None:
    # OpenSpiel's Python CFR+ on the Python game itself (3x2, two in a row: a first-
    # player win), its average policy's NashConv going to 0.
    game = pyspiel.load_game("noughts_mnk", {"m": 3, "n": 2, "k": 2})
    solver = cfr.CFRPlusSolver(game)
    seen = []
    for _ in range(20):
        solver.evaluate_and_update_policy()
        seen.append(exploitability.nash_conv(game, solver.average_policy()))
    assert seen[0] > 0.1
    assert seen[-1] < 0.01


def test_the_tree_game_is_for_small_games_only() -> None:
    with pytest.raises(ValueError, match="too big"):
        tree_game("mnk:m=4:n=4:k=3")


@pytest.mark.slow
def test_cfr_on_classic_goes_toward_its_equilibrium() -> None:
    # CFR+ on classic's whole tree (through tree_game: 550,000 nodes), checked against
    # OpenSpiel's own tic_tac_toe after one iteration, and near equilibrium after 32.
    game = tree_game("classic")
    solver = pyspiel.CFRPlusSolver(game)
    solver.evaluate_and_update_policy()
    first = pyspiel.nash_conv(game, solver.average_policy())
    theirs = pyspiel.CFRPlusSolver(pyspiel.load_game("tic_tac_toe"))
    theirs.evaluate_and_update_policy()
    assert first == pytest.approx(pyspiel.nash_conv(pyspiel.load_game("tic_tac_toe"), theirs.average_policy()))
    for _ in range(31):
        solver.evaluate_and_update_policy()
    assert pyspiel.nash_conv(game, solver.average_policy()) < 0.05


def test_games_and_states_pickle() -> None:
    # multiprocessing sends games to other processes so (AlphaZero's actors, for one).
    game = load("mnk:m=4:n=4:k=3")
    again = pickle.loads(pickle.dumps(game))
    assert again.num_distinct_actions() == 16
    assert again.get_parameters()["m"] == 4
    assert again.new_initial_state().legal_actions() == list(range(16))
    state = play(game, ["a1", "b2"])
    assert str(pickle.loads(pickle.dumps(state))) == str(state)


def test_an_illegal_action_raises_openspiels_error_as_its_own_games_do() -> None:
    for game in (load("classic"), pyspiel.load_game("tic_tac_toe")):
        state = game.new_initial_state()
        state.apply_action(4)
        with pytest.raises(pyspiel.SpielError):
            state.apply_action(4)  # taken
        with pytest.raises(pyspiel.SpielError):
            state.apply_action(9)  # no such cell
        assert state.history() == [4]  # untouched


@pytest.mark.parametrize("spec", ["classic", "ultimate", "gobblet", "classic:forget"])
def test_undo_action_takes_back_the_last_action(spec: str) -> None:
    # Random games played to the end, then undone action by action: every state seen on
    # the way in comes back, with its history, on the way out.
    rng = np.random.default_rng(5)
    game = load(spec)
    for _ in range(3):
        state, seen = game.new_initial_state(), []
        while not state.is_terminal():
            seen.append((str(state), state.history(), state.current_player(), state.legal_actions()))
            state.apply_action(int(rng.choice(state.legal_actions())))
        while seen:
            action, player = state.history()[-1], seen[-1][2]
            state.undo_action(player, action)
            assert (str(state), state.history(), state.current_player(), state.legal_actions()) == seen.pop()
            assert state.move_number() == len(state.history())
            assert [step.action for step in state.full_history()] == state.history()


def test_undo_action_refuses_an_action_that_was_not_the_last() -> None:
    state = play(load("classic"), ["5", "1"])
    with pytest.raises(pyspiel.SpielError, match="last action was player 1's action 0"):
        state.undo_action(0, 4)
    state.undo_action(1, 0)
    state.undo_action(0, 4)
    with pytest.raises(pyspiel.SpielError, match="last action was nothing"):
        state.undo_action(0, 4)
