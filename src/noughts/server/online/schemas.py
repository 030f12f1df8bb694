"""The shapes of online play's requests and answers (also its OpenAPI schema). Names
and passwords are checked by `accounts`, so that each mistake gets its own message."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Credentials(_Model):
    name: Annotated[str, Field(max_length=100, examples=["ann"])]
    password: Annotated[str, Field(max_length=1000)]


class Me(_Model):
    name: str
    guest: bool


class MeAnswer(_Model):
    user: Me | None


class RoomRequest(_Model):
    """A new room: the game, rated or casual, the creator's side, listed in the lobby or
    only by invite link, and an optional clock (minutes each, seconds added per move)."""

    spec: Annotated[str, Field(min_length=1, max_length=200, examples=["classic", "ultimate"])]
    rated: bool = False
    side: Literal["x", "o", "random"] = "x"
    private: bool = False
    minutes: Annotated[float | None, Field(description="null: no clock")] = None
    increment: float = 0


class RoomAnswer(_Model):
    game: dict[str, Any]
    invite: str = Field(description="the path of the invite link")


class RoomList(_Model):
    rooms: list[dict[str, Any]]
    live: list[dict[str, Any]]


class RatingView(_Model):
    spec: str
    title: str
    rating: int
    deviation: int
    games: int
    provisional: bool = Field(description="deviation above 110: not yet settled (as lichess marks it)")


class Profile(_Model):
    name: str
    guest: bool
    ratings: list[RatingView]
    games: list[dict[str, Any]]


class LeaderRow(_Model):
    rank: int
    name: str
    rating: int
    deviation: int
    games: int
    provisional: bool = Field(description="deviation above 110: new, or away for long (as lichess marks it)")


class Leaderboard(_Model):
    spec: str
    title: str
    players: list[LeaderRow]
    #: Every game that has ratings, with its number of rated players.
    games: list[dict[str, Any]]
