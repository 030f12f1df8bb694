"""Profiles and leaderboards."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query, Request

from noughts.core import NoughtsError
from noughts.registry import parse_spec, title
from noughts.server.models import error_answers
from noughts.server.online.accounts import AccountError, name_key
from noughts.server.online.actions import ActionError
from noughts.server.online.clock import now_ms
from noughts.server.online.ratings import Glicko, current
from noughts.server.online.schemas import Leaderboard, LeaderRow, Profile, RatingView
from noughts.server.online.sessions import MaybeUser, online_of
from noughts.server.online.storage.store import RatingRow

router = APIRouter(prefix="/api/online", tags=["players"], responses=error_answers(404))

#: Above this deviation a rating is provisional (lichess's threshold).
PROVISIONAL = 110
#: The furthest a profile's game list pages: beyond any real history, and within what
#: SQLite and PostgreSQL take as an OFFSET (a 64-bit one overflowed both: a 500).
MAX_OFFSET = 1_000_000


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
    ratings = await online.store.call(online.store.ratings_of, user.id)
    games = await online.store.call(online.store.games_of, user.id, limit, offset, viewer.id if viewer else None)
    now = now_ms()
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
                provisional=shown.deviation > PROVISIONAL,
            )
            for r in ratings
            for shown in [_now(r, now)]
        ],
        games=await online.play.summaries(games),
    )


@router.get("/leaderboard", response_model=Leaderboard, responses=error_answers(400))
async def leaderboard(request: Request, game: Annotated[str, Query(max_length=200)] = "classic") -> Leaderboard:
    """The best rated players of `game` (a game spec, as in the rooms). Errors:
    invalid-spec (400) for a spec that is no game."""
    online = online_of(request)
    await online.start()
    try:
        spec = parse_spec(game).spec
    except NoughtsError as e:
        raise ActionError("invalid-spec", str(e)) from None
    rows = await online.store.call(online.store.leaderboard, spec)
    specs = await online.store.call(online.store.rated_specs)
    now = now_ms()
    return Leaderboard(
        spec=spec,
        title=title(spec),
        players=[
            LeaderRow(
                rank=i,
                name=r.name,
                bot=r.bot is not None,
                rating=round(r.rating),
                deviation=round(shown.deviation),
                games=r.games,
                provisional=shown.deviation > PROVISIONAL,
            )
            for i, r in enumerate(rows, 1)
            for shown in [_now(r, now)]
        ],
        games=[{"spec": s, "title": title(s), "players": n} for s, n in specs],
    )
