"""Exact means kept (issue 56): wherever the engine's ``analyze level=max`` shows a value
as exact, its ``genmove level=max`` plays it to the end against every reply.

A win in N: after the winner's move the loser's value is a loss in N - 1, after each of
the loser's replies the winner's a win in N - 2 or sooner; a draw: after the move the
opponent's a draw, after each reply a draw or a win. Every reply is checked at each step;
the walk goes on into all of them for the first `full` steps, then along one line (a
seeded choice) to the end. Gobblet as on a new installation, without its table: the
shipped book and strategy, and no value shown exact that they do not play.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass
from pathlib import Path

import pytest
from rich.console import Console

from noughts.ai import gobblet_table
from noughts.ai.base import Value
from noughts.engine import EngineSession
from noughts.games.gobblet import Gobblet
from noughts.terminal.review import show_analysis

from support import without_the_gobblet_table

#: Seconds of thought for an analysis: half of it (at most a second) the exact player's,
#: as max gives it (`ExactOrSearch`). Tables answer at once and matryoshka's exact search
#: in 0.03 s at the most along these walks (2026-12-02), far within the second; gobblet's
#: exact values are look-ups whatever the time, which only bounds the search for the
#: moves its strategy leaves unvalued.
TIME = 2.0
TIMES = {"gobblet": 0.05}


@dataclass(frozen=True)
class Claim:
    """An exact value for the side to move: ``win``, ``loss`` or ``draw``, in `plies`
    (an upper bound where `bound`)."""

    kind: str
    plies: int | None = None
    bound: bool = False


def ask(session: EngineSession, line: str) -> str:
    answer = session.handle(line)
    assert answer is not None and answer.startswith("="), (line, answer, session.state.to_text())
    return answer[:-2]


def claim(session: EngineSession) -> Claim | None:
    """The value ``analyze level=max`` shows for the position, None for an estimate."""
    seconds = TIMES.get(session.state.game.key, TIME)
    info = ask(session, f"analyze level=max time={seconds}").splitlines()[-1]
    found = re.search(r" value=(\S+)", info)
    assert found is not None, info
    value = found.group(1)
    if value == "draw":
        return Claim("draw")
    proven = re.fullmatch(r"(win|loss)-in-(at-most-)?(\d+)", value)
    return None if proven is None else Claim(proven.group(1), int(proven.group(3)), proven.group(2) is not None)


def within(found: Claim | None, kind: str, plies: int, exactly: bool, where: str) -> Claim:
    """`found` is a proven `kind` in `plies` (at most `plies` unless `exactly`)."""
    assert found is not None and found.kind == kind, (where, found, kind, plies)
    assert found.plies is not None and found.plies <= plies, (where, found, plies)
    if exactly:
        assert found.plies == plies, (where, found, plies)
    return found


def status(session: EngineSession) -> str:
    return ask(session, "status")[2:]


def walk(session: EngineSession, held: Claim, full: int, rng: random.Random) -> int:
    """Checks that `held`, the side to move's exact value, is kept from here to the end;
    how many positions it analysed."""
    side = ask(session, "turn")[2:]
    moved = ask(session, "genmove level=max")[2:]
    where = f"{ask(session, 'moves')[2:]} (after {side}'s {moved})"
    analysed = 0
    if status(session) != "ongoing":
        assert status(session) == (f"{side}-wins" if held.kind == "win" else "draw"), (where, held)
        assert held.kind != "win" or held.bound or held.plies == 1, (where, held)
        ask(session, "undo")
        return analysed
    theirs = claim(session)
    analysed += 1
    if held.kind == "win":
        assert held.plies is not None
        within(theirs, "loss", held.plies - 1, not held.bound, where)
    else:
        assert theirs == Claim("draw"), (where, theirs)
    following: list[tuple[str, Claim]] = []
    for reply in ask(session, "legal")[2:].split():
        ask(session, f"play {reply}")
        after = f"{where} {reply}"
        if status(session) != "ongoing":
            assert status(session) in ({f"{side}-wins"} if held.kind == "win" else {"draw", f"{side}-wins"}), after
        else:
            ours = claim(session)
            analysed += 1
            if held.kind == "win":
                assert held.plies is not None
                following.append((reply, within(ours, "win", held.plies - 2, False, after)))
            else:
                assert ours is not None and (ours.kind == "win" or ours == Claim("draw")), (after, ours)
                following.append((reply, ours))
        ask(session, "undo")
    for reply, ours in following if full > 0 else rng.sample(following, min(1, len(following))):
        ask(session, f"play {reply}")
        analysed += walk(session, ours, full - 1, rng)
        ask(session, "undo")
    ask(session, "undo")
    return analysed


def walk_from(spec: str, moves: list[str], full: int, lines: int, seed: int = 0) -> int:
    """`lines` walks from the position after `moves` (its value exact), the first
    `full` steps into every reply; how many positions they analysed."""
    session = EngineSession()
    ask(session, f"new {spec}")
    for move in moves:
        ask(session, f"play {move}")
    start = claim(session)
    assert start is not None and start.kind != "loss", f"{spec} {moves}: start from a proven win or draw, not {start}"
    rng = random.Random(seed)
    return sum(walk(session, start, full, rng) for _ in range(lines))


@pytest.fixture
def new_installation(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    without_the_gobblet_table(monkeypatch, tmp_path)


@pytest.mark.parametrize(
    ("spec", "moves", "full", "lines"),
    [
        ("classic", [], 1, 2),
        ("classic", ["5", "2"], 1, 2),  # o's mistake: x wins
        # 4x4's walks (10-30 s each, as its tables are built) in make test-slow.
        pytest.param("mnk:m=4:n=4:k=3", [], 1, 2, marks=pytest.mark.slow),
        pytest.param("mnk:m=4:n=4:k=4", [], 0, 1, marks=pytest.mark.slow),
        ("connect4:m=4:n=4", [], 1, 2),
        ("matryoshka", [], 1, 1),
    ],
)
def test_exact_values_are_kept_to_the_end(spec: str, moves: list[str], full: int, lines: int) -> None:
    assert walk_from(spec, moves, full, lines) > 0


@pytest.mark.usefixtures("new_installation")
# From the start (16 s: the book's every first move) in make test-slow; past the book here.
@pytest.mark.parametrize("moves", [pytest.param([], marks=pytest.mark.slow), ["L1", "S2"]])
def test_gobblet_without_its_table_keeps_every_exact_value(moves: list[str]) -> None:
    assert walk_from("gobblet", moves, 0, 1) > 0
    assert not gobblet_table.is_built(Gobblet())


@pytest.mark.usefixtures("new_installation")
def test_gobblet_without_its_table_shows_no_win_it_cannot_play() -> None:
    """issue 56: after ``S5 L5`` the book knows x's win in 13, but the strategy starts
    from another first move and has no answer after ``L1 S2``: an estimate, not a win."""
    session = EngineSession()
    for line in ("new gobblet", "play S5", "play L5"):
        ask(session, line)
    assert claim(session) is None
    ask(session, "play L1")
    assert claim(session) is None
    ask(session, "play S2")
    assert claim(session) is None


@pytest.mark.usefixtures("new_installation")
def test_the_terminals_analysis_says_which_values_the_search_estimated() -> None:
    """After ``L1 S2`` the strategy proves x's win, the search values the other moves:
    the header says so, and not that the exact player ran out of time."""
    state = Gobblet().initial().play_text("L1").play_text("S2")
    console = Console(record=True, width=200)
    analysis = show_analysis(console, state, "max", 0.2, 1)
    assert analysis.value == Value.win(11)
    shown = console.export_text()
    assert "level max (perfect), the moves it leaves unvalued estimated by alphabeta" in shown
    assert "did not finish" not in shown


@pytest.mark.slow
@pytest.mark.usefixtures("new_installation")
@pytest.mark.parametrize(
    ("spec", "full", "lines"), [("gobblet", 1, 1), ("matryoshka", 1, 2), ("mnk:m=4:n=4:k=4", 1, 3)]
)
def test_exact_values_are_kept_along_every_reply_of_the_first_steps(spec: str, full: int, lines: int) -> None:
    assert walk_from(spec, [], full, lines, seed=1) > 0
