"""Every route of the web API, with the answers a page relies on and the errors it shows."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from noughts.ai.levels import DEFAULT_LEVEL, LEVELS
from noughts.registry import GAMES, parse_spec
from noughts.server import Settings, create_app
from noughts.server.models import MAX_MOVES, MIN_THINK_SECONDS

from support import SPECS, playout, post


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    with TestClient(create_app(Settings(ai_workers=1))) as c:
        yield c


def error(client: TestClient, path: str, body: Any, status: int = 400) -> dict[str, Any]:
    response = client.post(path, json=body)
    assert response.status_code == status, response.text
    data: dict[str, Any] = response.json()
    assert set(data) == {"error", "message", "field"}
    return data


# -- catalogue ----------------------------------------------------------------------


def test_games_lists_every_game_with_options_rules_and_levels(client: TestClient) -> None:
    data = client.get("/api/games").json()
    assert [g["key"] for g in data["games"]] == list(GAMES)
    for game in data["games"]:
        defaults = {k: v for k, v in GAMES[game["key"]].defaults().items() if k not in ("sizes", "copies")}
        assert {o["name"]: o["default"] for o in game["options"]} == defaults
        assert game["rules"] and all(isinstance(p, str) and p for p in game["rules"])
        assert game["notation"]
    forget = {g["key"] for g in data["games"] if any(o["name"] == "forget" for o in g["options"])}
    assert forget == {"classic", "mnk", "nine-board", "ultimate"}
    assert [level["name"] for level in data["levels"]] == list(LEVELS)
    assert data["default_level"] == DEFAULT_LEVEL


def test_the_schema_offers_the_ai_levels(client: TestClient) -> None:
    """The levels the API's schema accepts and answers are the core's, in its order."""
    schemas = client.get("/openapi.json").json()["components"]["schemas"]
    for model in ("ThinkRequest", "ReviewRequest", "AnalysisView", "LevelInfo"):
        field = schemas[model]["properties"]["level" if model != "LevelInfo" else "name"]
        assert field["enum"] == list(LEVELS), model


def test_the_first_requests_build_no_routes(monkeypatch: pytest.MonkeyPatch) -> None:
    """The server builds its routes while it starts, not on the first request that
    reaches each (FastAPI's lazy default: 0.08 s on a quiet machine, over a second under
    load, paid by the first user)."""
    import fastapi.routing

    built: list[object] = []
    build = fastapi.routing._populate_api_route_state

    def counted(*args: object, **kwargs: object) -> None:
        built.append(args)
        build(*args, **kwargs)

    with TestClient(create_app(Settings(ai_workers=1))) as fresh:
        monkeypatch.setattr(fastapi.routing, "_populate_api_route_state", counted)
        assert fresh.get("/api/games").status_code == 200
        assert fresh.post("/api/new", json={"spec": "classic"}).status_code == 200
        assert fresh.get("/api/online/rooms").status_code == 200
        assert fresh.get("/").status_code == 200
    assert built == []


def test_health(client: TestClient) -> None:
    assert client.get("/api/health").json()["status"] == "ok"


# -- new game, position, play --------------------------------------------------------


@pytest.mark.parametrize("spec", SPECS)
def test_new_game_of_every_variant(client: TestClient, spec: str) -> None:
    game = parse_spec(spec)
    view = post(client, "/api/new", {"spec": spec})
    assert view["spec"] == game.spec
    assert view["position"] == game.initial().to_text() == view["start"]
    assert [m["text"] for m in view["legal"]] == game.initial().legal_move_texts()
    assert view["status"] == "ongoing" and view["turn"] == "x" and view["moves"] == [] and view["ply"] == 0
    assert view["last_move"] is None and view["winning_line"] == []
    assert (view["forget"] is not None) == bool(game.options.get("forget"))


@pytest.mark.parametrize("spec", SPECS)
def test_position_and_play_follow_the_core(client: TestClient, spec: str) -> None:
    steps = playout(spec, seed=3)
    moves = [state.move_text(move) for state, move in steps[:-1]]
    final = steps[-1][0]
    view = post(client, "/api/position", {"spec": spec, "moves": moves})
    assert view["position"] == final.to_text() and view["status"] == final.status
    assert view["moves"] == moves and view["ply"] == len(moves)
    assert view["last_move"]["text"] == moves[-1]
    if final.outcome is not None and final.outcome.winner is not None:
        assert view["winning_line"] or view["winning_boards"]
    played = post(client, "/api/play", {"spec": spec, "moves": moves[:-1], "move": moves[-1]})
    assert played == view


def test_play_answers_board_turn_and_winning_line(client: TestClient) -> None:
    view = post(client, "/api/play", {"spec": "classic", "moves": ["1", "4", "2", "5"], "move": "3"})
    assert view["status"] == "x-wins" and view["result"] == "x wins"
    assert view["winning_line"] == [0, 1, 2]
    assert view["board"] == {
        "kind": "grid",
        "columns": 3,
        "rows": 3,
        "k": 3,
        "cells": ["x", "x", "x", "o", "o", None, None, None, None],
        "gravity": False,
    }
    assert view["legal"] == []
    assert view["last_move"] == {"text": "3", "cell": 2, "size": None, "source": None}


def test_ultimate_view_shows_playable_and_decided_boards(client: TestClient) -> None:
    start = "xx......./........./........./........./o...o..../........./........./........./......... x 1"
    view = post(client, "/api/play", {"spec": "ultimate", "start": start, "move": "13"})
    board = view["board"]
    assert board["kind"] == "ultimate" and board["rule"] == "ultimate"
    assert board["boards"][0] == "x" and board["boards"].count(None) == 8
    assert board["playable"] == [2]
    assert all(m["cell"] // 9 == 2 for m in view["legal"])


def test_ultimate_winning_boards(client: TestClient) -> None:
    state = parse_spec("ultimate").parse_position(
        "xxx....../xxx....../xx......./ooo....../........./ooo....../........./....x..../.o..o.o.. x 3"
    )
    view = post(client, "/api/play", {"spec": "ultimate", "start": state.to_text(), "move": "33"})
    assert view["status"] == "x-wins"
    assert view["winning_boards"] == [0, 1, 2] and view["winning_line"] == []


def test_forget_mode_says_which_mark_vanishes(client: TestClient) -> None:
    view = post(client, "/api/position", {"spec": "classic:forget", "moves": ["1", "5", "9", "3", "7"]})
    assert view["forget"]["keep"] == 3
    assert view["forget"]["ages"] == {"x": [0, 8, 6], "o": [4, 2]}
    assert view["forget"]["vanishing"] == {"x": [0], "o": []}
    view = post(client, "/api/play", {"spec": "classic:forget", "moves": ["1", "5", "9", "3", "7", "2"], "move": "4"})
    assert view["board"]["cells"][0] is None  # x's oldest mark went


def test_gobblet_view_has_stacks_hands_and_shift_moves(client: TestClient) -> None:
    view = post(client, "/api/position", {"spec": "gobblet", "moves": ["S1", "M1", "L5"]})
    board = view["board"]
    assert board["stacks"][0] == [{"player": "x", "size": 1}, {"player": "o", "size": 2}]
    assert board["hands"] == {"x": [1, 2, 1], "o": [2, 1, 2]}
    assert board["shifts"] is True
    shift = next(m for m in view["legal"] if m["text"] == "1-2")
    assert shift == {"text": "1-2", "cell": 1, "size": 2, "source": 0}
    place = next(m for m in view["legal"] if m["text"] == "L9")
    assert place == {"text": "L9", "cell": 8, "size": 3, "source": None}


def test_qubic_winning_line(client: TestClient) -> None:
    moves = ["111", "211", "112", "212", "113", "213"]
    view = post(client, "/api/play", {"spec": "qubic", "moves": moves, "move": "114"})
    assert view["winning_line"] == [0, 1, 2, 3]
    assert view["board"] == {"kind": "qubic", "n": 4, "d": 3, "cells": view["board"]["cells"]}


def test_aliases_come_back_canonical(client: TestClient) -> None:
    view = post(client, "/api/position", {"spec": "ultimate forget=yes", "moves": ["5-5", "5.1"]})
    assert view["spec"] == "ultimate:forget=true" and view["moves"] == ["55", "51"]


# -- bad requests ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("body", "kind", "field", "says"),
    [
        ({"spec": "chess"}, "unknown-game", "spec", "unknown game"),
        ({"spec": "classic:size=4"}, "invalid-option", "spec", "no option"),
        ({"spec": "mnk:m=3:n=3:k=9"}, "invalid-option", "spec", "k must be"),
        ({"spec": "classic", "start": "xxx/ooo/... x"}, "invalid-position", "start", "both players"),
        ({"spec": "classic", "moves": ["5", "10"]}, "invalid-move", "moves[1]", "not a cell"),
        ({"spec": "classic", "moves": ["5", "5"]}, "illegal-move", "moves[1]", "taken"),
        ({"spec": "ultimate", "moves": ["55", "44"]}, "illegal-move", "moves[1]", "you must play in board 5"),
        ({"spec": "gobblet", "moves": ["S1", "S1"]}, "illegal-move", "moves[1]", "only a strictly larger"),
    ],
)
def test_bad_games_are_named_with_their_field(
    client: TestClient, body: dict[str, Any], kind: str, field: str, says: str
) -> None:
    for path in ("/api/new", "/api/position"):
        data = error(client, path, body)
        assert (data["error"], data["field"]) == (kind, field)
        assert says in data["message"] and data["message"].startswith(f"{field}: ")


@pytest.mark.parametrize(
    ("move", "kind", "says"),
    [("x", "invalid-move", "not a move"), ("1", "illegal-move", "taken"), ("0", "invalid-move", "not a cell")],
)
def test_bad_moves(client: TestClient, move: str, kind: str, says: str) -> None:
    data = error(client, "/api/play", {"spec": "classic", "moves": ["1"], "move": move})
    assert (data["error"], data["field"]) == (kind, "move") and says in data["message"]


def test_no_move_after_the_end(client: TestClient) -> None:
    data = error(client, "/api/play", {"spec": "classic", "moves": ["1", "4", "2", "5", "3"], "move": "6"})
    assert data["error"] == "illegal-move" and "game is over" in data["message"]


@pytest.mark.parametrize(
    ("path", "body", "field"),
    [
        ("/api/play", {"spec": "classic"}, "move"),
        ("/api/new", {"spec": ""}, "spec"),
        ("/api/new", {"spec": "classic", "colour": "red"}, "colour"),
        ("/api/new", {"spec": "classic", "moves": "5"}, "moves"),
        ("/api/new", {"spec": "classic", "moves": ["1"] * (MAX_MOVES + 1)}, "moves"),
        ("/api/computer", {"spec": "classic", "level": "grandmaster"}, "level"),
        ("/api/computer", {"spec": "classic", "time": 0}, "time"),
        ("/api/analysis", {"spec": "classic", "time": 600}, "time"),
        ("/api/play", {"spec": "classic", "move": "5" * 40}, "move"),
    ],
)
def test_malformed_requests(client: TestClient, path: str, body: dict[str, Any], field: str) -> None:
    data = error(client, path, body, status=422)
    assert data["error"] == "invalid-request" and data["field"] == field and data["message"].startswith(field)


def test_not_json(client: TestClient) -> None:
    response = client.post("/api/play", content=b"{", headers={"content-type": "application/json"})
    assert response.status_code == 422 and response.json()["message"] == "the request body is not valid JSON"


def test_unknown_route_and_method(client: TestClient) -> None:
    assert client.get("/api/nothing").json()["error"] == "not-found"
    assert client.get("/api/play").status_code == 405


# -- the computer -------------------------------------------------------------------------


def test_computer_move_at_max_never_loses_a_won_position(client: TestClient) -> None:
    # x threatens 1-2-3: o must block on 3, and the perfect player does.
    data = post(client, "/api/computer", {"spec": "classic", "moves": ["1", "5", "2"], "level": "max"})
    assert data["move"] == "3"
    assert data["game"]["moves"] == ["1", "5", "2", "3"] and data["game"]["last_move"]["text"] == "3"
    analysis = data["analysis"]
    assert analysis["best"] == "3" and analysis["level"] == "max"
    assert analysis["value"]["kind"] == "draw" and analysis["bar"] == 0
    assert {m["text"] for m in analysis["moves"]} == {"3", "4", "6", "7", "8", "9"}


def test_computer_takes_a_win(client: TestClient) -> None:
    data = post(client, "/api/computer", {"spec": "classic", "moves": ["1", "4", "2", "5"], "level": "max"})
    assert data["move"] == "3" and data["game"]["status"] == "x-wins"
    assert data["analysis"]["value"]["kind"] == "win" and data["analysis"]["bar"] == 1


def test_a_hint_never_slips_on_purpose(client: TestClient) -> None:
    # easy misses a win a third of the time; its hint must not.
    for seed in range(12):
        body = {"spec": "classic", "moves": ["1", "4", "2", "5"], "level": "easy", "seed": seed}
        assert post(client, "/api/analysis", body)["best"] == "3"


@pytest.mark.parametrize("spec", ["ultimate", "qubic", "gobblet", "matryoshka", "mnk:m=15:n=15:k=5"])
def test_computer_plays_every_family(client: TestClient, spec: str) -> None:
    data = post(client, "/api/computer", {"spec": spec, "moves": [], "level": "easy", "time": 0.2, "seed": 1})
    assert data["move"] in parse_spec(spec).initial().legal_move_texts()
    assert data["game"]["ply"] == 1


def test_the_computer_searches_as_deep_as_its_level_and_the_hint_values_every_move(client: TestClient) -> None:
    # An alpha-beta level proves the moves it does not play worse without valuing
    # them: its move lists only itself, at the depth the arena measured the level.
    body = {"spec": "mnk:m=15:n=15:k=5", "moves": ["h8", "h9"], "level": "hard", "seed": 1}
    move = post(client, "/api/computer", body)
    assert [m["text"] for m in move["analysis"]["moves"]] == [move["move"]]
    hint = post(client, "/api/analysis", body)
    assert len(hint["moves"]) == 15 * 15 - 2


def test_analysis_is_the_hint(client: TestClient) -> None:
    data = post(client, "/api/analysis", {"spec": "classic", "moves": ["5", "1", "9"], "level": "max"})
    assert data["value"]["kind"] == "draw"
    assert data["best"] in {"3", "7"}  # o must take a corner: an edge loses
    losing = [m["text"] for m in data["moves"] if m["value"]["kind"] == "loss"]
    assert sorted(losing) == ["2", "4", "6", "8"]
    assert -1 <= data["bar"] <= 1 and data["time"] >= 0


@pytest.mark.parametrize("path", ["/api/computer", "/api/analysis"])
def test_computer_rejects_bad_games_and_finished_ones(client: TestClient, path: str) -> None:
    assert error(client, path, {"spec": "classic", "moves": ["5", "5"]})["field"] == "moves[1]"
    over = error(client, path, {"spec": "classic", "moves": ["1", "4", "2", "5", "3"]})
    assert over["error"] == "illegal-move" and "game is over" in over["message"]


# -- the page and the docs ----------------------------------------------------------------


def test_page_static_files_and_docs(client: TestClient) -> None:
    page = client.get("/")
    assert page.status_code == 200 and '<script type="module" src="/static/js/main.js">' in page.text
    for path in ("/static/js/main.js", "/static/js/game.js", "/static/css/app.css", "/static/js/boards/gobblet.js"):
        assert client.get(path).status_code == 200, path
    assert client.get("/static/js/nothing.js").status_code == 404
    assert "swagger" in client.get("/docs").text.lower()
    paths = client.get("/openapi.json").json()["paths"]
    assert {"/api/games", "/api/new", "/api/position", "/api/play", "/api/computer", "/api/analysis"} <= set(paths)


def test_docs_pages_need_no_internet(client: TestClient) -> None:
    """/docs and /redoc load every script and style sheet from this server."""
    for page in ("/docs", "/redoc"):
        html = client.get(page).text
        assets = re.findall(r'(?:src|href)="([^"]+)"', html) + re.findall(r"url: '([^']+)'", html)
        scripts = [a for a in assets if a.endswith((".js", ".css"))]
        assert scripts, page
        for asset in scripts:
            assert asset.startswith("/"), f"{page} loads {asset} from elsewhere"
            assert client.get(asset).status_code == 200, asset


def test_a_wrong_method_is_told_which_ones_are_allowed(client: TestClient) -> None:
    answer = client.delete("/api/computer")
    assert answer.status_code == 405
    assert answer.json()["error"] == "method-not-allowed"
    assert answer.headers["allow"] == "POST"


@pytest.mark.parametrize("offset", ["9223372036854775808", "1000001", "-1"])
def test_a_profile_page_far_out_of_range_is_refused_not_a_crash(client: TestClient, offset: str) -> None:
    # A 64-bit offset overflowed SQLite and PostgreSQL alike (500); now it is a clear 422.
    answer = client.get(f"/api/online/users/anybody?offset={offset}")
    assert answer.status_code == 422
    assert answer.json()["field"] == "query.offset"


@pytest.mark.parametrize("path", ["/api/computer", "/api/analysis", "/api/review"])
@pytest.mark.parametrize("seconds", [5e-324, 1e-320, 1e-9, 0.0009, 0, -1, 1e308])
def test_an_absurd_thinking_time_is_refused_before_any_thinking(client: TestClient, path: str, seconds: float) -> None:
    """`time: 5e-324` overflowed the compiled players' time shares (a 500, or the
    worker lost and the connection dropped); every time is bounded in the schema."""
    data = error(client, path, {"spec": "ultimate", "moves": ["55"], "time": seconds}, 422)
    assert (data["error"], data["field"]) == ("invalid-request", "time")


@pytest.mark.parametrize("seed", [-1, 2**53, 2**64, 1.5, "7", True])
def test_a_seed_out_of_range_or_of_another_type_is_refused(client: TestClient, seed: object) -> None:
    data = error(client, "/api/computer", {"spec": "classic", "seed": seed, "time": 0.01}, 422)
    assert data["field"] == "seed"


@pytest.mark.parametrize(
    ("spec", "moves"),
    [("ultimate", []), ("ultimate", ["55", "51", "15"]), ("nine-board", ["11", "19"]), ("qubic", ["111"]),
     ("classic", ["5"]), ("gobblet", ["L5"])],
)  # fmt: skip
def test_the_least_thinking_time_still_plays_a_legal_move(client: TestClient, spec: str, moves: list[str]) -> None:
    answer = post(client, "/api/computer", {"spec": spec, "moves": moves, "time": MIN_THINK_SECONDS, "seed": 7.0})
    legal = post(client, "/api/position", {"spec": spec, "moves": moves})["legal"]
    assert answer["move"] in {m["text"] for m in legal}
