"""`noughts worker` as a user runs it: its bad input is a clear error and starts nothing."""

from __future__ import annotations

import socket

import pytest

from noughts.cli import main


def test_a_worker_needs_the_servers_redis(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("NOUGHTS_WORKERS_ON", raising=False)
    with pytest.raises(SystemExit, match="give the servers' Redis"):
        main(["worker"])


def test_an_unknown_lane_is_named() -> None:
    with pytest.raises(SystemExit, match="'moves' is not a lane: name some of move, analysis, review, mining"):
        main(["worker", "--redis", "redis://127.0.0.1:1/0", "--lanes", "move,moves"])
    with pytest.raises(SystemExit, match="name one lane at least"):
        main(["worker", "--redis", "redis://127.0.0.1:1/0", "--lanes", ","])


def test_an_unreachable_redis_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    with socket.socket() as probe:  # a port nothing listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    assert main(["worker", "--redis", f"redis://127.0.0.1:{port}/0"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("noughts worker: not starting:") and err.count("\n") == 1
