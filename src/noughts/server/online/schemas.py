"""The shapes of online play's requests and answers (also its OpenAPI schema). Names
and passwords are checked by `accounts`, so that each mistake gets its own message."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator
from pydantic.config import JsonDict

from noughts.competition.clock import MAX_INCREMENT, MAX_MINUTES, MIN_MINUTES
from noughts.server.models import WHOLE, RequestBody, Spec
from noughts.server.online.accounts import NAME_MAX, NAME_MIN, PASSWORD_MAX, PASSWORD_MIN


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Credentials(RequestBody):
    """The lengths and the name's pattern are checked by `accounts` (400 with the
    mistake's own word); the schema states them, and only refuses far longer texts."""

    name: Annotated[
        str,
        Field(
            max_length=100,
            examples=["ann"],
            description="3 to 20 letters, digits, '-' and '_', starting with a letter or a digit; "
            "names starting with 'guest-' are for guests (400 name-length, name-malformed, name-reserved)",
            json_schema_extra={"minLength": NAME_MIN, "maxLength": NAME_MAX, "pattern": "^[A-Za-z0-9][A-Za-z0-9_-]*$"},
        ),
    ]
    password: Annotated[
        str,
        Field(
            max_length=1000,
            description=f"{PASSWORD_MIN} to {PASSWORD_MAX} characters (400 password-short, password-long)",
            json_schema_extra={"minLength": PASSWORD_MIN, "maxLength": PASSWORD_MAX},
        ),
    ]


class Me(_Model):
    name: str
    guest: bool
    #: The language chosen in the page's menu (null: none yet, the browser's is used).
    language: str | None = None


class LanguageChoice(_Model):
    language: str = Field(min_length=2, max_length=16, description="a language the page offers (GET /i18n/en.json)")


class MeAnswer(_Model):
    user: Me | None


#: A clock's minutes each (None: no clock) and seconds added a move: rooms and quick pairing.
Minutes = Annotated[
    float | None,
    Field(ge=MIN_MINUTES, le=MAX_MINUTES, description=f"null: no clock; else {MIN_MINUTES} to {MAX_MINUTES}"),
]
Increment = Annotated[
    float, Field(ge=0, le=MAX_INCREMENT, description=f"seconds added after each move, 0 to {MAX_INCREMENT}")
]


#: A room has minutes (a clock) or days (correspondence), not both: said in JSON Schema.
_CLOCK_OR_DAYS: JsonDict = {
    "not": {
        "required": ["minutes", "days"],
        "properties": {"minutes": {"type": "number"}, "days": {"type": "integer"}},
    }
}


class RoomRequest(RequestBody):
    """A new room: the game, rated or casual, the creator's side, listed in the lobby or
    only by invite link, and an optional clock (minutes each, seconds added per move) or
    days a move (correspondence), not both. Strict: `"increment": false` or `"rated": 1`
    is a mistake, not 0 or true."""

    model_config = ConfigDict(json_schema_extra=_CLOCK_OR_DAYS)

    spec: Spec
    rated: bool = False
    side: Literal["x", "o", "random"] = "x"
    private: bool = Field(
        False, description="reachable through its invite link only: in no list (lobby, games in play, profiles) "
        "but its own players'"
    )  # fmt: skip
    minutes: Minutes = None
    increment: Increment = 0
    days: Annotated[
        int | None,
        Field(ge=1, le=14, description="correspondence: days for each move, instead of minutes (1 to 14)"),
        WHOLE,
    ] = None

    @model_validator(mode="after")
    def _clock_or_days(self) -> RoomRequest:
        if self.minutes is not None and self.days is not None:
            raise ValueError("a room has minutes (a clock) or days a move (correspondence), not both")
        return self


class RoomAnswer(_Model):
    game: dict[str, Any]
    invite: str = Field(description="the path of the invite link")


class RoomList(_Model):
    rooms: list[dict[str, Any]]
    live: list[dict[str, Any]]
    online: int = Field(description="people with the lobby or a game open (on the process that answers)")


class RatingView(_Model):
    spec: str
    title: str
    rating: int
    deviation: int
    games: int = Field(description="the rated games behind it the asker may see (a private one: its players only)")
    provisional: bool = Field(description="deviation above 110: not yet settled (as lichess marks it)")


class PuzzleRating(_Model):
    rating: int
    deviation: int
    provisional: bool
    attempts: int
    solved: int
    best_streak: int


class OutcomesView(_Model):
    """Finished games of one game (spec), rated or casual, from the player's side: those
    the asker may see (a private game only for its players)."""

    spec: str
    title: str
    wins: int
    draws: int
    losses: int


class RatingPointView(_Model):
    spec: str
    at: int = Field(description="when the rated game ended, milliseconds since 1970")
    rating: int = Field(description="the player's rating after it")


class Profile(_Model):
    name: str
    guest: bool
    bot: str | None = Field(None, description="a bot's level: the computer plays this account")
    ratings: list[RatingView]
    outcomes: list[OutcomesView]
    history: list[RatingPointView] = Field(
        description="the rating after each rated game the asker may see (a private one: its players only), oldest first"
    )
    puzzles: PuzzleRating | None = Field(description="the puzzle rating, once the player has tried a puzzle")
    games: list[dict[str, Any]] = Field(
        description="a page of games, newest first; a finished one says the player's `outcome` (win, draw, loss)"
    )
    games_total: int = Field(description="how many games the list pages through")


class LeaderRow(_Model):
    rank: int
    name: str
    bot: bool = Field(False, description="the computer plays this account (shown BOT)")
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
