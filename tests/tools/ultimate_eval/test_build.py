"""tools/ultimate_eval: seeded self-play that comes out the same each time, and a fit
that `--check` finds again."""

from __future__ import annotations

from pathlib import Path
from types import ModuleType

import numpy as np
import pytest

from noughts.kernels import learned

from support import load_file

TOOL = Path(__file__).resolve().parents[3] / "tools" / "ultimate_eval" / "build.py"


def _tool() -> ModuleType:
    return load_file("ultimate_eval_build", TOOL)


# Two self-play runs and a fit (19 s): a tool that builds a shipped result, checked in make test-slow.
@pytest.mark.slow
def test_selfplay_is_the_same_each_time_and_fits_back(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    build = _tool()
    path = build.selfplay(seed=3, games=2, jobs=1)
    with np.load(path) as data:
        first = {key: data[key] for key in data.files}
    build.selfplay(seed=3, games=2, jobs=1)
    with np.load(path) as data:
        assert all(np.array_equal(first[key], data[key]) for key in data.files)
    states, games = first["states"], first["games"]
    assert set(games) == {0, 1} and len(states) == len(first["results"]) == len(first["values"])
    assert set(np.unique(first["results"])) <= {-1, 0, 1} and np.all(np.abs(first["values"]) <= 1)
    # Within a game, each position has one mark more than the one before.
    marks = np.array([sum(int(v).bit_count() for v in st[:18]) for st in states])
    same_game = games[1:] == games[:-1]
    assert np.all(np.diff(marks)[same_game] == 1)

    monkeypatch.setattr(build, "RECIPE", ((3, 2),))
    monkeypatch.setattr(build, "STEPS", 100)
    monkeypatch.setattr(learned, "SHIPPED", tmp_path / "ultimate_eval.npz")
    assert build.build(check=False) == 0
    with np.load(tmp_path / "ultimate_eval.npz") as book:
        assert book["weights"].shape == (learned.feature_classes()[1],)
    assert build.build(check=True) == 0
    assert "the shipped weights are within" in capsys.readouterr().out


def test_fit_without_its_selfplay_says_what_to_run(monkeypatch: pytest.MonkeyPatch) -> None:
    build = _tool()
    monkeypatch.setattr(build, "RECIPE", ((99, 5),))
    with pytest.raises(SystemExit, match=r"build\.py selfplay --seed 99 --games 5"):
        build.build(check=False)
