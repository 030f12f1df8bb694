"""The games as PettingZoo and Gymnasium environments: PettingZoo's own API and seed
tests on every game, and what the encoding and the rewards mean."""

from __future__ import annotations

import warnings

import gymnasium
import numpy as np
import pytest
from gymnasium.error import ResetNeeded
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, seed_test

from noughts import parse_spec
from noughts.ai import Limits, parse_player
from noughts.core import Outcome, Reason
from noughts.registry import GAMES
from noughts.rl import RENDER_FPS, NoughtsEnv, SingleAgentEnv, env, gymnasium_id, raw_env

from support import ENCODED_SPECS

#: Every game key and every option that changes the encoding or the rules' ending.
SPECS = ENCODED_SPECS


@pytest.mark.parametrize("spec", SPECS)
def test_pettingzoos_api_test(spec: str) -> None:
    with warnings.catch_warnings():
        warnings.filterwarnings("error")
        # Two warnings PettingZoo's own board games (tictactoe, connect four, chess) get
        # too, or are exempted from by name: the empty board is all zeros, and the
        # observation is a dict holding the action mask beside the planes.
        warnings.filterwarnings("ignore", message="Observation numpy array is all zeros")
        warnings.filterwarnings("ignore", message="Observation space for each agent probably should be")
        warnings.filterwarnings("ignore", message="Observation is not a NumPy array")
        api_test(NoughtsEnv(spec), num_cycles=200)


@pytest.mark.parametrize("spec", SPECS)
def test_pettingzoos_seed_test(spec: str) -> None:
    seed_test(lambda: NoughtsEnv(spec), num_cycles=200)


@pytest.mark.parametrize("spec", ["classic", "ultimate:forget", "gobblet"])
def test_the_wrapped_env_passes_pettingzoos_tests(spec: str) -> None:
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message="Observation")  # as in test_pettingzoos_api_test
        api_test(env(spec), num_cycles=100)
    seed_test(lambda: env(spec), num_cycles=100)


def test_env_wraps_raw_env_as_pettingzoos_games_do() -> None:
    wrapped = env("classic")
    assert type(wrapped.unwrapped) is type(raw_env("classic")) is NoughtsEnv
    wrapped.reset()
    with pytest.raises(AssertionError):  # AssertOutOfBoundsWrapper
        wrapped.step(9)
    with pytest.raises(AssertionError, match="reset"):  # OrderEnforcingWrapper: no step before reset
        env("classic").step(0)


def test_every_game_has_its_own_versioned_name() -> None:
    # A spec names its game by the key it reads back as ("mnk" alone is classic).
    names = {parse_spec(key).key: NoughtsEnv(key).metadata["name"] for key in GAMES}
    assert names["classic"] == "noughts_classic_v0" and names["nine-board"] == "noughts_nine_board_v0"
    assert len(set(names.values())) == len(names) > 5
    assert NoughtsEnv("mnk:m=4:n=4:k=4").metadata["name"] == "noughts_mnk_v0"


def test_the_metadata_gives_the_frame_rate_and_the_render_modes() -> None:
    for metadata in (NoughtsEnv("classic").metadata, SingleAgentEnv.metadata):
        assert metadata["render_fps"] == RENDER_FPS > 0
        assert set(metadata["render_modes"]) == {"ansi", "rgb_array", "human"}


@pytest.mark.parametrize("key", list(GAMES))
def test_every_game_is_a_gymnasium_id(key: str) -> None:
    made = gymnasium.make(gymnasium_id(key), opponent="random:seed=1")
    assert made.spec is not None and made.spec.id == f"noughts/{key}-v0"
    assert made.unwrapped.game == parse_spec(key)
    observation, _ = made.reset(seed=1)
    assert observation["action_mask"].any()


def test_the_gymnasium_id_imports_the_module_itself() -> None:
    # In a fresh interpreter: gymnasium.make("noughts.rl:...") imports noughts.rl first.
    import subprocess
    import sys

    code = "import gymnasium; print(gymnasium.make('noughts.rl:noughts/classic-v0').unwrapped.game.spec)"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True)
    assert done.stdout.strip() == "classic"


def test_the_human_mode_prints_the_board_at_each_step(capsys: pytest.CaptureFixture[str]) -> None:
    aec = NoughtsEnv("classic", render_mode="human")
    aec.reset()
    aec.step(aec.action("5"))
    assert aec.render() is None
    assert capsys.readouterr().out.split("\n\n")[:2] == [
        parse_spec("classic").initial().diagram(),
        parse_spec("classic").initial().play_text("5").diagram(),
    ]
    single = SingleAgentEnv("classic", opponent="random:seed=1", side="x", render_mode="human")
    single.reset(seed=1)
    single.step(4)
    shown = capsys.readouterr().out
    assert shown.count("\n\n") == 2 and single.state_now.diagram() in shown
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message=".*alternative render modes")  # checked above, by hand
        check_env(SingleAgentEnv("classic", opponent="random", render_mode="human"))
    capsys.readouterr()


def test_the_single_agent_env_refuses_a_step_after_an_illegal_action() -> None:
    single = SingleAgentEnv("classic", opponent="random:seed=1", side="o")
    observation, _ = single.reset(seed=1)
    taken = int(np.flatnonzero(observation["observation"][:, :, 1])[0])
    _, reward, terminated, _, info = single.step(taken)
    assert (reward, terminated) == (-1.0, True) and "illegal" in info
    free = int(np.flatnonzero(observation["action_mask"])[0])
    with pytest.raises(ResetNeeded, match="call reset"):
        single.step(free)
    single.reset(seed=1)
    single.step(free)  # a new episode takes steps again


def test_the_single_agent_env_refuses_a_step_after_a_truncation_or_the_end() -> None:
    single = SingleAgentEnv("gobblet", opponent="random:seed=1", side="x", max_plies=2)
    observation, _ = single.reset(seed=1)
    *_, terminated, truncated, _ = single.step(int(np.flatnonzero(observation["action_mask"])[0]))
    assert truncated and not terminated
    with pytest.raises(ResetNeeded):
        single.step(int(np.flatnonzero(single._observation()["action_mask"])[0]))
    with pytest.raises(ResetNeeded):
        SingleAgentEnv("classic").step(0)  # before the first reset


def play(env: NoughtsEnv, texts: list[str]) -> None:
    for text in texts:
        env.step(env.action(text))


def test_the_winner_gets_one_and_the_loser_minus_one() -> None:
    env = NoughtsEnv("classic")
    env.reset()
    play(env, ["1", "4", "2", "5", "3"])
    assert env.terminations == {"player_0": True, "player_1": True}
    seen = {}
    for agent in env.agent_iter():  # each agent sees the end, then leaves
        seen[agent] = env.last()[1]
        env.step(None)
    assert seen == {"player_1": -1, "player_0": 1}


def test_a_draw_is_zero_for_both() -> None:
    env = NoughtsEnv("classic")
    env.reset()
    play(env, ["5", "1", "3", "7", "4", "6", "8", "2", "9"])
    assert all(env.terminations.values())
    assert env.rewards == {"player_0": 0, "player_1": 0}


def test_an_illegal_action_loses_for_whoever_took_it() -> None:
    env = NoughtsEnv("classic")
    env.reset()
    play(env, ["5"])
    env.step(env.action("5"))
    assert env.rewards == {"player_0": 0, "player_1": -1}
    assert "not a legal move" in env.infos["player_1"]["illegal"]


def test_observations_are_from_the_observers_side() -> None:
    env = NoughtsEnv("classic")
    env.reset()
    play(env, ["5", "1"])
    x, o = env.observe("player_0")["observation"], env.observe("player_1")["observation"]
    assert x.shape == (3, 3, 2)
    assert x[1, 1, 0] == 1 and x[0, 0, 1] == 1  # x's own mark in the centre, o's in the corner
    assert np.array_equal(o[:, :, 0], x[:, :, 1]) and np.array_equal(o[:, :, 1], x[:, :, 0])
    assert env.observe("player_1")["action_mask"].sum() == 0  # not o's turn


def test_ultimate_shows_the_forced_board_and_masks_the_rest() -> None:
    env = NoughtsEnv("ultimate")
    env.reset()
    play(env, ["53"])  # centre board, its top-right cell: o must play in board 3
    seen = env.observe("player_1")
    legal = {env.move(i) for i in np.flatnonzero(seen["action_mask"])}
    state = parse_spec("ultimate").initial().play_text("53")
    assert legal == set(state.legal_moves())
    assert seen["observation"][:, :, 2].sum() == 9  # the playable plane: board 3's nine cells
    assert seen["observation"][0:3, 6:9, 2].all()  # board 3 is the top-right block of the picture


def test_gobblet_actions_cover_placements_and_board_moves() -> None:
    env = NoughtsEnv("gobblet")
    assert env.action_space("player_0").n == 27 + 81
    assert NoughtsEnv("matryoshka").action_space("player_0").n == 27
    env.reset()
    play(env, ["L5", "s1"])
    assert env.move(env.action("5-9")) == parse_spec("gobblet").parse_move("5-9")
    planes = env.observe("player_0")["observation"]
    assert planes[1, 1, 2] == 1 and planes[0, 0, 3] == 1  # x's large in the centre, o's small in a corner


@pytest.mark.parametrize("spec", SPECS)
def test_render_as_text_and_as_a_picture(spec: str) -> None:
    text = NoughtsEnv(spec, render_mode="ansi")
    text.reset()
    assert text.render() == parse_spec(spec).initial().diagram()
    picture = NoughtsEnv(spec, render_mode="rgb_array")
    picture.reset()
    empty = picture.render()
    picture.step(int(np.flatnonzero(picture.observe(picture.agent_selection)["action_mask"])[0]))
    after = picture.render()
    assert isinstance(after, np.ndarray) and after.dtype == np.uint8 and after.shape[2] == 3
    assert not np.array_equal(empty, after)  # the move shows


def test_max_plies_truncates() -> None:
    env = NoughtsEnv("gobblet", max_plies=4)
    env.reset()
    play(env, ["L5", "L1", "M9", "M3"])
    assert all(env.truncations.values()) and not any(env.terminations.values())


@pytest.mark.parametrize("spec", ["classic", "ultimate", "gobblet"])
def test_gymnasiums_env_checker(spec: str) -> None:
    check_env(SingleAgentEnv(spec, opponent="random", side="o"), skip_render_check=True)


def test_the_single_agent_loses_to_max_and_the_seed_replays_it() -> None:
    env = SingleAgentEnv("classic", opponent="max", side="x")
    outcomes = []
    for _ in range(2):
        observation, _ = env.reset(seed=7)
        trace = []
        reward, done = 0.0, False
        while not done:
            action = int(np.flatnonzero(observation["action_mask"])[-1])  # always the last free cell
            observation, reward, done, _, _ = env.step(action)
            trace.append(action)
        outcomes.append((trace, reward))
    assert outcomes[0] == outcomes[1]
    assert outcomes[0][1] == -1.0


def observe_position(spec: str, text: str, agent: str) -> np.ndarray:
    env = NoughtsEnv(spec)
    env.reset()
    env.state_now = env.game.parse_position(text)
    return np.asarray(env.observe(agent)["observation"])


@pytest.mark.parametrize(
    ("spec", "older", "newer"),
    [
        ("classic:forget", "x.o/..x/ox. o x=1,6,8 o=3,7", "x.o/..x/ox. o x=8,6,1 o=7,3"),
        (
            "ultimate:forget",
            "xoo.o..../x......../x......../........./x......../........./........./........./......... o 1 "
            "x=11,21,31,51 o=12,13,15",
            "xoo.o..../x......../x......../........./x......../........./........./........./......... o 1 "
            "x=11,21,31,51 o=15,13,12",
        ),
    ],
)
def test_forget_mode_shows_the_age_order(spec: str, older: str, newer: str) -> None:
    # The same marks, placed in another order: which mark vanishes next differs, so the
    # observations must too (else they would not be a Markov state), for both agents.
    for agent in ("player_0", "player_1"):
        first, second = observe_position(spec, older, agent), observe_position(spec, newer, agent)
        assert first.shape == second.shape
        assert not np.array_equal(first, second)


def test_the_first_forget_plane_is_the_mark_that_vanishes_next() -> None:
    # keep=3: x has three marks, the oldest (1) goes on x's next placement; o has two,
    # so its oldest (3) lasts one placement more and its newest (7) three.
    planes = observe_position("classic:forget", "x.o/..x/ox. o x=1,6,8 o=3,7", "player_1")
    assert planes.shape == (3, 3, 2 + 2 * 3 + 2)  # marks, ages, repetitions
    mine, theirs = planes[:, :, 2:5], planes[:, :, 5:8]
    assert np.argwhere(theirs[:, :, 0]).tolist() == [[0, 0]]  # x's 1 vanishes next
    assert np.argwhere(theirs[:, :, 2]).tolist() == [[2, 1]]  # x's 8, three placements on
    assert mine[:, :, 0].sum() == 0
    assert np.argwhere(mine[:, :, 1]).tolist() == [[0, 2]]
    assert np.argwhere(mine[:, :, 2]).tolist() == [[2, 0]]
    # The countdown planes cover exactly the marks.
    assert np.array_equal(mine.sum(axis=2), planes[:, :, 0])
    assert np.array_equal(theirs.sum(axis=2), planes[:, :, 1])


@pytest.mark.parametrize(
    ("spec", "opening", "cycle"),
    [
        # x goes round the edges and o round the corners, keep=3: no line, and after
        # four placements each the same marks stand in the same age order.
        ("classic:forget", ["2", "1", "4", "3", "6", "7"], ["8", "9", "2", "1", "4", "3", "6", "7"]),
        ("gobblet", ["L5", "L1"], ["5-9", "1-3", "9-5", "3-1"]),
    ],
)
def test_repetition_planes_count_the_earlier_occurrences(spec: str, opening: list[str], cycle: list[str]) -> None:
    env = NoughtsEnv(spec)
    env.reset()

    def repetition_planes() -> list[tuple[int, int]]:
        # For each agent, the sums of the last two planes: (once before, twice before).
        size = env.encoding.shape[0] * env.encoding.shape[1]
        seen = []
        for agent in env.possible_agents:
            planes = env.observe(agent)["observation"]
            assert {int(planes[:, :, -2].sum()), int(planes[:, :, -1].sum())} <= {0, size}  # constant planes
            seen.append((int(planes[:, :, -2].sum()) // size, int(planes[:, :, -1].sum()) // size))
        return seen

    play(env, opening)
    assert repetition_planes() == [(0, 0), (0, 0)]
    play(env, cycle)  # the position after the opening, for the second time
    assert repetition_planes() == [(1, 0), (1, 0)]
    assert not any(env.terminations.values())
    play(env, cycle[:-1])
    assert repetition_planes() == [(1, 0), (1, 0)]  # each position of the cycle is on its second time
    play(env, cycle[-1:])  # the third time: a draw
    assert repetition_planes() == [(0, 1), (0, 1)]
    assert env.state_now.outcome == Outcome(None, Reason.REPETITION)
    assert all(env.terminations.values())
    seen = {}
    for agent in env.agent_iter():
        seen[agent] = env.last()[1]
        env.step(None)
    assert seen == {"player_0": 0, "player_1": 0}


@pytest.mark.parametrize(
    ("spec", "planes"), [("classic", 2), ("matryoshka", 6), ("gobblet", 8), ("ultimate:forget", 3 + 2 * 3 + 2)]
)
def test_repetition_planes_only_where_positions_recur(spec: str, planes: int) -> None:
    # Matryoshka and the games without forget always add a mark or a figure: no position
    # comes back, so no repetition planes.
    assert NoughtsEnv(spec).observation_space("player_0")["observation"].shape[2] == planes


def opponents_first_moves(opponent: str, seeds: range) -> list[int]:
    env = SingleAgentEnv("classic", opponent=opponent, side="o")
    moves = []
    for seed in seeds:
        observation, _ = env.reset(seed=seed)
        (move,) = np.flatnonzero(observation["observation"][:, :, 1])  # the opponent's one mark
        moves.append(int(move))
    return moves


def test_the_environments_seed_seeds_a_text_opponent() -> None:
    moves = opponents_first_moves("random", range(12))
    assert moves == opponents_first_moves("random", range(12))  # a seeded episode replays
    assert len(set(moves)) > 1


def test_a_seed_written_in_the_opponents_spec_is_kept() -> None:
    moves = opponents_first_moves("random:seed=5", range(12))
    state = parse_spec("classic").initial()
    assert moves == [parse_player("random:seed=5").choose(state, Limits())] * 12


def test_an_opponent_that_takes_no_seed() -> None:
    env = SingleAgentEnv("classic", opponent="perfect", side="x")
    observation, _ = env.reset(seed=1)
    assert observation["action_mask"].sum() == 9
