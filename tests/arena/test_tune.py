"""`noughts tune` with a tiny budget: it runs, saves its state, and resumes from it."""

from __future__ import annotations

import json
import pickle
import subprocess
import sys
from pathlib import Path

import pytest

from noughts import parse_spec
from noughts.ai.evaluation import evaluator, evaluator_weights, register_weights
from noughts.core import InvalidOptionError

TUNE = [sys.executable, "-m", "noughts.cli", "tune", "matryoshka", "--eval", "tops", "--games", "2", "--depth", "1"]


def _tune(state: Path, generations: int) -> subprocess.CompletedProcess[str]:
    args = [*TUNE, "--generations", str(generations), "--state", str(state), "--jobs", "2"]
    return subprocess.run(args, capture_output=True, text=True, timeout=240)


def test_tune_resumes_from_its_state_file(tmp_path: Path) -> None:
    state = tmp_path / "tops.state"
    first = _tune(state, 1)
    assert first.returncode == 0, first.stderr
    assert "generation 1/1" in first.stdout
    saved = pickle.loads(state.read_bytes())
    assert saved.generation == 1 and len(saved.history) == 1
    second = _tune(state, 2)
    assert second.returncode == 0, second.stderr
    assert f"resuming {state} at generation 2" in second.stdout
    assert "generation 2/2" in second.stdout and "generation 1/" not in second.stdout
    resumed = pickle.loads(state.read_bytes())
    assert resumed.generation == 2
    assert resumed.history[0] == saved.history[0]  # the first generation was kept, not replayed
    weights = json.loads(Path(f"{state}.weights.json").read_text())
    assert weights["eval"] == "tops" and set(weights["weights"]) == {"one", "two", "three", "hand"}
    # Already done: nothing more to play.
    third = _tune(state, 2)
    assert third.returncode == 0
    assert "has 2 generations already" in third.stdout
    assert pickle.loads(state.read_bytes()).history == resumed.history


def test_tune_refuses_what_it_cannot_tune(tmp_path: Path) -> None:
    args = [*TUNE[:4], "classic", "--eval", "fill", "--state", str(tmp_path / "s")]
    done = subprocess.run(args, capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert "fill has no weights to tune" in done.stderr
    assert not (tmp_path / "s").exists()


def test_a_weighted_variant_is_the_evaluator_with_other_weights() -> None:
    game = parse_spec("gobblet")
    state = game.initial().play_text("L5")
    hand = evaluator_weights(game, "tops")
    register_weights(game, "tops", "tops-test-doubled", {k: 2 * v for k, v in hand.items()})
    assert evaluator(game, "tops-test-doubled")(state) == pytest.approx(2 * evaluator(game, "tops")(state))
    assert evaluator_weights(game, "tops") == hand  # the hand-set weights are untouched
    with pytest.raises(InvalidOptionError, match="no weight bogus"):
        register_weights(game, "tops", "x", {"bogus": 1.0})
    with pytest.raises(InvalidOptionError, match="a name of its own"):
        register_weights(game, "tops", "tops", {"one": 2.0})
