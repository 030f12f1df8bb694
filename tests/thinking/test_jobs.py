"""What a worker makes of a request: one `ThinkJob`, built once from the replayed game
and sent whole to a worker process."""

from __future__ import annotations

import pickle
import time

import pytest

from noughts.ai.base import Limits
from noughts.ai.levels import level_player
from noughts.registry import parse_spec
from noughts.server.replay import replay
from noughts.thinking.jobs import ThinkJob, think, thinking_time

from support import SPECS, playout


@pytest.mark.parametrize("spec", SPECS)
def test_a_job_pickles_whole_in_every_game(spec: str) -> None:
    """The process pool pickles its work: a job comes back equal, its position too."""
    states = [state for state, _ in playout(spec, seed=3, max_plies=12)]
    for state in (states[0], states[-1]):
        job = ThinkJob(state, "hard", 0.5, 7, mistakes=False, every_move=True)
        again = pickle.loads(pickle.dumps(job))
        assert again == job
        assert again.state == state and again.state.game == parse_spec(spec)


@pytest.mark.parametrize("mistakes", [True, False])
def test_the_worker_plays_the_levels_own_move(mistakes: bool) -> None:
    """What a worker makes of a job is the core's level player on its position."""
    state = replay("classic", None, ["5", "1"]).state
    job = pickle.loads(pickle.dumps(ThinkJob(state, "easy", None, 11, mistakes=mistakes)))
    direct = level_player(state.game, "easy", 11, mistakes).decide(state, Limits())
    assert think(job).moves[0].text == direct.moves[0].text


def test_a_moves_time_counts_from_when_it_was_asked() -> None:
    """A move's time runs from the request: a job that waited gets what is left of its
    time (its level's own where it names none), never less than a quarter of it; a job
    nobody stamped (a review's position) gets its whole time."""
    state = replay("ultimate", None, ["55"]).state
    now = time.time()
    assert thinking_time(ThinkJob(state, "max", 1.0)) == 1.0
    assert thinking_time(ThinkJob(state, "max", None)) is None
    left = thinking_time(ThinkJob(state, "max", 1.0, asked=now - 0.4))
    assert left is not None and 0.6 - (time.time() - now) <= left <= 0.6
    assert thinking_time(ThinkJob(state, "max", 1.0, asked=now - 60)) == 0.25
    # max's own time in ultimate is 2 s (the level table's kmcts:time=2)
    own = thinking_time(ThinkJob(state, "max", None, asked=now - 1.5))
    assert own is not None and 0.4 <= own <= 0.5
    # Its 0.3 s left, well under the whole second (0.63 s seen in a test run at load 8:
    # the player's first search in a process loads its kernels within its time).
    searched = think(ThinkJob(state, "max", 1.0, asked=time.time() - 0.7))
    assert searched.time is not None and 0.2 <= searched.time <= 0.8


def test_every_move_asks_for_every_moves_value() -> None:
    state = replay("classic", None, ["5"]).state
    analysis = think(ThinkJob(state, "max", None, None, mistakes=False, every_move=True))
    assert sorted(info.text for info in analysis.moves) == sorted(state.game.move_text(m) for m in state.legal_moves())
    assert all(info.value.exact for info in analysis.moves)
