"""What both schema probes share (tests/online/test_schema_probe.py, and its thorough
twin in test-slow): a real server, a player's session, the checks, and the request
every example sends twice, without a session and with the player's cookie."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx2
import pytest
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from noughts.server import Settings, create_app
from noughts.server.online.sessions import COOKIE
from online.people import FAST, Person
from online.servers import in_thread

CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance, response_schema_conformance]


def openapi() -> dict[str, Any]:
    """The schema as the app makes it (no server needed to read it): the requests go to
    the real server of `base`."""
    return create_app(Settings(ai_workers=1)).openapi()


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    database = f"sqlite:///{tmp_path_factory.mktemp('probe') / 'online.db'}"
    with in_thread(Settings(database=database, ai_workers=1, online=FAST)) as address:
        # The thinking worker starts (and loads the compiled engine) on the first request:
        # started here, so no probed request waits for it, on a loaded machine seconds.
        started = httpx2.post(
            f"{address}/api/computer", json={"spec": "ultimate", "moves": [], "level": "max", "time": 0.01}, timeout=60
        )
        assert started.status_code == 200, started.text
        yield address


@pytest.fixture(scope="module")
def player(base: str) -> Iterator[str]:
    """A player's session token (with a room of their own open)."""
    person = Person(base).sign_up()
    person.room()
    token = person.http.cookies.get(COOKIE)
    assert token is not None
    yield token
    person.close()


def probe(case: Any, base: str, player: str) -> None:
    if isinstance(case.body, dict) and case.path in ("/api/computer", "/api/analysis", "/api/review"):
        # The computer's thinking is not what this probes: a hundredth of a second (a
        # review's is per position, which made it the probe's slowest operation).
        case.body["time"] = 0.01
    case.call_and_validate(base_url=base, checks=CHECKS)
    case.call_and_validate(base_url=base, checks=CHECKS, cookies={COOKIE: player})
