"""One server for a whole test module, on each database, for the modules whose tests
need no server of their own: each test's people have names of their own and look only
at what they made, so none sees another's state. A module opts in by importing both
fixtures (they take the place of conftest.py's, one a test); a server's start and stop
cost a test process about a second, which a module of 30 tests paid 30 times.

The parameter keeps the name `database_url`, so conftest.py's rule for PostgreSQL's
variants (make test-slow, except `both_databases`) holds here too."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from noughts.server import Settings
from server.online.people import FAST
from server.online.servers import in_thread


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def database_url(
    request: pytest.FixtureRequest, migrated_sqlite: Path, tmp_path_factory: pytest.TempPathFactory
) -> str:
    if request.param == "postgresql":
        url: str = request.getfixturevalue("postgres_url")
        return url
    target = tmp_path_factory.mktemp("shared") / "online.db"
    shutil.copyfile(migrated_sqlite, target)
    return f"sqlite:///{target}"


@pytest.fixture(scope="module")
def server(database_url: str) -> Iterator[str]:
    with in_thread(Settings(database=database_url, ai_workers=1, online=FAST)) as address:
        yield address
