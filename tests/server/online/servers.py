"""Servers for tests: the app under uvicorn in a thread of the test process, and
`noughts serve` as a separate process, as users run it."""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import shutil
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
import uvicorn

from noughts.server import Settings, create_app
from noughts.server.commands import KEEP_ALIVE_SECONDS


@contextmanager
def in_thread(settings: Settings) -> Iterator[str]:
    """The app under uvicorn on a free port, in a thread: real sockets. Its address."""
    with in_thread_loop(settings) as (address, _):
        yield address


@contextmanager
def in_thread_loop(settings: Settings) -> Iterator[tuple[str, asyncio.AbstractEventLoop]]:
    """`in_thread`'s address and the server's event loop (to stand it still, say)."""
    app = create_app(settings)
    config = uvicorn.Config(
        app, host="127.0.0.1", port=0, log_level="warning", ws_max_size=1 << 20, timeout_keep_alive=KEEP_ALIVE_SECONDS
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    for _ in range(500):
        if server.started:
            break
        time.sleep(0.01)
    else:
        raise RuntimeError("the test server did not start")
    listening = server.servers[0]
    port = listening.sockets[0].getsockname()[1]
    try:
        yield f"http://127.0.0.1:{port}", listening.get_loop()
    finally:
        server.should_exit = True
        thread.join(10)


@contextmanager
def serving(
    database: str, redis: str | None = None, prefix: str | None = None, env: dict[str, str] | None = None
) -> Iterator[tuple[subprocess.Popen[str], str]]:
    """Starts `noughts serve --port 0` (with `env` added to the environment) and yields
    the process and its address. What the server prints is read as it comes (a full pipe
    would stop the server at its next line) and shown when the test fails, with whether
    the server was still running."""
    command = [sys.executable, "-m", "noughts.cli", "serve", "--port", "0", "--workers", "1", "--database", database]
    if redis:
        command += ["--redis", redis]
    environment = {**os.environ, "NOUGHTS_DATA_DIR": str(Path(database.rpartition("///")[2]).parent), **(env or {})}
    if prefix:
        environment["NOUGHTS_REDIS_PREFIX"] = prefix
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=environment)
    try:
        assert process.stdout is not None
        line = address_line(process)
        match = re.search(r"http://[\d.]+:\d+", line)
        if match is None:
            raise RuntimeError(f"noughts serve did not start: {line}{process.stdout.read()}")
        said: list[str] = []
        threading.Thread(target=said.extend, args=(process.stdout,), daemon=True).start()
        try:
            yield process, match.group(0)
        except BaseException:
            code = process.poll()
            state = "still running" if code is None else f"exited with {code}"
            print(f"noughts serve (pid {process.pid}, {state}) said:", *said, sep="\n  ", file=sys.stderr)
            raise
    finally:
        if process.poll() is None:
            process.terminate()
        try:
            process.wait(30)
        except subprocess.TimeoutExpired:
            # Slow to stop on a loaded machine: how a server stops is not what these
            # tests are about, and none may be left running.
            process.kill()
            process.wait(10)


def address_line(process: subprocess.Popen[str]) -> str:
    """What `noughts serve` printed up to its address (on a machine where the fast
    engine is not compiled yet, it first says that it compiles it)."""
    assert process.stdout is not None
    said = ""
    while "http://" not in said:
        line = process.stdout.readline()
        if not line:
            break
        said += line
    return said


class PrivateRedis:
    """A Redis server of the test's own on a free port (no persistence), which the test
    may stop and start again on the same port: Redis going away and coming back."""

    def __init__(self, binary: str) -> None:
        self.binary = binary
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            self.port = probe.getsockname()[1]
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        command = [self.binary, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"]
        self.process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        for _ in range(500):
            with socket.socket() as probe:
                if probe.connect_ex(("127.0.0.1", self.port)) == 0:
                    return
            time.sleep(0.01)
        raise RuntimeError("the private Redis did not start")

    def stop(self) -> None:
        if self.process is not None:
            self.process.kill()
            self.process.wait(10)
            self.process = None


@contextmanager
def private_redis() -> Iterator[PrivateRedis]:
    """A running `PrivateRedis`; the test is skipped when redis-server is not installed."""
    binary = shutil.which("redis-server")
    if binary is None:
        pytest.skip("redis-server is not installed: it is needed to stop and start a Redis of the test's own")
    server = PrivateRedis(binary)
    server.start()
    try:
        yield server
    finally:
        server.stop()


class Cuttable:
    """A TCP forwarder to `target` on a port of its own, whose link the test cuts and
    mends: a server behind it sees its database go away (every connection reset, new
    ones refused) and come back, as when PostgreSQL restarts or the network fails."""

    def __init__(self, target: tuple[str, int]) -> None:
        self.target = target
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            self.port = probe.getsockname()[1]
        self._listener: socket.socket | None = None
        self._open: list[socket.socket] = []
        self._lock = threading.Lock()

    def mend(self) -> None:
        """Listens (again): connections reach the target."""
        listener = socket.socket()
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind(("127.0.0.1", self.port))
        listener.listen(64)
        self._listener = listener
        threading.Thread(target=self._accept, args=(listener,), daemon=True).start()

    def cut(self) -> None:
        """Refuses new connections and resets the open ones."""
        with self._lock:
            if self._listener is not None:
                # shutdown first: close alone leaves the thread in accept() listening.
                with contextlib.suppress(OSError):
                    self._listener.shutdown(socket.SHUT_RDWR)
                self._listener.close()
                self._listener = None
            for sock in self._open:
                with contextlib.suppress(OSError):
                    sock.shutdown(socket.SHUT_RDWR)
                sock.close()
            self._open.clear()

    def _accept(self, listener: socket.socket) -> None:
        while True:
            try:
                client, _ = listener.accept()
            except OSError:
                return  # cut
            try:
                upstream = socket.create_connection(self.target, timeout=5)
            except OSError:
                client.close()
                continue
            upstream.settimeout(None)
            with self._lock:
                self._open += [client, upstream]
            for source, sink in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pipe, args=(source, sink), daemon=True).start()

    @staticmethod
    def _pipe(source: socket.socket, sink: socket.socket) -> None:
        with contextlib.suppress(OSError):
            while data := source.recv(65536):
                sink.sendall(data)
        with contextlib.suppress(OSError):
            sink.shutdown(socket.SHUT_WR)
