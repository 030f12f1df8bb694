"""What both schema probes share (tests/server/online/test_schema_probe.py, and its thorough
twin in test-slow): a real server on SQLite or PostgreSQL, a player's session, the
checks, and the request every example sends twice, without a session and with the
player's cookie.

The checks hold the server to its schema both ways: no 5xx; only declared statuses,
content types and bodies; a request the schema allows is never refused as malformed
(422: the schema says exactly what the server reads) and one it forbids is refused;
a method a path does not serve is 405 with `Allow` naming every one it does. A
well-formed request that the game's rules refuse (an illegal move, an unknown game, a
correspondence room with minutes too) is a 400 with the rule's own word: the schema
cannot know them."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import httpx2
import pytest
from schemathesis.checks import not_a_server_error
from schemathesis.config import SchemathesisConfig
from schemathesis.specs.openapi.checks import (
    allow_header_conformance,
    content_type_conformance,
    negative_data_rejection,
    positive_data_acceptance,
    response_schema_conformance,
    status_code_conformance,
    unsupported_method,
)

from noughts.server import Settings, create_app
from noughts.server.online.sessions import COOKIE
from server.online.people import FAST, Person
from server.online.servers import in_thread

CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_schema_conformance,
    positive_data_acceptance,
    negative_data_rejection,
    unsupported_method,
    allow_header_conformance,
]
#: Schemathesis's own, with 400 (a rule of the game refused a well-formed request) and
#: 503 (the computer's pool busy) added; never 422.
POSITIVE_STATUSES = ["2xx", "400", "401", "403", "404", "409", "429", "503"]
#: The thinking the probe lets a computer request ask for: the least the schema allows
#: stays as asked (the absurdly small times are what broke), more is cut to this.
PROBE_SECONDS = 0.01


#: Schemathesis's own, with 413 (an invalid body can also be too large: refused by its
#: size before it is read) and without 5xx (never an answer here).
NEGATIVE_STATUSES = ["400", "401", "403", "404", "405", "406", "409", "413", "415", "422", "428", "429"]


def config(**more: Any) -> SchemathesisConfig:
    """The probes' settings: the checks' expectations, and `more` (phases, generation)."""
    checks = {
        "positive_data_acceptance": {"expected-statuses": POSITIVE_STATUSES},
        "negative_data_rejection": {"expected-statuses": NEGATIVE_STATUSES},
    }
    return SchemathesisConfig.from_dict({"checks": checks, **more})


def openapi() -> dict[str, Any]:
    """The schema as the app makes it (no server needed to read it): the requests go to
    the real server of `base`."""
    return create_app(Settings(ai_workers=1)).openapi()


@contextmanager
def serving(database: str, think: bool = True) -> Iterator[str]:
    """A server on `database` for a probe; with `think`, its thinking worker started."""
    with in_thread(Settings(database=database, ai_workers=1, online=FAST)) as address:
        if not think:
            yield address
            return
        # The thinking worker starts (and loads the compiled engine) on the first request:
        # started here, so no probed request waits for it, on a loaded machine seconds.
        started = httpx2.post(
            f"{address}/api/computer", json={"spec": "ultimate", "moves": [], "level": "max", "time": 0.01}, timeout=60
        )
        assert started.status_code == 200, started.text
        yield address


def database(kind: str, request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> str:
    """A fresh SQLite file, or this test run's PostgreSQL database (where texts with NUL broke)."""
    if kind == "sqlite":
        return f"sqlite:///{tmp_path_factory.mktemp('probe') / 'online.db'}"
    url: str = request.getfixturevalue("postgres_url")
    return url


@contextmanager
def session(base: str) -> Iterator[str]:
    """A player's session token on `base` (with a room of their own open)."""
    person = Person(base).sign_up()
    person.room()
    token = person.http.cookies.get(COOKIE)
    assert token is not None
    yield token
    person.close()


@pytest.fixture(scope="module")
def player(base: str) -> Iterator[str]:
    with session(base) as token:
        yield token


#: Seconds a probed request may take before it counts as hung.
PROBE_TIMEOUT = 120


def probe(case: Any, base: str, player: str) -> None:
    if isinstance(case.body, dict) and case.path in ("/api/computer", "/api/analysis", "/api/review"):
        # The computer's thinking is not what this probes: a hundredth of a second at most
        # (a review's is per position, which made it the probe's slowest operation).
        time = case.body.get("time")
        if time is None or (isinstance(time, int | float) and not isinstance(time, bool) and time > PROBE_SECONDS):
            case.body["time"] = PROBE_SECONDS
    # The time-out only stops a hang: level max on a solvable board builds its table
    # before its first answer whatever the clock (10-30 s for mnk:m=4:n=4:k=4 on a busy
    # machine), and schemathesis's default of 10 s made the probe's verdict depend on
    # which board it generated and on the machine's load.
    case.call_and_validate(base_url=base, checks=CHECKS, timeout=PROBE_TIMEOUT)
    case.call_and_validate(base_url=base, checks=CHECKS, cookies={COOKIE: player}, timeout=PROBE_TIMEOUT)
