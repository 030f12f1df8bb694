"""Test-wide settings."""

from __future__ import annotations

import contextlib
import importlib.util
import os
import shutil
import signal
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import pytest

# Solved tables are cached on disk; tests must not read or fill the user's cache (the
# published gobblet table's slow checks read it when it was built: the folder is kept in
# NOUGHTS_TEST_USER_CACHE_DIR, "" for the default, before the first process overrides it).
os.environ.setdefault("NOUGHTS_TEST_USER_CACHE_DIR", os.environ.get("NOUGHTS_CACHE_DIR", ""))
os.environ.setdefault("NOUGHTS_CACHE_DIR", tempfile.mkdtemp(prefix="noughts-test-cache-"))
# ... nor the user's online-play database (the default SQLite file lives in this folder).
os.environ.setdefault("NOUGHTS_DATA_DIR", tempfile.mkdtemp(prefix="noughts-test-data-"))

# A run started in the background by a script (`cmd &`, nohup) inherits SIGINT ignored,
# and so would every program the tests start, which then never sees the Ctrl-C the
# terminal and arena tests send. A Python handler here is reset to the default in
# every program exec'd from this process, an ignored signal is not.
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)


#: Where the tests start servers, browsers, databases or the ``noughts`` command in
#: other processes (folders, and modules elsewhere): marked `integration`, which
#: `make check` (the quick round) leaves out and `make test` runs.
_INTEGRATION = {
    "web",
    "server/online",
    "arena/test_arena_command.py",
    "arena/test_external.py",
    "arena/test_tune.py",
    "terminal/test_play.py",
    "terminal/test_review.py",
    "terminal/test_puzzle_command.py",
    "test_cli.py",
}


#: Modules whose every test is slow and costly to collect (schemathesis builds its tests
#: at collection, in every test process): not collected when the run leaves slow out.
_SLOW_MODULES = {"server/online/test_schema_probe_thorough.py"}


def pytest_configure(config: pytest.Config) -> None:
    # Under xdist the controller fills numba's cache once, while the test processes
    # start and collect, and they run no test before it is done
    # (`pytest_xdist_node_collection_finished`): with a cold cache each worker otherwise
    # compiled the kernels its tests use, four processes on two cores compiling much the
    # same (a nine-board test took 79 s in a cold worker, 0.9 s warm); compiled before
    # them, it held their start half a minute on one core.
    # Without numba (a run of tools/dependency_ranges.sh over some extras) there is
    # nothing to compile.
    kernels = importlib.util.find_spec("numba") is not None
    if kernels and config.getoption("numprocesses", None) and not hasattr(config, "workerinput"):
        # The fast engine (`noughts prepare`: a second when numba's cache has it, as
        # `make test` fills it before; while another process compiles, it waits for that
        # one and loads what it wrote), and
        # gobblet's solver kernels, which `prepare` leaves to `noughts solve`, by solving
        # its smallest set (a second once compiled): the workers' tests of the solver and
        # the study pages otherwise each compiled them (28 s in a cold worker). Its table
        # goes to a folder of its own, so the tests' cache folder holds no table they did
        # not build.
        folder = tempfile.mkdtemp(prefix="noughts-gobblet-warm-up-")
        gobblet = {**os.environ, "NOUGHTS_CACHE_DIR": folder}
        prepare = [sys.executable, "-m", "noughts.cli", "prepare", "--quiet"]
        config.stash[_WARM_UPS] = (
            [
                subprocess.Popen(prepare, stdout=subprocess.DEVNULL),
                subprocess.Popen([sys.executable, "-c", _GOBBLET_KERNELS], env=gobblet, stdout=subprocess.DEVNULL),
            ],
            folder,
        )


@pytest.hookimpl(optionalhook=True)  # xdist's hook: a run without xdist has none
def pytest_xdist_node_collection_finished(node: Any, ids: list[str]) -> None:
    """In the controller, as each test process has collected: its tests wait for the
    kernels to be compiled."""
    processes, _ = node.config.stash.get(_WARM_UPS, ([], ""))
    for process in processes:
        if process.wait() != 0:
            raise pytest.UsageError(f"compiling the kernels failed: {process.args} exited with {process.returncode}")


def pytest_unconfigure(config: pytest.Config) -> None:
    warm_ups = config.stash.get(_WARM_UPS, None)
    if warm_ups is not None:
        processes, folder = warm_ups
        for process in processes:
            process.wait()
        shutil.rmtree(folder, ignore_errors=True)


_WARM_UPS = pytest.StashKey[tuple[list["subprocess.Popen[bytes]"], str]]()
_GOBBLET_KERNELS = """
from noughts.ai import gobblet_table
from noughts.games.gobblet import Gobblet
gobblet_table.counts(Gobblet(copies=1))
"""


def pytest_ignore_collect(collection_path: Path, config: pytest.Config) -> bool | None:
    tests = Path(__file__).parent
    listed = collection_path.is_relative_to(tests) and collection_path.relative_to(tests).as_posix() in _SLOW_MODULES
    return True if listed and "not slow" in (config.getoption("markexpr") or "") else None


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    tests = Path(__file__).parent
    for item in items:
        if not item.path.is_relative_to(tests):
            continue  # the doctests in src
        where = item.path.relative_to(tests).as_posix()
        if any(where == listed or where.startswith(listed + "/") for listed in _INTEGRATION):
            item.add_marker(pytest.mark.integration)
    # The browser modules first, then the other integration modules, then the rest,
    # each module's tests together as collected. xdist's worksteal hands each process a
    # run of the collection and the idle ones take the ends of the others' runs: so
    # what is left at the end is short tests, not a browser module begun last, which
    # kept one process busy while the other cores idled (the suite on two cores).
    items.sort(key=_heaviness)


def _heaviness(item: pytest.Item) -> int:
    """0 for a test that drives a browser, 1 for another integration test, 2 else."""
    if "browser" in getattr(item, "fixturenames", ()):
        return 0
    return 1 if item.get_closest_marker("integration") else 2


#: The machine's Redis, for the tests of what runs on it (several server processes, the
#: thinking queue); they skip, saying why, where none answers.
REDIS = os.environ.get("NOUGHTS_TEST_REDIS", "redis://127.0.0.1:6379/0")


@pytest.fixture(scope="session")
def redis_url() -> str:
    import redis

    try:
        redis.Redis.from_url(REDIS, socket_connect_timeout=3).ping()
    except redis.RedisError as e:
        pytest.skip(f"Redis is not reachable at {REDIS}: {e}")
    return REDIS


class _Chromium:
    """The test process's Chromium, launched for the first test that drives a browser and
    kept while browser tests follow one another (the collection runs them first: see
    `_heaviness`): launching one per module cost a second or two of CPU each, some 40
    times a run. Playwright's sync API cannot run twice at once in one process, and while
    it runs it holds an event loop: so it is closed before any other test runs, which
    may call asyncio.run()."""

    def __init__(self) -> None:
        self._opened: contextlib.ExitStack | None = None
        self.browser: Any = None

    def get(self) -> Any:
        if self._opened is None:
            from web.browsing import launch_chromium

            with contextlib.ExitStack() as stack:
                self.browser = stack.enter_context(launch_chromium())
                self._opened = stack.pop_all()
        return self.browser

    def close(self) -> None:
        if self._opened is not None:
            opened, self._opened, self.browser = self._opened, None, None
            opened.close()


_CHROMIUM = _Chromium()


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item: pytest.Item) -> None:
    if "browser" not in getattr(item, "fixturenames", ()):
        _CHROMIUM.close()


def pytest_sessionfinish() -> None:
    _CHROMIUM.close()


@pytest.fixture
def browser() -> Any:
    """The test process's Chromium (`_Chromium`)."""
    return _CHROMIUM.get()
