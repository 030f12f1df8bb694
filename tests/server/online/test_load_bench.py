"""bench/online_load.py's set-up: many games made at once, each between two guests of
its own (its one HTTP client once sent one guest's session beside another's)."""

from __future__ import annotations

import asyncio
import importlib
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import httpx2
import pytest

from noughts.server import Settings
from server.online.people import FAST
from server.online.servers import in_thread

BENCH = Path(__file__).parents[3] / "bench"


def _bench(monkeypatch: pytest.MonkeyPatch) -> ModuleType:
    monkeypatch.syspath_prepend(str(BENCH))
    return importlib.import_module("online_load")


@pytest.fixture
def site(sqlite_url: str) -> Iterator[str]:
    with in_thread(Settings(database=sqlite_url, ai_workers=1, online=FAST)) as base:
        yield base


@pytest.mark.slow  # a check of a bench script: make test-slow
def test_the_load_bench_sets_up_games_at_once_each_between_its_own_two_guests(
    site: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    specs = ["classic", "ultimate", "gobblet", "qubic"] * 6
    made = asyncio.run(_bench(monkeypatch).setup_games(site, specs))
    assert len({game_id for game_id, _, _ in made}) == len(specs)
    guests = set()
    with httpx2.Client(base_url=site, timeout=30) as http:
        for (game_id, x, o), spec in zip(made, specs, strict=True):
            game = http.get(f"/api/online/games/{game_id}").json()
            assert (game["spec"], game["state"]) == (spec, "playing")
            for side, session in (("x", x), ("o", o)):
                me = http.get("/api/online/me", headers={"Cookie": f"noughts_session={session}"}).json()["user"]
                assert me["name"] == game[side]["name"]
                guests.add(me["name"])
    assert len(guests) == 2 * len(specs)
