"""Tournaments across server processes: one killed (SIGKILL) in the middle of a Swiss,
whose round's last game ends while no server runs (as if the process died between
committing the game's end and pairing the next round), so that a new process on the
same database picks the tournament up by its sweep, pairs the next round from what the
database holds, and plays it to the end; an arena whose server is killed and which a
new process ends by its clock; and two processes on PostgreSQL pairing one arena's
players as they all join at once."""

from __future__ import annotations

import os
import signal
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from noughts.server.online import actions
from noughts.server.online.storage.store import Store
from server.online.people import Person
from server.online.servers import serving

ROOT = "/api/online/tournaments"

pytestmark = [pytest.mark.slow, pytest.mark.timeout(180)]  # two server processes started one after the other


def _show(person: Person, tid: str) -> dict[str, Any]:
    shown: dict[str, Any] = person.http.get(f"{ROOT}/{tid}").json()
    return shown


def _round(shown: dict[str, Any], number: int) -> list[dict[str, Any]]:
    return [g for g in shown["games"] if g["round"] == number]


def test_a_killed_server_resumes_the_swiss(tmp_path: Path) -> None:
    database = f"sqlite:///{tmp_path / 'noughts.db'}"
    with serving(database) as (process, base):
        p = [Person(base).sign_up() for _ in range(4)]
        by_name = {person.name: person for person in p}
        tid = (
            p[0]
            .http.post(ROOT, json={"kind": "swiss", "name": "restart", "spec": "classic", "rounds": 2, "starts_in": 60})
            .json()["id"]
        )
        for person in p:
            person.http.post(f"{ROOT}/{tid}/join")
        first = _round(p[0].http.post(f"{ROOT}/{tid}/start").json(), 1)
        # Equal ratings, ranked by joining: 1-3 (1 is x) and 4-2 (4 is x).
        assert {(g["x"], g["o"]) for g in first} == {(p[0].name, p[2].name), (p[3].name, p[1].name)}
        one = next(g for g in first if g["x"] == p[0].name)
        by_name[one["o"]].socket(one["game_id"]).act("resign")  # 1 beats 3
        os.kill(process.pid, signal.SIGKILL)
        process.wait(10)
    # With no server running, 2 resigns the other game (4 wins).
    other = next(g for g in first if g["x"] == p[3].name)
    store = Store(database)
    loser = store.game(other["game_id"]).o_id
    store.apply(other["game_id"], lambda r: actions.act(r, loser, "resign", r.started_at or 0, 0))
    store.close()
    with serving(database, env={"NOUGHTS_TOURNAMENT_SWEEP": "0.2"}) as (_, base):
        for person in p:
            person.base = base
            person.http.base_url = base
        for _ in range(200):  # 10 s at most (the page is served from a 1-s copy)
            shown = _show(p[0], tid)
            if shown["round"] == 2:
                break
            time.sleep(0.05)
        assert shown["round"] == 2, shown
        # Round 1's results kept: 1 and 4 on 1 point, 2 and 3 on 0. Round 2 by score
        # groups without rematches: 1-4 and 2-3. Colours: 1 and 4 both had x, so the
        # higher-ranked (1) is x on board 1; 2 and 3 both had o, so on board 2 the
        # higher-ranked (2) is o.
        assert {(g["x"], g["o"]) for g in _round(shown, 2)} == {(p[0].name, p[3].name), (p[2].name, p[1].name)}
        assert len(shown["games"]) == 4  # nothing paired twice
        for g in _round(shown, 2):
            by_name[g["o"]].socket(g["game_id"]).act("resign")
        for _ in range(200):  # 10 s at most (the page is served from a 1-s copy)
            shown = _show(p[0], tid)
            if shown["state"] == "finished":
                break
            time.sleep(0.05)
        assert shown["state"] == "finished", shown
        # 1 beat 3 and 4; 3 beat 2; 4 beat 2. 3 and 4 tie on score, Buchholz (2: the
        # scores of 1 and 2) and Sonneborn-Berger (0: 2 has nothing), and rating: 3
        # joined first.
        table = [(s["name"], s["score"]) for s in shown["standings"]]
        assert table == [(p[0].name, 2.0), (p[2].name, 1.0), (p[3].name, 1.0), (p[1].name, 0.0)]
        for person in p:
            person.close()


def test_two_processes_pair_an_arena_once(postgres_url: str) -> None:
    """Twelve players join one arena at once through two server processes: each join
    advances the arena in the process it reached, and every player ends up in exactly
    one game."""
    with serving(postgres_url) as (_, one), serving(postgres_url) as (_, two):
        players = [Person(one if i % 2 else two).sign_up() for i in range(12)]
        tid = (
            players[0]
            .http.post(ROOT, json={"kind": "arena", "name": "race", "spec": "classic", "duration": 60, "starts_in": 0})
            .json()["id"]
        )
        with ThreadPoolExecutor(12) as pool:
            answers = list(pool.map(lambda p: p.http.post(f"{ROOT}/{tid}/join").status_code, players))
        assert answers == [200] * 12
        shown = _show(players[1], tid)
        games = [g for g in shown["games"] if g["state"] == "playing"]
        seated = sorted(name for g in games for name in (g["x"], g["o"]))
        assert len(games) == 6 and seated == sorted(p.name for p in players)
        for person in players:
            person.close()


@pytest.mark.timeout(240)
def test_a_restarted_server_ends_an_arena_by_its_clock(tmp_path: Path) -> None:
    """A one-minute arena whose server is killed while a game goes on: the next process
    pairs nobody once the time is up, lets that game finish and count, then ends it."""
    database = f"sqlite:///{tmp_path / 'noughts.db'}"
    with serving(database) as (process, base):
        a, b, c = (Person(base).sign_up() for _ in range(3))
        tid = a.http.post(
            ROOT, json={"kind": "arena", "name": "clock", "spec": "classic", "duration": 1, "starts_in": 0}
        ).json()["id"]
        for person in (a, b, c):
            person.http.post(f"{ROOT}/{tid}/join")
        first = _show(a, tid)["my_game"]
        a.socket(first).act("resign")  # b wins
        # b (2 points) meets c, who was waiting; a waits (a and b just met).
        for _ in range(100):
            second = _show(c, tid)["my_game"]
            if second is not None:
                break
            time.sleep(0.05)
        assert second is not None and _show(b, tid)["my_game"] == second
        os.kill(process.pid, signal.SIGKILL)
        process.wait(10)
    with serving(database, env={"NOUGHTS_TOURNAMENT_SWEEP": "0.2"}) as (_, base):
        for person in (a, b, c):
            person.base = base
            person.http.base_url = base
        shown = _show(a, tid)
        while time.time() * 1000 < shown["ends_at"] + 1000:
            time.sleep(0.5)
        shown = _show(a, tid)
        assert shown["state"] == "running" and shown["my_game"] is None  # a is not paired: time is up
        c.socket(second).act("resign")  # the last game still counts
        for _ in range(100):
            shown = _show(a, tid)
            if shown["state"] == "finished":
                break
            time.sleep(0.1)
        assert shown["state"] == "finished" and len(shown["games"]) == 2
        table = [(s["name"], s["score"], s["sheet"]) for s in shown["standings"]]
        assert table[0] == (b.name, 4, "2 2")
        for person in (a, b, c):
            person.close()
