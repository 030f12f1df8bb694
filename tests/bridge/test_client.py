"""The bridge of ``noughts bot`` without a server: which challenges its rules decline,
how it words a game's end, each move's time (the owner's, or the clock's share if
less), and the check of a program before it goes online (docs/online.md's example)."""

from __future__ import annotations

import shlex
import sys
from typing import Any

import pytest

from noughts import parse_spec
from noughts.ai import Limits
from noughts.bridge.client import Bridge, Rules, ending, move_seconds

PYTHON = shlex.quote(sys.executable)


def test_rules_say_why_a_challenge_is_declined() -> None:
    room = {"spec": "ultimate", "rated": True, "clock": {"minutes": 3, "increment": 2}}
    assert Rules().refuses(room, 0) is None
    assert Rules(frozenset({"classic", "ultimate"}), True, "timed", 2).refuses(room, 1) is None
    assert Rules(frozenset({"classic"})).refuses(room, 0) == "it plays classic only"
    assert Rules(rated=False).refuses(room, 0) == "it plays casual games only"
    assert Rules(clock="untimed").refuses(room, 0) == "it plays untimed games only"
    assert Rules(max_games=1).refuses(room, 1) == "it plays 1 games at once"
    game = {"clock": {"x_ms": 50_000, "o_ms": 1_000, "increment_ms": 2_000}}
    assert move_seconds(game, "x") == pytest.approx(2 + 1.2)
    assert move_seconds({"clock": None}, "x") is None


def test_an_ending_says_how_the_game_ended() -> None:
    assert ending({"state": "aborted", "result": "ongoing", "termination": None}) == (
        "aborted before each side had moved"
    )
    assert ending({"state": "cancelled", "result": "ongoing", "termination": None}) == "cancelled before it started"
    assert ending({"state": "over", "result": "o-wins", "termination": "resignation"}) == "over: o-wins by resignation"
    assert ending({"state": "over", "result": "draw", "termination": "normal"}) == "over: draw"


class _Told:
    """A program stand-in that keeps the limits of each genmove."""

    def __init__(self) -> None:
        self.limits: list[Limits] = []

    def choose(self, state: Any, limits: Limits) -> Any:
        self.limits.append(limits)
        return state.legal_moves()[0]


@pytest.mark.parametrize(
    ("clock", "owners", "expected"),
    [
        (None, None, None),  # the program's own time
        (None, 2.0, 2.0),
        ({"x_ms": 10_000, "o_ms": 10_000, "increment_ms": 0}, 2.0, 0.4),  # the clock allows less
        ({"x_ms": 600_000, "o_ms": 600_000, "increment_ms": 5_000}, 2.0, 2.0),
        ({"x_ms": 600_000, "o_ms": 600_000, "increment_ms": 5_000}, None, 24 + 3),
    ],
)
def test_a_move_takes_the_owners_time_or_the_clocks_share_if_less(
    clock: dict[str, int] | None, owners: float | None, expected: float | None
) -> None:
    bridge = Bridge("http://127.0.0.1:9", "token", "unused", Rules(), lambda line: None, (), owners)
    told = _Told()
    for spec, moves in (("classic", ["5", "1"]), ("ultimate", ["55"])):
        game = {"id": "g", "spec": spec, "moves": moves, "clock": clock}
        side = "x" if len(moves) % 2 == 0 else "o"
        assert bridge._genmove(game, side, told) is not None  # type: ignore[arg-type]
    for limits in told.limits:
        assert limits.time == (None if expected is None else pytest.approx(expected))


@pytest.mark.integration  # starts `noughts engine`
def test_the_online_pages_example_passes_the_check_with_noughts_engine() -> None:
    # docs/online.md's `noughts bot ... --level max -- noughts engine`.
    # Ultimate at level max loads compiled code on its first genmove: seconds more than
    # the 0.5 s asked on a busy machine, which the first move's warm-up allows.
    said: list[str] = []
    rules = Rules(frozenset({"classic", "ultimate"}))
    command = f"{PYTHON} -m noughts.cli engine"
    Bridge("http://127.0.0.1:9", "token", command, rules, said.append, ("level=max",), 0.5).check_program()
    assert [line.split(":")[0] for line in said] == ["checked the program"] * 2
    for line, spec in zip(said, ("classic", "ultimate"), strict=True):
        move = line.split("it plays ")[1].split(" ")[0]
        parse_spec(spec).initial().play_text(move)  # a legal first move
