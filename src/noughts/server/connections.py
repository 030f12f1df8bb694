"""What one client's connections may hold of `noughts serve`: a request's headers must
arrive within `HEADERS_SECONDS` (uvicorn has no such time-out: a connection trickling
its headers a byte at a time was kept for ever, and 1,100 of them from one client
denied every other request), at most `connection_cap()` connections at once (uvicorn
answers 503 beyond), and the open-files limit raised so that the cap is reached before
the limit is."""

from __future__ import annotations

import asyncio
import logging
import sys
from typing import Any

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

__all__ = ["HEADERS_SECONDS", "HeadersDeadline", "connection_cap", "raise_open_files"]

log = logging.getLogger(__name__)

#: Seconds a connection has to send a request's headers, from its first byte (or from
#: opening): nginx's client_header_timeout is 60 s; browsers send theirs at once.
HEADERS_SECONDS = 10.0
#: Files the process keeps for itself besides the connections: the database's, the
#: workers' pipes, the pages and modules it reads.
RESERVED_FILES = 256
#: The most connections one process takes, whatever the limit allows.
MOST_CONNECTIONS = 10_000


class HeadersDeadline(HttpToolsProtocol):
    """uvicorn's HTTP protocol, closing a connection whose request headers have not
    all come within HEADERS_SECONDS."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._deadline: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._arm()

    def on_message_begin(self) -> None:
        super().on_message_begin()
        self._arm()  # the next request on a kept connection has its own deadline

    def on_headers_complete(self) -> None:
        self._disarm()
        super().on_headers_complete()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)

    def _arm(self) -> None:
        if self._deadline is None:
            self._deadline = self.loop.call_later(HEADERS_SECONDS, self._late)

    def _disarm(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def _late(self) -> None:
        self._deadline = None
        if not self.transport.is_closing():
            self.transport.close()


def raise_open_files() -> int:
    """Raises this process's soft limit on open files to its hard limit (where the
    system has one to raise); the soft limit now."""
    if sys.platform == "win32":
        return MOST_CONNECTIONS + RESERVED_FILES
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = MOST_CONNECTIONS + RESERVED_FILES
    target = wanted if hard == resource.RLIM_INFINITY else min(hard, wanted)
    if soft != resource.RLIM_INFINITY and soft < target:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
            soft = target
        except (ValueError, OSError) as e:
            log.warning("could not raise the open-files limit from %d to %d: %s", soft, target, e)
    return wanted if soft == resource.RLIM_INFINITY else soft


def connection_cap(open_files: int) -> int:
    """The connections to take at once under `open_files`: what the limit leaves after
    the process's own files, at most MOST_CONNECTIONS."""
    return max(16, min(MOST_CONNECTIONS, open_files - RESERVED_FILES))
