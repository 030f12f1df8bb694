"""What a profile shows beside the ratings: wins, draws and losses per game, the rating
after each rated game, and how many games a player's list pages through. Each counts
only the games its viewer may see (`visible_to`), as the ratings' game counts do
(`Store.ratings_of`): a private game counts for its own players, nowhere a stranger
reads. A rated private game still moves the rating."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, cast

from sqlalchemy import Engine, Table, and_, case, func, or_, select

from noughts.server.online import actions
from noughts.server.online.storage.store import games_of_player, visible_to
from noughts.server.online.storage.tables import Game

_games = cast(Table, Game.__table__)
#: The most rated games a profile's rating chart draws (the newest).
HISTORY = 1000


@dataclass(frozen=True)
class Outcomes:
    """A player's finished games of one game (spec): won, drawn, lost."""

    spec: str
    wins: int
    draws: int
    losses: int


@dataclass(frozen=True)
class RatingPoint:
    """A player's rating in `spec` after the rated game that ended `at` (ms since 1970)."""

    spec: str
    at: int
    rating: int


def _of(user_id: int) -> Any:
    return or_(_games.c.x_id == user_id, _games.c.o_id == user_id)


class Profiles:
    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def outcomes(self, user_id: int, viewer: int | None) -> list[Outcomes]:
        """Every game (spec) `user_id` finished one of, rated or casual, counted once:
        those `viewer` may see."""
        won = or_(
            and_(_games.c.x_id == user_id, _games.c.result == "x-wins"),
            and_(_games.c.o_id == user_id, _games.c.result == "o-wins"),
        )
        lost = or_(
            and_(_games.c.x_id == user_id, _games.c.result == "o-wins"),
            and_(_games.c.o_id == user_id, _games.c.result == "x-wins"),
        )
        query = (
            select(
                _games.c.spec,
                func.sum(case((won, 1), else_=0)),
                func.sum(case((_games.c.result == "draw", 1), else_=0)),
                func.sum(case((lost, 1), else_=0)),
            )
            .where(_of(user_id), _games.c.state == actions.OVER, visible_to(viewer))
            .group_by(_games.c.spec)
            .order_by(func.count().desc(), _games.c.spec)
        )
        with self.engine.connect() as c:
            return [Outcomes(r[0], int(r[1]), int(r[2]), int(r[3])) for r in c.execute(query)]

    def rating_history(self, user_id: int, viewer: int | None, limit: int = HISTORY) -> list[RatingPoint]:
        """`user_id`'s rating after each of their newest `limit` rated games that
        `viewer` may see, oldest first: a private game's point (and its end, to the
        millisecond) is its own players' only."""
        mine = case((_games.c.x_id == user_id, _games.c.x_rating_after), else_=_games.c.o_rating_after)
        query = (
            select(_games.c.spec, _games.c.ended_at, mine.label("rating"))
            .where(
                _of(user_id),
                _games.c.state == actions.OVER,
                _games.c.rated.is_(True),
                mine.is_not(None),
                visible_to(viewer),
            )
            .order_by(_games.c.ended_at.desc())
            .limit(limit)
        )
        with self.engine.connect() as c:
            rows = c.execute(query).all()
        return [RatingPoint(r.spec, r.ended_at, int(r.rating)) for r in reversed(rows)]

    def games_count(self, user_id: int, viewer: int | None) -> int:
        """How many games `Store.games_of` pages through for `viewer`."""
        with self.engine.connect() as c:
            query = select(func.count()).where(games_of_player(user_id), visible_to(viewer))
            return int(c.execute(query).scalar_one())
