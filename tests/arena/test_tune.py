"""`noughts tune` with a tiny budget: it runs at one depth or several, saves its state,
resumes from it (and refuses an older version's), keeps one pool of workers for the run,
and says how to check and ship what it found."""

from __future__ import annotations

import json
import pickle
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from noughts import parse_spec
from noughts.ai.evaluation import evaluator, evaluator_weights, register_weights
from noughts.arena import tune as tune_module
from noughts.core import InvalidOptionError

TUNE = [sys.executable, "-m", "noughts.cli", "tune", "matryoshka", "--eval", "tops", "--games", "2"]


def _tune(state: Path, generations: int, depth: str = "1,2") -> subprocess.CompletedProcess[str]:
    args = [*TUNE, "--depth", depth, "--generations", str(generations), "--state", str(state), "--jobs", "2"]
    return subprocess.run(args, capture_output=True, text=True, timeout=240)


@pytest.mark.slow  # three tuning runs in a row (13 s)
def test_tune_resumes_from_its_state_file(tmp_path: Path) -> None:
    state = tmp_path / "tops.state"
    first = _tune(state, 1)
    assert first.returncode == 0, first.stderr
    assert "at depths 1,2" in first.stdout and "generation 1/1" in first.stdout
    saved = pickle.loads(state.read_bytes())
    assert saved.generation == 1 and len(saved.history) == 1 and saved.depths == (1, 2)
    # A candidate's fitness is its mean score over the depths.
    first_generation = saved.history[0]
    for score, by_depth in zip(first_generation["scores"], first_generation["by_depth"], strict=True):
        assert len(by_depth) == 2 and score == pytest.approx(sum(by_depth) / 2)
    assert first_generation["centre"] == pytest.approx(sum(first_generation["centre_by_depth"]) / 2)
    second = _tune(state, 2, depth="3")  # a resumed run keeps its depths
    assert second.returncode == 0, second.stderr
    assert f"resuming {state} at generation 2 (depths 1,2, 2 opening plies)" in second.stdout
    assert "generation 2/2" in second.stdout and "generation 1/" not in second.stdout
    resumed = pickle.loads(state.read_bytes())
    assert resumed.generation == 2 and resumed.depths == (1, 2)
    assert resumed.history[0] == saved.history[0]  # the first generation was kept, not replayed
    weights = json.loads(Path(f"{state}.weights.json").read_text())
    assert weights["eval"] == "tops" and set(weights["weights"]) == {"one", "two", "three", "hand"}
    assert weights["generation"] == 2 and weights["tuned"]["against"] == "hand-set"
    assert weights["tuned"]["depths"] == [1, 2] and set(weights["depths"]) == {"1", "2"}
    assert resumed.history[1]["centre"] == weights["score"]
    # How to check the result, at each depth, and how to ship it.
    for depth in (1, 2):
        check = f"alphabeta:depth={depth}:eval=tops@hand alphabeta:depth={depth}:eval=tuned"
        assert f"{check} --weights tuned={state}.weights.json" in second.stdout
    assert f"cp {state}.weights.json " in second.stdout
    assert "src/noughts/ai/weights/matryoshka-tops.json" in second.stdout
    # Already done: nothing more to play.
    third = _tune(state, 2)
    assert third.returncode == 0
    assert "has 2 generations already" in third.stdout
    assert pickle.loads(state.read_bytes()).history == resumed.history


def test_a_state_of_an_older_version_is_refused(tmp_path: Path) -> None:
    lines: list[str] = []
    # A new run's state, before any game (a tuning round takes 12 s).
    state = tune_module._start("matryoshka", "tops", (1,), games=2, seed=0, opening_plies=2)
    state.version = tune_module.STATE_VERSION - 1  # as a pickle from before `depths` loads
    (tmp_path / "s").write_bytes(pickle.dumps(state))
    with pytest.raises(InvalidOptionError, match="not a tuning state of this version"):
        tune_module.tune("matryoshka", "tops", 2, tmp_path / "s", report=lines.append)


@pytest.mark.parametrize("depth", ["0", "1,0", "2,x", ""])
def test_tune_takes_only_positive_depths(tmp_path: Path, depth: str) -> None:
    args = [*TUNE, "--depth", depth, "--state", str(tmp_path / "s")]
    done = subprocess.run(args, capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and "--depth" in done.stderr
    assert not (tmp_path / "s").exists()


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


def test_one_pool_of_workers_plays_every_generation(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    pools: list[Any] = []
    workers = tune_module._workers

    @contextmanager
    def counted(jobs: int) -> Iterator[Any]:
        with workers(jobs) as pool:
            pools.append(pool)
            yield pool

    monkeypatch.setattr(tune_module, "_workers", counted)
    lines: list[str] = []
    state = tune_module.tune(
        "matryoshka", "tops@hand", 3, tmp_path / "s", games=2, depth=1, jobs=1, report=lines.append
    )
    assert state.generation == 3 and len(state.history) == 3
    assert len(pools) == 1
    assert (state.eval, state.against, state.base) == (
        "tops",
        "hand-set",
        evaluator_weights(parse_spec("matryoshka"), "tops@hand"),
    )
    assert state.base_spec == "tops@hand"
    assert sum("generation" in line for line in lines) == 3


@pytest.mark.slow  # make test-slow, for make test's 6 minutes
def test_an_interrupted_run_keeps_its_saved_generations(tmp_path: Path) -> None:
    state = tmp_path / "tops.state"
    args = [*TUNE, "--depth", "1", "--generations", "1000", "--state", str(state), "--jobs", "1"]
    run = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        for _ in range(1200):
            if state.exists() or run.poll() is not None:
                break
            time.sleep(0.1)
        assert state.exists()
        run.send_signal(signal.SIGINT)
        _, err = run.communicate(timeout=60)
    finally:
        run.kill()
    assert run.returncode == 130, err
    assert "keeps the finished generations" in err
    saved = pickle.loads(state.read_bytes())
    assert saved.generation >= 1 and len(saved.history) == saved.generation


def test_the_arena_loads_what_tune_writes(tmp_path: Path) -> None:
    file = tmp_path / "w.json"
    file.write_text(json.dumps({"game": "gobblet", "eval": "tops", "weights": {"one": 2.0, "hand": 1.0}}))
    variant = tune_module.load_weights(f"tuned={file}")
    assert (variant.name, variant.base, variant.weights) == ("tuned", "tops", (("one", 2.0), ("hand", 1.0)))
    for bad in ("tuned", f"={file}", f"tuned={tmp_path / 'missing.json'}"):
        with pytest.raises(InvalidOptionError):
            tune_module.load_weights(bad)


def test_the_games_start_from_the_runs_own_opening_plies(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    plies: list[int] = []
    schedule = tune_module.schedule

    def recorded(*args: Any, **kwargs: Any) -> Any:
        plies.append(kwargs["opening_plies"])
        return schedule(*args, **kwargs)

    monkeypatch.setattr(tune_module, "schedule", recorded)
    lines: list[str] = []
    path = tmp_path / "s"
    state = tune_module.tune("gobblet", "tops", 1, path, games=2, depth=1, opening_plies=3, report=lines.append)
    assert state.opening_plies == 3 and plies and set(plies) == {3}
    assert "from 3 random plies" in lines[0]
    assert json.loads(Path(f"{path}.weights.json").read_text())["tuned"]["opening_plies"] == 3
    plies.clear()
    tune_module.tune("gobblet", "tops", 2, path, opening_plies=1, report=lines.append)  # resumed: its own
    assert set(plies) == {3} and "3 opening plies" in lines[-2]
    with pytest.raises(InvalidOptionError, match="opening plies must be 0 or more"):
        tune_module.tune("gobblet", "tops", 1, tmp_path / "t", opening_plies=-1, report=lines.append)
