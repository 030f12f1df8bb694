"""The engine protocol: answers, errors that change nothing, and the real program."""

from __future__ import annotations

import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from noughts import GameRecord, parse_spec
from noughts.ai import gobblet_table
from noughts.engine import EngineSession

from support import without_the_gobblet_table


def ask(session: EngineSession, line: str) -> str:
    answer = session.handle(line)
    assert answer is not None and answer.endswith("\n\n"), repr(answer)
    return answer[:-2]


@pytest.mark.parametrize(
    ("commands", "last_answer"),
    [
        (["name"], "= noughts"),
        (["games"], "= classic mnk nine-board ultimate qubic matryoshka gobblet connect4"),
        (["turn"], "= x"),
        (["play 5", "turn"], "= o"),
        (["play 5", "position"], "= .../.x./... o"),
        (["play 5", "legal"], "= 1 2 3 4 6 7 8 9"),
        (["play 1", "play 4", "play 2", "play 5", "play 3", "status"], "= x-wins"),
        (["play 5", "undo", "position"], "= .../.../... x"),
        (["new mnk m=4 n=4 k=4"], "= mnk:m=4:n=4:k=4"),
        (["new classic:forget", "game"], "= classic:forget=true"),
        (["position xo./.../... x", "play 9", "moves"], "= 9"),
        (["12 turn"], "=12 x"),
        (["known_command play"], "= true"),
        (["known_command fly"], "= false"),
        (["play 5", "genmove player=random seed=1", "status"], "= ongoing"),
        (["play 1", "genmove level=max"], "= 5"),
        (["position xx./oo./... x", "genmove player=alphabeta depth=2"], "= 3"),
        (["position xx./oo./... x", "genmove level=max", "status"], "= x-wins"),
    ],
)
def test_answers(commands: list[str], last_answer: str) -> None:
    session = EngineSession()
    for command in commands[:-1]:
        assert ask(session, command).startswith("=")
    assert ask(session, commands[-1]) == last_answer


@pytest.mark.parametrize(
    ("setup", "command", "reason"),
    [
        (["play 5"], "play 5", "cell 5 is taken"),
        ([], "play 10", "numbered 1 to 9"),
        ([], "play", "play takes one move"),
        ([], "fly", "unknown command 'fly'"),
        ([], "new chess", "unknown game 'chess'"),
        ([], "new mnk m=0", "between 1 and 26"),
        ([], "new", "new needs a game"),
        ([], "undo", "nothing to undo"),
        ([], "position xxx/.../... x", "x moves first"),
        ([], "genmove player=wizard", "unknown player 'wizard'"),
        ([], "genmove time=soon", "time takes a number"),
        ([], "genmove time=-1", "positive number of seconds"),
        (["play 1", "play 4", "play 2", "play 5", "play 3"], "genmove", "the game is over"),
        (["play 1", "play 4", "play 2", "play 5", "play 3"], "play 9", "the game is over"),
        ([], "record yaml", "record takes 'text' or 'json'"),
        ([], "genmove level", "not an option"),
        ([], "genmove level=wizard", "unknown level 'wizard'"),
        ([], "genmove level=prefect", "unknown level 'prefect' (did you mean 'perfect'?)"),
        ([], "new clasic", "unknown game 'clasic' (did you mean 'classic'?)"),
        ([], "genmove level=max player=rules", "a level or a player, not both"),
        ([], "genmove level=max depth=3", "a level takes only seed= and time="),
        ([], "analyze player=rules:x", "unknown player"),
        (["new ultimate"], "analyze player=rules", "classic"),
    ],
)
def test_errors_change_nothing(setup: list[str], command: str, reason: str) -> None:
    session = EngineSession()
    for line in setup:
        ask(session, line)
    before = (session.state, list(session.moves), session.state.game)
    answer = ask(session, command)
    assert answer.startswith("? ") and reason in answer, answer
    assert (session.state, list(session.moves), session.state.game) == before


def test_analyze_values_every_legal_move_best_first() -> None:
    session = EngineSession()
    ask(session, "play 1")
    lines = ask(session, "analyze level=max").removeprefix("= ").splitlines()
    assert lines[-1].startswith("info player=perfect best=5 value=draw")
    rows = [line.split() for line in lines[:-1]]
    assert rows[0][0] == "5"
    assert sorted(row[0] for row in rows) == session.state.legal_move_texts()
    assert all(row[1] == "loss-in-6" for row in rows[1:])
    assert session.moves == [0], "analyze plays nothing"


SEVEN = "..xxox./xooo..o/...x.../......./......./......./....... x"


@pytest.mark.parametrize(
    ("commands", "analyze", "best", "value"),
    [
        # The shipped qubic proof: a win in at most the empty cells, never a distance.
        (["new qubic"], "level=max", "111", "win-in-at-most-64"),
        (["new qubic", "play 111", "play 222"], "level=max", "444", "win-in-at-most-62"),
        # x wins by fours on 7x7: the threat search's plies are a bound, while the
        # deeper search of max finds the distance (tests/ai/test_levels.py).
        (
            ["new mnk m=7 n=7 k=4", f"position {SEVEN}"],
            "player=alphabeta depth=2 threats=true",
            "e2",
            "win-in-at-most-",
        ),
        (["new mnk m=7 n=7 k=4", f"position {SEVEN}"], "level=max", "e2", "win-in-7"),
        # A solved table's distances are exact.
        (["play 5", "play 2"], "level=max", None, "win-in-5"),
    ],
)
def test_analyze_tells_a_bound_from_an_exact_distance(
    commands: list[str], analyze: str, best: str | None, value: str
) -> None:
    session = EngineSession()
    for command in commands:
        ask(session, command)
    lines = ask(session, f"analyze {analyze} time=0.5").removeprefix("= ").splitlines()
    info = dict(part.split("=", 1) for part in lines[-1].removeprefix("info ").split())
    first = lines[0].split()
    assert first[1] == info["value"] and (best is None or info["best"] == first[0] == best)
    if value.endswith("-"):  # a bound of whatever plies the search found
        assert info["value"].startswith(value) and info["value"].removeprefix(value).isdigit()
    else:
        assert info["value"] == value


def test_show_is_a_multi_line_answer() -> None:
    session = EngineSession()
    ask(session, "play 5")
    assert ask(session, "show").splitlines()[1:] == session.state.diagram().splitlines()


def test_record_replays() -> None:
    from noughts.records import GameRecord

    session = EngineSession()
    for move in ["5", "1", "9"]:
        ask(session, f"play {move}")
    text = ask(session, "record")[2:]
    assert GameRecord.from_text(text).moves == ["5", "1", "9"]
    assert GameRecord.from_json(ask(session, "record json")[2:]).moves == ["5", "1", "9"]


def test_blank_and_comment_lines_get_no_answer() -> None:
    session = EngineSession()
    assert session.handle("") is None
    assert session.handle("   # a comment") is None


def test_the_real_program_over_pipes() -> None:
    script = "name\nnew ultimate\nplay 55\nplay 55\nlegal\nbogus\ngenmove seed=4\nturn\nquit\nname\n"
    out = subprocess.run(
        [sys.executable, "-m", "noughts.cli", "engine"], input=script, capture_output=True, text=True, timeout=60
    )
    assert out.returncode == 0, out.stderr
    answers = out.stdout.split("\n\n")[:-1]
    assert answers[0] == "= noughts"
    assert answers[1] == "= ultimate"
    assert answers[2] == "="
    assert answers[3].startswith("? ")
    assert "taken" in answers[3]
    assert answers[4] == "= " + " ".join(f"5{c}" for c in "12346789")
    assert answers[5].startswith("? unknown command")
    assert answers[6].startswith("= 5")  # sent to board 5
    assert answers[7] == "= x"
    assert answers[8] == "="
    assert len(answers) == 9, "nothing is answered after quit"


#: Every player with every option docs/players.md lists for it (time= is the engine's own,
#: handed to the player as its limit), in a game it plays.
PLAYER_OPTIONS = [
    ("classic", "random", ""),
    ("classic", "rules", ""),
    ("classic", "minimax", "depth=2"),
    ("classic", "minimax", "eval=lines"),
    ("classic", "alphabeta", "depth=3"),
    ("classic", "alphabeta", "time=0.2"),
    ("classic", "alphabeta", "nodes=500"),
    ("classic", "alphabeta", "eval=fill"),
    ("classic", "alphabeta", "guard=true"),
    ("mnk m=5 n=5 k=4", "alphabeta", "depth=2 threats=true"),
    ("mnk m=5 n=5 k=4", "alphabeta", "depth=2 threats=true threes=true"),
    ("mnk m=5 n=5 k=4", "alphabeta", "depth=2 near=1"),
    ("mnk m=5 n=5 k=4", "alphabeta", "depth=2 blocks=true"),
    ("classic", "mcts", "time=0.1"),
    ("classic", "mcts", "iterations=200"),
    ("classic", "mcts", "iterations=200 c=0.7"),
    ("classic", "mcts", "iterations=200 evaluator=lines"),
    ("classic", "perfect", ""),
    pytest.param("classic:forget", "perfect", "", marks=pytest.mark.slow),  # a 7-s table
    ("matryoshka", "perfect", ""),
    ("ultimate", "kmcts", "iterations=300"),
    ("ultimate", "kalphabeta", "depth=2"),
    ("qubic", "kalphabeta", "depth=1 threats=false"),
]


@pytest.mark.parametrize(("game", "player", "options"), PLAYER_OPTIONS)
def test_every_player_takes_its_options_and_a_seed(game: str, player: str, options: str) -> None:
    """genmove and analyze accept each listed option and seed= for every player; a
    deterministic player (perfect, the alpha-beta searches) ignores the seed."""
    session = EngineSession()
    ask(session, f"new {game}")
    if game == "matryoshka":  # a few plies in, so that the exact search is quick
        for move in ["L5", "l1", "L9", "l3", "M2", "m8"]:
            ask(session, f"play {move}")
    command = f"player={player} {options} seed=7".replace("  ", " ")
    legal = ask(session, "legal")[2:].split()
    analysis = ask(session, f"analyze {command}").removeprefix("= ").splitlines()
    assert analysis[-1].startswith("info player=") and {line.split()[0] for line in analysis[:-1]} <= set(legal)
    move = ask(session, f"genmove {command}")
    assert move[2:] in legal and ask(session, "moves").endswith(f" {move[2:]}")


# 3x4 builds its table at max and perfect (16 s): make test-slow; classic and its Forget mode build theirs here.
@pytest.mark.parametrize(
    "game",
    [
        "classic",
        "classic:forget",
        pytest.param("mnk m=3 n=4 k=3", marks=pytest.mark.slow),
        "matryoshka",
        "gobblet copies=1",
    ],
)
@pytest.mark.parametrize("level", ["easy", "medium", "hard", "max", "perfect"])
def test_every_level_and_perfect_take_a_seed(game: str, level: str) -> None:
    session = EngineSession()
    ask(session, f"new {game}")
    if game == "matryoshka":
        for move in ["L5", "l1", "L9", "l3", "M2", "m8"]:
            ask(session, f"play {move}")
    legal = ask(session, "legal")[2:].split()
    assert ask(session, f"genmove level={level} seed=3")[2:] in legal


@pytest.mark.parametrize("command", ["genmove player=perfect", "genmove level=perfect", "analyze player=perfect"])
def test_perfect_gobblet_without_its_table_is_refused_at_once_naming_the_command(
    command: str, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    # A fresh install: the player would build the 443 MB table first, minutes of silence
    # for a program waiting on genmove (issue 56).
    without_the_gobblet_table(monkeypatch, tmp_path)

    def build(*_: Any) -> None:
        raise AssertionError("the engine started building gobblet's table")

    monkeypatch.setattr(gobblet_table, "_build", build)
    session = EngineSession()
    ask(session, "new gobblet")
    answer = ask(session, command)
    assert answer.startswith("? perfect play in gobblet reads its solved table, which is not built"), answer
    assert "noughts solve gobblet builds it once" in answer and "level=max plays at once" in answer
    assert not list(tmp_path.iterdir())  # nothing was built
    assert ask(session, "legal").count(" ") > 20  # the game goes on, at its start


@pytest.mark.parametrize("game", ["classic", "classic:forget", "mnk m=4 n=3 k=3", "gobblet copies=1"])
def test_max_says_it_plays_exactly_in_a_solved_game(game: str) -> None:
    """On a fresh cache (the tests' own), from the first call: max answers from the
    table, every move exact, as `perfect`."""
    session = EngineSession()
    ask(session, f"new {game}")
    lines = ask(session, "analyze level=max time=0.5").removeprefix("= ").splitlines()
    assert lines[-1].startswith("info player=perfect ")
    assert all(line.split()[1].startswith(("win", "loss", "draw")) for line in lines[:-1]), lines


@pytest.mark.parametrize(
    ("setup", "command", "reason"),
    [
        ([], "genmove player=random seed=x", "seed takes a whole number, not 'x'"),
        ([], "genmove level=easy seed=1.5", "seed takes a whole number"),
        ([], "genmove level=max time=0", "time takes a positive number"),
        ([], "analyze player=alphabeta time=-1", "time takes a positive number"),
        (["new ultimate"], "genmove level=perfect", "no perfect player for ultimate: level=max plays kmcts"),
        ([], "genmove level=best", "unknown level 'best'"),
        ([], "genmove player=perfect depth=3", "player perfect"),
    ],
)
def test_bad_player_options_are_refused_and_change_nothing(setup: list[str], command: str, reason: str) -> None:
    session = EngineSession()
    for line in setup:
        ask(session, line)
    before = ask(session, "position")
    answer = ask(session, command)
    assert answer.startswith("? ") and reason in answer, answer
    assert ask(session, "position") == before


@pytest.mark.parametrize(
    ("setup", "command", "reason"),
    [
        ([], "play " + "1" * 5000, "is not a cell: cells are numbered 1 to 9"),
        (["new mnk m=15 n=15 k=5"], "play " + "9" * 5000, "is not a cell: cells are numbered 1 to 225"),
        ([], "new mnk m=" + "4" * 5000, "option m takes a whole number of at most 30 digits, not one of 5,000"),
        ([], "genmove seed=" + "7" * 5000, "seed takes a whole number of at most 30 digits"),
        ([], "genmove player=alphabeta depth=" + "2" * 5000, "an option takes a whole number of at most 30 digits"),
    ],
)
def test_a_number_too_long_is_refused_and_the_session_goes_on(setup: list[str], command: str, reason: str) -> None:
    """`play` of 5,000 digits was int()'s ValueError (Python reads at most 4,300): the
    program exited, and the session was lost."""
    session = EngineSession()
    for line in setup:
        ask(session, line)
    before = (session.state, list(session.moves))
    answer = ask(session, command)
    assert answer.startswith("? ") and reason in answer and len(answer) < 200, answer[:300]
    assert (session.state, session.moves) == before
    assert ask(session, "turn") == "= x"


def _answers(out: Any) -> Iterator[list[str]]:
    """The program's answers as a client reads them, one at a time: the lines up to the
    empty line that ends each."""
    while True:
        lines = []
        while (line := out.readline()) not in ("\n", ""):
            lines.append(line.rstrip("\n"))
        if not lines and not line:
            return
        yield lines


def test_a_client_reading_answer_by_answer_gets_every_answer_whole() -> None:
    """A whole session, every command the program lists, each answer read as a client
    reads it: the lines up to the empty line. The record's text held an empty line
    (between its headers and its moves), so a client took its moves for the next
    command's answer. Each command is sent with an id that its answer must repeat, and
    each answer must be, line for line, what the command answers in this process."""
    session = [
        "name", "version", "protocol_version", "list_commands", "known_command play", "games", "new ultimate",
        "game", "play 55", "play 44", "legal", "turn", "status", "genmove player=alphabeta depth=1", "moves",
        "record", "record json", "record pgn", "show", "analyze player=alphabeta depth=1", "undo", "position",
        "new qubic", "play 111", "show", "record", "position " + "x" * 200, "play " + "1" * 5000, "new gobblet",
        "play L5", "show", "record", "quit",
    ]  # fmt: skip
    program = subprocess.Popen(
        [sys.executable, "-m", "noughts.cli", "engine"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1,
    )  # fmt: skip
    assert program.stdin is not None and program.stdout is not None
    here = EngineSession()
    answers: dict[str, list[str]] = {}
    try:
        for number, command in enumerate(session):
            program.stdin.write(f"{number} {command}\n")
            program.stdin.flush()
            answer = next(_answers(program.stdout))
            status = re.match(rf"([=?]){number}(?: |$)", answer[0])
            assert status is not None, (command, answer[:3])
            expected = ask(here, f"{number} {command}").split("\n")
            if command.startswith("analyze"):  # but for the time it took
                answer[-1], expected[-1] = (re.sub(r" time=\S+", "", lines[-1]) for lines in (answer, expected))
            assert answer == expected, command
            # The answer without its status and id, as the plain command gets it.
            first = " ".join([status.group(1), answer[0][status.end() :]]).rstrip()
            answers[f"{number} {command}"] = [first, *answer[1:]]
        assert program.stdout.read() == "", "nothing after quit"
    finally:
        program.kill()
        program.wait()
    listed = answers["3 list_commands"]
    assert {c.split()[0] for c in session} == {listed[0][2:], *listed[1:]}, "the session sends every listed command"
    assert answers["9 play 44"] == ["? you must play in board 5"]
    assert answers["16 record json"][0].startswith("= {") and answers["17 record pgn"][0].startswith("? ")
    assert "is not a cell of this board" in answers["27 play " + "1" * 5000][0]
    for key, moves in (("15 record", ["55", "51"]), ("25 record", ["111"]), ("31 record", ["L5"])):
        assert answers[key][0] == "="
        assert GameRecord.parse("\n".join(answers[key][1:])).moves == moves
    for key, game in (("18 show", "ultimate"), ("24 show", "qubic"), ("30 show", "gobblet")):
        state = parse_spec(game).initial().play_text({"ultimate": "55", "qubic": "111", "gobblet": "L5"}[game])
        if game == "ultimate":
            state = state.play_text("51")
        assert answers[key][1:] == [line for line in state.diagram().splitlines() if line.strip()]


#: Games for the sessions below: each family, at sizes where the random player and a
#: one-ply search answer at once.
_GAMES = ["classic", "mnk m=4 n=4 k=3", "ultimate", "qubic n=3", "gobblet", "matryoshka", "connect4 m=5 n=4"]
#: Words a command takes: moves, numbers of any length (past the 4,300 digits Python
#: reads), options, and text that no command expects.
_WORD = st.one_of(
    st.sampled_from(["5", "55", "111", "L5", "M13", "a1", "3", "-1", "0", "x", "json", "text", "=", "seed="]),
    st.one_of(st.integers(1, 40), st.sampled_from([4300, 4301, 6000])).map(lambda n: "9" * n),
    st.builds("{}={}".format, st.sampled_from(["seed", "time", "depth", "m", "player", "level", "iterations"]),
              st.sampled_from(["1", "0.01", "-1", "inf", "nan", "1e999", "random", "max", "9" * 5000])),
    st.text(st.characters(exclude_characters="\n#", exclude_categories=("Cs",)), min_size=1, max_size=8),
)  # fmt: skip
#: Commands as sent: without arguments about half the time, any command but quit with
#: any words, the thinking ones with the options that keep them quick; an id or not.
_COMMAND = st.one_of(
    st.tuples(st.sampled_from(sorted(EngineSession().commands.keys() - {"quit", "analyze", "genmove"})),
              st.one_of(st.just(""), st.lists(_WORD, min_size=1, max_size=3).map(" ".join))),
    st.tuples(st.just("play"), _WORD),
    st.tuples(st.sampled_from(["record", "show", "undo", "moves", "position"]), st.sampled_from(["", "", "json"])),
    st.tuples(st.just("new"), st.sampled_from(_GAMES)),
    st.tuples(st.sampled_from(["genmove", "analyze"]),
              st.sampled_from(["player=random", "player=alphabeta depth=1", "level=easy"]),
              st.sampled_from(["", "seed=3", "seed=" + "9" * 5000, "time=inf", "time=0.05"])),
)  # fmt: skip
_LINE = st.builds(
    lambda ident, command: " ".join(part for part in (ident, *command) if part),
    st.sampled_from(["", "", "", "7", "9" * 5000, "\u0663"]),
    _COMMAND,
)


@settings(max_examples=150, deadline=None)
@given(lines=st.lists(_LINE, min_size=1, max_size=12))
def test_any_session_answers_every_line_once_and_a_refusal_changes_nothing(lines: list[str]) -> None:
    """Whatever is sent, each line gets one answer, framed as the protocol says: a
    status with the line's id, no empty line and no other line break inside, the empty
    line at its end; a refused command changes nothing and says why in a short line, and
    the session goes on (a number past Python's 4,300 digits ended it)."""
    session = EngineSession()
    for line in lines:
        before = (session.state, list(session.moves))
        answer = session.handle(line)
        assert answer is not None and answer.endswith("\n\n"), (line[:80], answer)
        body = answer[:-2]
        assert "\n\n" not in body and body.splitlines() == body.split("\n"), (line[:80], body[:200])
        words = line.split()
        ident = words[0] if words[0].isdigit() else ""
        assert re.match(rf"[=?]{re.escape(ident)}(?:[ \n]|$)", body), (line[:80], body[:200])
        if body.startswith("?"):
            assert (session.state, session.moves) == before, line[:80]
            assert len(body) - len(ident) < 1000, body[:300]  # quoting the start of a long word, not all of it
    assert session.handle("turn") in ("= x\n\n", "= o\n\n")
