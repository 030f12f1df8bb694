"""Puzzles: positions where exactly one move wins by force (`noughts.study.puzzles`),
for everyone; ratings, history and the best streak for players who are signed in.

A solver plays the puzzle's moves one at a time through `check`: a move of the stored
solution is answered at once from it; any other from the puzzle's answer key
(`noughts.study.answer_keys`: gobblet, qubic), else by the exact prover in the
worker pool (a different follow-up that still wins is accepted; a wrong move gets its
refutation). The page then reports the outcome with `attempt`, which counts the
player's first attempt at each puzzle for both ratings, once.
"""

from __future__ import annotations

import logging
import random
from datetime import UTC, datetime
from typing import Annotated, Literal

from fastapi import APIRouter, Query, Request
from pydantic import BaseModel, ConfigDict, Field

from noughts.competition.clock import now_ms
from noughts.competition.ratings import is_provisional
from noughts.core import IllegalMoveError
from noughts.registry import title
from noughts.server.models import GUARDED, MAX_MOVES, WHOLE, MoveText, RequestBody, Spec, error_answers
from noughts.server.online.actions import ActionError, GameRow, MissingError
from noughts.server.online.schemas import PuzzleRating
from noughts.server.online.service import Online
from noughts.server.online.sessions import LoggedIn, current_user, online_of
from noughts.server.online.storage.puzzles import AttemptRow, PuzzlePlayerRow, PuzzleRow, Tally
from noughts.server.online.storage.store import NotFoundError
from noughts.server.replay import replay
from noughts.server.routes.askers import asker_of
from noughts.study.answer_keys import judge_by_key
from noughts.study.puzzles import Judged, Puzzle, on_line, shipped_contexts
from noughts.thinking.lanes import ComputerBusyError, Thinking, ThinkingError

log = logging.getLogger(__name__)

router = APIRouter(
    prefix="/api/puzzles",
    tags=["puzzles"],
    # 400: a body that is not JSON, an illegal move; 409: moves that do not end with the
    # solver's; 422: a body of the wrong shape.
    responses=error_answers(400, 404, 409, 422),
)

#: Seconds the prover may take to judge a move off the stored line.
JUDGE_SECONDS = 2.0
#: Puzzles in one streak run: more than anybody solves in a row at rising difficulty.
STREAK_LENGTH = 40
#: A finished online game's last positions searched for puzzles, and the prover's time
#: on each: the end of a game is where wins are forced and proved.
MINED_PLIES = 30
MINE_SECONDS = 0.3
#: The source of the puzzles found in a private game, which names no game: a private
#: game is reachable through its invite link only, and every puzzle is public (its
#: players still find them under "yours", by the game stored beside them).
PRIVATE_SOURCE = "a private online game"
#: The rating a visitor's next puzzle is chosen near, without one given.
VISITOR_RATING = 1500.0
#: How far from the player's rating each difficulty chooses (lichess's steps).
DIFFICULTY = {"easiest": -600, "easier": -300, "normal": 0, "harder": 300, "hardest": 600}
Difficulty = Literal["easiest", "easier", "normal", "harder", "hardest"]
#: The longest stretch the dashboard tallies, in days.
MAX_DASHBOARD_DAYS = 365
_DAY_MS = 86_400_000
_ID = Annotated[str, Field(min_length=1, max_length=12, pattern="^[a-z2-7]+$")]


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid")


class PuzzleView(_Model):
    """A puzzle: the position (its side to move solves), the solution (the solver's
    moves and the defender's best replies, in turn), its themes and rating."""

    id: str
    spec: str
    title: str
    position: str
    solution: list[str]
    plies: int = Field(description="the forced win's length in plies")
    themes: list[str]
    rating: int
    attempts: int
    solved: int
    source: str
    origin_game: str | None = Field(description="the online game it was found in, if any")
    before: str | None = Field(description="the position the puzzle arose from, where known")
    last_move: str | None = Field(description="the move played in `before` that made the puzzle's position")


class GameCount(_Model):
    spec: str
    title: str
    count: int


class ThemeCount(_Model):
    theme: str
    count: int


class PuzzleCatalogue(_Model):
    total: int
    games: list[GameCount]
    themes: list[ThemeCount]


class DailyPuzzle(_Model):
    day: str = Field(description="the day (UTC), YYYY-MM-DD")
    puzzle: PuzzleView


class StreakRun(_Model):
    """Puzzles of rising rating: solved in a row until the first mistake."""

    seed: int
    puzzles: list[PuzzleView]


class CheckRequest(RequestBody):
    moves: Annotated[
        list[MoveText],
        Field(
            min_length=1,
            max_length=MAX_MOVES,
            description="the moves from the puzzle's position so far, both sides', ending with the solver's",
        ),
    ]


class CheckView(_Model):
    correct: bool = Field(description="the last move keeps the forced win")
    solved: bool = Field(description="the puzzle is solved: the game is won, or the line is over")
    reply: str | None = Field(description="the defender's answer (after a wrong move: the refutation's first move)")
    refutation: list[str] = Field(description="after a wrong move: the defender's line from there")
    verdict: str = Field(description="after a wrong move: what the position is worth now")


class AttemptRequest(RequestBody):
    solved: bool = Field(description="whether the player solved it without a wrong move (a hint or the solution "
                         "viewed counts as not solved)")  # fmt: skip


class AttemptView(_Model):
    puzzle_id: str
    solved: bool
    first: bool = Field(description="false when this player's attempt had been counted already: nothing changed")
    rating_before: int
    rating_after: int
    puzzle_rating_before: int
    puzzle_rating_after: int


class HistoryEntry(_Model):
    attempt: AttemptView
    puzzle: PuzzleView
    at: int = Field(description="milliseconds since 1970")


class PuzzleProfile(_Model):
    rating: PuzzleRating
    history: list[HistoryEntry]


class StreakRequest(RequestBody):
    score: Annotated[int, Field(ge=0, le=STREAK_LENGTH, description="puzzles solved in a row"), WHOLE]


class StreakBest(_Model):
    best_streak: int


class Results(_Model):
    attempts: int
    solved: int
    rating_change: int = Field(description="the puzzle rating won (or lost, below 0) by these attempts")


class GameResults(Results):
    spec: str
    title: str


class ThemeResults(Results):
    theme: str


class Dashboard(_Model):
    """The signed-in player's counted attempts of the last `days` days, by game and by
    theme (a puzzle counts under each of its themes), the most tried first."""

    days: int
    rating: PuzzleRating
    total: Results
    games: list[GameResults]
    themes: list[ThemeResults]


def _view(row: PuzzleRow) -> PuzzleView:
    before, last_move = shipped_contexts().get(row.id, (None, None))
    return PuzzleView(
        id=row.id, spec=row.spec, title=title(row.spec), position=row.position, solution=row.solution,
        plies=row.plies, themes=row.themes, rating=round(row.rating), attempts=row.attempts, solved=row.solved,
        source=row.source, origin_game=None if row.source == PRIVATE_SOURCE else row.origin_game,
        before=before, last_move=last_move,
    )  # fmt: skip


def _attempt(row: AttemptRow) -> AttemptView:
    return AttemptView(
        puzzle_id=row.puzzle_id, solved=row.solved, first=row.first, rating_before=round(row.rating_before),
        rating_after=round(row.rating_after), puzzle_rating_before=round(row.puzzle_rating_before),
        puzzle_rating_after=round(row.puzzle_rating_after),
    )  # fmt: skip


async def _puzzle(request: Request, puzzle_id: str) -> PuzzleRow:
    online = online_of(request)
    await online.start()
    try:
        return await online.store.call(online.puzzles.puzzle, puzzle_id)
    except NotFoundError:
        raise MissingError("no-such-puzzle", f"there is no puzzle {puzzle_id!r}") from None


@router.get("", response_model=PuzzleCatalogue)
async def catalogue(
    request: Request,
    spec: Annotated[Spec | None, Query(description="count the themes in this game's puzzles only")] = None,
) -> PuzzleCatalogue:
    """How many puzzles there are in each game and of each theme (in `spec`'s puzzles, if
    given: the themes a filter by that game offers): the filters."""
    online = online_of(request)
    await online.start()
    games, themes = await online.store.call(online.puzzles.catalogue, spec)
    return PuzzleCatalogue(
        total=sum(n for _, n in games),
        games=[GameCount(spec=s, title=title(s), count=n) for s, n in games],
        themes=[ThemeCount(theme=t, count=n) for t, n in themes],
    )


@router.get("/next", response_model=PuzzleView)
async def next_puzzle(
    request: Request,
    spec: Annotated[Spec | None, Query(description="only this game's puzzles")] = None,
    theme: Annotated[str | None, Query(max_length=40, description="only puzzles of this theme")] = None,
    rating: Annotated[int | None, Query(ge=0, le=4000, description="near this rating (default: yours)")] = None,
    difficulty: Annotated[
        Difficulty, Query(description="easier or harder than that rating: 300 points a step, as lichess")
    ] = "normal",
    exclude: Annotated[str, Query(max_length=2000, description="ids to leave out, comma separated")] = "",
) -> PuzzleView:
    """A puzzle near the player's puzzle rating (or `rating`), moved by `difficulty`, that
    a signed-in player has not tried yet; 404 no-puzzle-left when the filters leave none."""
    online = online_of(request)
    user = await current_user(request)
    near = float(rating) if rating is not None else VISITOR_RATING
    if user is not None and rating is None:
        near = (await online.store.call(online.puzzles.player, user.id, now_ms())).rating
    near += DIFFICULTY[difficulty]
    skipped = [part for part in exclude.split(",") if part][:200]
    found = await online.store.call(
        online.puzzles.choose, near, spec, theme, None if user is None else user.id, skipped
    )
    if found is None:
        raise MissingError("no-puzzle-left", "no puzzle left with these filters: try another game or theme")
    return _view(found)


@router.get("/daily", response_model=DailyPuzzle)
async def daily(request: Request) -> DailyPuzzle:
    """Today's puzzle (UTC), the same for everyone."""
    online = online_of(request)
    await online.start()
    day = datetime.now(UTC).strftime("%Y-%m-%d")
    found = await online.store.call(online.puzzles.daily, day)
    if found is None:
        raise MissingError("no-puzzle-left", "there are no puzzles yet")
    return DailyPuzzle(day=day, puzzle=_view(found))


@router.get("/streak", response_model=StreakRun)
async def streak(
    request: Request,
    spec: Annotated[Spec | None, Query(description="only this game's puzzles")] = None,
    theme: Annotated[str | None, Query(max_length=40, description="only puzzles of this theme")] = None,
    seed: Annotated[int | None, Query(ge=0, le=2**31 - 1, description="the same seed gives the same run")] = None,
) -> StreakRun:
    """A streak run: puzzles from easy to hard, to be solved in a row."""
    online = online_of(request)
    await online.start()
    seed = random.randrange(2**31) if seed is None else seed
    found = await online.store.call(online.puzzles.streak, STREAK_LENGTH, spec, theme, seed)
    if not found:
        raise MissingError("no-puzzle-left", "no puzzle with these filters")
    return StreakRun(seed=seed, puzzles=[_view(p) for p in found])


@router.post("/streak", response_model=StreakBest, responses={**error_answers(401), **GUARDED})
async def record_streak(body: StreakRequest, request: Request, user: LoggedIn) -> StreakBest:
    """Keeps a finished streak run's score if it is the player's best."""
    online = online_of(request)
    best = await online.store.call(online.puzzles.record_streak, user.id, body.score, now_ms())
    return StreakBest(best_streak=best)


@router.get("/me", response_model=PuzzleProfile, responses=error_answers(401))
async def mine(
    request: Request,
    user: LoggedIn,
    limit: Annotated[int, Query(ge=1, le=200)] = 50,
    offset: Annotated[int, Query(ge=0, le=1_000_000)] = 0,
) -> PuzzleProfile:
    """The signed-in player's puzzle rating and attempts, the newest first."""
    online = online_of(request)
    row = await online.store.call(online.puzzles.player, user.id, now_ms())
    history = await online.store.call(online.puzzles.history, user.id, limit, offset)
    return PuzzleProfile(
        rating=puzzle_rating(row),
        history=[HistoryEntry(attempt=_attempt(a), puzzle=_view(p), at=a.created_at) for a, p in history],
    )


@router.get("/dashboard", response_model=Dashboard, responses=error_answers(401))
async def dashboard(
    request: Request,
    user: LoggedIn,
    days: Annotated[int, Query(ge=1, le=MAX_DASHBOARD_DAYS, description="the attempts of the last days")] = 30,
) -> Dashboard:
    """The signed-in player's results of the last `days` days by game and by theme: how
    many tried, how many solved, the rating won (lichess's puzzle dashboard)."""
    online = online_of(request)
    now = now_ms()
    row = await online.store.call(online.puzzles.player, user.id, now)
    games, themes = await online.store.call(online.puzzles.results, user.id, now - days * _DAY_MS)

    def results(tally: Tally) -> dict[str, int]:
        return {"attempts": tally.attempts, "solved": tally.solved, "rating_change": round(tally.rating_change)}

    def most_tried(item: tuple[str, Tally]) -> tuple[int, str]:
        return (-item[1].attempts, item[0])

    total = Tally(
        sum(t.attempts for t in games.values()),
        sum(t.solved for t in games.values()),
        sum(t.rating_change for t in games.values()),
    )
    return Dashboard(
        days=days,
        rating=puzzle_rating(row),
        total=Results(**results(total)),
        games=[GameResults(spec=s, title=title(s), **results(t)) for s, t in sorted(games.items(), key=most_tried)],
        themes=[ThemeResults(theme=k, **results(t)) for k, t in sorted(themes.items(), key=most_tried)],
    )


def puzzle_rating(row: PuzzlePlayerRow) -> PuzzleRating:
    """A player's puzzle rating as shown (here and on their profile)."""
    return PuzzleRating(
        rating=round(row.rating),
        deviation=round(row.deviation),
        provisional=is_provisional(row.deviation),
        attempts=row.attempts,
        solved=row.solved,
        best_streak=row.best_streak,
    )


@router.get("/yours", response_model=list[PuzzleView], responses=error_answers(401))
async def yours(request: Request, user: LoggedIn) -> list[PuzzleView]:
    """Puzzles found in the signed-in player's own online games that they have not
    tried, the newest first."""
    online = online_of(request)
    return [_view(p) for p in await online.store.call(online.puzzles.from_games_of, user.id)]


async def mine_finished_game(pool: Thinking, online: Online, row: GameRow) -> None:
    """Looks for puzzles in a game that just ended (its last `MINED_PLIES` positions,
    in the worker pool) and keeps them for its players. Games without an exact prover
    (Forget mode, gobblet for now) have none."""
    moves = row.moves.split()
    if len(moves) < 2:
        return
    source = PRIVATE_SOURCE if row.private else f"online game {row.id}"
    try:
        found = await pool.mine_game(replay(row.spec, None, moves), MINE_SECONDS, source, MINED_PLIES)
    except ThinkingError as e:
        # Nobody waits for it: a busy or failing pool drops it, in a line (not a traceback).
        dropped = "dropped" if isinstance(e, ComputerBusyError) else "failed"
        log.warning("the puzzle search in game %s %s: %s", row.id, dropped, e)
        return
    if found:
        puzzles = [Puzzle.from_json(data) for data in found]
        await online.store.call(online.puzzles.add, puzzles, now_ms(), row.id)
        log.info("%d puzzles found in game %s", len(puzzles), row.id)


@router.get("/{puzzle_id}", response_model=PuzzleView)
async def puzzle(puzzle_id: _ID, request: Request) -> PuzzleView:
    """One puzzle."""
    return _view(await _puzzle(request, puzzle_id))


@router.post("/{puzzle_id}/check", response_model=CheckView, responses={**error_answers(503), **GUARDED})
async def check(puzzle_id: _ID, body: CheckRequest, request: Request) -> CheckView:
    """Judges the solver's last move: a move of the stored solution at once, any other
    from the puzzle's answer key or by the exact prover (a different follow-up that
    still wins is correct). Illegal
    moves are refused with 400 and the field at fault."""
    row = await _puzzle(request, puzzle_id)
    replay(row.spec, row.position, body.moves)  # 400 with the move at fault
    if len(body.moves) % 2 == 0:
        raise ActionError("not-your-turn", "the moves must end with the solver's (an odd number of them)")
    puzzle = Puzzle(row.spec, row.position, row.solution, row.plies)
    # The stored line and the answer keys need no search: no trip to the pool.
    judged = on_line(puzzle, list(body.moves)) or _by_key(puzzle, list(body.moves))
    if judged is None:
        pool: Thinking = request.app.state.thinking
        judged = await pool.judge(puzzle.to_json(), list(body.moves), JUDGE_SECONDS, await asker_of(request))
    return CheckView(
        correct=judged.correct, solved=judged.solved, reply=judged.reply, refutation=judged.refutation,
        verdict=judged.verdict,
    )  # fmt: skip


def _by_key(puzzle: Puzzle, moves: list[str]) -> Judged | None:
    """The judgement from the puzzle's answer key, if it has one; 400 when the moves
    leave the key's line (a defender's move that is not the puzzle's reply)."""
    try:
        return judge_by_key(puzzle, moves)
    except IllegalMoveError as e:
        raise ActionError("not-the-reply", str(e)) from None


@router.post("/{puzzle_id}/attempt", response_model=AttemptView, responses={**error_answers(401), **GUARDED})
async def attempt(puzzle_id: _ID, body: AttemptRequest, request: Request, user: LoggedIn) -> AttemptView:
    """Counts the player's first attempt at the puzzle: their puzzle rating and the
    puzzle's move (Glicko-2, one game between them). A later attempt, or the same one
    sent twice, changes nothing (`first` false)."""
    online = online_of(request)
    try:
        row = await online.store.call(online.puzzles.attempt, user.id, puzzle_id, body.solved, now_ms())
    except NotFoundError:
        raise MissingError("no-such-puzzle", f"there is no puzzle {puzzle_id!r}") from None
    return _attempt(row)
