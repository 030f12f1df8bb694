"""The documentation site: every example in it runs (each page's ``pycon`` blocks are one
doctest, in order; a ``python`` block is a module of the reader's, run, and the bot module
of the OpenSpiel page played in the arena), and the site builds with warnings as errors."""

from __future__ import annotations

import argparse
import doctest
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

import noughts

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
PAGES = sorted(DOCS.rglob("*.md"))
# A fence closes an example's expected output, as a blank line does in a docstring.
_FENCE = re.compile(r"^\s*```.*$", re.MULTILINE)
_PYTHON = re.compile(r"^```python\n(.*?)^```$", re.MULTILINE | re.DOTALL)


def examples(page: Path) -> doctest.DocTest:
    text = _FENCE.sub("", page.read_text(encoding="utf-8"))
    return doctest.DocTestParser().get_doctest(text, {"__name__": page.stem}, str(page.relative_to(ROOT)), str(page), 0)


@pytest.mark.parametrize("page", PAGES, ids=[str(p.relative_to(DOCS)) for p in PAGES])
def test_every_example_runs(page: Path) -> None:
    test = examples(page)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    runner.run(test)
    result = runner.summarize(verbose=False)
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples in {page.name} failed (above)"


def modules(page: Path) -> list[str]:
    return _PYTHON.findall(page.read_text(encoding="utf-8"))


@pytest.mark.parametrize("page", PAGES, ids=[str(p.relative_to(DOCS)) for p in PAGES])
def test_every_module_example_runs(page: Path) -> None:
    for source in modules(page):
        exec(compile(source, str(page), "exec"), {"__name__": "example"})


def test_the_openspiel_bot_module_plays_in_the_arena(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # docs/rl.md's mybots.py, as the arena's --openspiel bot:mybots:lowest finds it.
    pytest.importorskip("pyspiel")
    from noughts import Limits, parse_player, parse_spec, play_game
    from noughts.arena.openspiel import openspiel_player

    (source,) = [m for m in modules(DOCS / "rl.md") if "def lowest(" in m]
    (tmp_path / "mybots.py").write_text(source, encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    # Its first move is the lowest action: the top-left cell; in gobblet (noughts.spiel's
    # game) the first placement, a small figure there.
    for spec, first in (("classic", "1"), ("gobblet", "S1")):
        bot = openspiel_player("bot:mybots:lowest", 0, None)
        record = play_game(parse_spec(spec), bot, parse_player("random:seed=1"), Limits(), [])
        states = record.replay()  # every move played again through the rules
        assert states[-1].is_over
        assert record.moves[0] == first


@pytest.mark.parametrize("readme", ["README.md", "PYPI.md"])
def test_the_readmes_examples_run(readme: str) -> None:
    # The README's tour (the repository's front page) and PYPI.md's (the page on PyPI)
    # are tested as the site's pages are.
    test = examples(ROOT / readme)
    assert len(test.examples) >= 4
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    runner.run(test)
    assert runner.summarize(verbose=False).failed == 0


def test_the_tutorial_has_examples() -> None:
    # A page whose fences are not recognised would pass the test above without running.
    assert len(examples(DOCS / "tutorial.md").examples) >= 20


@pytest.mark.integration
@pytest.mark.slow  # mkdocs with the API reference: 8-14 s of a core, with the exhaustive checks
def test_the_site_builds_with_warnings_as_errors(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(tmp_path / "site")],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=240,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
    )
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "site" / "reference" / "players" / "index.html").exists()
    # The reference links as python-chess's does: the types in signatures, the names in
    # docstrings, the bases (public ones only), and the glance page's names.
    games = (tmp_path / "site" / "reference" / "games" / "index.html").read_text(encoding="utf-8")
    signature = games[games.index('id="noughts.parse_spec"') : games.index('id="noughts.make_game"')]
    assert 'href="#noughts.Game"' in signature and 'href="#noughts.Mnk"' in signature
    records = (tmp_path / "site" / "reference" / "records" / "index.html").read_text(encoding="utf-8")
    assert re.search(r'<a class="autorefs autorefs-internal"[^>]*href="#noughts.GameRecord.from_text"', records)
    bases = re.findall(r"Bases: (.*?)</p>", games)
    assert bases and not any("Generic[" in b or "MarksGame" in b or "ABC" in b for b in bases)
    glance = (tmp_path / "site" / "reference" / "index.html").read_text(encoding="utf-8")
    assert glance.count('class="autorefs autorefs-internal"') >= len(noughts.__all__)


_SESSION = re.compile(r"^```text\n\$ noughts engine\n(.*?)^```$", re.MULTILINE | re.DOTALL)


def test_the_engine_sessions_answer_as_shown() -> None:
    # The sessions of docs/engine.md and the README, each exchange a command and its answer up to the empty
    # line, played through the protocol; `...` stands for what varies (times, long lists).
    from noughts.engine import EngineSession

    sessions = [_SESSION.findall(page.read_text(encoding="utf-8")) for page in (DOCS / "engine.md", ROOT / "README.md")]
    assert [len(found) >= 1 for found in sessions] == [True, True]
    checker = doctest.OutputChecker()
    for text in [text for found in sessions for text in found]:
        session = EngineSession()
        for exchange in text.strip("\n").split("\n\n"):
            command, *shown = exchange.split("\n")
            answer = session.handle(command)
            assert answer is not None and answer.endswith("\n\n"), (command, answer)
            assert checker.check_output("\n".join(shown) + "\n", answer[:-1], doctest.ELLIPSIS), (command, answer)


def test_the_commands_page_names_every_command() -> None:
    from noughts.cli import _parser

    page = (DOCS / "commands.md").read_text(encoding="utf-8")
    (sub,) = [action for action in _parser()._actions if isinstance(action, argparse._SubParsersAction)]
    missing = [name for name in sub.choices if f"noughts {name} " not in page and f"noughts {name}\n" not in page]
    assert missing == []


def test_every_test_the_security_table_names_exists() -> None:
    # docs/security.md: each row names the tests that show its defence (`file.py::test`,
    # `::test` in the file named before it, files in tests/server/online/ unless a path is given).
    page = (DOCS / "security.md").read_text(encoding="utf-8")
    rows = [line for line in page.splitlines() if line.startswith("| ") and line.count(" | ") == 2]
    rows = [row for row in rows if not row.startswith("| what |")]
    assert len(rows) >= 20
    named = 0
    for row in rows:
        cell = row.rstrip(" |").rsplit(" | ", 1)[1]
        path = None
        for ref in re.findall(r"`([^`]+)`", cell):
            file, _, test = ref.partition("::")
            if file:
                path = ROOT / file if file.startswith("tests/") else ROOT / "tests" / "server" / "online" / file
            assert path is not None and path.is_file(), (row[:40], ref)
            if test:
                assert re.search(rf"^(async )?def {re.escape(test)}\(", path.read_text(encoding="utf-8"), re.M), ref
                named += 1
    assert named >= 40


def test_the_engine_pages_own_engine_plays_whole_games(tmp_path: Path) -> None:
    # docs/engine.md's myengine.py, run as a program through the arena's engine player
    # (what `noughts arena --engine` and `noughts bot` run it with), plays to the end.
    from noughts import Limits, parse_player, parse_spec, play_game
    from noughts.arena.external import EnginePlayer

    (source,) = [m for m in modules(DOCS / "engine.md") if "def main(" in m]
    (tmp_path / "myengine.py").write_text(source, encoding="utf-8")
    engine = EnginePlayer("mine", f"{sys.executable} {tmp_path / 'myengine.py'}", options=("level=max",))
    try:
        for spec in ("classic", "ultimate", "gobblet"):
            for first in (True, False):
                other = parse_player("random:seed=3")
                x, o = (engine, other) if first else (other, engine)
                record = play_game(parse_spec(spec), x, o, Limits(time=1), [])
                assert record.replay()[-1].is_over, (spec, record.termination)
                assert record.termination == "normal"
        # It wins at once when it can: x to move with two in a row.
        state = parse_spec("classic").initial()
        for text in ("1", "4", "2", "5"):
            state = state.play_text(text)
        assert state.move_text(engine.choose(state, Limits(time=1))) == "3"
    finally:
        engine.stop()


def test_every_game_has_its_rules_its_notation_and_its_line_in_the_docs() -> None:
    """What a game says of itself is read from it everywhere (`noughts.variant`); the
    pages that tell the rules at length keep a place for each game, checked here."""
    from noughts.registry import GAMES

    rules = (DOCS / "RULES.md").read_text(encoding="utf-8")
    games = (DOCS / "games.md").read_text(encoding="utf-8")
    notation = (DOCS / "notation.md").read_text(encoding="utf-8")
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for key in GAMES:
        assert re.search(rf"^## {re.escape(key)} — ", rules, re.MULTILINE), f"docs/RULES.md has no section {key}"
        assert f"| `{key}`" in games and f"| `{key}`" in readme, f"docs/games.md or README.md does not list {key}"
        rows = [line for line in notation.splitlines() if line.startswith("| ")]
        family = key if key not in ("classic", "mnk") else "mnk"
        assert any(family in row.split("|")[1] for row in rows), f"docs/notation.md has no row for {key}"


def test_the_commands_page_quotes_values_as_they_are_printed() -> None:
    """docs/commands.md quotes each wording of a value as the code writes it (issue 56:
    it said the terminal read "win in N" where it printed ``loss-in-6``)."""
    from noughts.ai.base import Analysis, Kind, MoveInfo, Value
    from noughts.core import Player
    from noughts.terminal.reviewing import _value
    from noughts.terminal.values import meaning, move_words, outlook

    estimate = Value(Kind.SCORE, score=-0.3)
    win3, loss6, bound = Value.win(3), Value.loss(6), Value.win(63, bound=True)

    def token(value: Value) -> str:
        return Analysis("x", [MoveInfo(0, "1", value)], [], None, 0, 0.0).lines()[0].split()[1]

    words = [
        outlook(Value.win(5), Player.X),
        outlook(Value.draw(), Player.X),
        outlook(estimate, Player.O),
        *(move_words(MoveInfo(0, "1", v), Player.X) for v in (win3, loss6, Value.draw(), bound, estimate)),
        meaning(win3),
        meaning(estimate),
        *(v.text for v in (win3, loss6, bound, Value.draw())),
        _value(estimate, 0.35),
        *(token(v) for v in (win3, loss6, bound, Value.draw(), estimate)),
    ]
    page = " ".join((DOCS / "commands.md").read_text(encoding="utf-8").split())
    missing = [w for w in words if f"`{w}`" not in page]
    assert not missing, missing
