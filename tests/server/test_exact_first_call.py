"""On a fresh install (an empty cache folder) the hint of a solved game is exact from the
first request: the worker builds the table before it answers, within the request's time."""

from __future__ import annotations

from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from noughts.server import Settings, create_app


def test_the_first_hint_of_a_solved_game_is_exact(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NOUGHTS_CACHE_DIR", str(tmp_path))  # the worker, spawned now, sees it
    with TestClient(create_app(Settings(ai_workers=1))) as client:
        # Forget mode on a small board: 3x3's table takes 7 s to build (tests/ai/test_solve.py).
        for spec, moves in [("mnk:m=2:n=4:k=2:forget", ["a1"]), ("mnk:m=4:n=3:k=3", ["b2"]), ("classic", [])]:
            body = {"spec": spec, "moves": moves, "level": "max", "time": 0.2}
            answer = client.post("/api/analysis", json=body)
            assert answer.status_code == 200, answer.text
            kinds = {m["value"]["kind"] for m in answer.json()["moves"]}
            assert kinds <= {"win", "loss", "draw"}, (spec, kinds)
    assert {p.name.split(".")[0] for p in tmp_path.iterdir()} >= {"mnk_m=2_n=4_k=2_forget=true", "mnk_m=4_n=3_k=3"}
