"""tools/socket_types: the browser's socket frame types (protocol.d.ts) are the ones the
server's published schema gives, and each model of the protocol is one of them."""

from __future__ import annotations

from pathlib import Path

import pytest

from noughts.server.online import protocol

from support import load_file

TOOL = Path(__file__).resolve().parents[3] / "tools" / "socket_types" / "build.py"


def test_the_shipped_types_are_the_schemas(capsys: pytest.CaptureFixture[str]) -> None:
    tool = load_file("socket_types_build", TOOL)
    assert tool.main(["--check"]) == 0, capsys.readouterr().out
    text = tool.OUT.read_text()
    for name in protocol.schema()["$defs"]:
        assert f"export interface {name} " in text
    # What is sent is there whatever its default; what a client may leave out is optional.
    assert '  type: "event";' in text and "  ply?: number | null;" in text
