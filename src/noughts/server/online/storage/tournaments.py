"""Tournaments in the database: arenas and Swiss, their players, their pairings, and
`advance`, which does whatever a tournament's state calls for next (start it, pair the
waiting players of an arena or the next round of a Swiss, finish it).

`advance` is one transaction that first locks the tournament's row (FOR UPDATE on
PostgreSQL; SQLite writes one transaction at a time): two processes advancing the same
tournament take turns, and the second sees the games the first made, so no player is
ever paired twice. The periodic sweep asks with SKIP LOCKED instead (a tournament being
advanced elsewhere is skipped, and looked at again on the next sweep). Everything a
decision needs is read from the database inside that transaction (scores come from the
games' results), so a restarted server, or another process, carries on where the last
one stopped.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import asdict, dataclass, fields, replace
from typing import Any, cast

from sqlalchemy import Connection, Table, delete, func, insert, or_, select, update

from noughts.competition.tournaments import arena, swiss
from noughts.server.online import actions
from noughts.server.online.actions import ActionError, ForbiddenError, GameRow, MissingError, TooManyError
from noughts.server.online.storage.store import Store, lock_user
from noughts.server.online.storage.tables import Game, Tournament, TournamentGame, TournamentPlayer

__all__ = [
    "ARENA",
    "SWISS",
    "EntryRow",
    "PairingRow",
    "TournamentError",
    "TournamentRow",
    "Tournaments",
]

_tournaments = cast(Table, Tournament.__table__)
_players = cast(Table, TournamentPlayer.__table__)
_pairings = cast(Table, TournamentGame.__table__)
_games = cast(Table, Game.__table__)

ARENA, SWISS = "arena", "swiss"
#: How long an arena whose time is up waits for its last games to end (they count if
#: they do); a game still going then goes on, but the arena ends without it.
ARENA_OVERTIME_MS = 10 * 60_000
UPCOMING, RUNNING, FINISHED = "upcoming", "running", "finished"
STATES = (UPCOMING, RUNNING, FINISHED)
#: A game that still counts as being played (its players are busy).
_LIVE = (actions.OPEN, actions.PLAYING)

#: Makes a tournament game, started, between x and o (the service knows how).
MakeGame = Callable[["TournamentRow", int, int], GameRow]


class TournamentError(ActionError):
    """A tournament action refused (a stable word and a message); nothing changed."""


@dataclass(frozen=True)
class TournamentRow:
    id: str
    kind: str
    name: str
    spec: str
    rated: bool
    clock_initial_ms: int | None
    clock_increment_ms: int | None
    creator_id: int
    state: str
    minutes: int | None
    rounds: int | None
    round: int
    starts_at: int
    ends_at: int | None
    created_at: int
    finished_at: int | None

    @classmethod
    def from_mapping(cls, m: Any) -> TournamentRow:
        return cls(**{f.name: m[f.name] for f in fields(cls)})


@dataclass(frozen=True)
class Advanced:
    """What `Tournaments.advance` did: the games it started, and whether the tournament
    changed at all (games, its state, its round), which the tournament's page is told."""

    games: list[GameRow]
    changed: bool
    #: This advance started the tournament.
    started: bool = False


@dataclass(frozen=True)
class EntryRow:
    user_id: int
    rating: float
    #: When the player joined, or came back after withdrawing.
    joined_at: int
    withdrawn: bool


@dataclass(frozen=True)
class PairingRow:
    """A pairing and, for a game, its state and result as the games table has them."""

    id: int
    round: int
    game_id: str | None
    x_id: int
    o_id: int | None
    x_rating: float
    o_rating: float | None
    paired_at: int
    #: The game's state (None for a bye), its result, how and when it ended, and when
    #: each player was last seen leaving it (None: there at the end).
    state: str | None
    result: str | None
    ended_at: int | None
    termination: str | None = None
    x_left_at: int | None = None
    o_left_at: int | None = None

    @property
    def live(self) -> bool:
        return self.state in _LIVE

    @property
    def left(self) -> set[int]:
        """The players who left a game that then ended for their absence (claimed,
        abandoned, or aborted before both had moved)."""
        if self.state != actions.ABORTED and self.termination != "abandoned":
            return set()
        gone = {self.x_id} if self.x_left_at is not None else set()
        if self.o_id is not None and self.o_left_at is not None:
            gone.add(self.o_id)
        return gone

    @property
    def winner(self) -> str | None:
        """ "x", "o" or "draw" for a game over; None while it goes on or when aborted."""
        if self.state != actions.OVER:
            return None
        return {"x-wins": "x", "o-wins": "o", "draw": "draw"}.get(self.result or "")


class Tournaments:
    """The tournaments of online play's database (`store`)."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.engine = store.engine

    # -- reading --------------------------------------------------------------------------

    def get(self, tournament_id: str) -> TournamentRow:
        with self.engine.connect() as c:
            return _get(c, tournament_id)

    def listing(self, state: str, limit: int = 50) -> list[tuple[TournamentRow, int]]:
        """The tournaments in `state` with their numbers of players: the upcoming by
        start, soonest first; the others newest first."""
        count = (
            select(func.count())
            .where(_players.c.tournament_id == _tournaments.c.id, _players.c.withdrawn.is_(False))
            .scalar_subquery()
        )
        order = _tournaments.c.starts_at if state == UPCOMING else _tournaments.c.starts_at.desc()
        with self.engine.connect() as c:
            rows = c.execute(
                select(_tournaments, count.label("players"))
                .where(_tournaments.c.state == state)
                .order_by(order, _tournaments.c.id)
                .limit(limit)
            ).all()
        return [(TournamentRow.from_mapping(r._mapping), int(r.players)) for r in rows]

    def details(self, tournament_id: str) -> tuple[TournamentRow, list[EntryRow], list[PairingRow]]:
        """The tournament, its players (in order of joining) and its pairings (in order made)."""
        with self.engine.connect() as c:
            return _get(c, tournament_id), _entries(c, tournament_id), _pairings_of(c, tournament_id)

    def mine(self, tournament_id: str, user_id: int | None) -> tuple[str, bool, str | None]:
        """What a player's page asks every few seconds, cheaply: the tournament's state,
        whether they are in it, and their game in play in it (None: none)."""
        with self.engine.connect() as c:
            t = _get(c, tournament_id)
            if user_id is None:
                return t.state, False, None
            joined = c.execute(
                select(_players.c.user_id).where(
                    _players.c.tournament_id == tournament_id,
                    _players.c.user_id == user_id,
                    _players.c.withdrawn.is_(False),
                )
            ).first()
            game: str | None = c.execute(
                select(_pairings.c.game_id)
                .join(_games, _games.c.id == _pairings.c.game_id)
                .where(
                    _pairings.c.tournament_id == tournament_id,
                    or_(_pairings.c.x_id == user_id, _pairings.c.o_id == user_id),
                    _games.c.state.in_(_LIVE),
                )
                .order_by(_pairings.c.id.desc())
                .limit(1)
            ).scalar()
        return t.state, joined is not None, game

    def tournament_of(self, game_id: str) -> str | None:
        with self.engine.connect() as c:
            found: str | None = c.execute(
                select(_pairings.c.tournament_id).where(_pairings.c.game_id == game_id)
            ).scalar()
        return found

    def due(self, now: int) -> list[str]:
        """The tournaments that may have something to do: running, or due to start."""
        with self.engine.connect() as c:
            rows = c.execute(
                select(_tournaments.c.id).where(
                    (_tournaments.c.state == RUNNING)
                    | ((_tournaments.c.state == UPCOMING) & (_tournaments.c.starts_at <= now))
                )
            ).all()
        return [r.id for r in rows]

    # -- changing -------------------------------------------------------------------------

    def create(self, row: TournamentRow, most: int) -> TournamentRow:
        """Adds the tournament, unless its creator has `most` not finished already
        (counted under the creator's lock: requests sent at once take turns)."""
        with self.engine.begin() as c:
            lock_user(c, row.creator_id)
            open_ones = c.execute(
                select(func.count()).where(
                    _tournaments.c.creator_id == row.creator_id, _tournaments.c.state != FINISHED
                )
            ).scalar_one()
            if open_ones >= most:
                raise TooManyError(
                    "too-many-tournaments", f"you have {open_ones} tournaments not finished yet: {most} at most"
                )
            c.execute(insert(_tournaments).values(**asdict(row)))
        return row

    def join(self, tournament_id: str, user_id: int, rating: float, now: int) -> None:
        """Enters the player (or brings back one who withdrew or was paused, paired
        again from the next round). A Swiss takes new players until it starts; an arena
        until it ends."""
        with self.engine.begin() as c:
            t = _get(c, tournament_id, lock=True)
            if t.state == FINISHED:
                raise TournamentError("tournament-over", "the tournament is over")
            found = c.execute(
                select(_players.c.withdrawn).where(
                    _players.c.tournament_id == tournament_id, _players.c.user_id == user_id
                )
            ).first()
            if found is not None and not found.withdrawn:
                raise TournamentError("joined-already", "you are in this tournament already")
            if t.kind == SWISS and t.state == RUNNING and found is None:
                # A player who withdrew, or was paused for leaving a game, may come back.
                raise TournamentError("tournament-started", "a Swiss takes new players until it starts")
            if t.kind == ARENA and t.state == RUNNING and t.ends_at is not None and now >= t.ends_at:
                raise TournamentError("tournament-over", "the arena's time is up")
            if found is None:
                c.execute(
                    insert(_players).values(
                        tournament_id=tournament_id, user_id=user_id, rating=rating, joined_at=now, withdrawn=False
                    )
                )
            else:
                c.execute(
                    update(_players)
                    .where(_players.c.tournament_id == tournament_id, _players.c.user_id == user_id)
                    .values(withdrawn=False, joined_at=now)
                )

    def withdraw(self, tournament_id: str, user_id: int) -> None:
        """Takes the player out: before the start, entirely; once it runs, they keep
        their results (a game in progress still counts) and are not paired again."""
        with self.engine.begin() as c:
            t = _get(c, tournament_id, lock=True)
            where = (_players.c.tournament_id == tournament_id, _players.c.user_id == user_id)
            found = c.execute(select(_players.c.withdrawn).where(*where)).first()
            if found is None or found.withdrawn:
                raise TournamentError("not-joined", "you are not playing in this tournament")
            if t.state == FINISHED:
                raise TournamentError("tournament-over", "the tournament is over")
            if t.state == UPCOMING:
                c.execute(delete(_players).where(*where))
            else:
                c.execute(update(_players).where(*where).values(withdrawn=True))

    def start_now(self, tournament_id: str, user_id: int, now: int) -> None:
        """Moves an upcoming tournament's start to `now` (its creator only); the next
        `advance` starts it."""
        with self.engine.begin() as c:
            t = _get(c, tournament_id, lock=True)
            if t.creator_id != user_id:
                raise ForbiddenError("not-yours", "only the tournament's creator can start it early")
            if t.state != UPCOMING:
                raise TournamentError("tournament-started", "the tournament has started already")
            c.execute(update(_tournaments).where(_tournaments.c.id == tournament_id).values(starts_at=now))

    def advance(self, tournament_id: str, now: int, make_game: MakeGame, wait: bool = True) -> Advanced:
        """Does what the tournament needs now (see the module's docstring) in one
        transaction: the games it started, and whether anything changed. `wait=False`: a
        tournament locked by another process is left to it."""
        with self.engine.begin() as c:
            found = c.execute(
                select(_tournaments).where(_tournaments.c.id == tournament_id).with_for_update(skip_locked=not wait)
            ).first()
            if found is None:
                return Advanced([], changed=False)
            before = t = TournamentRow.from_mapping(found._mapping)
            if t.state == UPCOMING:
                if now < t.starts_at:
                    return Advanced([], changed=False)
                t = _start(c, t, now)
            games: list[GameRow] = []
            if t.state == RUNNING:
                entries = _entries(c, tournament_id)
                pairings = _pairings_of(c, tournament_id)
                advance = _advance_arena if t.kind == ARENA else _advance_swiss
                games = advance(c, t, entries, pairings, now, make_game)
            # Started, finished, a new round: the row says so (the games say the rest).
            changed = bool(games) or _get(c, tournament_id) != before
            return Advanced(games, changed=changed, started=before.state == UPCOMING)


def _get(c: Connection, tournament_id: str, lock: bool = False) -> TournamentRow:
    query = select(_tournaments).where(_tournaments.c.id == tournament_id)
    found = c.execute(query.with_for_update() if lock else query).first()
    if found is None:
        raise MissingError("no-such-tournament", f"there is no tournament {tournament_id!r}")
    return TournamentRow.from_mapping(found._mapping)


def _entries(c: Connection, tournament_id: str) -> list[EntryRow]:
    rows = c.execute(
        select(_players.c.user_id, _players.c.rating, _players.c.joined_at, _players.c.withdrawn)
        .where(_players.c.tournament_id == tournament_id)
        .order_by(_players.c.joined_at, _players.c.user_id)
    ).all()
    return [EntryRow(r.user_id, r.rating, r.joined_at, r.withdrawn) for r in rows]


def _pairings_of(c: Connection, tournament_id: str) -> list[PairingRow]:
    rows = c.execute(
        select(
            _pairings,
            _games.c.state,
            _games.c.result,
            _games.c.ended_at,
            _games.c.termination,
            _games.c.x_left_at,
            _games.c.o_left_at,
        )
        .outerjoin(_games, _games.c.id == _pairings.c.game_id)
        .where(_pairings.c.tournament_id == tournament_id)
        .order_by(_pairings.c.id)
    ).all()
    return [
        PairingRow(
            r.id, r.round, r.game_id, r.x_id, r.o_id, r.x_rating, r.o_rating, r.paired_at, r.state, r.result,
            r.ended_at, r.termination, r.x_left_at, r.o_left_at,
        )
        for r in rows
    ]  # fmt: skip


def _set(c: Connection, t: TournamentRow, **values: Any) -> TournamentRow:
    c.execute(update(_tournaments).where(_tournaments.c.id == t.id).values(**values))
    return TournamentRow(**{**asdict(t), **values})


def _start(c: Connection, t: TournamentRow, now: int) -> TournamentRow:
    if t.kind == ARENA:
        return _set(c, t, state=RUNNING, starts_at=now, ends_at=now + (t.minutes or 0) * 60_000)
    players = c.execute(
        select(func.count()).where(_players.c.tournament_id == t.id, _players.c.withdrawn.is_(False))
    ).scalar_one()
    if players < 2:
        return _set(c, t, state=FINISHED, starts_at=now, finished_at=now)
    return _set(c, t, state=RUNNING, starts_at=now)


def _pair(
    c: Connection, t: TournamentRow, games: list[tuple[int, int]], ratings: dict[int, float], now: int,
    make_game: MakeGame,
) -> list[GameRow]:  # fmt: skip
    made = []
    for x, o in games:
        game = make_game(t, x, o)
        c.execute(insert(_games).values(**asdict(game)))
        c.execute(
            insert(_pairings).values(
                tournament_id=t.id, round=t.round, game_id=game.id, x_id=x, o_id=o, x_rating=ratings[x],
                o_rating=ratings[o], paired_at=now,
            )
        )  # fmt: skip
        made.append(game)
    return made


def _pause_gone(c: Connection, t: TournamentRow, entries: list[EntryRow], pairings: list[PairingRow]) -> list[EntryRow]:
    """The entries once every player whose game ended for their absence (since they
    last joined) is paused (withdrawn) until they come back, as on lichess: otherwise
    they would be paired, and lose, again and again, and hold up a Swiss's rounds."""
    since = {e.user_id: e.joined_at for e in entries if not e.withdrawn}
    gone = {i for p in pairings for i in p.left if i in since and (p.ended_at or 0) >= since[i]}
    if not gone:
        return entries
    c.execute(
        update(_players).where(_players.c.tournament_id == t.id, _players.c.user_id.in_(gone)).values(withdrawn=True)
    )
    return [replace(e, withdrawn=True) if e.user_id in gone else e for e in entries]


def arena_games(pairings: list[PairingRow]) -> list[arena.ArenaGame]:
    """The arena's finished games in the order they ended (what scores them)."""
    done = [p for p in pairings if p.o_id is not None and not p.live]
    done.sort(key=lambda p: (p.ended_at or 0, p.id))
    return [arena.ArenaGame(p.x_id, p.o_id, p.winner, p.x_rating, p.o_rating or 0.0) for p in done if p.o_id]


def _advance_arena(
    c: Connection, t: TournamentRow, entries: list[EntryRow], pairings: list[PairingRow], now: int,
    make_game: MakeGame,
) -> list[GameRow]:  # fmt: skip
    busy = {i for p in pairings if p.live for i in (p.x_id, p.o_id) if i is not None}
    if t.ends_at is not None and now >= t.ends_at:
        # Time is up: no new games; the last ones still count, then it is over. Not for
        # ever: an untimed game whose players are both there but no longer move would
        # hold the arena open; past the overtime it ends and such a game goes on uncounted.
        if not busy or now >= t.ends_at + ARENA_OVERTIME_MS:
            _set(c, t, state=FINISHED, finished_at=now)
        return []
    entries = _pause_gone(c, t, entries, pairings)
    ratings = {e.user_id: e.rating for e in entries}
    scores = {s.id: s.score for s in arena.standings(ratings, arena_games(pairings))}
    last: dict[int, int] = {}
    balance = dict.fromkeys(ratings, 0)
    for p in pairings:
        if p.o_id is None:
            continue
        last[p.x_id], last[p.o_id] = p.o_id, p.x_id
        balance[p.x_id] = balance.get(p.x_id, 0) + 1
        balance[p.o_id] = balance.get(p.o_id, 0) - 1
    active = [e for e in entries if not e.withdrawn]
    waiting = [
        arena.Waiting(e.user_id, scores[e.user_id], e.rating, last.get(e.user_id), balance[e.user_id])
        for e in active
        if e.user_id not in busy
    ]
    return _pair(c, t, arena.pair_waiting(waiting, len(active)), ratings, now, make_game)


def swiss_games(pairings: list[PairingRow]) -> list[swiss.SwissGame]:
    """The Swiss's games and byes with each side's points (None while played)."""
    points = {"x": (1.0, 0.0), "o": (0.0, 1.0), "draw": (0.5, 0.5)}
    games = []
    for p in pairings:
        if p.o_id is None:
            games.append(swiss.SwissGame(p.round, p.x_id, None, swiss.BYE_POINTS))
        elif p.live:
            games.append(swiss.SwissGame(p.round, p.x_id, p.o_id, None, None))
        elif p.winner is None and p.left in ({p.x_id}, {p.o_id}):
            # Aborted for one player's absence (they never came, or never moved): the
            # one who was there wins by forfeit, as in a Swiss over the board.
            present_x = p.left == {p.o_id}
            games.append(swiss.SwissGame(p.round, p.x_id, p.o_id, float(present_x), float(not present_x)))
        else:
            # Aborted otherwise (both gone, or agreed): played (no rematch), no points.
            x_points, o_points = points.get(p.winner or "", (0.0, 0.0))
            games.append(swiss.SwissGame(p.round, p.x_id, p.o_id, x_points, o_points))
    return games


def _advance_swiss(
    c: Connection, t: TournamentRow, entries: list[EntryRow], pairings: list[PairingRow], now: int,
    make_game: MakeGame,
) -> list[GameRow]:  # fmt: skip
    if any(p.live for p in pairings if p.round == t.round):
        return []  # the round goes on
    if t.round >= (t.rounds or 0):
        _set(c, t, state=FINISHED, finished_at=now)
        return []
    entries = _pause_gone(c, t, entries, pairings)
    ratings = {e.user_id: e.rating for e in entries}
    active = {e.user_id for e in entries if not e.withdrawn}
    try:
        nxt = swiss.pair_round([e for e in swiss.entrants(ratings, swiss_games(pairings)) if e.id in active])
    except swiss.NoPairingError:
        # Everyone has met everyone they could (or too many withdrew): it ends early.
        _set(c, t, state=FINISHED, finished_at=now)
        return []
    t = _set(c, t, round=t.round + 1)
    if nxt.bye is not None:
        c.execute(
            insert(_pairings).values(
                tournament_id=t.id, round=t.round, game_id=None, x_id=nxt.bye, o_id=None,
                x_rating=ratings[nxt.bye], o_rating=None, paired_at=now,
            )
        )  # fmt: skip
    return _pair(c, t, list(nxt.pairs), ratings, now, make_game)
