"""What a developer using Noughts as a library trips over first: a spec text where a
game is asked for, a wrong argument to ``choose``, a position read back by its class,
a missing extra named by the error; every game at every level without any extra."""

from __future__ import annotations

import importlib.util
import inspect
import json
import os
import re
import subprocess
import sys
import typing
from collections.abc import Callable
from importlib import metadata
from pathlib import Path
from typing import Any

import mypy.api
import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

import bare_play
import noughts
from noughts import (
    GobbletState,
    InvalidPositionError,
    Limits,
    MnkState,
    QubicState,
    State,
    UltimateState,
    level_player,
    parse_position,
    parse_spec,
)
from noughts.ai.evaluation import evaluator
from noughts.registry import FAMILIES, GAMES


def test_level_player_takes_a_spec_text_as_everywhere_else() -> None:
    state = parse_spec("classic").parse_position("xx./oo./... x")
    from_text, from_game = level_player("classic", "max"), level_player(parse_spec("classic"), "max")
    assert from_text.choose(state) == from_game.choose(state) == 2  # the win, cell 3
    assert level_player("mnk:m=4:n=4:k=3", "hard", seed=1).choose(parse_spec("mnk:m=4:n=4:k=3").initial()) in range(16)


@pytest.mark.parametrize("limits", [5, 0.5, "5", None])
def test_choose_refuses_limits_that_are_not_limits(limits: object) -> None:
    player = level_player("classic", "medium", seed=1)
    with pytest.raises(TypeError, match=r"Limits\(time=0.5\)"):
        player.choose(parse_spec("classic").initial(), limits)  # type: ignore[arg-type]


def test_choose_refuses_a_position_text_for_a_state() -> None:
    with pytest.raises(TypeError, match="chooses in a State"):
        level_player("classic", "medium").choose("x../.../... o", Limits())  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("cls", "spec"),
    [(MnkState, "classic"), (UltimateState, "ultimate"), (QubicState, "qubic"), (GobbletState, "gobblet")],
)
def test_a_state_class_reads_its_standard_games_positions(cls: type[State[object]], spec: str) -> None:
    state = parse_spec(spec).initial()
    state = state.play(state.legal_moves()[-1])
    assert cls.from_text(state.to_text()) == state
    assert cls.standard_game() == parse_spec(spec)


def test_from_text_reads_another_games_position_when_told() -> None:
    game = parse_spec("mnk:m=4:n=4:k=3")
    assert MnkState.from_text("x.../..../..../...o x", game) == parse_position(game, "x.../..../..../...o x")
    with pytest.raises(InvalidPositionError):
        MnkState.from_text("x.../..../..../...o x")  # not a classic position
    with pytest.raises(InvalidPositionError, match="not a UltimateState"):
        UltimateState.from_text("x../.../... o", parse_spec("classic"))
    with pytest.raises(TypeError, match="no standard game"):
        State.from_text("x../.../... o")


# A fresh interpreter in which the named packages cannot be imported, as if not installed.
_WITHOUT = """
import sys
class Missing:
    def find_spec(self, name, path=None, target=None):
        if name.partition(".")[0] in {missing!r}:
            raise ModuleNotFoundError(f"No module named {{name!r}}", name=name)
sys.meta_path.insert(0, Missing())
try:
    import {module}
except ModuleNotFoundError as e:
    from noughts import MissingExtraError
    print(type(e).__name__, isinstance(e, MissingExtraError), e.name, e.extra, str(e), sep="|")
"""


@pytest.mark.parametrize(
    ("module", "missing", "extra"),
    [
        ("noughts.rl", ["gymnasium"], "rl"),
        ("noughts.rl", ["numpy"], "rl"),
        ("noughts.encoding", ["numpy"], "rl"),
        ("noughts.spiel", ["pyspiel"], "openspiel"),
        ("noughts.arena.local", ["numpy"], "arena"),
    ],
)
def test_a_missing_extra_is_named_by_the_error(module: str, missing: list[str], extra: str) -> None:
    code = _WITHOUT.format(missing=set(missing), module=module)
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True)
    kind, is_ours, name, named_extra, message = done.stdout.strip().split("|")
    assert (kind, is_ours, name, named_extra) == ("MissingExtraError", "True", missing[0], extra)
    assert f"pip install 'noughts[{extra}]'" in message


def _bare_site(tmp_path: Path) -> Path:
    """A folder that holds what ``pip install noughts`` installs: the package (these
    sources) and what rich requires, as links into this environment. ``python -S`` with
    it as its path sees no other package: no numpy, no numba (tests/bare_play.py in a
    bare install, in seconds; the fresh venv from the built wheel is
    tests/test_packaging.py's, slow)."""
    wanted, todo = set(), ["rich"]
    while todo:
        name = canonicalize_name(todo.pop())
        if name not in wanted:
            wanted.add(name)
            todo += [Requirement(r).name for r in metadata.requires(name) or [] if Requirement(r).marker is None]
    site = tmp_path / "site"
    site.mkdir()
    (site / "noughts").symlink_to(Path(noughts.__file__).parent)
    for top, dists in metadata.packages_distributions().items():
        spec = importlib.util.find_spec(top) if wanted & {canonicalize_name(d) for d in dists} else None
        if spec is not None and spec.origin is not None:
            origin = Path(spec.origin)
            (site / (top if origin.name == "__init__.py" else origin.name)).symlink_to(
                origin.parent if origin.name == "__init__.py" else origin
            )
    return site


def test_every_game_plays_at_every_level_without_numpy_or_numba(tmp_path: Path) -> None:
    """gobblet's medium once imported numpy (through its table's module) and failed on a
    bare install; max plays its shipped book and x's strategy there, read without numpy."""
    env = {**os.environ, "NOUGHTS_CACHE_DIR": str(tmp_path / "cache"), "PYTHONPATH": str(_bare_site(tmp_path))}
    done = subprocess.run(
        [sys.executable, "-S", bare_play.__file__, "6", "0.05"], capture_output=True, text=True, timeout=280, env=env
    )
    assert done.returncode == 0, done.stderr
    bare_play.check(json.loads(done.stdout), plies=6)


def test_a_side_that_is_no_side_is_refused_as_bad_input() -> None:
    """The docs promise NoughtsError as the base of every error on bad input; it is
    still a ValueError, as it was."""
    assert noughts.Player.from_text(" O ") is noughts.Player.O
    with pytest.raises(noughts.NoughtsError, match="'z' is not a player: use x or o") as refused:
        noughts.Player.from_text("z")
    assert isinstance(refused.value, ValueError)


@pytest.mark.parametrize(
    ("named", "said"),
    [
        (lambda: parse_spec("clasic"), "unknown game 'clasic' (did you mean 'classic'?); the games are: classic, mnk"),
        (lambda: parse_spec("classic:frget=true"), "option 'frget' (did you mean 'forget'?); its options are: forget"),
        (lambda: noughts.make_game("mnk", kk=3), "mnk has no option 'kk' (did you mean 'k'?)"),
        (lambda: level_player("classic", "meduim"), "level 'meduim' (did you mean 'medium'?); the levels are: "),
        (lambda: noughts.make_player("mcts", itrations=3), "no option 'itrations' (did you mean 'iterations'?)"),
        (lambda: noughts.parse_player("mtcs"), "unknown player 'mtcs' (did you mean 'mcts'?); the players are: "),
        (lambda: noughts.parse_player("mcts:evaluator=sed-lines"), "(did you mean 'seed-lines'?); the evaluators are:"),
        (lambda: evaluator(parse_spec("classic"), "lnes"), "evaluator 'lnes' (did you mean 'lines'?); its evaluators"),
    ],
)
def test_a_misspelt_name_is_answered_with_the_closest_and_the_valid_ones(named: Callable[[], Any], said: str) -> None:
    with pytest.raises(noughts.NoughtsError) as refused:
        named()
    assert said in str(refused.value)
    assert isinstance(refused.value, ValueError)


# mypy checks the package's import graph from nothing: 6 s of a core when idle, 18 s
# under load; make test keeps the overloads' check against the registry below.
@pytest.mark.slow
def test_a_bare_game_key_is_typed_as_its_game_class_for_a_type_checker(tmp_path: Path) -> None:
    """What mypy --strict tells a user's script: a key of this package's games is its
    class (and its states' class), any other spec a Game, narrowed by isinstance."""
    script = tmp_path / "user.py"
    script.write_text(
        "from noughts import Mnk, make_game, parse_position, parse_spec\n"
        'reveal_type(parse_spec("classic").initial())\n'
        'reveal_type(parse_spec("nine-board").initial().play(40))\n'
        'reveal_type(make_game("gobblet").initial().legal_moves()[0])\n'
        'reveal_type(parse_spec("classic:forget"))\n'
        'reveal_type(parse_position("qubic", parse_spec("qubic").initial().to_text()))\n'
        'game = parse_spec("mnk:m=4:n=4:k=3")\n'
        "assert isinstance(game, Mnk)\n"
        "reveal_type(game.initial())\n",
        encoding="utf-8",
    )
    config = tmp_path / "mypy.ini"
    # The package being tested (a worktree's src, not only what the venv installed).
    config.write_text(f"[mypy]\nstrict = True\nmypy_path = {Path(noughts.__file__).parents[1]}\n", encoding="utf-8")
    out, err, status = mypy.api.run(["--config-file", str(config), "--cache-dir", str(tmp_path / "cache"), str(script)])
    revealed = re.findall(r'Revealed type is "(.*)"', out)
    assert revealed == [
        "noughts.games.mnk.rules.MnkState",
        "noughts.games.ultimate.UltimateState",
        "noughts.games.gobblet.Place | noughts.games.gobblet.Shift",
        "noughts.core.Game[Any, Any]",
        "noughts.games.qubic.QubicState",
        "noughts.games.mnk.rules.MnkState",
    ], out + err
    assert status == 0, out + err


@pytest.mark.parametrize("function", [noughts.parse_spec, noughts.make_game, noughts.parse_position])
def test_the_typed_keys_are_the_registrys(function: Callable[..., Any]) -> None:
    """The overloads that type a bare key name the class the registry serves it with
    (or its states' class), and every key of the package's own games has one."""
    typed: dict[str, type] = {}
    for overload in typing.get_overloads(function):
        hints = typing.get_type_hints(overload)
        first = hints[next(iter(inspect.signature(overload).parameters))]
        if typing.get_origin(first) is typing.Literal:
            typed |= dict.fromkeys(typing.get_args(first), hints["return"])
    own: dict[str, type] = {variant.key: cls for cls in FAMILIES for variant in cls.variants}
    assert all(GAMES[key].cls is cls for key, cls in own.items())
    if function is noughts.parse_position:
        own = {key: type(noughts.make_game(key).initial()) for key in own}
    assert typed == own
