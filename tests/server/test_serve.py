"""`noughts serve` as a user runs it."""

from __future__ import annotations

import socket
import subprocess
import sys

import pytest

from noughts.cli import main


def test_help_names_the_options(capsys: pytest.CaptureFixture[str]) -> None:
    out = subprocess.run(
        [sys.executable, "-m", "noughts.cli", "serve", "--help"], capture_output=True, text=True, check=True
    ).stdout
    for option in ("--host", "--port", "--database", "--workers", "--max-think", "--forwarded-allow-ips"):
        assert option in out
    assert "online play" in " ".join(out.split())  # what --database is for


def test_a_taken_port_is_a_clear_error(capsys: pytest.CaptureFixture[str]) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        assert main(["serve", "--port", str(port)]) == 2
    err = capsys.readouterr().err
    assert f"cannot listen on 127.0.0.1:{port}" in err


def test_bad_port_and_workers(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["serve", "--port", "70000"]) == 2
    assert "cannot listen on 127.0.0.1:70000" in capsys.readouterr().err
    with pytest.raises(SystemExit, match="--workers must be at least 1"):
        main(["serve", "--workers", "0"])
    for seconds in ("0", "-1", "nan"):
        with pytest.raises(SystemExit, match="--max-think must be more than 0 seconds"):
            main(["serve", "--max-think", seconds])
    with pytest.raises(SystemExit):
        main(["serve", "--port", "x"])
    assert "invalid int value" in capsys.readouterr().err


def test_the_proxies_believed_are_passed_to_uvicorn() -> None:
    """Log-ins are braked by the client's address: which proxies may name it is said."""
    from noughts.server import Settings, create_app
    from noughts.server.commands import uvicorn_config

    settings = Settings(ai_workers=1)
    config = uvicorn_config(create_app(settings), settings, "10.0.0.7,10.0.0.8")
    assert (config.proxy_headers, config.forwarded_allow_ips) == (True, "10.0.0.7,10.0.0.8")
    assert config.ws_max_size == 16 * settings.online.max_frame
