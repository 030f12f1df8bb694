"""The computer online: the house bots (one account per level, marked as bots), their
ratings, and a challenge, which starts a game against one at once; and other engines
online: bot accounts a player makes for a program, whose token `noughts bot` uses to
accept or decline their challenges and play their games over this API."""

from __future__ import annotations

from typing import Any, Literal

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse
from pydantic import Field

from noughts.competition.clock import now_ms
from noughts.competition.ratings import Glicko, current
from noughts.server.models import GUARDED, RequestBody, Spec, error_answers
from noughts.server.online.schemas import Increment, Minutes, RoomAnswer, _Model
from noughts.server.online.sessions import LoggedIn, MaybeUser, online_of
from noughts.server.routes.games import invite_path

router = APIRouter(
    prefix="/api/online/bots",
    tags=["bots"],
    responses=error_answers(400, 401, 403, 404),
)


class BotRating(_Model):
    spec: str
    rating: int
    deviation: int
    games: int


class BotView(_Model):
    name: str
    level: str = Field(
        description="the level a house bot plays (easy, medium, hard or max); engine: a program its owner connects"
    )
    owner: str | None = Field(None, description="who runs an engine bot")
    ratings: list[BotRating] = Field(description="its Glicko-2 rating in each game it has played rated")


class BotList(_Model):
    bots: list[BotView]


class ChallengeRequest(RequestBody):
    """The game against the bot: as a room's request, without the lobby (a bot accepts
    at once). Strict, as a room's request."""

    spec: Spec
    rated: bool = False
    side: Literal["x", "o", "random"] = "random"
    minutes: Minutes = None
    increment: Increment = 0


@router.get("", response_model=BotList)
async def bots(request: Request, viewer: MaybeUser) -> BotList:
    """The house bots, easiest first, with their ratings (each one's games counting
    those the asker may see: a private game only for its players)."""
    online = online_of(request)
    await online.start()
    now = now_ms()
    found = []
    accounts = await online.bots.accounts()
    owners = await online.store.call(online.store.users, {b.owner_id for b in accounts if b.owner_id is not None})
    for bot in accounts:
        rows = await online.store.call(online.store.ratings_of, bot.id, viewer.id if viewer else None)
        ratings = []
        for r in rows:
            glicko = current(Glicko(r.rating, r.deviation, r.volatility), r.updated_at, now)
            ratings.append(
                BotRating(
                    spec=r.spec,
                    rating=round(glicko.rating),
                    deviation=round(glicko.deviation),
                    games=r.games,
                )
            )
        owner = owners.get(bot.owner_id) if bot.owner_id is not None else None
        found.append(BotView(name=bot.name, level=bot.bot or "", owner=owner.name if owner else None, ratings=ratings))
    return BotList(bots=found)


@router.post("/{name}/challenge", status_code=201, response_model=RoomAnswer, responses=GUARDED)
async def challenge(name: str, body: ChallengeRequest, request: Request, user: LoggedIn) -> RoomAnswer:
    """Starts a game against the house bot `name` (it always accepts; it answers each
    move from the server's worker pool within its clock), or challenges the engine bot
    `name`: a private room only it may join, which its program accepts or declines. 404
    no-such-bot; 400 invalid-spec; 422 a clock outside the schema's bounds; 403 guest-rated."""
    online = online_of(request)
    row = await online.rooms.challenge(user, name[:40], body.spec, body.rated, body.side, body.minutes, body.increment)
    return RoomAnswer(game=await online.play.snapshot(row), invite=invite_path(row.id))


# -- other engines online: a player's bot accounts, and what their programs ask -------

engines = APIRouter(prefix="/api/online", tags=["bots"], responses=error_answers(400, 401, 403, 404, 409))


class NewBot(RequestBody):
    name: str = Field(max_length=40, description="the bot's name: 3-20 letters, digits, - and _")


class BotToken(_Model):
    name: str
    token: str = Field(description="the bot's log-in, shown once: noughts bot --token TOKEN (a new one replaces it)")


class OwnBots(_Model):
    bots: list[str]


class Inbox(_Model):
    challenges: list[dict[str, Any]] = Field(description="open rooms that challenge this bot, the oldest first")
    playing: list[str] = Field(description="the games it plays now")


@engines.post("/me/bots", status_code=201, response_model=BotToken, responses=GUARDED)
async def new_bot(body: NewBot, request: Request, user: LoggedIn) -> BotToken:
    """Makes a bot account for one of your programs; its token, shown once. 403 for a
    guest; 409 name-taken or too-many-bots."""
    bot, token = await online_of(request).accounts.create_engine_bot(user, body.name)
    return BotToken(name=bot.name, token=token)


@engines.get("/me/bots", response_model=OwnBots)
async def own_bots(request: Request, user: LoggedIn) -> OwnBots:
    return OwnBots(bots=[b.name for b in await online_of(request).accounts.engine_bots(user)])


@engines.post("/me/bots/{name}/token", response_model=BotToken, responses=GUARDED)
async def new_token(name: str, request: Request, user: LoggedIn) -> BotToken:
    """A new token for your bot `name`; the earlier ones stop working. 404 no-such-bot."""
    bot, token = await online_of(request).accounts.new_bot_token(user, name[:40])
    return BotToken(name=bot.name, token=token)


@engines.get("/bot/inbox", response_model=Inbox)
async def inbox(request: Request, user: LoggedIn) -> Inbox:
    """What a bot's program asks for now and then: its challenges (accept one with POST
    /api/online/games/{id}/join, decline it below) and its games in play (played on
    their sockets)."""
    online = online_of(request)
    challenges = await online.store.call(online.store.challenges_to, user.id)
    playing = await online.store.call(online.store.playing, user.id)
    return Inbox(challenges=await online.play.summaries(challenges), playing=[g.id for g in playing])


@engines.post("/bot/challenges/{game_id}/decline", responses=GUARDED)
async def decline(game_id: str, request: Request, user: LoggedIn) -> JSONResponse:
    """Turns a challenge down: the room closes. 403 not-invited; 409 room-closed."""
    online = online_of(request)
    change = await online.rooms.decline(game_id, user)
    return JSONResponse(await online.play.snapshot(change.row))
