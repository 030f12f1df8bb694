"""Data access of puzzles: the puzzles and their ratings, players' puzzle ratings and
attempts, the daily puzzle. Each method is one transaction, called through
`Store.call` like the store's own.

A player's first attempt at a puzzle is the one that counts (as on lichess): the
attempt's primary key (player, puzzle) lets one of two submissions in, whichever
process they reach, and the ratings change in the same transaction. The rows of the
player and the puzzle are locked for the update (FOR UPDATE on PostgreSQL; SQLite
writes one transaction at a time anyway), so that attempts of others at the same
puzzle, or of the same player at other puzzles, never lose an update.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, cast

from sqlalchemy import ColumnElement, Connection, Table, and_, func, insert, not_, or_, select, true, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.exc import IntegrityError

from noughts.competition.ratings import Glicko, current
from noughts.competition.ratings import update as rated
from noughts.server.online.puzzle_calibration import Attempt
from noughts.server.online.storage.store import NotFoundError, Store
from noughts.server.online.storage.tables import Game, Puzzle, PuzzleAttempt, PuzzleDaily, PuzzlePlayer
from noughts.study.puzzles import Puzzle as ProvedPuzzle
from noughts.study.puzzles import shipped

__all__ = ["AttemptRow", "PuzzleBook", "PuzzlePlayerRow", "PuzzleRow", "Tally", "add_puzzles"]

_puzzles = cast(Table, Puzzle.__table__)
_players = cast(Table, PuzzlePlayer.__table__)
_attempts = cast(Table, PuzzleAttempt.__table__)
_daily = cast(Table, PuzzleDaily.__table__)
_games = cast(Table, Game.__table__)

#: A puzzle's rating deviation when it is added: as unsure as a new player's, so that
#: the first attempts move it quickly from the search's estimate.
NEW_DEVIATION = 350.0
#: How many of the puzzles nearest the player's rating a choice is drawn from: enough
#: that two players of one rating see different puzzles, few enough to stay near.
_NEAREST = 12


@dataclass(frozen=True)
class PuzzleRow:
    id: str
    spec: str
    position: str
    solution: list[str]
    plies: int
    themes: list[str]
    source: str
    origin_game: str | None
    rating: float
    deviation: float
    attempts: int
    solved: int

    @classmethod
    def from_mapping(cls, m: Any) -> PuzzleRow:
        return cls(
            m["id"], m["spec"], m["position"], json.loads(m["solution"]), m["plies"],
            [t for t in m["themes"].split("|") if t], m["source"], m["origin_game"],
            m["rating"], m["deviation"], m["attempts"], m["solved"],
        )  # fmt: skip


@dataclass(frozen=True)
class PuzzlePlayerRow:
    user_id: int
    rating: float
    deviation: float
    volatility: float
    attempts: int
    solved: int
    best_streak: int
    updated_at: int


@dataclass
class Tally:
    """A player's counted attempts of one kind (a game's, a theme's): how many, how many
    solved, and the puzzle rating they won or lost altogether."""

    attempts: int = 0
    solved: int = 0
    rating_change: float = 0.0


@dataclass(frozen=True)
class AttemptRow:
    puzzle_id: str
    solved: bool
    rating_before: float
    rating_after: float
    puzzle_rating_before: float
    puzzle_rating_after: float
    created_at: int
    #: False when the attempt had been counted already (a second submission).
    first: bool = True


def add_puzzles(c: Connection, puzzles: Iterable[ProvedPuzzle], now: int, origin_game: str | None = None) -> int:
    """Adds the puzzles not stored yet (by id); how many were added (as far as this
    transaction saw: another process may add some of the same at the same moment, two
    games reaching one position, and the one that comes second skips them)."""
    wanted = {p.id: p for p in puzzles}
    if not wanted:
        return 0
    have = set(c.execute(select(_puzzles.c.id).where(_puzzles.c.id.in_(list(wanted)))).scalars())
    rows = [
        {
            "id": id_,
            "spec": p.spec,
            "position": p.position,
            "solution": json.dumps(p.solution),
            "plies": p.plies,
            "themes": "|" + "|".join(p.themes) + "|",
            "source": p.source,
            "origin_game": origin_game,
            "rating": float(p.first_rating),
            "deviation": NEW_DEVIATION,
            "volatility": Glicko().volatility,
            "attempts": 0,
            "solved": 0,
            "created_at": now,
        }
        for id_, p in wanted.items()
        if id_ not in have
    ]
    if rows:
        dialect = postgresql if c.dialect.name == "postgresql" else sqlite
        c.execute(dialect.insert(_puzzles).on_conflict_do_nothing(), rows)
    return len(rows)


def _theme_like(theme: str) -> Any:
    # The bars around each theme keep "win in 1" from matching "win in 12".
    escaped = theme.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    return _puzzles.c.themes.like(f"%|{escaped}|%", escape="\\")


class PuzzleBook:
    """The puzzles of online play's database (`store`)."""

    def __init__(self, store: Store, hidden_specs: Iterable[str] = ()) -> None:
        self.store = store
        self.engine = store.engine
        #: Games whose puzzles this server cannot judge (gobblet's before its table is
        #: built): kept, but never offered.
        self.hidden_specs = sorted(set(hidden_specs))

    def _shown(self) -> ColumnElement[bool]:
        return not_(_puzzles.c.spec.in_(self.hidden_specs))

    def _insert_ignore(self, table: Table, values: dict[str, Any]) -> Any:
        dialect = postgresql if self.engine.dialect.name == "postgresql" else sqlite
        return dialect.insert(table).values(**values).on_conflict_do_nothing()

    def sync_shipped(self, now: int) -> int:
        """Adds the shipped puzzles missing here (those of a newer release), and gives
        those already here the release's line, length and themes where it changed them
        (a line made the quickest win: tools/puzzles/build.py shorten), their ratings and
        attempts kept; how many were added or changed."""
        puzzles = shipped()
        with self.engine.begin() as c:
            added = add_puzzles(c, puzzles, now)
            columns = (_puzzles.c.id, _puzzles.c.solution, _puzzles.c.plies, _puzzles.c.themes)
            wanted = [p.id for p in puzzles]
            rows = c.execute(select(*columns).where(_puzzles.c.id.in_(wanted)))
            stored = {r[0]: (json.loads(r[1]), r[2], r[3]) for r in rows}
            changed = 0
            for p in puzzles:
                fields = (p.solution, p.plies, "|" + "|".join(p.themes) + "|")
                if p.id in stored and stored[p.id] != fields:
                    values = {"solution": json.dumps(p.solution), "plies": p.plies, "themes": fields[2]}
                    c.execute(update(_puzzles).where(_puzzles.c.id == p.id).values(**values))
                    changed += 1
        return added + changed

    def add(self, puzzles: list[ProvedPuzzle], now: int, origin_game: str | None = None) -> int:
        with self.engine.begin() as c:
            return add_puzzles(c, puzzles, now, origin_game)

    def puzzle(self, puzzle_id: str) -> PuzzleRow:
        with self.engine.connect() as c:
            row = c.execute(select(_puzzles).where(_puzzles.c.id == puzzle_id)).first()
        if row is None:
            raise NotFoundError(puzzle_id)
        return PuzzleRow.from_mapping(row._mapping)

    def catalogue(self, spec: str | None = None) -> tuple[list[tuple[str, int]], list[tuple[str, int]]]:
        """How many puzzles each game has, and each theme: in `spec`'s puzzles if given
        (the themes a filter by that game can offer), else in any game."""
        with self.engine.connect() as c:
            games = [
                (r[0], int(r[1]))
                for r in c.execute(select(_puzzles.c.spec, func.count()).where(self._shown()).group_by("spec"))
            ]
            themes: dict[str, int] = {}
            shown = self._shown() if spec is None else and_(self._shown(), _puzzles.c.spec == spec)
            for (text,) in c.execute(select(_puzzles.c.themes).where(shown)):
                for theme in text.split("|"):
                    if theme:
                        themes[theme] = themes.get(theme, 0) + 1
        return sorted(games), sorted(themes.items(), key=_theme_order)

    def choose(
        self,
        rating: float,
        spec: str | None = None,
        theme: str | None = None,
        user_id: int | None = None,
        exclude: Iterable[str] = (),
        rng: random.Random | None = None,
    ) -> PuzzleRow | None:
        """A puzzle near `rating`, of `spec` and `theme` if given, that `user_id` has
        not tried and not in `exclude`: drawn among the nearest few. None if none is left."""
        conditions: list[ColumnElement[bool]] = [not_(_puzzles.c.id.in_(list(exclude))), self._shown()]
        if spec is not None:
            conditions.append(_puzzles.c.spec == spec)
        if theme is not None:
            conditions.append(_theme_like(theme))
        if user_id is not None:
            tried = select(_attempts.c.puzzle_id).where(_attempts.c.user_id == user_id)
            conditions.append(not_(_puzzles.c.id.in_(tried)))
        with self.engine.connect() as c:
            rows = c.execute(
                select(_puzzles)
                .where(and_(*conditions))
                .order_by(func.abs(_puzzles.c.rating - rating), _puzzles.c.id)
                .limit(_NEAREST)
            ).all()
        if not rows:
            return None
        return PuzzleRow.from_mapping((rng or random.Random()).choice(rows)._mapping)

    def streak(self, count: int, spec: str | None, theme: str | None, seed: int) -> list[PuzzleRow]:
        """`count` puzzles of rising rating for streak mode, drawn from `seed`: the
        puzzles sorted by rating, one drawn from each of `count` equal slices."""
        conditions: list[ColumnElement[bool]] = [self._shown()]
        if spec is not None:
            conditions.append(_puzzles.c.spec == spec)
        if theme is not None:
            conditions.append(_theme_like(theme))
        with self.engine.connect() as c:
            rows = c.execute(
                select(_puzzles).where(and_(true(), *conditions)).order_by(_puzzles.c.rating, _puzzles.c.id)
            )
            found = [PuzzleRow.from_mapping(r._mapping) for r in rows]
        rng = random.Random(seed)
        slices = [found[len(found) * i // count : len(found) * (i + 1) // count] for i in range(count)]
        return [rng.choice(part) for part in slices if part]

    def daily(self, day: str, rng: random.Random | None = None) -> PuzzleRow | None:
        """The puzzle of `day` (YYYY-MM-DD): chosen once, by the first to ask, among
        puzzles of middle difficulty (1300-2000) that were never a daily puzzle, and
        never one of a game this server cannot judge (`hidden_specs`)."""
        with self.engine.connect() as c:
            chosen = c.execute(select(_daily.c.puzzle_id).where(_daily.c.day == day)).scalar()
        if chosen is None:
            with self.engine.connect() as c:
                earlier = select(_daily.c.puzzle_id)
                candidates = list(
                    c.execute(
                        select(_puzzles.c.id)
                        .where(_puzzles.c.rating.between(1300, 2000), not_(_puzzles.c.id.in_(earlier)), self._shown())
                        .order_by(_puzzles.c.id)
                    ).scalars()
                ) or list(c.execute(select(_puzzles.c.id).where(self._shown()).order_by(_puzzles.c.id)).scalars())
            if not candidates:
                return None
            pick = (rng or random.Random(day)).choice(candidates)
            with self.engine.begin() as c:
                c.execute(self._insert_ignore(_daily, {"day": day, "puzzle_id": pick}))
            with self.engine.connect() as c:
                chosen = c.execute(select(_daily.c.puzzle_id).where(_daily.c.day == day)).scalar()
        found = self.puzzle(cast(str, chosen))
        if found.spec in self.hidden_specs:
            # Drawn by a server that can judge its game (gobblet with its table) and this
            # one cannot: this server offers one of its own for the day, the same all day.
            with self.engine.connect() as c:
                shown = list(c.execute(select(_puzzles.c.id).where(self._shown()).order_by(_puzzles.c.id)).scalars())
            return self.puzzle(random.Random(day).choice(shown)) if shown else None
        return found

    # -- players ------------------------------------------------------------------------

    def player(self, user_id: int, now: int) -> PuzzlePlayerRow:
        """The player's puzzle rating as it stands `now` (a new player's if none)."""
        with self.engine.connect() as c:
            row = c.execute(select(_players).where(_players.c.user_id == user_id)).first()
        if row is None:
            fresh = Glicko()
            return PuzzlePlayerRow(user_id, fresh.rating, fresh.deviation, fresh.volatility, 0, 0, 0, now)
        m = row._mapping
        standing = current(Glicko(m["rating"], m["deviation"], m["volatility"]), m["updated_at"], now)
        return PuzzlePlayerRow(
            user_id, standing.rating, standing.deviation, standing.volatility,
            m["attempts"], m["solved"], m["best_streak"], m["updated_at"],
        )  # fmt: skip

    def _new_player(self, c: Connection, user_id: int, now: int) -> None:
        fresh = Glicko()
        values = {
            "user_id": user_id, "rating": fresh.rating, "deviation": fresh.deviation, "volatility": fresh.volatility,
            "attempts": 0, "solved": 0, "best_streak": 0, "updated_at": now,
        }  # fmt: skip
        c.execute(self._insert_ignore(_players, values))

    def attempt(self, user_id: int, puzzle_id: str, solved: bool, now: int) -> AttemptRow:
        """Counts the player's first attempt at the puzzle: both ratings move (Glicko-2,
        one game between the player and the puzzle). A later attempt changes nothing
        and answers the first (`first` False)."""
        try:
            with self.engine.begin() as c:
                c.execute(
                    insert(_attempts).values(
                        user_id=user_id,
                        puzzle_id=puzzle_id,
                        solved=solved,
                        rating_before=0.0,
                        rating_after=0.0,
                        puzzle_rating_before=0.0,
                        puzzle_rating_after=0.0,
                        created_at=now,
                    )
                )
                self._new_player(c, user_id, now)
                puzzle_row = c.execute(select(_puzzles).where(_puzzles.c.id == puzzle_id).with_for_update()).first()
                player_row = c.execute(select(_players).where(_players.c.user_id == user_id).with_for_update()).one()
                if puzzle_row is None:  # the foreign key refuses it first where it is checked
                    raise NotFoundError(puzzle_id)
                p, q = player_row._mapping, puzzle_row._mapping
                player = current(Glicko(p["rating"], p["deviation"], p["volatility"]), p["updated_at"], now)
                puzzle = Glicko(q["rating"], q["deviation"], q["volatility"])
                score = 1.0 if solved else 0.0
                player_new = rated(player, [(puzzle, score)])
                puzzle_new = rated(puzzle, [(player, 1.0 - score)])
                c.execute(
                    update(_players)
                    .where(_players.c.user_id == user_id)
                    .values(**_scored(_players, player_new, solved), updated_at=now)
                )
                c.execute(
                    update(_puzzles).where(_puzzles.c.id == puzzle_id).values(**_scored(_puzzles, puzzle_new, solved))
                )
                c.execute(
                    update(_attempts)
                    .where(_attempts.c.user_id == user_id, _attempts.c.puzzle_id == puzzle_id)
                    .values(
                        rating_before=player.rating,
                        rating_after=player_new.rating,
                        puzzle_rating_before=puzzle.rating,
                        puzzle_rating_after=puzzle_new.rating,
                    )
                )
        except IntegrityError:
            # Tried before (or the puzzle is unknown: the foreign key).
            found = self._attempt(user_id, puzzle_id)
            if found is None:
                raise NotFoundError(puzzle_id) from None
            return found
        found = self._attempt(user_id, puzzle_id)
        assert found is not None  # just written
        return AttemptRow(**{**found.__dict__, "first": True})

    def _attempt(self, user_id: int, puzzle_id: str) -> AttemptRow | None:
        with self.engine.connect() as c:
            row = c.execute(
                select(_attempts).where(_attempts.c.user_id == user_id, _attempts.c.puzzle_id == puzzle_id)
            ).first()
        return None if row is None else _attempt_row(row._mapping, first=False)

    def history(self, user_id: int, limit: int = 50, offset: int = 0) -> list[tuple[AttemptRow, PuzzleRow]]:
        """The player's attempts, the newest first, with their puzzles."""
        with self.engine.connect() as c:
            rows = c.execute(
                select(_attempts, *[column.label(f"p_{column.name}") for column in _puzzles.c])
                .join(_puzzles, _puzzles.c.id == _attempts.c.puzzle_id)
                .where(_attempts.c.user_id == user_id)
                .order_by(_attempts.c.created_at.desc(), _attempts.c.puzzle_id)
                .limit(limit)
                .offset(offset)
            ).all()
        found = []
        for row in rows:
            m = row._mapping
            puzzle = {column.name: m[f"p_{column.name}"] for column in _puzzles.c}
            found.append((_attempt_row(m, first=False), PuzzleRow.from_mapping(puzzle)))
        return found

    def results(self, user_id: int, since: int) -> tuple[dict[str, Tally], dict[str, Tally]]:
        """The player's counted attempts from `since` (milliseconds) on, tallied by the
        puzzle's game (its spec) and by each of its themes: the puzzle dashboard."""
        with self.engine.connect() as c:
            rows = c.execute(
                select(
                    _puzzles.c.spec,
                    _puzzles.c.themes,
                    _attempts.c.solved,
                    _attempts.c.rating_before,
                    _attempts.c.rating_after,
                )
                .join(_puzzles, _puzzles.c.id == _attempts.c.puzzle_id)
                .where(_attempts.c.user_id == user_id, _attempts.c.created_at >= since)
            ).all()
        games: dict[str, Tally] = {}
        themes: dict[str, Tally] = {}
        for row in rows:
            kinds = [games.setdefault(row.spec, Tally())]
            kinds += [themes.setdefault(theme, Tally()) for theme in row.themes.split("|") if theme]
            for tally in kinds:
                tally.attempts += 1
                tally.solved += int(bool(row.solved))
                tally.rating_change += row.rating_after - row.rating_before
        return games, themes

    def rated_attempts(self, spec: str | None = None) -> list[Attempt]:
        """Every counted attempt (of `spec`'s puzzles only, if given) with both ratings
        before it: what `noughts.server.online.puzzle_calibration` judges the ratings by."""
        query = select(_attempts.c.rating_before, _attempts.c.puzzle_rating_before, _attempts.c.solved)
        if spec is not None:
            query = query.join(_puzzles, _puzzles.c.id == _attempts.c.puzzle_id).where(_puzzles.c.spec == spec)
        with self.engine.connect() as c:
            rows = c.execute(query.order_by(_attempts.c.created_at, _attempts.c.user_id, _attempts.c.puzzle_id))
            return [Attempt(r.rating_before, r.puzzle_rating_before, bool(r.solved)) for r in rows]

    def record_streak(self, user_id: int, streak: int, now: int) -> int:
        """Keeps the player's best streak; the best after this one."""
        with self.engine.begin() as c:
            self._new_player(c, user_id, now)
            c.execute(
                update(_players)
                .where(_players.c.user_id == user_id, _players.c.best_streak < streak)
                .values(best_streak=streak)
            )
            return int(c.execute(select(_players.c.best_streak).where(_players.c.user_id == user_id)).scalar_one())

    def from_games_of(self, user_id: int, limit: int = 20) -> list[PuzzleRow]:
        """Puzzles found in the player's own online games that they have not tried."""
        with self.engine.connect() as c:
            theirs = select(_games.c.id).where(or_(_games.c.x_id == user_id, _games.c.o_id == user_id))
            tried = select(_attempts.c.puzzle_id).where(_attempts.c.user_id == user_id)
            rows = c.execute(
                select(_puzzles)
                .where(_puzzles.c.origin_game.in_(theirs), not_(_puzzles.c.id.in_(tried)))
                .order_by(_puzzles.c.created_at.desc(), _puzzles.c.id)
                .limit(limit)
            )
            return [PuzzleRow.from_mapping(r._mapping) for r in rows]


def _scored(table: Table, rating: Glicko, solved: bool) -> dict[str, Any]:
    """A rating row's new values after one more attempt (the player's or the puzzle's)."""
    return {
        "rating": rating.rating,
        "deviation": rating.deviation,
        "volatility": rating.volatility,
        "attempts": table.c.attempts + 1,
        "solved": table.c.solved + int(solved),
    }


def _theme_order(item: tuple[str, int]) -> tuple[int, int, str]:
    """The themes of ideas first, the most common first; then "win in N" and "win in at
    most N" (a race prover's bound) by N."""
    theme, count = item
    moves = theme.removeprefix("win in ").removeprefix("at most ")
    if theme.startswith("win in ") and moves.isdigit():
        return (1, int(moves), theme)
    return (0, -count, theme)


def _attempt_row(m: Any, first: bool) -> AttemptRow:
    return AttemptRow(
        m["puzzle_id"], bool(m["solved"]), m["rating_before"], m["rating_after"],
        m["puzzle_rating_before"], m["puzzle_rating_after"], m["created_at"], first,
    )  # fmt: skip
