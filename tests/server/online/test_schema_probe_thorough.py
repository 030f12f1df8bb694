"""The schema probe's thorough round (`make test-slow`): every phase of schemathesis,
the coverage phase's boundaries and wrong types of every field included, and many
generated requests per operation. tests/conftest.py does not even collect this module
when slow tests are left out: its tests are built at collection, by every process."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
import schemathesis
from hypothesis import HealthCheck, settings

from server.online.probing import config, database, openapi, player, probe, serving

__all__ = ["player"]  # fixtures

pytestmark = pytest.mark.slow

THOROUGH_EXAMPLES = 25

schema = schemathesis.openapi.from_dict(openapi(), config=config())


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def base(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with serving(database(request.param, request, tmp_path_factory)) as address:
        yield address


@schema.parametrize()
@settings(max_examples=THOROUGH_EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck))
def test_every_operation_answers_as_declared_thoroughly(case: Any, base: str, player: str) -> None:
    probe(case, base, player)
