"""POST /api/review: the review of the game the browser holds, from the worker pool."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from noughts import parse_spec
from noughts.ai import make_player
from noughts.server.app import create_app
from noughts.server.settings import Settings
from noughts.study import review_game


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    with TestClient(create_app(Settings(ai_workers=1))) as c:
        yield c


def test_a_review_classes_the_blunder_and_equals_the_library(client: TestClient) -> None:
    moves = ["5", "1", "3", "7", "2", "4"]
    answer = client.post("/api/review", json={"spec": "classic", "moves": moves, "level": "max"})
    assert answer.status_code == 200, answer.text
    data = answer.json()
    assert [m["class"] for m in data["moves"]] == ["best", "best", "best", "best", "blunder", "best"]
    assert data["moves"][4]["best"] == "4"
    assert data["moves"][4]["value_after"] == {
        "kind": "loss",
        "plies": 2,
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
    data = client.post("/api/review", json={"spec": "ultimate", "moves": moves, "level": "hard", "time": 0.2}).json()
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
