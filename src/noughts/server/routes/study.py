"""Study: a game's review, computed in the worker pool."""

from __future__ import annotations

from fastapi import APIRouter, Request

from noughts.core import NoughtsError
from noughts.records import GameRecord
from noughts.server.models import GUARDED, RecordRequest, RecordView, ReviewRequest, ReviewView, error_answers
from noughts.server.replay import RequestError, replay
from noughts.server.routes.askers import asker_of
from noughts.server.thinking import Thinking

router = APIRouter(
    prefix="/api",
    tags=["study"],
    responses=error_answers(400, 422, 429, 503),
)


@router.post("/review", response_model=ReviewView, responses=GUARDED)
async def review(request: Request, body: ReviewRequest) -> ReviewView:
    """Every move of the game valued by `level` (`time` seconds a position) and classed
    best, good, inaccuracy, mistake or blunder by the chance it gave away, with the
    better move and its line, each player's accuracy, and x's chance in every position
    (the graph). Moves are checked first: a bad one is a 400 naming it."""
    replayed = replay(body.spec, body.start, body.moves)
    pool: Thinking = request.app.state.thinking
    data = await pool.review(replayed, body.level, body.time, await asker_of(request))
    return ReviewView.model_validate(data)


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
