"""The web app: `create_app` builds it; `noughts serve` runs it under uvicorn.

The server is an adapter around the core: every move is validated by replaying the
game the browser sends, and the computer thinks in a pool of worker processes.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from noughts.server.app import create_app
    from noughts.server.settings import Settings

__all__ = ["Settings", "create_app"]


def __getattr__(name: str) -> Any:
    # Imported on first use: `noughts --help` and every other command import this
    # package for `serve`'s options, and the web app's imports cost a second.
    if name == "create_app":
        from noughts.server.app import create_app

        return create_app
    if name == "Settings":
        from noughts.server.settings import Settings

        return Settings
    raise AttributeError(name)
