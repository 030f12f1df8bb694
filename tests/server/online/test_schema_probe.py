"""The outside probe of issue 17 kept in the suite: schemathesis generates requests for
every operation of /openapi.json, valid and invalid, sends each to a real server once
without a session and once with a player's cookie, and checks that no answer is a 5xx
and every answer is one the schema declares (status, content type, body).

This is `make test`'s round: the schema's own examples and a few generated requests,
valid and invalid, per operation. The coverage phase (every boundary and wrong type of
every field, some 1,600 requests, and built again at collection by every test process)
and many more examples run in test_schema_probe_thorough.py, in `make test-slow`."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
import schemathesis
from hypothesis import HealthCheck, settings

from server.online.probing import config, database, openapi, player, probe, serving, session

__all__ = ["player"]  # fixtures

#: Generated requests per operation (valid and invalid), each sent twice.
EXAMPLES = 2

schema = schemathesis.openapi.from_dict(
    openapi(),
    config=config(phases={"coverage": {"enabled": False}}, generation={"mode": "all", "max-examples": EXAMPLES}),
)


@pytest.fixture(scope="module")
def base(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with serving(database("sqlite", request, tmp_path_factory)) as address:
        yield address


@schema.parametrize()
@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck))
def test_every_operation_answers_as_declared(case: Any, base: str, player: str) -> None:
    probe(case, base, player)


#: The operations whose texts and numbers reach the database, probed on PostgreSQL in
#: make test too (where a text with NUL was a 500); every operation is, in the thorough
#: round of make test-slow.
ON_POSTGRESQL = r"^/api/(online/(signup|login|users|rooms|tournaments|pairing|me/bots|bots/)|puzzles/(next|streak))"


@pytest.fixture(scope="module")
def postgres_base(postgres_url: str) -> Iterator[str]:
    with serving(postgres_url, think=False) as address:  # none of these operations thinks
        yield address


@pytest.fixture(scope="module")
def postgres_player(postgres_base: str) -> Iterator[str]:
    with session(postgres_base) as token:
        yield token


# make test-slow, for make test's 6 minutes (PostgreSQL's whole probe is there too, in
# test_schema_probe_thorough.py; make test probes every operation on SQLite above).
@pytest.mark.slow
@schema.include(path_regex=ON_POSTGRESQL).parametrize()
@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck))
def test_what_reaches_the_database_answers_as_declared_on_postgresql(
    case: Any, postgres_base: str, postgres_player: str
) -> None:
    probe(case, postgres_base, postgres_player)


def test_the_probe_covers_every_operation() -> None:
    """A route added without a schema, or left out by a filter, would go unprobed."""
    operations = {(result.ok().method.upper(), result.ok().path) for result in schema.get_all_operations()}
    assert ("POST", "/api/online/signup") in operations
    assert ("DELETE", "/api/online/games/{game_id}") in operations
    assert len(operations) >= 18, sorted(operations)
