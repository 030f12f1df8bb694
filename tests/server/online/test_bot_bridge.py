"""Other engines online: a player makes a bot account and its token; ``noughts bot``, in a
second process, connects a mock engine (a few lines that play the lowest free cell, no
Noughts inside) to it; the bot declines a challenge outside its rules, accepts one
inside them, and plays a whole game over the socket. A program that cannot play keeps
the bot offline; the owner's level and time go with every genmove."""

from __future__ import annotations

import contextlib
import os
import shlex
import subprocess
import sys
import textwrap
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from noughts import parse_spec
from noughts.bridge.client import Bridge, Rules
from noughts.server import Settings
from server.online.people import FAST, Person, unique
from server.online.servers import in_thread

PYTHON = shlex.quote(sys.executable)

#: Speaks the engine protocol for tic-tac-toe: answers "=" to everything, and genmove
#: with the lowest free cell. Writes what it is told to the file named by its argument.
MOCK_ENGINE = textwrap.dedent(
    """
    import sys
    log = open(sys.argv[1], "a") if len(sys.argv) > 1 else None
    taken = set()
    for line in sys.stdin:
        if log:
            log.write(line)
            log.flush()
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
    told = tmp_path / "told.txt"
    bridge = subprocess.Popen(
        [sys.executable, "-m", "noughts.cli", "bot", "--server", site, "--games", "classic", "--poll", "0.2",
         "--level", "max", "--time", "2", "--", sys.executable, str(engine), str(told)],
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
    assert "checked the program: it plays 1 to start classic" in output, output
    # The owner's level and time with every genmove: the check's, then the game's three.
    genmoves = [line.strip() for line in told.read_text().splitlines() if line.startswith("genmove")]
    assert genmoves == ["genmove level=max time=2"] * 4


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


def _bot(site: str) -> tuple[Person, str, str]:
    """A player, a bot account of theirs and its token."""
    ann = Person(site).sign_up()
    name = unique("eng")
    made = ann.http.post("/api/online/me/bots", json={"name": name})
    assert made.status_code == 201, made.text
    return ann, name, made.json()["token"]


def _fake_program(tmp_path: Path, answer: str) -> str:
    """A program that answers every command with `answer`."""
    script = tmp_path / f"fake{len(answer)}.py"
    script.write_text(f"import sys\nfor line in sys.stdin:\n    sys.stdout.write({answer!r})\n    sys.stdout.flush()\n")
    return f"{PYTHON} {shlex.quote(str(script))}"


@pytest.mark.parametrize(
    ("program", "options", "says"),
    [
        ("missing", (), "cannot start '/nonexistent/engine'"),
        ("dies", (), "(exited during|stopped before) 'new classic'"),  # as the pipe closes
        ("garbage", (), "answered genmove with 'banana'"),
        ("refuses", (), "refused 'new classic': no such game"),
        ("engine", ("level=strongest",), "unknown level 'strongest'"),
    ],
)
def test_a_program_that_cannot_play_keeps_the_bot_offline(
    site: str, tmp_path: Path, program: str, options: tuple[str, ...], says: str
) -> None:
    command = {
        "missing": "/nonexistent/engine",
        "dies": f"{PYTHON} -c 'import sys; sys.exit(3)'",
        "garbage": _fake_program(tmp_path, "= banana\n\n"),
        "refuses": _fake_program(tmp_path, "? no such game\n\n"),
        "engine": f"{PYTHON} -m noughts.cli engine",
    }[program]
    ann, name, token = _bot(site)
    waiting = ann.http.post(f"/api/online/bots/{name}/challenge", json={"spec": "classic"}).json()["game"]
    said: list[str] = []
    bridge = Bridge(site, token, command, Rules(frozenset({"classic"})), said.append, options)
    with pytest.raises(SystemExit, match=f"the program does not play, so the bot stays offline: .*{says}"):
        bridge.run(threading.Event(), 0.1)
    assert not any("is online" in line for line in said), said
    # The challenge waits, neither accepted nor resigned.
    assert ann.http.get(f"/api/online/games/{waiting['id']}").json()["state"] == "open"
    ann.close()


def test_noughts_bot_exits_non_zero_when_its_program_cannot_start(site: str) -> None:
    ann, _, token = _bot(site)
    done = subprocess.run(
        [sys.executable, "-m", "noughts.cli", "bot", "--server", site, "--", "/nonexistent/engine", "--fast"],
        env={**os.environ, "NOUGHTS_BOT_TOKEN": token}, capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert done.returncode != 0
    assert "the program does not play, so the bot stays offline" in done.stderr, done.stderr
    assert "cannot start" in done.stderr and "Traceback" not in done.stderr
    assert "is online" not in done.stdout
    ann.close()


@contextlib.contextmanager
def _online(site: str, token: str, program: str) -> Iterator[list[str]]:
    """The bridge in a thread, playing with `program`: the lines it says."""
    said: list[str] = []
    stop = threading.Event()
    bridge = Bridge(site, token, program, Rules(), said.append)
    thread = threading.Thread(target=bridge.run, args=(stop, 0.1), daemon=True)
    thread.start()
    try:
        yield said
    finally:
        stop.set()
        thread.join(10)


def _said(said: list[str], words: str) -> str:
    for _ in range(150):
        found = [line for line in said if words in line]
        if found:
            return found[0]
        time.sleep(0.1)
    raise AssertionError(f"the bridge never said {words!r}: {said}")


@pytest.mark.parametrize("spec", ["classic", "ultimate"])
def test_an_aborted_game_is_said_to_be_aborted(site: str, tmp_path: Path, spec: str) -> None:
    ann, name, token = _bot(site)
    engine = tmp_path / "mock_engine.py"
    engine.write_text(MOCK_ENGINE)
    with _online(site, token, f"{PYTHON} {engine}") as said:
        game_id = ann.http.post(f"/api/online/bots/{name}/challenge", json={"spec": spec, "side": "x"}).json()["game"]
        sock = ann.socket(game_id["id"])
        if sock.state["state"] == "open":
            sock.event("start", timeout=15)
        assert sock.act("abort")["type"] == "ack"
        assert _said(said, f"game {game_id['id']} is") == f"game {game_id['id']} is aborted before each side had moved"
    assert not any("ongoing" in line or "None" in line for line in said), said
    ann.close()


@pytest.mark.slow
def test_an_opponents_long_silence_is_waited_out_quietly(site: str, tmp_path: Path) -> None:
    ann, name, token = _bot(site)
    engine = tmp_path / "mock_engine.py"
    engine.write_text(MOCK_ENGINE)
    with _online(site, token, f"{PYTHON} {engine}") as said:
        game_id = ann.http.post(f"/api/online/bots/{name}/challenge", json={"spec": "classic", "side": "x"}).json()[
            "game"
        ]["id"]
        sock = ann.socket(game_id)
        if sock.state["state"] == "open":
            sock.event("start", timeout=15)
        assert sock.move("5")["type"] == "ack"
        assert sock.event("move", timeout=15)["move"] == "1"
        time.sleep(70)  # longer than the bridge once waited for a message before giving up
        assert sock.move("9")["type"] == "ack"
        assert sock.event("move", timeout=15)["move"] == "2"
        assert said == [line for line in said if "Error" not in line and "timed out" not in line], said
        assert len([line for line in said if line.startswith(f"game {game_id}:")]) == 2, said
    ann.close()


# Ultimate's game is the longer one, for make test-slow; classic's shows the same engine online.
@pytest.mark.parametrize("spec", ["classic", pytest.param("ultimate", marks=pytest.mark.slow)])
def test_the_engine_written_from_the_docs_plays_online(site: str, tmp_path: Path, spec: str) -> None:
    # docs/engine.md's myengine.py, put online as the docs say (a bot account, its token,
    # `noughts bot ... -- python myengine.py`), plays a whole game against a person.
    page = (Path(__file__).parents[3] / "docs" / "engine.md").read_text(encoding="utf-8")
    (source,) = [block for block in page.split("```python\n")[1:] if "def main(" in block]
    (tmp_path / "myengine.py").write_text(source.split("\n```")[0], encoding="utf-8")
    ann = Person(site).sign_up()
    name = unique("docs")
    token = ann.http.post("/api/online/me/bots", json={"name": name}).json()["token"]
    bridge = subprocess.Popen(
        [sys.executable, "-m", "noughts.cli", "bot", "--server", site, "--games", spec, "--poll", "0.2",
         "--", sys.executable, str(tmp_path / "myengine.py")],
        env={**os.environ, "NOUGHTS_BOT_TOKEN": token},
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )  # fmt: skip
    try:
        answer = ann.http.post(f"/api/online/bots/{name}/challenge", json={"spec": spec, "side": "x"})
        sock = ann.socket(answer.json()["game"]["id"])
        if sock.state["state"] == "open":
            sock.event("start", timeout=15)
        game = parse_spec(spec)
        while sock.state["state"] == "playing":
            state = game.initial()
            for move in sock.state["moves"]:
                state = state.play_text(move)
            if state.turn.value == "x":
                assert sock.move(state.legal_move_texts()[0])["type"] == "ack"
            else:
                sock.expect("event", timeout=15)
        final = sock.state
        assert final["state"] == "over" and final["o"]["name"] == name, final
        # Played to its end on the board: nobody resigned, timed out or left.
        assert (final["termination"], len(final["moves"]) >= 5) == ("normal", True), final
    finally:
        bridge.terminate()
        output, _ = bridge.communicate(timeout=10)
        ann.close()
    assert "checked the program: it plays" in output, output
