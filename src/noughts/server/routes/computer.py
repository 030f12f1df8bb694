"""The computer's moves and analysis, computed in the worker pool."""

from __future__ import annotations

import time

from fastapi import APIRouter, Request

from noughts.core import IllegalMoveError
from noughts.server.models import GUARDED, AnalysisView, ComputerMove, ThinkRequest, error_answers
from noughts.server.replay import Replayed, RequestError, replay
from noughts.server.routes.askers import asker_of
from noughts.server.views import analysis_view, game_view
from noughts.thinking.jobs import ThinkJob
from noughts.thinking.lanes import Lane, Thinking

router = APIRouter(
    prefix="/api",
    tags=["computer"],
    responses=error_answers(400, 422, 429, 503),
)

#: The longest analysis that is a hint (the game page asks for one second), which waits
#: in the lane of moves; a longer look (the analysis board deepening) in the analysis lane.
HINT_SECONDS = 1.0


async def _analyze(request: Request, body: ThinkRequest, hint: bool = False) -> tuple[Replayed, AnalysisView]:
    asked = time.time()
    replayed = replay(body.spec, body.start, body.moves)
    if replayed.state.is_over:
        over = IllegalMoveError(f"the game is over ({replayed.state.status}): there is no move to think about")
        raise RequestError("moves", over)
    pool: Thinking = request.app.state.thinking
    job = ThinkJob(replayed.state, body.level, body.time, body.seed, mistakes=not hint, every_move=hint, asked=asked)
    lane = Lane.ANALYSIS if hint and body.time is not None and body.time > HINT_SECONDS else Lane.MOVE
    analysis = await pool.analyze(job, lane, await asker_of(request))
    return replayed, analysis_view(analysis, body.level, replayed.state.turn)


@router.post("/computer", response_model=ComputerMove, responses=GUARDED)
async def computer_move(request: Request, body: ThinkRequest) -> ComputerMove:
    """The move `level` plays after `moves` (within `time` seconds or the level's own
    limit), the analysis behind it, and the game after it. The alpha-beta levels list
    only the move they play: they prove the others worse without valuing them (the
    values of every move: /api/analysis)."""
    replayed, analysis = await _analyze(request, body)
    after = replayed.then(analysis.best)
    return ComputerMove(move=analysis.best, analysis=analysis, game=game_view(after))


@router.post("/analysis", response_model=AnalysisView, responses=GUARDED)
async def analysis(request: Request, body: ThinkRequest) -> AnalysisView:
    """Every legal move with its value for the player to move, best first: the hint
    (the level's search without the slips some levels make on purpose)."""
    return (await _analyze(request, body, hint=True))[1]
