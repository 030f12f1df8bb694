"""Study: a game's review, computed once in the worker pool and kept (`noughts.server.reviews`)."""

from __future__ import annotations

import time
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Path, Request
from fastapi.responses import JSONResponse
from pydantic import Field

from noughts.core import NoughtsError
from noughts.records import GameRecord
from noughts.server.models import (
    GUARDED,
    MoveText,
    RecordRequest,
    RecordView,
    ReviewProgress,
    ReviewRequest,
    ReviewView,
    ThinkRequest,
    ValueView,
    _Model,
    error_answers,
)
from noughts.server.online.actions import MissingError
from noughts.server.replay import RequestError, replay
from noughts.server.reviews import Answer, Reviews, computing
from noughts.server.routes.askers import asker_of
from noughts.server.views import value_view
from noughts.study import Judgement, judge_move
from noughts.thinking.jobs import ThinkJob
from noughts.thinking.lanes import Lane, Thinking

router = APIRouter(
    prefix="/api",
    tags=["study"],
    responses=error_answers(400, 422, 429, 503),
)


_COMPUTING: dict[int | str, dict[str, Any]] = {
    202: {"model": ReviewProgress, "description": "being computed: ask again for the review"}
}


@router.post("/review", response_model=ReviewView, responses={**GUARDED, **_COMPUTING})
async def review(request: Request, body: ReviewRequest) -> ReviewView | JSONResponse:
    """Every move of the game valued by `level` (`time` seconds a position) and classed
    best, good, inaccuracy, mistake or blunder by the chance it gave away, with the
    better move and its line, each player's accuracy, and x's chance in every position
    (the graph). Moves are checked first: a bad one is a 400 naming it.

    Each review is computed once and kept: asked again, it is answered at once. While
    it is computed (up to `wait` seconds asked for) the answer is its progress, a 202
    with the address to ask again (this request again does as well)."""
    replayed = replay(body.spec, body.start, body.moves)
    reviews: Reviews = request.app.state.reviews
    answer = await reviews.of_page_game(replayed, body.start, body.level, body.time, await asker_of(request))
    if not isinstance(answer, str):
        answer = await reviews.wait(answer, body.wait)
    return _answer(answer)


@router.get("/review/{key}", response_model=ReviewView, responses={**error_answers(404), **_COMPUTING})
async def review_by_key(
    key: Annotated[str, Path(pattern="^[0-9a-f]{64}$")], request: Request
) -> ReviewView | JSONResponse:
    """A review asked for with `POST /api/review`, by the key its progress gave: the
    review once computed, its progress (202) until then."""
    reviews: Reviews = request.app.state.reviews
    answer = await reviews.of_page_key(key)
    if answer is None:
        raise MissingError("no-such-review", "no review of that key was asked for")
    return _answer(answer)


def _answer(answer: Answer) -> ReviewView | JSONResponse:
    if isinstance(answer, str):
        return ReviewView.model_validate_json(answer)
    return computing(answer, f"/api/review/{answer.key}")


@router.post("/record", response_model=RecordView, responses=GUARDED)
def read_record(body: RecordRequest) -> RecordView:
    """A game record (text or JSON) read and every move checked: the game to open on the
    analysis board. A record that fails is a 400 naming what is wrong."""
    try:
        record = GameRecord.parse(body.text)
        record.replay()
    except NoughtsError as e:
        raise RequestError("text", e) from None
    return RecordView(
        spec=record.game.spec,
        start=record.start,
        moves=record.moves,
        x=record.x,
        o=record.o,
        result=record.result,
        termination=record.termination,
    )


class AttemptRequest(ThinkRequest):
    """A move tried in the position after `moves`, in place of the one played there."""

    move: MoveText


class AttemptView(_Model):
    """A tried move judged as the review judges a move: its class, and whether it keeps
    the position's value (best or good: it gives away less than an inaccuracy)."""

    move: str
    judgement: Annotated[
        Literal["best", "good", "inaccuracy", "mistake", "blunder"], Field(alias="class", description="the class")
    ]
    accepted: bool = Field(description="best or good: a move as good as the best by the review's values")
    value: ValueView = Field(description="the tried move's value for its mover")
    best: str
    best_value: ValueView = Field(description="the best move's value, the position's")


@router.post("/review-attempt", response_model=AttemptView, responses=GUARDED)
async def attempt(request: Request, body: AttemptRequest) -> AttemptView:
    """Learn from your mistakes: the move `move` tried after `moves`, judged by
    `level` (`time` seconds) with the review's own rules (`noughts.study.judge_move`).
    A move that is not legal there, or a game that is over, is a 400 naming it, before
    anything is computed."""
    asked = time.time()
    replayed = replay(body.spec, body.start, body.moves)
    replayed.then(body.move)  # a move that cannot be played is refused before the pool is asked
    pool: Thinking = request.app.state.thinking
    job = ThinkJob(replayed.state, body.level, body.time, body.seed, mistakes=False, every_move=True, asked=asked)
    analysis = await pool.analyze(job, Lane.ANALYSIS, await asker_of(request))
    judgement = judge_move(analysis, replayed.state, body.move)
    played = replayed.game.parse_move(body.move)
    tried = next(info for info in analysis.moves if info.move == played)
    return AttemptView.model_validate(
        {
            "move": tried.text,
            "class": judgement.value,
            "accepted": judgement in (Judgement.BEST, Judgement.GOOD),
            "value": value_view(tried.value, analysis.scale),
            "best": analysis.moves[0].text,
            "best_value": value_view(analysis.value, analysis.scale),
        }
    )
