"""How the web app is set up: what `noughts serve` passes to `create_app`."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from noughts.server.online.config import OnlineConfig

#: The page: static ES modules and CSS, served as they are (no build step).
WEB_DIR = Path(__file__).resolve().parent.parent / "web"


@dataclass(frozen=True)
class Settings:
    """`database` is the URL online play stores accounts and games in (None:
    $NOUGHTS_DATABASE_URL, else an SQLite file in the user's data folder). `ai_workers`
    sizes the thinking pool (None: one per core, at most four). `warm_kernels` starts the
    pool with the app and has each worker compile (or load) the compiled players'
    kernels at once, the app answering once they all have, so that the first ultimate or
    qubic game at hard or max does not wait 15-30 s for numba; `noughts serve` turns it
    on, tests leave it off.
    `max_think` caps the seconds the computer thinks for any request that names a time
    (an analysis, a hint, each position of a review): an operator's bound on one
    request's CPU (None: as asked, up to the routes' own limits).
    `workers_on` is the Redis URL where `noughts worker` processes take the thinking
    (`noughts.thinking.queue`; None: this server's own worker processes).
    `announce` hears what start-up is waiting for as it starts each part (`noughts
    serve` prints it until its address), None: nothing is said."""

    database: str | None = None
    ai_workers: int | None = None
    web_dir: Path = WEB_DIR
    #: Online play's fan-out between server processes (None: this process only).
    redis: str | None = None
    online: OnlineConfig = field(default_factory=OnlineConfig)
    warm_kernels: bool = False
    max_think: float | None = None
    workers_on: str | None = None
    announce: Callable[[str], None] | None = field(default=None, compare=False)
