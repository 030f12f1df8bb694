"""Matryoshka through the web API on a new installation: the analysis board (the hint)
and the review give every position's exact value, as the library does."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from noughts.ai.solve import PerfectPlayer
from noughts.registry import parse_spec
from noughts.server import Settings, create_app

from support import post

EXACT = {"win", "loss", "draw"}


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    # An empty cache folder, as on a new installation (the workers inherit it).
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("NOUGHTS_CACHE_DIR", str(tmp_path_factory.mktemp("cache")))
        with TestClient(create_app(Settings(ai_workers=1))) as c:
            yield c


@pytest.mark.parametrize("moves", [[], ["L5"], ["S1", "L5"], ["M5", "L1", "S9"], ["S5", "M5", "L5", "L1"]])
def test_the_analysis_board_values_every_move_exactly(client: TestClient, moves: list[str]) -> None:
    data = post(client, "/api/analysis", {"spec": "matryoshka", "moves": moves, "level": "max"})
    state = parse_spec("matryoshka").initial()
    for move in moves:
        state = state.play_text(move)
    library = {info.text: info.value for info in PerfectPlayer().analyze(state).moves}
    assert {m["text"] for m in data["moves"]} == set(library)
    for m in data["moves"]:
        assert m["value"]["kind"] in EXACT, m
        assert (m["value"]["kind"], m["value"]["plies"]) == (library[m["text"]].kind.value, library[m["text"]].plies)


def test_a_review_values_every_position_exactly(client: TestClient, tmp_path: Path) -> None:
    rng = random.Random(3)
    state = parse_spec("matryoshka").initial()
    moves: list[str] = []
    while not state.is_over and len(moves) < 6:
        move = rng.choice(state.legal_moves())
        moves.append(state.move_text(move))
        state = state.play(move)
    data = post(client, "/api/review", {"spec": "matryoshka", "moves": moves, "level": "max", "time": 4, "wait": 30})
    assert data["reviewer"] == "max (perfect)"
    assert [m["move"] for m in data["moves"]] == moves
    for m in data["moves"]:
        assert m["value_before"]["kind"] in EXACT and m["value_after"]["kind"] in EXACT, m
