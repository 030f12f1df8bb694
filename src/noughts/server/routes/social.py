"""Players between themselves: challenges (to a player or a bot), follows, blocks, the
players online and the notifications of the header's bell (`service.social`). What a
player is told as it happens comes on their own socket (/api/online/me/ws)."""

from __future__ import annotations

from typing import Annotated, Literal

from fastapi import APIRouter, Path, Request, Response
from pydantic import Field, model_validator

from noughts import i18n
from noughts.server.errors import language_of
from noughts.server.models import GUARDED, WHOLE, RequestBody, Spec, error_answers
from noughts.server.online.actions import GameRow
from noughts.server.online.protocol import NAME_LENGTH, ROW_ID_MAX, ChallengeView, NotificationView
from noughts.server.online.schemas import Increment, Minutes, _Model
from noughts.server.online.service.social import DECLINE_REASONS
from noughts.server.online.sessions import LoggedIn, MaybeUser, online_of

router = APIRouter(prefix="/api/online", tags=["players"], responses=error_answers(400, 401, 403, 404, 409))

#: A challenge's id as a path takes it: longer is no challenge (ids are 8 characters).
ChallengeId = Annotated[str, Path(min_length=1, max_length=40)]
PlayerName = Annotated[str, Path(min_length=1, max_length=NAME_LENGTH)]
#: Notifications marked read in one request at most.
MARKED_AT_ONCE = 200


class ChallengeRequest(RequestBody):
    """A challenge to the player `to`: the game, rated or casual, the challenger's side,
    and a clock (minutes and increment), days a move (correspondence), or neither."""

    to: Annotated[str, Field(min_length=1, max_length=NAME_LENGTH)]
    spec: Spec
    rated: bool = False
    side: Literal["x", "o", "random"] = "random"
    minutes: Minutes = None
    increment: Increment = 0
    days: Annotated[int | None, Field(ge=1, le=14, description="correspondence: days a move (1 to 14)"), WHOLE] = None

    @model_validator(mode="after")
    def _clock_or_days(self) -> ChallengeRequest:
        if self.minutes is not None and self.days is not None:
            raise ValueError("a challenge has minutes (a clock) or days a move (correspondence), not both")
        return self


class ChallengeAnswer(_Model):
    challenge: ChallengeView | None = Field(description="the challenge, pending (none for a bot's)")
    game: str | None = Field(description="the game a bot's challenge made")
    message: str


class ChallengeOne(_Model):
    challenge: ChallengeView


class Reason(_Model):
    key: str
    text: str


class Challenges(_Model):
    incoming: list[ChallengeView]
    outgoing: list[ChallengeView]
    reasons: list[Reason] = Field(description="why a challenge may be declined: the keys `decline` takes")


class DeclineRequest(RequestBody):
    reason: Literal[tuple(DECLINE_REASONS)] = "generic"  # type: ignore[valid-type]


class Followed(_Model):
    name: str
    online: bool = Field(description="has a page open (on the process that answers)")
    playing: str | None = Field(description="the game they are playing now")


class Following(_Model):
    players: list[Followed]


class Blocked(_Model):
    players: list[str]


class Relation(_Model):
    name: str
    following: bool
    blocking: bool


class OnlinePlayer(_Model):
    name: str
    guest: bool
    playing: str | None


class OnlinePlayers(_Model):
    players: list[OnlinePlayer]


class Notifications(_Model):
    notifications: list[NotificationView]
    unread: int


class ReadRequest(RequestBody):
    ids: Annotated[
        list[Annotated[int, Field(ge=1, le=ROW_ID_MAX), WHOLE]] | None,
        Field(max_length=MARKED_AT_ONCE, description="the notifications read; none: all of them"),
    ] = None


class Unread(_Model):
    unread: int


@router.post(
    "/challenges", status_code=201, response_model=ChallengeAnswer, responses={**GUARDED, **error_answers(429)}
)
async def challenge(body: ChallengeRequest, request: Request, user: LoggedIn) -> ChallengeAnswer:
    """Challenges a player: they are told at once on every page they have open, and
    accept or decline it; it expires if they do not answer. A bot's challenge is the
    bot's (a house bot accepts at once). Errors: no-such-player (404), own-challenge,
    invalid-spec, invalid-clock (400), blocked, guest-rated (403), already-challenged
    (409), too-many-challenges (429)."""
    online = online_of(request)
    made = await online.social.challenge(
        user, body.to, body.spec, body.rated, body.side, body.minutes, body.increment, body.days
    )
    if isinstance(made, GameRow):
        started = made.state != "open"
        message = "the bot accepts: the game starts" if started else "the bot's program accepts or declines it"
        return ChallengeAnswer(challenge=None, game=made.id, message=message)
    return ChallengeAnswer(challenge=made, game=None, message=f"{made.to} is asked")


@router.get("/challenges", response_model=Challenges)
async def challenges(request: Request, user: LoggedIn) -> Challenges:
    """The challenges to you and from you that wait for an answer, and the reasons a
    challenge may be declined for."""
    incoming, outgoing = await online_of(request).social.pending(user)
    with i18n.speaking(language_of(request)):
        reasons = [Reason(key=k, text=i18n.gettext(t)) for k, t in DECLINE_REASONS.items()]
    return Challenges(incoming=incoming, outgoing=outgoing, reasons=reasons)


@router.post("/challenges/{challenge_id}/accept", response_model=ChallengeOne, responses=GUARDED)
async def accept(challenge_id: ChallengeId, request: Request, user: LoggedIn) -> ChallengeOne:
    """Accepts a challenge to you: its game starts (`challenge.game`). Errors:
    no-such-challenge (404), not-yours (403), challenge-expired, challenge-declined,
    challenge-cancelled, challenge-accepted (409)."""
    return ChallengeOne(challenge=await online_of(request).social.accept(user, challenge_id))


@router.post("/challenges/{challenge_id}/decline", response_model=ChallengeOne, responses=GUARDED)
async def decline(challenge_id: ChallengeId, body: DeclineRequest, request: Request, user: LoggedIn) -> ChallengeOne:
    """Declines a challenge to you, with a reason its challenger reads (`reason_text`: in
    the asker's language here, in each player's own on their socket)."""
    with i18n.speaking(language_of(request)):
        return ChallengeOne(challenge=await online_of(request).social.decline(user, challenge_id, body.reason))


@router.post("/challenges/{challenge_id}/cancel", response_model=ChallengeOne, responses=GUARDED)
async def cancel(challenge_id: ChallengeId, request: Request, user: LoggedIn) -> ChallengeOne:
    """Takes back a challenge of yours that waits for an answer."""
    return ChallengeOne(challenge=await online_of(request).social.cancel(user, challenge_id))


@router.get("/me/following", response_model=Following)
async def following(request: Request, user: LoggedIn) -> Following:
    """Whom you follow: online or not, and the game each is playing."""
    players = await online_of(request).social.following(user)
    return Following(players=[Followed(**p) for p in players])


@router.put("/me/following/{name}", status_code=204, responses=GUARDED)
async def follow(name: PlayerName, request: Request, user: LoggedIn) -> Response:
    """Follows a player. Errors: no-such-player (404), own-follow (400), blocking (409)."""
    await online_of(request).social.follow(user, name, True)
    return Response(status_code=204)


@router.delete("/me/following/{name}", status_code=204, responses=GUARDED)
async def unfollow(name: PlayerName, request: Request, user: LoggedIn) -> Response:
    await online_of(request).social.follow(user, name, False)
    return Response(status_code=204)


@router.get("/me/blocked", response_model=Blocked)
async def blocked(request: Request, user: LoggedIn) -> Blocked:
    return Blocked(players=await online_of(request).social.blocked(user))


@router.put("/me/blocked/{name}", status_code=204, responses=GUARDED)
async def block(name: PlayerName, request: Request, user: LoggedIn) -> Response:
    """Blocks a player: no challenges between you, none of their chat lines for you;
    follows between you end."""
    await online_of(request).social.block(user, name, True)
    return Response(status_code=204)


@router.delete("/me/blocked/{name}", status_code=204, responses=GUARDED)
async def unblock(name: PlayerName, request: Request, user: LoggedIn) -> Response:
    await online_of(request).social.block(user, name, False)
    return Response(status_code=204)


@router.get("/me/relations/{name}", response_model=Relation)
async def relation(name: PlayerName, request: Request, user: LoggedIn) -> Relation:
    """Whether you follow and whether you block the player `name`."""
    target, follows, blocks = await online_of(request).social.relation(user, name)
    return Relation(name=target.name, following=follows, blocking=blocks)


@router.get("/players/online", response_model=OnlinePlayers)
async def players_online(request: Request, viewer: MaybeUser) -> OnlinePlayers:
    """The people with a page open (on the process that answers; at most 100), each
    with the game they are playing."""
    online = online_of(request)
    await online.start()
    return OnlinePlayers(players=[OnlinePlayer(**p) for p in await online.social.online(viewer)])


@router.get("/me/notifications", response_model=Notifications)
async def notifications(request: Request, user: LoggedIn) -> Notifications:
    """Your newest 50 notifications, newest first, and how many are unread."""
    shown, unread = await online_of(request).social.notifications(user)
    return Notifications(notifications=shown, unread=unread)


@router.post("/me/notifications/read", response_model=Unread, responses=GUARDED)
async def mark_read(body: ReadRequest, request: Request, user: LoggedIn) -> Unread:
    """Marks your notifications `ids` read (all of them without `ids`); another
    player's ids change nothing."""
    return Unread(unread=await online_of(request).social.mark_read(user, body.ids))
