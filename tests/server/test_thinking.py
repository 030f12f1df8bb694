"""The worker pool's request: one `ThinkJob`, built once from the replayed game and
sent whole to a worker process."""

from __future__ import annotations

import asyncio
import pickle

import pytest

from noughts.ai.base import Analysis, Limits
from noughts.ai.levels import level_player
from noughts.registry import parse_spec
from noughts.server.replay import replay
from noughts.server.thinking import ThinkingPool, ThinkJob, think

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


def test_every_move_asks_for_every_moves_value() -> None:
    state = replay("classic", None, ["5"]).state
    analysis = think(ThinkJob(state, "max", None, None, mistakes=False, every_move=True))
    assert sorted(info.text for info in analysis.moves) == sorted(state.game.move_text(m) for m in state.legal_moves())
    assert all(info.value.exact for info in analysis.moves)


def test_a_job_reaches_a_worker_process() -> None:
    """Through a real worker process (spawned, so the job crosses a pipe)."""
    pool = ThinkingPool(workers=1)
    state = replay("mnk:m=7:n=7:k=4", None, ["d4"]).state

    async def ask() -> Analysis:
        return await pool.analyze(ThinkJob(state, "medium", seed=5))

    try:
        analysis = asyncio.run(ask())
    finally:
        pool.shutdown()
    assert analysis.moves[0].text == level_player(state.game, "medium", 5).decide(state, Limits()).moves[0].text
