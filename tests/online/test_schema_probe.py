"""The outside probe of issue 17 kept in the suite: schemathesis generates requests for
every operation of /openapi.json, valid and invalid, sends each to a real server once
without a session and once with a player's cookie, and checks that no answer is a 5xx
and every answer is one the schema declares (status, content type, body)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
import schemathesis
from hypothesis import HealthCheck, settings
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

#: Examples per operation, each sent twice: a few in `make test` (every operation is
#: still probed, valid and invalid), many more in `make test-slow`.
EXAMPLES = 2
THOROUGH_EXAMPLES = 25
CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance, response_schema_conformance]


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    database = f"sqlite:///{tmp_path_factory.mktemp('probe') / 'online.db'}"
    with in_thread(Settings(database=database, ai_workers=1, online=FAST)) as address:
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


#: The schema as the app makes it (no server needed to read it): the requests go to the
#: real server of `base`.
schema = schemathesis.openapi.from_dict(create_app(Settings(ai_workers=1)).openapi())


def _probe(case: Any, base: str, player: str) -> None:
    if isinstance(case.body, dict) and case.path in ("/api/computer", "/api/analysis"):
        # The computer's thinking is not what this probes: a twentieth of a second each.
        case.body["time"] = 0.05
    case.call_and_validate(base_url=base, checks=CHECKS)
    case.call_and_validate(base_url=base, checks=CHECKS, cookies={COOKIE: player})


@schema.parametrize()
@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck))
def test_every_operation_answers_as_declared(case: Any, base: str, player: str) -> None:
    _probe(case, base, player)


@pytest.mark.slow
@schema.parametrize()
@settings(max_examples=THOROUGH_EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck))
def test_every_operation_answers_as_declared_thoroughly(case: Any, base: str, player: str) -> None:
    _probe(case, base, player)


def test_the_probe_covers_every_operation() -> None:
    """A route added without a schema, or left out by a filter, would go unprobed."""
    operations = {(result.ok().method.upper(), result.ok().path) for result in schema.get_all_operations()}
    assert ("POST", "/api/online/signup") in operations
    assert ("DELETE", "/api/online/games/{game_id}") in operations
    assert len(operations) >= 18, sorted(operations)
