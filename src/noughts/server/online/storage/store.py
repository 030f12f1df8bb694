"""Data access: every read and write of online play, each one transaction.

The methods are synchronous (SQLAlchemy Core); the server calls them through `call`,
which runs them on the store's own threads: one for SQLite, which has one writer at a
time anyway (so writers queue in order instead of spinning on the file lock), a few
for PostgreSQL. Changes to games go through `apply_soon` (group commit): those asked
for while a transaction is being written share the next one.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass, fields, replace
from typing import Any, ParamSpec, TypeVar, cast

from sqlalchemy import (
    Connection,
    Dialect,
    Insert,
    Table,
    Update,
    and_,
    bindparam,
    delete,
    func,
    insert,
    not_,
    or_,
    select,
    update,
)
from sqlalchemy.exc import IntegrityError

from noughts.competition.ratings import PROVISIONAL, Glicko, after_game, current, is_provisional
from noughts.server.online import actions
from noughts.server.online.actions import ActionError, Change, GameRow
from noughts.server.online.storage.db import make_engine, migrate
from noughts.server.online.storage.tables import (
    Game,
    KeptReview,
    KnownLogin,
    Move,
    Rating,
    Review,
    Session,
    TournamentGame,
    User,
)

P = ParamSpec("P")
T = TypeVar("T")

_games = cast(Table, Game.__table__)
_moves = cast(Table, Move.__table__)
_users = cast(Table, User.__table__)
_sessions = cast(Table, Session.__table__)
_known_logins = cast(Table, KnownLogin.__table__)
_ratings = cast(Table, Rating.__table__)
_reviews = cast(Table, Review.__table__)
_kept_reviews = cast(Table, KeptReview.__table__)
_pairings = cast(Table, TournamentGame.__table__)
_ROW_COLUMNS = [_games.c[f.name] for f in fields(GameRow)]
_FIELDS = [f.name for f in fields(GameRow)]
#: Presence is written by `set_left` alone, never from a row this process read earlier:
#: another process may have marked a player away since.
_PRESENCE = ("x_left_at", "o_left_at")
_CHANGED = [name for name in _FIELDS if name != "id" and name not in _PRESENCE]
# The statements of a move, built once: building and caching SQL per call costs more
# than running it.
_SELECT_GAME = select(*_ROW_COLUMNS).where(_games.c.id == bindparam("game"))
_MOVE_COLUMNS = ("game_id", "ply", "move", "played_at", "clock_ms")
_INSERT_MOVE = insert(_moves).values({name: bindparam(name) for name in _MOVE_COLUMNS})
#: Attempts at an action whose row changed under it before giving up.
_RETRIES = 8
#: Changes committed together at most.
_BATCH = 256


def _update_game(columns: tuple[str, ...]) -> Update:
    """The update of a game's row setting `columns` only: a move sets a few of them, and
    columns left alone cost the database nothing (indexes, foreign keys)."""
    return (
        update(_games)
        .where(_games.c.id == bindparam("_id"), _games.c.version == bindparam("_version"))
        .values({name: bindparam(name) for name in columns})
    )


class _DriverStatement:
    """A statement compiled once for the database and run on the driver's own cursor:
    SQLAlchemy's `execute` costs several times what SQLite takes to run the two
    statements of a move (the values are plain ints, strings and None, which need no
    conversion)."""

    def __init__(self, statement: Insert | Update, dialect: Dialect) -> None:
        compiled = statement.compile(dialect=dialect)
        self.sql = str(compiled)
        #: The parameters' order for drivers that take them by position (SQLite).
        self.order = compiled.positiontup

    def run(self, c: Connection, values: dict[str, Any]) -> int:
        """Runs it in `c`'s transaction; how many rows it touched."""
        cursor = c.connection.driver_connection.cursor()  # type: ignore[union-attr]
        try:
            cursor.execute(self.sql, values if self.order is None else [values[name] for name in self.order])
            return int(cursor.rowcount)
        finally:
            cursor.close()


def lock_user(c: Connection, user_id: int) -> None:
    """Holds the user's row until `c`'s transaction ends: a per-user check-then-write
    (a limit on their bots or tournaments, their one seek) taken under it sees every
    write of the same kind committed before, so two requests sent at once cannot both
    pass the check. PostgreSQL (read committed) needs the row lock; it is FOR NO KEY
    UPDATE, which rows that merely reference the user (a game, a seek, a bot being
    inserted) do not wait for, so a pairing holding a seek never waits on it in a
    circle. SQLite has no row locks and needs none: every transaction is BEGIN
    IMMEDIATE (`db.make_engine`), one writer at a time, so the check and the write are
    already alone. A lock row rather than a serialisable transaction: no retry loop,
    and the same code on both databases."""
    c.execute(select(_users.c.id).where(_users.c.id == user_id).with_for_update(key_share=True))


def games_of_player(user_id: int) -> Any:
    """The games a profile lists: those `user_id` plays or played, and their open rooms."""
    return or_(
        _games.c.x_id == user_id,
        _games.c.o_id == user_id,
        and_(_games.c.creator_id == user_id, _games.c.state == actions.OPEN),
    )


def visible_to(viewer: int | None) -> Any:
    """The games `viewer` may find in a list: the public ones, and the private ones they
    play or made. Private means reachable through its invite link only."""
    if viewer is None:
        return _games.c.private.is_(False)
    return or_(
        _games.c.private.is_(False),
        _games.c.creator_id == viewer,
        _games.c.x_id == viewer,
        _games.c.o_id == viewer,
    )


def _hidden_rated(viewer: int | None) -> Any:
    """How many of the rated games behind a rating (the `ratings` row its query reads)
    `viewer` may not see: its player's private ones that `viewer` neither played nor
    made. The count of games shown beside a rating leaves them out; the rating itself
    reflects them."""
    player = _ratings.c.user_id
    rated_for = or_(
        and_(_games.c.x_id == player, _games.c.x_rating_after.is_not(None)),
        and_(_games.c.o_id == player, _games.c.o_rating_after.is_not(None)),
    )
    return (
        select(func.count())
        .select_from(_games)
        .where(
            _games.c.spec == _ratings.c.spec,
            _games.c.private.is_(True),
            _games.c.rated.is_(True),
            _games.c.state == actions.OVER,
            rated_for,
            not_(visible_to(viewer)),
        )
        .correlate(_ratings)
        .scalar_subquery()
    )


class _ConflictError(Exception):
    """The game's row changed between reading and writing it."""


class NameTakenError(Exception):
    pass


class TooManyBotsError(Exception):
    """The owner has as many bot accounts as a player may (the limit is the argument)."""


@dataclass(frozen=True)
class _Request:
    """A change waiting for the next group commit (`Store.apply_soon`)."""

    game_id: str
    action: Callable[[GameRow], Change]
    cached: bool
    answer: asyncio.Future[Change]


class NotFoundError(Exception):
    pass


@dataclass(frozen=True)
class UserRow:
    id: int
    name: str
    guest: bool
    password_hash: str | None = None
    #: A bot's level: the computer plays this account (`noughts.server.online.bots`);
    #: "engine" for a program its owner connects with `noughts bot`.
    bot: str | None = None
    owner_id: int | None = None

    @property
    def house_bot(self) -> bool:
        """The computer plays this account (on the server, without a socket)."""
        return self.bot is not None and self.bot != ENGINE_BOT


#: The `bot` of an account that a program plays through `noughts bot`.
ENGINE_BOT = "engine"


@dataclass(frozen=True)
class RatingRow:
    user_id: int
    name: str
    spec: str
    rating: float
    deviation: float
    volatility: float
    #: The rated games behind it that the asker may see (a private one: its players').
    games: int
    #: When the rating last changed (its deviation grows from there: `ratings.current`).
    updated_at: int
    bot: str | None = None


@dataclass(frozen=True)
class SeatRating:
    """A player's rating in a game's spec as it stands now, as the game's page shows it
    beside their name while they play."""

    rating: int
    provisional: bool


@dataclass(frozen=True)
class Surroundings:
    """What a game's page shows that is not in the game's row: its tournament (None for
    a game of its own) and the players' ratings now, by user id."""

    tournament_id: str | None
    ratings: dict[int, SeatRating]


class Store:
    """The database of online play at `url`."""

    def __init__(self, url: str) -> None:
        self.engine = make_engine(url)
        self.is_sqlite = self.engine.dialect.name == "sqlite"
        self._executor = ThreadPoolExecutor(1 if self.is_sqlite else 8, thread_name_prefix="noughts-db")
        self._names: dict[int, UserRow] = {}
        #: The games as this process last committed or read them. A move starts from
        #: here; if another process changed the game since, the version check fails and
        #: the move is tried again on the row read afresh.
        self._rows: dict[str, GameRow] = {}
        self._waiting: list[_Request] = []
        self._writer: asyncio.Task[None] | None = None
        self._statements: dict[tuple[str, ...], _DriverStatement] = {}
        #: Two moves for one ply: SQLAlchemy's error, or the driver's from `_DriverStatement`.
        self._duplicate = (IntegrityError, self.engine.dialect.loaded_dbapi.IntegrityError)

    async def call(self, fn: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._executor, lambda: fn(*args, **kwargs))

    def migrate(self) -> None:
        migrate(self.engine)

    def close(self) -> None:
        self._executor.shutdown(wait=True)
        self.engine.dispose()

    # -- accounts ---------------------------------------------------------------------

    def create_user(self, name: str, key: str, password_hash: str | None, guest: bool, now: int) -> UserRow:
        try:
            with self.engine.begin() as c:
                values = {"name": name, "name_key": key, "password_hash": password_hash, "guest": guest}
                user_id = c.execute(insert(_users).values(**values, created_at=now)).inserted_primary_key[0]  # type: ignore[index]
        except IntegrityError:
            raise NameTakenError(name) from None
        return UserRow(int(user_id), name, guest, password_hash)

    def add_bot(self, name: str, key: str, level: str, now: int) -> UserRow:
        """The bot account of `level` named `name`, created unless it exists (every
        process starting at once may try: the unique name settles it)."""
        try:
            with self.engine.begin() as c:
                values = {"name": name, "name_key": key, "password_hash": None, "guest": False, "bot": level}
                c.execute(insert(_users).values(**values, created_at=now))
        except IntegrityError:
            pass  # made by another process, or by an earlier start
        found = self.user_by_key(key)
        if found is None or found.bot != level:
            raise NameTakenError(name)  # a person took the name before bots existed
        return found

    def user_by_key(self, key: str) -> UserRow | None:
        with self.engine.connect() as c:
            row = c.execute(select(_users).where(_users.c.name_key == key)).first()
        return UserRow(row.id, row.name, row.guest, row.password_hash, row.bot, row.owner_id) if row else None

    def known_users(self, ids: set[int]) -> dict[int, UserRow] | None:
        """`users` without touching the database, if all of them are known already."""
        known = self._names
        return {i: known[i] for i in ids} if all(i in known for i in ids) else None

    def users(self, ids: set[int]) -> dict[int, UserRow]:
        """Names of users by id, remembered: names never change."""
        missing = [i for i in ids if i not in self._names]
        if missing:
            with self.engine.connect() as c:
                for row in c.execute(
                    select(_users.c.id, _users.c.name, _users.c.guest, _users.c.bot).where(_users.c.id.in_(missing))
                ):
                    self._names[row.id] = UserRow(row.id, row.name, row.guest, bot=row.bot)
        return {i: self._names[i] for i in ids if i in self._names}

    def language(self, user_id: int) -> str | None:
        with self.engine.connect() as c:
            return c.execute(select(_users.c.language).where(_users.c.id == user_id)).scalar()

    def set_language(self, user_id: int, language: str) -> None:
        with self.engine.begin() as c:
            c.execute(update(_users).where(_users.c.id == user_id).values(language=language))

    def add_session(self, token_hash: str, user_id: int, expires_at: int) -> None:
        with self.engine.begin() as c:
            c.execute(insert(_sessions).values(token_hash=token_hash, user_id=user_id, expires_at=expires_at))

    def session_user(self, token_hash: str, now: int) -> UserRow | None:
        with self.engine.connect() as c:
            row = c.execute(
                select(_users.c.id, _users.c.name, _users.c.guest, _users.c.bot)
                .join(_sessions, _sessions.c.user_id == _users.c.id)
                .where(_sessions.c.token_hash == token_hash, _sessions.c.expires_at > now)
            ).first()
        return UserRow(row.id, row.name, row.guest, bot=row.bot) if row else None

    def remember_login(self, user_id: int, key_hashes: list[str], now: int) -> None:
        """Notes that `user_id` logged in from each of `key_hashes` (a browser, an address)."""
        where = _known_logins.c.user_id == user_id
        for key_hash in key_hashes:
            with self.engine.begin() as c:
                stamp = update(_known_logins).where(where, _known_logins.c.key_hash == key_hash).values(last_at=now)
                if c.execute(stamp).rowcount == 1:
                    continue
            # Two log-ins at once may both insert: the other's row is as good.
            with contextlib.suppress(IntegrityError), self.engine.begin() as c:
                c.execute(insert(_known_logins).values(user_id=user_id, key_hash=key_hash, last_at=now))

    def known_logins(self, user_id: int, key_hashes: list[str], since: int) -> set[str]:
        """Those of `key_hashes` that `user_id` logged in from at `since` or later."""
        with self.engine.connect() as c:
            rows = c.execute(
                select(_known_logins.c.key_hash).where(
                    _known_logins.c.user_id == user_id,
                    _known_logins.c.key_hash.in_(key_hashes),
                    _known_logins.c.last_at >= since,
                )
            ).all()
        return {r.key_hash for r in rows}

    def drop_session(self, token_hash: str) -> None:
        with self.engine.begin() as c:
            c.execute(delete(_sessions).where(_sessions.c.token_hash == token_hash))

    # -- games ------------------------------------------------------------------------

    def add_game(self, row: GameRow) -> None:
        with self.engine.begin() as c:
            c.execute(insert(_games).values(**asdict(row)))

    def game(self, game_id: str) -> GameRow:
        with self.engine.connect() as c:
            return self._game(c, game_id)

    def _game(self, c: Connection, game_id: str) -> GameRow:
        game = self._rows[game_id] = self._read(c, game_id)
        return game

    def _read(self, c: Connection, game_id: str) -> GameRow:
        row = c.execute(_SELECT_GAME, {"game": game_id}).first()
        if row is None:
            raise NotFoundError(game_id)
        return GameRow.from_mapping(row._mapping)

    async def apply_soon(self, game_id: str, action: Callable[[GameRow], Change], cached: bool = False) -> Change:
        """`apply`, in the same transaction as the other changes asked for meanwhile
        (group commit: one commit for all of them, and a batch waits for nothing but
        the transaction before it). Returns once the transaction holding this change
        has committed."""
        loop = asyncio.get_running_loop()
        answer: asyncio.Future[Change] = loop.create_future()
        self._waiting.append(_Request(game_id, action, cached, answer))
        if self._writer is None or self._writer.done():
            self._writer = loop.create_task(self._write(), name="noughts-group-commit")
        return await answer

    async def _write(self) -> None:
        while self._waiting:
            batch, self._waiting = self._waiting[:_BATCH], self._waiting[_BATCH:]
            requests = [(r.game_id, r.action, r.cached) for r in batch]
            results: list[Change | Exception]
            try:
                results = await self.call(self.apply_all, requests)
            except asyncio.CancelledError:
                for request in batch:
                    request.answer.cancel()
                raise
            except Exception as e:  # the store is closed
                results = [e] * len(batch)
            for request, result in zip(batch, results, strict=True):
                if request.answer.done():
                    continue  # its caller is gone
                if isinstance(result, Change):
                    request.answer.set_result(result)
                else:
                    request.answer.set_exception(result)

    def apply_all(self, requests: list[tuple[str, Callable[[GameRow], Change], bool]]) -> list[Change | Exception]:
        """`apply` for each of `requests` (game, action, cached), all in one transaction;
        the result of each: its change, or the error that refused it (nothing of it
        was written). If the database refuses the transaction (a change of another
        process came between), each is applied on its own instead."""
        results: dict[int, Change | Exception] = {}
        # Rows are locked in the order of their games: two processes' batches never
        # wait for each other in a circle (PostgreSQL would abort one of them).
        order = sorted(range(len(requests)), key=lambda i: requests[i][0])
        rows: dict[str, GameRow] = {}
        try:
            with self.engine.begin() as c:
                for i in order:
                    game_id, action, cached = requests[i]
                    try:
                        results[i] = self._apply_in(c, rows, game_id, action, cached)
                    except (ActionError, NotFoundError) as e:
                        results[i] = e
        except Exception:
            return [self._apply_alone(*request) for request in requests]
        for i in order:
            result = results[i]
            if isinstance(result, Change):
                self._remember(result)
        return [results[i] for i in range(len(requests))]

    def _apply_alone(self, game_id: str, action: Callable[[GameRow], Change], cached: bool) -> Change | Exception:
        try:
            return self.apply(game_id, action, cached)
        except Exception as e:
            return e

    def _apply_in(
        self, c: Connection, rows: dict[str, GameRow], game_id: str, action: Callable[[GameRow], Change], cached: bool
    ) -> Change:
        """One change of a batch: `rows` are the games as the batch left them so far."""
        old = (rows.get(game_id) or self._rows.get(game_id)) if cached else None
        if old is None:
            old = self._read(c, game_id)
            change = action(old)
        else:
            try:
                change = action(old)
            except ActionError:
                # Perhaps refused for a stale row: judge it on the real one.
                old = self._read(c, game_id)
                change = action(old)
        committed = self._commit(c, old, change)
        rows[game_id] = committed.row
        return committed

    def _remember(self, committed: Change) -> None:
        if committed.finished:
            self._rows.pop(committed.row.id, None)
        else:
            self._rows[committed.row.id] = committed.row

    def apply(self, game_id: str, action: Callable[[GameRow], Change], cached: bool = False) -> Change:
        """Runs `action` on the game's current row and commits its change, all or
        nothing: if the row changed meanwhile (its version), or another move took the
        same ply, the action is run again on the new row (where it may be refused).
        ActionError from `action` means nothing changed. `cached`: start from the row
        this process knows (moves do; presence, which is not versioned, is not in it)."""
        fresh = not cached
        for _ in range(_RETRIES):
            try:
                with self.engine.begin() as c:
                    old = self._rows.get(game_id) if not fresh else None
                    if old is None:
                        old = self._game(c, game_id)
                    committed = self._commit(c, old, action(old))
                self._remember(committed)
                return committed
            except (*self._duplicate, _ConflictError):
                fresh = True
            except ActionError:
                if fresh:
                    raise
                fresh = True  # perhaps refused for a stale row: judge it on the real one
        raise ActionError("busy", "the game is changing too fast: try again")

    def _commit(self, c: Connection, old: GameRow, change: Change) -> Change:
        """The change as it will be committed (with the ratings it moved); _ConflictError if
        the row changed meanwhile."""
        new = change.row
        if change.truncate_to is not None:
            c.execute(delete(_moves).where(_moves.c.game_id == old.id, _moves.c.ply > change.truncate_to))
        if change.move is not None:
            played_at = new.turn_started_at or new.ended_at or 0
            move = (old.id, old.ply + 1, change.move, played_at, change.move_clock)
            self._run(c, _MOVE_COLUMNS, dict(zip(_MOVE_COLUMNS, move, strict=True)))
        if change.created is not None:
            c.execute(insert(_games).values(**asdict(change.created)))
        if new.state == actions.OVER and new.rated and old.state == actions.PLAYING:
            new = self._rate(c, new)
        values = {name: value for name in _CHANGED if (value := getattr(new, name)) != getattr(old, name)}
        if new.state in actions.FINISHED and old.state == actions.PLAYING:
            # An end that marks a player away (`actions.no_show`): presence written with
            # the end, which no later presence change touches (the game is over).
            values |= {name: value for name in _PRESENCE if (value := getattr(new, name)) != getattr(old, name)}
        if self._run(c, tuple(values), {**values, "_id": old.id, "_version": old.version}) != 1:
            raise _ConflictError
        return change if new is change.row else replace(change, row=new)

    def _run(self, c: Connection, key: tuple[str, ...], values: dict[str, Any]) -> int:
        """Inserts a move (`key` is `_MOVE_COLUMNS`) or updates a game's `key` columns."""
        statement = self._statements.get(key)
        if statement is None:
            built = _INSERT_MOVE if key == _MOVE_COLUMNS else _update_game(key)
            statement = self._statements[key] = _DriverStatement(built, self.engine.dialect)
        return statement.run(c, values)

    def _rate(self, c: Connection, row: GameRow) -> GameRow:
        assert row.x_id is not None and row.o_id is not None  # a game over has both players
        now = row.ended_at or 0
        # As they stand now: the deviations grew while the players were away.
        found = {
            r.user_id: current(Glicko(r.rating, r.deviation, r.volatility), r.updated_at, now)
            for r in c.execute(
                select(_ratings).where(_ratings.c.spec == row.spec, _ratings.c.user_id.in_([row.x_id, row.o_id]))
            )
        }
        x_old, o_old = found.get(row.x_id, Glicko()), found.get(row.o_id, Glicko())
        score = {"x-wins": 1.0, "o-wins": 0.0}.get(row.result, 0.5)
        x_new, o_new = after_game(x_old, o_old, score)
        for user_id, new in ((row.x_id, x_new), (row.o_id, o_new)):
            values = {"rating": new.rating, "deviation": new.deviation, "volatility": new.volatility, "updated_at": now}
            if user_id in found:
                c.execute(
                    update(_ratings)
                    .where(_ratings.c.user_id == user_id, _ratings.c.spec == row.spec)
                    .values(**values, games=_ratings.c.games + 1)
                )
            else:
                c.execute(insert(_ratings).values(user_id=user_id, spec=row.spec, games=1, **values))
        return replace(
            row,
            x_rating_before=round(x_old.rating),
            x_rating_after=round(x_new.rating),
            o_rating_before=round(o_old.rating),
            o_rating_after=round(o_new.rating),
        )

    def abandoned_games(self, before: int, limit: int = 100) -> list[GameRow]:
        """Games in play with a player away since `before` or earlier."""
        with self.engine.connect() as c:
            rows = c.execute(
                select(*_ROW_COLUMNS)
                .where(
                    _games.c.state == actions.PLAYING,
                    or_(_games.c.x_left_at <= before, _games.c.o_left_at <= before),
                    _games.c.days_per_move.is_(None),  # correspondence players are away between moves
                )
                .limit(limit)
            )
            return [GameRow.from_mapping(r._mapping) for r in rows]

    def unstarted_games(self, before: int, limit: int = 100) -> list[GameRow]:
        """Games in play whose player to move has owed their first move since `before`
        or earlier (not correspondence: its days are the clock)."""
        with self.engine.connect() as c:
            rows = c.execute(
                select(*_ROW_COLUMNS)
                .where(
                    _games.c.state == actions.PLAYING,
                    _games.c.ply < 2,
                    _games.c.turn_started_at <= before,
                    _games.c.days_per_move.is_(None),
                )
                .limit(limit)
            )
            return [GameRow.from_mapping(r._mapping) for r in rows]

    def overdue_games(self, now: int, limit: int = 100) -> list[GameRow]:
        """Games in play whose player to move has run out of time by `now` (the clock
        runs from the third ply): nobody may be connected to end them, as in
        correspondence."""
        x_late = and_(_games.c.ply % 2 == 0, _games.c.turn_started_at + _games.c.x_ms <= now)
        o_late = and_(_games.c.ply % 2 == 1, _games.c.turn_started_at + _games.c.o_ms <= now)
        with self.engine.connect() as c:
            rows = c.execute(
                select(*_ROW_COLUMNS)
                .where(
                    _games.c.state == actions.PLAYING,
                    _games.c.clock_initial_ms.is_not(None),
                    _games.c.ply >= 2,
                    or_(x_late, o_late),
                )
                .limit(limit)
            )
            return [GameRow.from_mapping(r._mapping) for r in rows]

    def turns_of(self, user_id: int, limit: int = 50) -> list[GameRow]:
        """The games in play where it is `user_id`'s move, the most urgent first."""
        mine = or_(
            and_(_games.c.x_id == user_id, _games.c.ply % 2 == 0), and_(_games.c.o_id == user_id, _games.c.ply % 2 == 1)
        )
        with self.engine.connect() as c:
            rows = c.execute(
                select(*_ROW_COLUMNS)
                .where(_games.c.state == actions.PLAYING, mine)
                .order_by(_games.c.turn_started_at)
                .limit(limit)
            )
            return [GameRow.from_mapping(r._mapping) for r in rows]

    def set_left(self, game_id: str, side: str, left_at: int | None) -> None:
        """Presence is not a change of the game: it does not move the version."""
        column = "x_left_at" if side == "x" else "o_left_at"
        with self.engine.begin() as c:
            c.execute(update(_games).where(_games.c.id == game_id).values(**{column: left_at}))
        self._rows.pop(game_id, None)

    def set_left_if(self, game_id: str, side: str, expected: int | None, left_at: int | None) -> bool:
        """`set_left` only if the side's `left_at` is still `expected`; whether it was."""
        column = _games.c.x_left_at if side == "x" else _games.c.o_left_at
        unchanged = column.is_(None) if expected is None else column == expected
        with self.engine.begin() as c:
            done = c.execute(
                update(_games)
                .where(_games.c.id == game_id, _games.c.state == actions.PLAYING, unchanged)
                .values({column.name: left_at})
            )
        self._rows.pop(game_id, None)
        return done.rowcount == 1

    def mark_all_away(self, now: int) -> int:
        """Every seated player of every game in play is away since `now`: what a server
        that starts with no socket open knows. Those who left before it stopped get
        the grace again, since nobody could come back while it was down. How many games
        it touched."""
        with self.engine.begin() as c:
            done = c.execute(
                update(_games).where(_games.c.state == actions.PLAYING).values(x_left_at=now, o_left_at=now)
            )
            # A house bot is never away: it plays wherever a server runs. An engine bot
            # plays through its program's sockets, which may not come back either.
            bots = select(_users.c.id).where(_users.c.bot.is_not(None), _users.c.bot != ENGINE_BOT).scalar_subquery()
            for seat in ("x", "o"):
                c.execute(
                    update(_games)
                    .where(_games.c.state == actions.PLAYING, _games.c[f"{seat}_id"].in_(bots))
                    .values({f"{seat}_left_at": None})
                )
        self._rows.clear()
        return int(done.rowcount)

    def bot_games(self, limit: int = 500) -> list[GameRow]:
        """Games in play with a bot seated, the longest waiting first."""
        bots = select(_users.c.id).where(_users.c.bot.is_not(None)).scalar_subquery()
        with self.engine.connect() as c:
            rows = c.execute(
                select(*_ROW_COLUMNS)
                .where(_games.c.state == actions.PLAYING, or_(_games.c.x_id.in_(bots), _games.c.o_id.in_(bots)))
                .order_by(_games.c.turn_started_at)
                .limit(limit)
            )
            return [GameRow.from_mapping(r._mapping) for r in rows]

    def bots(self) -> list[UserRow]:
        with self.engine.connect() as c:
            rows = c.execute(select(_users).where(_users.c.bot.is_not(None)).order_by(_users.c.id))
            return [UserRow(r.id, r.name, r.guest, None, r.bot, r.owner_id) for r in rows]

    def add_engine_bot(self, name: str, key: str, owner_id: int, now: int, most: int) -> UserRow:
        """A bot account that `owner_id` connects a program to, unless they have `most`
        already (TooManyBotsError); NameTakenError."""
        try:
            with self.engine.begin() as c:
                lock_user(c, owner_id)
                owned = c.execute(select(func.count()).where(_users.c.owner_id == owner_id)).scalar_one()
                if owned >= most:
                    raise TooManyBotsError(most)
                values = {"name": name, "name_key": key, "password_hash": None, "guest": False, "bot": ENGINE_BOT}
                user_id = c.execute(
                    insert(_users).values(**values, owner_id=owner_id, created_at=now)
                ).inserted_primary_key[0]  # type: ignore[index]
        except IntegrityError:
            raise NameTakenError(name) from None
        return UserRow(int(user_id), name, False, None, ENGINE_BOT, owner_id)

    def bots_of(self, owner_id: int) -> list[UserRow]:
        with self.engine.connect() as c:
            rows = c.execute(select(_users).where(_users.c.owner_id == owner_id).order_by(_users.c.id))
            return [UserRow(r.id, r.name, r.guest, None, r.bot, r.owner_id) for r in rows]

    def drop_sessions_of(self, user_id: int) -> None:
        """Logs the account out everywhere (a bot's new token replaces the old one)."""
        with self.engine.begin() as c:
            c.execute(delete(_sessions).where(_sessions.c.user_id == user_id))

    def challenges_to(self, user_id: int, limit: int = 50) -> list[GameRow]:
        """The open rooms that challenge `user_id`, the oldest first."""
        with self.engine.connect() as c:
            rows = c.execute(
                select(*_ROW_COLUMNS)
                .where(_games.c.state == actions.OPEN, _games.c.invited_id == user_id)
                .order_by(_games.c.created_at)
                .limit(limit)
            )
            return [GameRow.from_mapping(r._mapping) for r in rows]

    def playing(self, user_id: int, limit: int = 50) -> list[GameRow]:
        """The games `user_id` is playing now."""
        with self.engine.connect() as c:
            rows = c.execute(
                select(*_ROW_COLUMNS)
                .where(_games.c.state == actions.PLAYING, or_(_games.c.x_id == user_id, _games.c.o_id == user_id))
                .order_by(_games.c.started_at)
                .limit(limit)
            )
            return [GameRow.from_mapping(r._mapping) for r in rows]

    def move_rows(self, game_id: str) -> list[tuple[int, str, int, int | None]]:
        with self.engine.connect() as c:
            rows = c.execute(
                select(_moves.c.ply, _moves.c.move, _moves.c.played_at, _moves.c.clock_ms)
                .where(_moves.c.game_id == game_id)
                .order_by(_moves.c.ply)
            )
            return [(r.ply, r.move, r.played_at, r.clock_ms) for r in rows]

    def open_rooms(self, limit: int = 100) -> list[GameRow]:
        with self.engine.connect() as c:
            rows = c.execute(
                select(*_ROW_COLUMNS)
                .where(_games.c.state == actions.OPEN, _games.c.private.is_(False))
                .order_by(_games.c.created_at.desc())
                .limit(limit)
            )
            return [GameRow.from_mapping(r._mapping) for r in rows]

    def games_of(self, user_id: int, limit: int, offset: int = 0, viewer: int | None = None) -> list[GameRow]:
        """`user_id`'s games (their open rooms too), newest first, as `viewer` may see
        them: a private game only to its own players (None: a visitor)."""
        with self.engine.connect() as c:
            rows = c.execute(
                select(*_ROW_COLUMNS)
                .where(games_of_player(user_id), visible_to(viewer))
                .order_by(_games.c.created_at.desc())
                .limit(limit)
                .offset(offset)
            )
            return [GameRow.from_mapping(r._mapping) for r in rows]

    def live_games(self, limit: int = 50) -> list[GameRow]:
        """The public games in play, the newest first (a private one is watched through
        its link only)."""
        with self.engine.connect() as c:
            rows = c.execute(
                select(*_ROW_COLUMNS)
                .where(_games.c.state == actions.PLAYING, _games.c.private.is_(False))
                .order_by(_games.c.started_at.desc())
                .limit(limit)
            )
            return [GameRow.from_mapping(r._mapping) for r in rows]

    def ratings_of(self, user_id: int, viewer: int | None) -> list[RatingRow]:
        """`user_id`'s ratings, each with the rated games behind it that `viewer` may
        see (None: a visitor; `user_id` sees them all)."""
        return self._ratings_where(_ratings.c.user_id == user_id, viewer, limit=1000)

    def leaderboard(
        self, spec: str, viewer: int | None, limit: int = 100, provisional: bool = False, bots: bool = False
    ) -> list[RatingRow]:
        """The best ratings of `spec`, each with the games `viewer` may see: people's
        settled ones, and with `provisional` and `bots` those too. A stored deviation
        only grows with time away, so one above `PROVISIONAL` is provisional now; the
        caller drops those that grew past it since."""
        where = [_ratings.c.spec == spec]
        if not provisional:
            where.append(_ratings.c.deviation <= PROVISIONAL)
        if not bots:
            where.append(_users.c.bot.is_(None))
        return self._ratings_where(and_(*where), viewer, limit=limit)

    def _ratings_where(self, condition: Any, viewer: int | None, limit: int) -> list[RatingRow]:
        seen = (_ratings.c.games - _hidden_rated(viewer)).label("seen")
        with self.engine.connect() as c:
            rows = c.execute(
                select(_ratings, seen, _users.c.name, _users.c.bot)
                .join(_users, _users.c.id == _ratings.c.user_id)
                .where(condition)
                .order_by(_ratings.c.rating.desc(), _users.c.name_key)
                .limit(limit)
            )
            return [
                RatingRow(
                    r.user_id, r.name, r.spec, r.rating, r.deviation, r.volatility, max(0, r.seen), r.updated_at, r.bot
                )
                for r in rows
            ]

    def surroundings(self, game_id: str, spec: str, user_ids: set[int], now: int) -> Surroundings:
        """The game's tournament and the ratings of `user_ids` in `spec` at `now`, a
        new player's (provisional) for one who has none yet."""
        with self.engine.connect() as c:
            tournament_id = c.execute(select(_pairings.c.tournament_id).where(_pairings.c.game_id == game_id)).scalar()
            found = {
                r.user_id: current(Glicko(r.rating, r.deviation, r.volatility), r.updated_at, now)
                for r in c.execute(select(_ratings).where(_ratings.c.spec == spec, _ratings.c.user_id.in_(user_ids)))
            }
        shown = {i: found.get(i, Glicko()) for i in user_ids}
        return Surroundings(
            tournament_id, {i: SeatRating(round(g.rating), is_provisional(g.deviation)) for i, g in shown.items()}
        )

    def rated_specs(self) -> list[tuple[str, int]]:
        """The games that have ratings, with how many players."""
        with self.engine.connect() as c:
            rows = c.execute(select(_ratings.c.spec, func.count()).group_by(_ratings.c.spec).order_by(_ratings.c.spec))
            return [(r[0], int(r[1])) for r in rows]

    # -- reviews ----------------------------------------------------------------------

    def review(self, game_id: str) -> str | None:
        """A game's stored review (JSON), or None."""
        with self.engine.connect() as c:
            return c.execute(select(_reviews.c.data).where(_reviews.c.game_id == game_id)).scalar()

    def add_review(self, game_id: str, level: str, data: str, user_id: int | None, now: int) -> str:
        """Stores a game's review unless one is there already (two asked at once): the
        stored one, the first, is answered either way."""
        try:
            with self.engine.begin() as c:
                values = {"game_id": game_id, "level": level, "data": data, "requested_by": user_id}
                c.execute(insert(_reviews).values(**values, created_at=now))
        except IntegrityError:
            pass
        stored = self.review(game_id)
        assert stored is not None  # just written, or written by the other request
        return stored

    def kept_review(self, key: str) -> str | None:
        """The kept review (JSON) of a game sent by a page, by its key, or None."""
        with self.engine.connect() as c:
            return c.execute(select(_kept_reviews.c.data).where(_kept_reviews.c.key == key)).scalar()

    def keep_review(self, key: str, spec: str, level: str, seconds: float, data: str, now: int) -> str:
        """Keeps a page's game's review unless one is kept under `key` already (another
        server process finished first): the kept one is answered either way."""
        try:
            with self.engine.begin() as c:
                values = {"key": key, "spec": spec, "level": level, "seconds": seconds, "data": data}
                c.execute(insert(_kept_reviews).values(**values, created_at=now))
        except IntegrityError:
            pass
        stored = self.kept_review(key)
        assert stored is not None  # just written, or written by the other process
        return stored
