"""What there is to play: games, options, rules, levels."""

from __future__ import annotations

from fastapi import APIRouter

from noughts import __version__
from noughts.server.catalog import catalogue
from noughts.server.models import Catalogue

router = APIRouter(prefix="/api", tags=["catalogue"])


@router.get("/games", response_model=Catalogue)
def games() -> Catalogue:
    """Every game with its options (defaults and ranges), its rules and notation, and the
    computer levels."""
    return catalogue()


@router.get("/health")
def health() -> dict[str, str]:
    """Answers when the server is up."""
    return {"status": "ok", "version": __version__}
