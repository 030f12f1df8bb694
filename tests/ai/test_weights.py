"""Tuned weights shipped with the package: an evaluator's default where present, its
hand-set weights always under ``NAME@hand``, and a file that does not fit is an error."""

from __future__ import annotations

import json
from collections.abc import Iterator
from importlib import resources
from pathlib import Path
from typing import Any

import pytest

from noughts import parse_spec
from noughts.ai import evaluation, make_player
from noughts.ai.evaluation import evaluator, evaluator_weights, register_weights, shipped_weights
from noughts.core import InvalidOptionError, NoughtsError

GOBBLET = parse_spec("gobblet")
HAND = {"one": 1.0, "two": 10.0, "three": 100.0, "hand": 0.5}
TUNED = {"one": 2.0, "two": 7.0, "three": 150.0, "hand": 1.5}
_FOLDER = resources.files("noughts.ai").joinpath("weights")
SHIPPED = sorted(p.name for p in _FOLDER.iterdir() if p.name.endswith(".json")) if _FOLDER.is_dir() else []


@pytest.fixture
def weights_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """The package's weights folder, replaced by an empty one (and the caches that
    remember the real one cleared before and after)."""
    monkeypatch.setattr(evaluation, "_shipped_path", lambda key, name: tmp_path / f"{key}-{name}.json")
    evaluation._load_shipped.cache_clear()
    evaluation._build.cache_clear()
    yield tmp_path
    monkeypatch.undo()
    evaluation._load_shipped.cache_clear()
    evaluation._build.cache_clear()


def _ship(folder: Path, content: Any, name: str = "gobblet-tops.json") -> None:
    (folder / name).write_text(content if isinstance(content, str) else json.dumps(content))


def test_without_a_file_an_evaluator_uses_its_hand_set_weights(weights_dir: Path) -> None:
    assert shipped_weights(GOBBLET, "tops") is None
    assert evaluator_weights(GOBBLET, "tops") == HAND == evaluator_weights(GOBBLET, "tops@hand")


def test_shipped_weights_are_the_default_and_hand_still_answers(weights_dir: Path) -> None:
    _ship(weights_dir, {"game": "gobblet", "eval": "tops", "weights": TUNED, "score": 0.6})
    state = GOBBLET.initial().play_text("L5")
    assert shipped_weights(GOBBLET, "tops") == TUNED
    assert evaluator_weights(GOBBLET) == evaluator_weights(GOBBLET, "TOPS") == TUNED
    assert evaluator_weights(GOBBLET, "tops@hand") == HAND
    assert evaluator(GOBBLET) is evaluator(GOBBLET, "tops")
    assert evaluator(GOBBLET, "tops")(state) != evaluator(GOBBLET, "tops@hand")(state)
    # Per game: matryoshka shares the evaluator, not gobblet's file.
    assert evaluator_weights(parse_spec("matryoshka"), "tops") == HAND
    # Players take either spelling.
    for spec in ("tops", "tops@hand"):
        assert make_player("alphabeta", depth=2, eval=spec).analyze(state).moves
        assert make_player("mcts", evaluator=spec, iterations=50, seed=1).analyze(state).moves


def test_a_variant_starts_from_the_weights_its_base_uses(weights_dir: Path) -> None:
    _ship(weights_dir, {"game": "gobblet", "eval": "tops", "weights": TUNED})
    register_weights(GOBBLET, "tops", "tops-test-shipped-variant", {"hand": 3.0})
    assert evaluator_weights(GOBBLET, "tops-test-shipped-variant") == {**TUNED, "hand": 3.0}
    register_weights(GOBBLET, "tops@hand", "tops-test-hand-variant", {"hand": 3.0})
    assert evaluator_weights(GOBBLET, "tops-test-hand-variant") == {**HAND, "hand": 3.0}
    with pytest.raises(InvalidOptionError, match="name of its own"):
        register_weights(GOBBLET, "tops", "tops@mine", {"hand": 3.0})


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("{not json", "cannot be read"),
        ({"game": "gobblet", "eval": "tops"}, "cannot be read"),
        ({"game": "matryoshka", "eval": "tops", "weights": TUNED}, "are for tops in matryoshka"),
        ({"game": "gobblet", "eval": "tops", "weights": {"one": 1.0}}, "must give one, two, three, hand"),
        ({"game": "gobblet", "eval": "tops", "weights": {**TUNED, "bogus": 1.0}}, "must give"),
        ({"game": "gobblet", "eval": "tops", "weights": {**TUNED, "one": "inf"}}, "finite"),
    ],
)
def test_a_shipped_file_that_does_not_fit_is_an_error_not_a_quiet_fallback(
    weights_dir: Path, content: Any, message: str
) -> None:
    _ship(weights_dir, content)
    with pytest.raises(NoughtsError, match=message):
        evaluator(GOBBLET, "tops")
    assert evaluator_weights(GOBBLET, "tops@hand") == HAND  # the hand-set ones never read the file


@pytest.mark.parametrize("name", ["tops@tuned", "tops@", "fill@hand"])
def test_only_hand_follows_the_at_and_only_where_there_are_weights(name: str) -> None:
    with pytest.raises(InvalidOptionError, match="only NAME@hand"):
        evaluator(GOBBLET, name)


def test_the_evaluators_without_weights_have_no_file_to_look_for(weights_dir: Path) -> None:
    _ship(weights_dir, {"game": "gobblet", "eval": "fill", "weights": {}}, "gobblet-fill.json")
    assert evaluator_weights(GOBBLET, "fill") == {}
    assert evaluator(GOBBLET, "fill")(GOBBLET.initial()) == 0


def test_seed_lines_never_ships_as_the_compiled_players_copy_its_weights(weights_dir: Path) -> None:
    ultimate = parse_spec("ultimate")
    hand = evaluator_weights(ultimate, "seed-lines@hand")
    _ship(
        weights_dir,
        {"game": "ultimate", "eval": "seed-lines", "weights": hand | {"one": 5.0}},
        "ultimate-seed-lines.json",
    )
    assert evaluation.shipped_weights_path(ultimate, "seed-lines") is None
    assert shipped_weights(ultimate, "seed-lines") is None
    assert evaluator_weights(ultimate, "seed-lines") == hand
    assert evaluation.shipped_weights_path(ultimate, "seed-cells") is not None


def test_every_shipped_file_fits_its_evaluator() -> None:
    for file in SHIPPED:  # vacuous until a tuned file ships
        data = json.loads(_FOLDER.joinpath(file).read_text())
        game = parse_spec(data["game"])
        assert file == f"{game.key}-{data['eval']}.json"
        assert shipped_weights(game, data["eval"]) == data["weights"]
        assert evaluator_weights(game, data["eval"]) == data["weights"]
        assert set(data["weights"]) == set(evaluator_weights(game, f"{data['eval']}@hand"))
