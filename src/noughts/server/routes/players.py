"""Profiles and leaderboards."""

from __future__ import annotations

from dataclasses import asdict
from typing import Annotated, Any

from fastapi import APIRouter, Query, Request

from noughts.competition.clock import now_ms
from noughts.competition.ratings import Glicko, current, is_provisional
from noughts.core import NoughtsError
from noughts.registry import parse_spec, title
from noughts.server.models import error_answers
from noughts.server.online.accounts import AccountError, name_key
from noughts.server.online.actions import OVER, GameRow, InvalidError
from noughts.server.online.schemas import (
    Leaderboard,
    LeaderRow,
    OutcomesView,
    Profile,
    RatingPointView,
    RatingView,
)
from noughts.server.online.sessions import MaybeUser, online_of
from noughts.server.online.storage.store import RatingRow
from noughts.server.routes.puzzles import puzzle_rating

router = APIRouter(prefix="/api/online", tags=["players"], responses=error_answers(404))

#: The furthest a profile's game list pages: beyond any real history, and within what
#: SQLite and PostgreSQL take as an OFFSET (a 64-bit one overflowed both: a 500).
MAX_OFFSET = 1_000_000
#: The length of a leaderboard.
LEADERS = 100


def _now(row: RatingRow, now: int) -> Glicko:
    """The rating as it stands: its deviation grew while the player was away."""
    return current(Glicko(row.rating, row.deviation, row.volatility), row.updated_at, now)


@router.get("/users/{name}", response_model=Profile)
async def profile(
    name: str,
    request: Request,
    viewer: MaybeUser,
    limit: int = Query(50, ge=1, le=200),
    offset: int = Query(0, ge=0, le=MAX_OFFSET),
) -> Profile:
    """A player's rating in each game they played rated, and their games, newest first
    (a private game only to its own players)."""
    online = online_of(request)
    await online.start()
    user = await online.store.call(online.store.user_by_key, name_key(name[:40]))
    if user is None:
        raise AccountError("no-such-player", f"there is no player {name[:40]!r}", None, 404)
    viewer_id = viewer.id if viewer else None
    ratings = await online.store.call(online.store.ratings_of, user.id, viewer_id)
    games = await online.store.call(online.store.games_of, user.id, limit, offset, viewer_id)
    outcomes = await online.store.call(online.profiles.outcomes, user.id, viewer_id)
    history = await online.store.call(online.profiles.rating_history, user.id, viewer_id)
    total = await online.store.call(online.profiles.games_count, user.id, viewer_id)
    now = now_ms()
    puzzles = None if user.bot else await online.store.call(online.puzzles.player, user.id, now)
    lines = await online.play.summaries(games)
    return Profile(
        name=user.name,
        guest=user.guest,
        bot=user.bot,
        ratings=[
            RatingView(
                spec=r.spec,
                title=title(r.spec),
                rating=round(r.rating),
                deviation=round(shown.deviation),
                games=r.games,
                provisional=is_provisional(shown.deviation),
            )
            for r in ratings
            for shown in [_now(r, now)]
        ],
        outcomes=[OutcomesView(**asdict(s), title=title(s.spec)) for s in outcomes],
        history=[RatingPointView(spec=p.spec, at=p.at, rating=p.rating) for p in history],
        puzzles=puzzle_rating(puzzles) if puzzles is not None and puzzles.attempts else None,
        games=[{**line, **_as_seen_by(row, user.id)} for row, line in zip(games, lines, strict=True)],
        games_total=total,
    )


def _as_seen_by(row: GameRow, user_id: int) -> dict[str, Any]:
    """A game of a profile's list from its player's side: when it ended, its outcome
    (win, draw, loss; None unfinished or aborted) and the rating it left them with."""
    side = row.side_of(user_id)
    outcome = None
    if row.state == OVER and side is not None:
        outcome = "draw" if row.result == "draw" else "win" if row.result == f"{side}-wins" else "loss"
    before = getattr(row, f"{side}_rating_before") if side else None
    after = getattr(row, f"{side}_rating_after") if side else None
    return {"ended_at": row.ended_at, "outcome": outcome, "rating_after": after, "rating_before": before}


@router.get("/leaderboard", response_model=Leaderboard, responses=error_answers(400))
async def leaderboard(
    request: Request,
    viewer: MaybeUser,
    game: Annotated[str, Query(max_length=200)] = "classic",
    provisional: Annotated[bool, Query(description="also provisional ratings (marked ?)")] = False,
    bots: Annotated[bool, Query(description="also the computer's accounts")] = False,
) -> Leaderboard:
    """The best rated players of `game` (a game spec, as in the rooms): people with a
    settled rating, and with `provisional` and `bots` the others too. Errors:
    invalid-spec (400) for a spec that is no game."""
    online = online_of(request)
    await online.start()
    try:
        spec = parse_spec(game).spec
    except NoughtsError as e:
        raise InvalidError("invalid-spec", str(e)) from None
    viewer_id = viewer.id if viewer else None
    rows = await online.store.call(online.store.leaderboard, spec, viewer_id, LEADERS, provisional, bots)
    specs = await online.store.call(online.store.rated_specs)
    now = now_ms()
    shown = [(r, g) for r in rows for g in [_now(r, now)] if provisional or not is_provisional(g.deviation)]
    return Leaderboard(
        spec=spec,
        title=title(spec),
        players=[
            LeaderRow(
                rank=i,
                name=r.name,
                bot=r.bot is not None,
                rating=round(r.rating),
                deviation=round(g.deviation),
                games=r.games,
                provisional=is_provisional(g.deviation),
            )
            for i, (r, g) in enumerate(shown, 1)
        ],
        games=[{"spec": s, "title": title(s), "players": n} for s, n in specs],
    )
