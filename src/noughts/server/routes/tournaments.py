"""Tournaments: arenas (a fixed duration; a player who finishes a game is paired again
at once; lichess's points with streak bonuses) and Swiss (a fixed number of rounds,
paired by score without rematches; Buchholz and Sonneborn-Berger tie-breaks). Their
games are ordinary online games, started for the players, who find theirs in the
tournament's `my_game` (the page asks every few seconds)."""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from typing import Annotated, Literal

from fastapi import APIRouter, Query, Request, Response
from pydantic import Field

from noughts.competition.tournaments import arena, swiss
from noughts.registry import title
from noughts.server.models import GUARDED, WHOLE, RequestBody, Spec, error_answers
from noughts.server.online.schemas import Increment, Minutes, _Model
from noughts.server.online.service import Online
from noughts.server.online.sessions import LoggedIn, MaybeUser, online_of
from noughts.server.online.storage.store import UserRow
from noughts.server.online.storage.tournaments import (
    ARENA,
    STATES,
    EntryRow,
    PairingRow,
    TournamentRow,
    arena_games,
    swiss_games,
)

router = APIRouter(
    prefix="/api/online/tournaments",
    tags=["tournaments"],
    responses=error_answers(400, 401, 403, 404, 409, 422, 429),
)

#: An arena lasts 1 minute to 12 hours; a Swiss has 1 to 30 rounds; a start is at most a week away.
MAX_DURATION, MAX_ROUNDS, MAX_STARTS_IN = 720, 30, 7 * 24 * 60


class _NewTournament(RequestBody):
    """What every new tournament names. Strict, as a room's request."""

    name: Annotated[str, Field(min_length=1, max_length=60, description="shown in the lists (1 to 60 characters)")]
    spec: Spec
    rated: bool = False
    minutes: Minutes = None
    increment: Increment = 0
    starts_in: Annotated[
        float,
        Field(ge=0, le=MAX_STARTS_IN, description="minutes until it starts (its creator may start it earlier)"),
    ] = 5


class NewArena(_NewTournament):
    """A new arena: a fixed duration."""

    kind: Literal["arena"]
    duration: Annotated[int, Field(ge=1, le=MAX_DURATION, description="the arena's length in minutes"), WHOLE]
    rounds: Annotated[None, Field(description="an arena has no rounds")] = None


class NewSwiss(_NewTournament):
    """A new Swiss: a fixed number of rounds."""

    kind: Literal["swiss"]
    rounds: Annotated[int, Field(ge=1, le=MAX_ROUNDS, description="the number of rounds"), WHOLE]
    duration: Annotated[None, Field(description="a Swiss has no duration")] = None


#: A new tournament: its kind says which of duration and rounds it needs.
TournamentRequest = Annotated[NewArena | NewSwiss, Field(discriminator="kind")]


class TournamentSummary(_Model):
    id: str
    kind: Literal["arena", "swiss"]
    name: str
    spec: str
    title: str
    rated: bool
    minutes: float | None = Field(description="each player's clock (null: no clock)")
    increment: float
    state: Literal["upcoming", "running", "finished"]
    creator: str
    players: int = Field(description="players in it (not withdrawn)")
    starts_at: int = Field(description="milliseconds since 1970: when it starts (or started)")
    ends_at: int | None = Field(description="an arena's end once it runs (no new games from then)")
    duration: int | None = Field(description="an arena's length in minutes")
    rounds: int | None = Field(description="a Swiss's rounds")
    round: int = Field(description="a Swiss's round being played (0 before the first)")


class TournamentList(_Model):
    upcoming: list[TournamentSummary]
    running: list[TournamentSummary]
    finished: list[TournamentSummary]


class StandingView(_Model):
    rank: int
    name: str
    rating: int = Field(description="the rating the player joined with")
    score: float = Field(description="arena: points (win 2, draw 1, doubled on fire); Swiss: win 1, draw ½, bye 1")
    games: int
    performance: int | None = Field(description="arena: mean opponent rating ±500 a win/loss")
    on_fire: bool = Field(description="arena: two wins in a row, the next win counts double")
    sheet: str = Field(description="arena: each game's points in order")
    buchholz: float | None = Field(description="Swiss: the sum of the opponents' scores")
    sonneborn_berger: float | None = Field(description="Swiss: the scores of the opponents beaten, half of those drawn")
    withdrawn: bool
    playing: str | None = Field(description="the game the player is playing now")


class PairingView(_Model):
    round: int = Field(description="a Swiss's round (0 in an arena)")
    game_id: str | None = Field(description="null for a bye")
    x: str
    o: str | None = Field(description="null for a bye")
    state: str | None = Field(description="the game's state: playing, over, aborted (null for a bye)")
    result: str | None = Field(description="x-wins, o-wins, draw, ongoing (null for a bye)")


class TournamentPage(TournamentSummary):
    """What everyone asking sees (computed once a second, VIEW_SECONDS)."""

    standings: list[StandingView]
    games: list[PairingView] = Field(description="the newest pairings first (Swiss byes included), as many as asked")
    games_total: int = Field(description="all the pairings so far")


class TournamentView(TournamentPage):
    joined: bool = Field(description="the asking player is in it (not withdrawn)")
    my_game: str | None = Field(description="the asking player's game in progress in it")


#: The pairings a view shows unless asked for more (the page shows these; a 500-player
#: arena plays a thousand games, which every page would otherwise fetch again on news).
GAMES = 50
Games = Annotated[int, Query(ge=0, le=100_000, description="how many of the newest pairings to show")]


def _summary(t: TournamentRow, players: int, names: dict[int, UserRow]) -> TournamentSummary:
    return TournamentSummary(
        id=t.id, kind="arena" if t.kind == ARENA else "swiss", name=t.name, spec=t.spec, title=title(t.spec),
        rated=t.rated, minutes=None if t.clock_initial_ms is None else t.clock_initial_ms / 60_000,
        increment=(t.clock_increment_ms or 0) / 1000, state=t.state,  # type: ignore[arg-type]
        creator=names[t.creator_id].name if t.creator_id in names else "?", players=players, starts_at=t.starts_at,
        ends_at=t.ends_at, duration=t.minutes, rounds=t.rounds, round=t.round,
    )  # fmt: skip


def _standings(
    t: TournamentRow, entries: list[EntryRow], pairings: list[PairingRow], names: dict[int, UserRow]
) -> list[StandingView]:
    def name(i: int) -> str:
        return names[i].name if i in names else "?"

    ratings = {e.user_id: e.rating for e in entries}
    playing = {i: p.game_id for p in pairings if p.live for i in (p.x_id, p.o_id) if i is not None}
    withdrawn = {e.user_id for e in entries if e.withdrawn}
    rows: list[StandingView] = []
    if t.kind == ARENA:
        for s in arena.standings(ratings, arena_games(pairings)):
            rows.append(
                StandingView(
                    rank=s.rank, name=name(s.id), rating=round(ratings[s.id]), score=s.score, games=s.games,
                    performance=s.performance, on_fire=s.on_fire, sheet=s.sheet, buchholz=None,
                    sonneborn_berger=None, withdrawn=s.id in withdrawn, playing=playing.get(s.id),
                )
            )  # fmt: skip
    else:
        for w in swiss.standings(ratings, swiss_games(pairings)):
            rows.append(
                StandingView(
                    rank=w.rank, name=name(w.id), rating=round(ratings[w.id]), score=w.score, games=w.games,
                    performance=None, on_fire=False, sheet="", buchholz=w.buchholz,
                    sonneborn_berger=w.sonneborn_berger, withdrawn=w.id in withdrawn, playing=playing.get(w.id),
                )
            )  # fmt: skip
    return rows


#: How long a computed view of a running tournament is served again to the players who
#: ask in that time (in this process): its standings are computed from every game, and
#: hundreds of players look at once (told by the tournament's socket that it changed,
#: which in a big arena is every moment: a news-driven page waits out this second
#: before asking, so what it gets is newer than the news). A change of one's own (join,
#: withdraw, start) skips it.
VIEW_SECONDS = 1.0


@dataclass(frozen=True)
class Computed:
    """A tournament as everyone sees it, kept VIEW_SECONDS: its page as JSON (serialized
    once, not for each of the hundreds asking), and what the asker's part is read from."""

    at: float
    page: bytes
    active: frozenset[int]
    playing: dict[int, str]


async def _computed(online: Online, tournament_id: str, games: int, fresh: bool) -> Computed:
    recent = online.tournaments.views
    cached: Computed | None = recent.get(tournament_id) if games == GAMES else None
    if not fresh and cached is not None and time.monotonic() - cached.at < VIEW_SECONDS:
        return cached
    t, entries, pairings = await online.store.call(online.tournaments.book.details, tournament_id)
    names = await online.store.call(online.store.users, {t.creator_id, *(e.user_id for e in entries)})

    def name(i: int | None) -> str | None:
        return None if i is None else names[i].name if i in names else "?"

    shown = [
        PairingView(round=p.round, game_id=p.game_id, x=name(p.x_id) or "?", o=name(p.o_id), state=p.state,
                    result=p.result if p.game_id else None)
        for p in reversed(pairings[-games:] if games else [])
    ]  # fmt: skip
    active = frozenset(e.user_id for e in entries if not e.withdrawn)
    page = TournamentPage(
        **_summary(t, len(active), names).model_dump(), standings=_standings(t, entries, pairings, names),
        games=shown, games_total=len(pairings),
    )  # fmt: skip
    playing = {i: p.game_id for p in pairings if p.live and p.game_id for i in (p.x_id, p.o_id) if i is not None}
    computed = Computed(time.monotonic(), page.model_dump_json().encode(), active, playing)
    if games == GAMES:
        if len(recent) > 256:
            recent.clear()
        recent[tournament_id] = computed
    return computed


async def _view(
    online: Online, tournament_id: str, user: UserRow | None, fresh: bool = False, games: int = GAMES, status: int = 200
) -> Response:
    """The TournamentView as JSON: the shared page with the asker's fields put in front
    (returned as a response, which FastAPI passes on as it is, rather than a model it
    would dump, validate and serialize again for every asker)."""
    seen = await _computed(online, tournament_id, games, fresh)
    me = user.id if user is not None else None
    mine = json.dumps({"joined": me in seen.active, "my_game": seen.playing.get(me) if me is not None else None})
    return Response(mine[:-1].encode() + b"," + seen.page[1:], status_code=status, media_type="application/json")


@router.post("", status_code=201, response_model=TournamentView, responses=GUARDED)
async def create(body: TournamentRequest, request: Request, user: LoggedIn) -> Response:
    """Creates a tournament (signed-in players, not guests). 400 invalid-spec; 403
    guest-tournament; 429 too-many-tournaments (five not finished at most)."""
    online = online_of(request)
    t = await online.tournaments.create(
        user, body.kind, body.name, body.spec, body.rated, body.minutes, body.increment, body.duration, body.rounds,
        body.starts_in,
    )  # fmt: skip
    return await _view(online, t.id, user, fresh=True, status=201)


@router.get("", response_model=TournamentList)
async def listing(
    request: Request,
    state: Annotated[
        Literal["upcoming", "running", "finished"] | None, Query(description="only this list (the others empty)")
    ] = None,
) -> TournamentList:
    """The upcoming (soonest first), running and finished (newest first) tournaments."""
    online = online_of(request)
    await online.start()
    book = online.tournaments.book
    found = {s: await online.store.call(book.listing, s) if state in (None, s) else [] for s in STATES}
    names = await online.store.call(online.store.users, {t.creator_id for rows in found.values() for t, _ in rows})
    lists = {s: [_summary(t, n, names) for t, n in rows] for s, rows in found.items()}
    return TournamentList(upcoming=lists["upcoming"], running=lists["running"], finished=lists["finished"])


@router.get("/{tournament_id}", response_model=TournamentView)
async def show(tournament_id: str, request: Request, user: MaybeUser, games: Games = GAMES) -> Response:
    """The tournament with its standings and its newest pairings (all kept once it is
    finished). 404 no-such-tournament."""
    return await _view(online_of(request), tournament_id, user, games=games)


class Mine(_Model):
    state: Literal["upcoming", "running", "finished"]
    joined: bool = Field(description="the asking player is in it (not withdrawn)")
    my_game: str | None = Field(description="the asking player's game in progress in it")


@router.get("/{tournament_id}/me", response_model=Mine)
async def mine(tournament_id: str, request: Request, user: MaybeUser) -> Mine:
    """What the page asks every couple of seconds: the state, and the asking player's
    game, which starts the moment they are paired. Two small queries, where the whole
    tournament (its standings computed from every game) is asked for now and then: with
    hundreds of players, every page asking for the whole of it every two seconds
    swamped the server (bench/tournament_load.py). 404 no-such-tournament."""
    online = online_of(request)
    state, joined, game = await online.store.call(
        online.tournaments.book.mine, tournament_id, user.id if user is not None else None
    )
    return Mine(state=state, joined=joined, my_game=game)  # type: ignore[arg-type]


@router.post("/{tournament_id}/join", response_model=TournamentView, responses=GUARDED)
async def join(tournament_id: str, request: Request, user: LoggedIn) -> Response:
    """Enters the tournament (an arena: also while it runs; a Swiss: until it starts;
    both again after a withdrawal or a pause for leaving a game, paired from the next
    round). 409 joined-already, tournament-started, tournament-over; 403 guest-rated."""
    online = online_of(request)
    await online.tournaments.join(tournament_id, user)
    return await _view(online, tournament_id, user, fresh=True)


@router.post("/{tournament_id}/withdraw", response_model=TournamentView, responses=GUARDED)
async def withdraw(tournament_id: str, request: Request, user: LoggedIn) -> Response:
    """Leaves the tournament: before it starts, entirely; once it runs, the player keeps
    their results (a game in progress still counts) and is paired no more. 409
    not-joined, tournament-over."""
    online = online_of(request)
    await online.tournaments.withdraw(tournament_id, user)
    return await _view(online, tournament_id, user, fresh=True)


@router.post("/{tournament_id}/start", response_model=TournamentView, responses=GUARDED)
async def start(tournament_id: str, request: Request, user: LoggedIn) -> Response:
    """Starts an upcoming tournament now (its creator only): an arena's clock starts; a
    Swiss pairs its first round, or ends at once with fewer than two players. 403
    not-yours; 409 tournament-started."""
    online = online_of(request)
    await online.tournaments.start(tournament_id, user)
    return await _view(online, tournament_id, user, fresh=True)
