"""Other engines online: a player makes a bot account and its token; ``noughts bot``, in a
second process, connects a mock engine (a few lines that play the lowest free cell, no
Noughts inside) to it; the bot declines a challenge outside its rules, accepts one
inside them, and plays a whole game over the socket."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from noughts.server import Settings
from noughts.server.bridge import Rules, move_seconds
from online.people import FAST, Person, unique
from online.servers import in_thread

#: Speaks the engine protocol for tic-tac-toe: answers "=" to everything, and genmove
#: with the lowest free cell.
MOCK_ENGINE = textwrap.dedent(
    """
    import sys
    taken = set()
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        if words[0] == "new":
            taken = set()
        elif words[0] == "play":
            taken.add(words[1])
        elif words[0] == "quit":
            break
        if words[0] == "genmove":
            move = next(str(c) for c in range(1, 10) if str(c) not in taken)
            taken.add(move)
            sys.stdout.write(f"= {move}\\n\\n")
        else:
            sys.stdout.write("= \\n\\n")
        sys.stdout.flush()
    """
)


def test_rules_say_why_a_challenge_is_declined() -> None:
    room = {"spec": "ultimate", "rated": True, "clock": {"minutes": 3, "increment": 2}}
    assert Rules().refuses(room, 0) is None
    assert Rules(frozenset({"classic", "ultimate"}), True, "timed", 2).refuses(room, 1) is None
    assert Rules(frozenset({"classic"})).refuses(room, 0) == "it plays classic only"
    assert Rules(rated=False).refuses(room, 0) == "it plays casual games only"
    assert Rules(clock="untimed").refuses(room, 0) == "it plays untimed games only"
    assert Rules(max_games=1).refuses(room, 1) == "it plays 1 games at once"
    game = {"clock": {"x_ms": 50_000, "o_ms": 1_000, "increment_ms": 2_000}}
    assert move_seconds(game, "x") == pytest.approx(2 + 1.2)
    assert move_seconds({"clock": None}, "x") is None


@pytest.fixture
def site(sqlite_url: str) -> Iterator[str]:
    with in_thread(Settings(database=sqlite_url, ai_workers=1, online=FAST)) as base:
        yield base


def test_a_program_plays_online_through_noughts_bot(site: str, tmp_path: Path) -> None:
    ann = Person(site).sign_up()
    name = unique("eng")
    made = ann.http.post("/api/online/me/bots", json={"name": name})
    assert made.status_code == 201, made.text
    token = made.json()["token"]
    assert ann.http.get("/api/online/me/bots").json()["bots"] == [name]
    listed = {b["name"]: b for b in ann.http.get("/api/online/bots").json()["bots"]}
    assert (listed[name]["level"], listed[name]["owner"]) == ("engine", ann.name)

    engine = tmp_path / "mock_engine.py"
    engine.write_text(MOCK_ENGINE)
    bridge = subprocess.Popen(
        [sys.executable, "-m", "noughts.cli", "bot", "--server", site, "--games", "classic", "--poll", "0.2",
         "--", sys.executable, str(engine)],
        env={**os.environ, "NOUGHTS_BOT_TOKEN": token},
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )  # fmt: skip
    try:
        refused = ann.http.post(f"/api/online/bots/{name}/challenge", json={"spec": "gobblet"}).json()["game"]
        assert refused["state"] == "open"
        for _ in range(100):
            if ann.http.get(f"/api/online/games/{refused['id']}").json()["state"] == "cancelled":
                break
            time.sleep(0.1)
        else:
            pytest.fail("the bot did not decline a game outside its rules")

        answer = ann.http.post(f"/api/online/bots/{name}/challenge", json={"spec": "classic", "side": "x"})
        game_id = answer.json()["game"]["id"]
        sock = ann.socket(game_id)
        if sock.state["state"] == "open":
            sock.event("start", timeout=15)  # the program's bridge accepted
        for move in ("5", "9", "3", "7"):  # the mock answers 1, 2, 4: 3-5-7 wins
            assert sock.move(move)["type"] == "ack"
            if move != "7":
                sock.event("move", timeout=15)
        final = sock.state
        assert (final["state"], final["result"], final["moves"]) == (
            "over",
            "x-wins",
            ["5", "1", "9", "2", "3", "4", "7"],
        )
        assert final["o"]["name"] == name and final["o"]["bot"] == "engine"
        # A stranger cannot take a challenge meant for the bot.
        other = Person(site).sign_up()
        open_room = ann.http.post(f"/api/online/bots/{name}/challenge", json={"spec": "classic"}).json()["game"]
        taken = other.http.post(f"/api/online/games/{open_room['id']}/join")
        assert taken.status_code in (403, 409)
        other.close()
    finally:
        bridge.terminate()
        output, _ = bridge.communicate(timeout=10)
        ann.close()
    assert f"declined {ann.name}'s Gobblet Gobblers: it plays classic only" in output, output
    assert f"accepted {ann.name}'s Tic-tac-toe" in output, output


def test_tokens_and_bot_accounts_are_checked(site: str) -> None:
    guest = Person(site).guest()
    assert guest.http.post("/api/online/me/bots", json={"name": unique("g")}).status_code == 403
    ann = Person(site).sign_up()
    name = unique("eng")
    first = ann.http.post("/api/online/me/bots", json={"name": name}).json()["token"]
    assert ann.http.post("/api/online/me/bots", json={"name": name}).status_code == 409  # taken
    assert ann.http.post("/api/online/me/bots", json={"name": "a b"}).status_code == 400
    second = ann.http.post(f"/api/online/me/bots/{name}/token").json()["token"]
    for token, who in ((first, None), (second, name)):
        holder = Person(site)
        holder.http.cookies.set("noughts_session", token)
        user = holder.http.get("/api/online/me").json()["user"]
        assert (user and user["name"]) == who
        holder.close()
    bob = Person(site).sign_up()
    assert bob.http.post(f"/api/online/me/bots/{name}/token").status_code == 404  # not bob's
    for person in (guest, ann, bob):
        person.close()
