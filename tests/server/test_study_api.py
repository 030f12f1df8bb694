"""POST /api/review: the review of the game the browser holds, from the worker pool."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from noughts import parse_spec
from noughts.ai import make_player
from noughts.records import MAX_RECORD_SIZE
from noughts.server.app import create_app
from noughts.server.settings import Settings
from noughts.study import review_game


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    with TestClient(create_app(Settings(ai_workers=1))) as c:
        yield c


def test_a_review_classes_the_blunder_and_equals_the_library(client: TestClient) -> None:
    moves = ["5", "1", "3", "7", "2", "4"]
    answer = client.post("/api/review", json={"spec": "classic", "moves": moves, "level": "max", "wait": 30})
    assert answer.status_code == 200, answer.text
    data = answer.json()
    assert [m["class"] for m in data["moves"]] == ["best", "best", "best", "best", "blunder", "best"]
    assert data["moves"][4]["best"] == "4"
    assert data["moves"][4]["value_after"] == {
        "kind": "loss",
        "plies": 2,
        "bound": False,
        "score": -1.0,
        "text": "loss in 2",
        "chance": 0.0,
    }
    game = parse_spec("classic")
    states = [game.initial()]
    for move in moves:
        states.append(states[-1].play_text(move))
    library = review_game(states, moves, make_player("perfect"), name=data["reviewer"]).to_json()
    assert data == library
    assert data["accuracy"]["o"] == 100.0
    assert data["reviewer"] == "max (perfect)"


def test_a_review_of_a_search_level_values_every_position(client: TestClient) -> None:
    moves = ["55", "51", "15", "59"]
    body = {"spec": "ultimate", "moves": moves, "level": "hard", "time": 0.2, "wait": 30}
    data = client.post("/api/review", json=body).json()
    assert len(data["graph"]) == len(moves) + 1
    assert all(0.0 <= c <= 1.0 for c in data["graph"])
    assert [m["move"] for m in data["moves"]] == moves
    assert all(m["line"] and m["line"][0] == m["best"] for m in data["moves"])


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"spec": "classic", "moves": ["5", "5"]}, "moves[1]"),
        ({"spec": "classic", "moves": ["0"]}, "moves[0]"),
        ({"spec": "nonsense", "moves": []}, "spec"),
    ],
)
def test_a_bad_game_is_refused_with_its_field(client: TestClient, body: dict[str, Any], field: str) -> None:
    answer = client.post("/api/review", json=body)
    assert answer.status_code == 400
    assert answer.json()["field"] == field


@pytest.mark.parametrize("time", [0, -1, 5.5, "soon"])
def test_the_time_per_position_is_bounded(client: TestClient, time: Any) -> None:
    answer = client.post("/api/review", json={"spec": "classic", "moves": ["5"], "time": time})
    assert answer.status_code == 422
    assert answer.json()["field"] == "time"


def test_the_evaluation_says_what_its_number_is(client: TestClient) -> None:
    """A proven result in words for both sides; an estimate as the chance of the side
    to move, never a raw score; the bar is x's chance."""
    solved = client.post("/api/analysis", json={"spec": "classic", "moves": ["5", "2"], "level": "max"}).json()
    assert solved["verdict"] == "X wins in 3 moves"
    assert solved["value"] == {
        "kind": "win",
        "text": "win in 5",
        "plies": 5,
        "exact": True,
        "bound": False,
        "chance": 1.0,
    }
    assert solved["bar"] == 1.0
    assert all(m["value"]["exact"] for m in solved["moves"])
    assert solved["moves"][0]["line"][0] == solved["best"]

    body = {"spec": "ultimate", "moves": ["55", "51"], "level": "hard", "seed": 1}
    estimate = client.post("/api/analysis", json=body).json()
    value = estimate["value"]
    assert value["kind"] == "score" and not value["exact"]
    assert 0 < value["chance"] < 1
    assert estimate["verdict"] == f"X to move: {value['chance']:.0%} (an estimate)"
    assert estimate["bar"] == pytest.approx(2 * value["chance"] - 1, abs=1e-3)
    assert [len(m["line"]) > 0 for m in estimate["moves"][:4]] == [True, True, True, False]


def test_the_qubic_proofs_plies_are_a_bound(client: TestClient) -> None:
    """The shipped proof proves x's win, not its shortest distance: the value says so
    (`bound`), and so do its text and the verdict. (One test for both positions: the
    thinking process loads qubic's engine and proof once.)"""
    for moves, plies in [([], 64), (["111", "222"], 62)]:
        body = {"spec": "qubic", "moves": moves, "level": "max", "time": 0.5}
        answer = client.post("/api/analysis", json=body).json()
        assert answer["verdict"] == f"X wins, proven, in at most {(plies + 1) // 2} moves"
        assert answer["value"] == {
            "kind": "win",
            "text": f"win in at most {plies}",
            "plies": plies,
            "exact": True,
            "bound": True,
            "chance": 1.0,
        }
        assert answer["moves"][0]["value"] == answer["value"] and answer["bar"] == 1.0


def test_the_schema_says_which_field_tells_a_bound(client: TestClient) -> None:
    schemas = client.get("/openapi.json").json()["components"]["schemas"]
    for model in ("ValueView", "ReviewedValue"):
        field = schemas[model]["properties"]["bound"]
        assert field["type"] == "boolean" and "upper bound" in field["description"]
    assert "bound" in schemas["ValueView"]["required"]


def test_o_to_move_the_bar_is_still_xs(client: TestClient) -> None:
    answer = client.post("/api/analysis", json={"spec": "classic", "moves": ["5", "2", "1"], "level": "max"}).json()
    assert answer["verdict"] == "X wins in 2 moves"
    assert answer["value"]["kind"] == "loss"
    assert answer["bar"] == 1.0  # x wins, whoever is to move


def test_a_record_is_read_for_the_analysis_board(client: TestClient) -> None:
    text = '[Game "ultimate"]\n[X "ann"]\n[O "bob"]\n[Result "ongoing"]\n\n1. 55 51 2. 15 *\n'
    answer = client.post("/api/record", json={"text": text})
    assert answer.status_code == 200, answer.text
    assert answer.json() == {
        "spec": "ultimate",
        "start": None,
        "moves": ["55", "51", "15"],
        "x": "ann",
        "o": "bob",
        "result": "ongoing",
        "termination": "unterminated",
    }


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ('[Game "classic"]\n[Result "ongoing"]\n\n1. 5 5 *\n', "5"),
        ('[Game "nonsense"]\n\n1. 5 *\n', "nonsense"),
        ("this is no record", "record"),
    ],
)
def test_a_bad_record_is_refused_and_says_why(client: TestClient, text: str, says: str) -> None:
    answer = client.post("/api/record", json={"text": text})
    assert answer.status_code == 400
    body = answer.json()
    assert body["field"] == "text"
    assert says in body["message"]


def test_a_record_over_the_size_limit_is_refused_and_junk_fails_at_its_first_bad_move(client: TestClient) -> None:
    opening = '[Game "classic"]\n\n1. 5 1 2. '
    junk = opening + "zz " * ((MAX_RECORD_SIZE - len(opening)) // 3)
    answer = client.post("/api/record", json={"text": junk})
    assert answer.status_code == 400
    assert answer.json()["message"].startswith("text: move 3 (zz): 'zz' is not a move")
    over = client.post("/api/record", json={"text": junk + "zz " * 10})
    assert over.status_code == 422
    assert over.json()["field"] == "text"
    assert f"{MAX_RECORD_SIZE}" in over.json()["message"]


def test_gobblet_positions_get_exact_values_from_its_table(client: TestClient) -> None:
    # Two sizes, two copies each: a table built in seconds on first use, through the same
    # path as the published game's (built by `noughts solve gobblet`).
    body = {"spec": "gobblet:sizes=2", "moves": ["M2", "M7", "M9", "S1"], "level": "max"}
    answer = client.post("/api/analysis", json=body).json()
    assert answer["verdict"] == "X wins in 17 moves"
    assert answer["value"]["exact"] and all(m["value"]["exact"] for m in answer["moves"])


@pytest.mark.parametrize(
    "text",
    [
        '{"game": "classic", "moves": ["5"], "x": ' + "1" * 5000 + "}",
        '{"game": "classic", "start": 5}',
        '\ufeff[Game "classic"]\n\n1. 5 1 5 *\n',
    ],
)
def test_a_record_with_a_number_too_long_is_a_400_not_a_500(client: TestClient, text: str) -> None:
    """5,000 digits were int()'s ValueError (Python reads at most 4,300), a number as
    the start an AttributeError: both a 500. A byte-order mark is read past."""
    answer = client.post("/api/record", json={"text": text})
    assert (answer.status_code, answer.json()["field"]) == (400, "text"), answer.text
    assert answer.json()["message"].startswith(("text: a number in the record", 'text: "start"', "text: move 3"))


@pytest.mark.parametrize(("field", "code"), [('"players": {"x": "\\ud800"}', "d800"), ('"moves": ["\\udc00"]', "dc00")])
def test_a_record_holding_half_a_pair_is_a_400_not_a_500(client: TestClient, field: str, code: str) -> None:
    """A JSON record's escape of a lone surrogate, in a name or a move: the answer,
    which repeats it, could not be written as UTF-8 (a 500)."""
    answer = client.post("/api/record", json={"text": '{"game": "classic", ' + field + "}"})
    message = f"text: the record holds \\u{code}, half of a UTF-16 pair alone: not a character"
    assert (answer.status_code, answer.json()) == (400, {"error": "record", "message": message, "field": "text"})


def test_a_move_tried_in_place_of_a_blunder_is_judged_as_the_review_judges(client: TestClient) -> None:
    # The first test's game: x's 2 after 5 1 3 7 is a blunder (o wins on 1 4 7), 4 the draw.
    before = {"spec": "classic", "moves": ["5", "1", "3", "7"], "level": "max"}
    better = client.post("/api/review-attempt", json={**before, "move": "4"})
    assert better.status_code == 200, better.text
    assert better.json() == {
        "move": "4",
        "class": "best",
        "accepted": True,
        "value": better.json()["best_value"],
        "best": better.json()["best"],
        "best_value": {"kind": "draw", "text": "draw", "plies": None, "exact": True, "bound": False, "chance": 0.5},
    }
    again = client.post("/api/review-attempt", json={**before, "move": "2"}).json()
    assert (again["class"], again["accepted"], again["value"]["kind"]) == ("blunder", False, "loss")


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"spec": "classic", "moves": ["5"], "move": "5"}, "move"),
        ({"spec": "classic", "moves": ["5"], "move": "10"}, "move"),
        ({"spec": "classic", "moves": ["1", "4", "2", "5", "3"], "move": "6"}, "move"),
        ({"spec": "classic", "moves": ["5", "5"], "move": "1"}, "moves[1]"),
    ],
)
def test_a_tried_move_that_cannot_be_played_is_refused_with_its_field(
    client: TestClient, body: dict[str, Any], field: str
) -> None:
    answer = client.post("/api/review-attempt", json=body)
    assert answer.status_code == 400, answer.text
    assert answer.json()["field"] == field
