"""A finished online game's computer analysis: computed in the background when the game
ends (`noughts.server.reviews`), stored with the game and shown to everyone who opens it."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel

from noughts.server.models import GUARDED, ReviewProgress, ReviewView, error_answers
from noughts.server.online.actions import ActionError, GameRow
from noughts.server.online.sessions import LoggedIn, online_of
from noughts.server.reviews import Answer, Reviews, computing

router = APIRouter(
    prefix="/api/online",
    tags=["online games"],
    responses=error_answers(401, 404, 409),
)


class StoredAnalysis(BaseModel):
    """A game's analysis: the review once computed; its progress while it is; both null
    while the game goes on (not an error: a page asks on every game it shows)."""

    review: ReviewView | None
    progress: ReviewProgress | None = None


@router.get("/games/{game_id}/analysis", response_model=StoredAnalysis)
async def stored_analysis(game_id: str, request: Request) -> StoredAnalysis:
    """The game's analysis, or its progress. A finished game's is started when the game
    ends; one that is neither stored nor under way (the server stopped meanwhile) is
    started now."""
    online = online_of(request)
    await online.start()
    row = await online.play.game(game_id)
    answer = await _reviews(request).of_online_game(row, start=row.state == "over")
    return _analysis(answer)


@router.post(
    "/games/{game_id}/analysis",
    response_model=ReviewView,
    responses={**GUARDED, 202: {"model": ReviewProgress, "description": "being computed: ask again"}},
)
async def request_analysis(game_id: str, request: Request, user: LoggedIn) -> ReviewView | JSONResponse:
    """A finished game's analysis (`max`, half a second a position): the stored one, or
    its progress (202) while it is computed, started now if it was not under way."""
    online = online_of(request)
    row = await online.play.game(game_id)
    answer = await _over(request, row)
    if isinstance(answer, str):
        return ReviewView.model_validate_json(answer)
    return computing(answer, f"/api/online/games/{game_id}/analysis")


async def _over(request: Request, row: GameRow) -> Answer:
    if row.state != "over":
        raise ActionError("game-not-over", "a game is analysed once it is over")
    answer = await _reviews(request).of_online_game(row)
    assert answer is not None  # started if not stored
    return answer


def _reviews(request: Request) -> Reviews:
    reviews: Reviews = request.app.state.reviews
    return reviews


def _analysis(answer: Answer | None) -> StoredAnalysis:
    if answer is None:
        return StoredAnalysis(review=None)
    if isinstance(answer, str):
        return StoredAnalysis(review=ReviewView.model_validate_json(answer))
    return StoredAnalysis(review=None, progress=ReviewProgress(key=answer.key, done=answer.done, total=answer.total))
