"""Starting a game and playing moves. The browser holds the move list; every request
carries it and the core replays and validates it, so nothing is kept here."""

from __future__ import annotations

from fastapi import APIRouter

from noughts.server.models import GUARDED, GameRequest, GameView, PlayRequest, error_answers
from noughts.server.replay import replay
from noughts.server.views import game_view

router = APIRouter(prefix="/api", tags=["play"], responses=error_answers(400, 422))


@router.post("/new", response_model=GameView, responses=GUARDED)
def new_game(request: GameRequest) -> GameView:
    """A new game of `spec` (from `start` when given), after `moves` if any."""
    return game_view(replay(request.spec, request.start, request.moves))


@router.post("/position", response_model=GameView, responses=GUARDED)
def position(request: GameRequest) -> GameView:
    """The position after `moves`: for restoring a saved game or reviewing an earlier one."""
    return game_view(replay(request.spec, request.start, request.moves))


@router.post("/play", response_model=GameView, responses=GUARDED)
def play(request: PlayRequest) -> GameView:
    """Plays `move` after `moves`. An illegal move is a 400 answer saying why."""
    return game_view(replay(request.spec, request.start, request.moves).then(request.move))
