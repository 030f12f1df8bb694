"""A game from outside the package (tests/toy_game.py: a board of a kind nothing draws,
no evaluation, no table, no kernels) joins the registry and plays everywhere: the web
API's every game endpoint at every level, the terminal's commands and board, the engine
protocol, the record reader. Nothing of it is written anywhere but in its own module."""

from __future__ import annotations

import io
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from noughts.ai.capabilities import Capabilities, capabilities
from noughts.ai.levels import LEVELS, level_player, level_row
from noughts.cli import main
from noughts.core import InvalidOptionError
from noughts.encoding import Encoding
from noughts.engine import serve
from noughts.games.knowledge import SearchKnowledge, knowledge
from noughts.registry import GAMES, parse_spec
from noughts.server import Settings, create_app
from noughts.terminal.guide import help_text
from noughts.terminal.render import render
from toy_game import KEY, registered

from support import post


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    with registered(), TestClient(create_app(Settings(ai_workers=1))) as c:
        yield c


@pytest.fixture
def toy() -> Iterator[None]:
    with registered():
        yield


def test_the_catalogue_lists_it_as_it_describes_itself(client: TestClient) -> None:
    games = {game["key"]: game for game in client.get("/api/games").json()["games"]}
    assert list(games)[-1] == KEY
    strip = games[KEY]
    assert (strip["title"], strip["board"], strip["traits"]) == ("Strip", "strip", [])
    assert strip["rules"] == ["Put your mark on an empty cell; two of yours side by side win."]
    assert strip["notation"] == "A move is the cell's letter, a first."
    assert strip["options"] == [
        {
            "name": "length",
            "label": "cells",
            "type": "int",
            "default": 5,
            "minimum": 2,
            "maximum": 9,
            "choices": None,
            "help": "how many cells",
        }
    ]


def test_its_board_is_its_diagram_and_its_moves(client: TestClient) -> None:
    view = post(client, "/api/new", {"spec": "strip:length=4"})
    assert view["board"] == {"kind": "text", "diagram": "a b c d\n. . . ."}
    assert [m["text"] for m in view["legal"]] == ["a", "b", "c", "d"]
    assert all(m["cell"] is None for m in view["legal"])
    played = post(client, "/api/play", {"spec": "strip:length=4", "moves": ["a", "c"], "move": "b"})
    assert played["status"] == "x-wins" and played["result"] == "x wins"
    assert played["last_move"]["text"] == "b" and played["winning_line"] == []
    taken = client.post("/api/play", json={"spec": "strip", "moves": ["a"], "move": "a"})
    assert taken.status_code == 400 and "taken" in taken.json()["message"]


@pytest.mark.parametrize("level", LEVELS)
def test_the_computer_plays_it_and_hints_at_every_level(client: TestClient, level: str) -> None:
    body = {"spec": KEY, "moves": ["a"], "level": level, "seed": 1, "time": 0.2}
    move = post(client, "/api/computer", body)
    assert move["move"] in {"b", "c", "d", "e"} and move["game"]["ply"] == 2
    hint = post(client, "/api/analysis", {**body, "moves": ["a", "c"]})
    assert hint["best"] == "b" and hint["value"]["kind"] == "win"  # the win in one


def test_it_is_reviewed_and_its_records_read(client: TestClient) -> None:
    review = client.post("/api/review", json={"spec": KEY, "moves": ["a", "e", "b"], "level": "max", "wait": 30})
    assert review.status_code == 200, review.text
    assert [m["move"] for m in review.json()["moves"]] == ["a", "e", "b"]
    record = post(client, "/api/record", {"text": '[Game "strip"]\n\n1. a e 2. b x-wins\n'})
    assert (record["spec"], record["moves"], record["result"]) == (KEY, ["a", "e", "b"], "x-wins")


@pytest.mark.usefixtures("toy")
def test_the_terminal_draws_it_explains_it_and_plays_it(capsys: pytest.CaptureFixture[str]) -> None:
    state = parse_spec(KEY).initial().play_text("c")
    assert render(state, last=2).plain.splitlines()[:2] == ["a b c d e", ". . X . ."]
    assert "two of yours side by side win" in help_text(state.game)
    assert main(["games"]) == 0
    assert "strip" in capsys.readouterr().out
    assert main(["show", KEY, "--moves", "c"]) == 0
    assert ". . X . ." in capsys.readouterr().out
    assert main(["analyze", KEY, "x.... o"]) == 0
    assert "b" in capsys.readouterr().out
    assert main(["perft", KEY, "2"]) == 0
    assert "20" in capsys.readouterr().out


@pytest.mark.usefixtures("toy")
def test_the_engine_protocol_plays_it() -> None:
    out = io.StringIO()
    serve(io.StringIO("new strip\nplay c\ngenmove level=max\nplay z\nanalyze level=max\nquit\n"), out)
    answers = out.getvalue().split("\n\n")
    assert answers[:2] == ["= strip", "="]
    assert answers[2] in {"= a", "= b", "= d", "= e"}  # o is lost whatever it plays: x has b and d
    assert answers[3] == "? 'z' is not a cell: a to e"
    assert answers[4].splitlines()[0] in {"= b win-in-1", "= d win-in-1"}


@pytest.mark.usefixtures("toy")
@pytest.mark.parametrize("level", LEVELS)
def test_every_level_has_a_player_for_it(level: str) -> None:
    state: Any = parse_spec(KEY).initial().play_text("a").play_text("c")
    assert level_player(state.game, level, seed=1).choose(state) in state.legal_moves()


@pytest.mark.usefixtures("toy")
def test_what_it_is_comes_from_its_traits_and_board_alone() -> None:
    """It declares no trait and a board nothing knows: nothing claims more than the
    search for it, its levels are every game's rows, and the encoding says why not."""
    game = parse_spec(KEY)
    assert game.traits == frozenset() and capabilities(game) == Capabilities()
    assert {level_row(game, level).kind for level in LEVELS} == {"every game"}
    assert type(knowledge(game)) is SearchKnowledge
    with pytest.raises(InvalidOptionError, match=r"no encoding for strip: its board \(strip\) is none of grid"):
        Encoding(game)


def test_out_of_the_registry_it_is_unknown_again() -> None:
    assert KEY not in GAMES
