"""What players may do in an online game, and what each action changes.

Pure functions from a game row, the acting player and the time to the changed row:
the repository runs them inside a transaction and commits the result only if the
row has not changed meanwhile (its version), and the moves table accepts one move
per ply. The core decides every move's legality; nothing here knows a game's rules.
"""

from __future__ import annotations

import secrets
import threading
from collections import OrderedDict
from dataclasses import dataclass, fields, replace
from typing import Any, ClassVar

from noughts.competition import clock
from noughts.core import NoughtsError, State
from noughts.registry import parse_spec
from noughts.server.replay import error_kind

#: Live: the game goes on. Finished: a result (over), or no result (aborted, cancelled).
OPEN, PLAYING, OVER, ABORTED, CANCELLED = "open", "playing", "over", "aborted", "cancelled"
FINISHED = (OVER, ABORTED, CANCELLED)

#: Every message a player may send about a game, besides "move".
ACTIONS = (
    "resign",
    "abort",
    "draw-offer",
    "draw-accept",
    "draw-decline",
    "takeback-request",
    "takeback-accept",
    "takeback-decline",
    "rematch-offer",
    "rematch-accept",
    "rematch-decline",
    "claim",
    "flag",
)


class ActionError(Exception):
    """An action refused: `error` is a stable word, the message is for the player.
    Nothing was changed. Its kind says its HTTP status: this class, what the game's
    state (or another's action) forbids now (409); the subclasses below, the rest."""

    status: ClassVar[int] = 409

    def __init__(self, error: str, message: str) -> None:
        super().__init__(message)
        self.error = error
        self.message = message


class MissingError(ActionError):
    """What the action names is not there: no such game, bot, puzzle, review."""

    status = 404


class ForbiddenError(ActionError):
    """Not the asker's to do: not their game, a guest where an account is needed."""

    status = 403


class InvalidError(ActionError):
    """The request itself is malformed: a spec, a side, a clock that cannot be."""

    status = 400


class TooManyError(ActionError):
    """The asker holds as many of these as anyone may."""

    status = 429


@dataclass
class GameRow:
    """A row of the games table (see storage.tables.Game for the meaning of each field)."""

    id: str
    spec: str
    rated: bool
    private: bool
    creator_id: int
    creator_side: str
    x_id: int | None
    o_id: int | None
    state: str
    result: str
    termination: str | None
    moves: str
    ply: int
    version: int
    clock_initial_ms: int | None
    clock_increment_ms: int | None
    x_ms: int | None
    o_ms: int | None
    turn_started_at: int | None
    draw_offer: str | None
    takeback_offer: str | None
    rematch_offer: str | None
    rematch_id: str | None
    x_left_at: int | None
    o_left_at: int | None
    x_rating_before: int | None
    x_rating_after: int | None
    o_rating_before: int | None
    o_rating_after: int | None
    created_at: int
    started_at: int | None
    ended_at: int | None
    #: A challenge's one possible opponent (None: anybody may join).
    invited_id: int | None = None
    #: Correspondence: days for each move (the clock is that much, filled again after
    #: every move); None for a game played at one sitting.
    days_per_move: int | None = None
    #: Each player's lag compensation (`clock.Lag`); None: as a game starts.
    x_lag_quota_ms: int | None = None
    o_lag_quota_ms: int | None = None
    x_lag_ms: int | None = None
    o_lag_ms: int | None = None

    @classmethod
    def from_mapping(cls, values: Any) -> GameRow:
        return cls(**{f.name: values[f.name] for f in fields(cls)})

    def side_of(self, user_id: int | None) -> str | None:
        """ "x" or "o" for a player of this game, None for anybody else."""
        if user_id is None:
            return None
        if self.x_id == user_id:
            return "x"
        if self.o_id == user_id:
            return "o"
        return None

    @property
    def move_list(self) -> list[str]:
        return self.moves.split() if self.moves else []

    @property
    def has_clock(self) -> bool:
        return self.clock_initial_ms is not None

    def clocks(self, now: int) -> clock.Clocks | None:
        if not self.has_clock or self.x_ms is None or self.o_ms is None:
            return None
        running = clock.is_running(True, self.state == PLAYING, self.ply)
        return clock.read(self.x_ms, self.o_ms, turn_of(self.ply), running, self.turn_started_at, now)

    def clock_end(self) -> int | None:
        """When the clock of the player to move shows 0 (None: no clock running)."""
        if not clock.is_running(self.has_clock, self.state == PLAYING, self.ply) or self.turn_started_at is None:
            return None
        left = self.x_ms if turn_of(self.ply) == "x" else self.o_ms
        return self.turn_started_at + (left or 0)

    def deadline(self) -> int | None:
        """When the player to move loses on time (None: no clock running): their clock's
        end and their lag grace, so that a move on its way is not beaten by the flag
        (and time the server stood still meanwhile is added when the flag falls)."""
        end = self.clock_end()
        if end is None:
            return None
        return end + self.lag(turn_of(self.ply)).grace_ms

    @property
    def lag_gain(self) -> int:
        """The lag quota's gain each move: 0 without a live clock (correspondence's days
        need none)."""
        if self.clock_initial_ms is None or self.days_per_move is not None:
            return 0
        return clock.lag_gain(self.clock_initial_ms, self.clock_increment_ms or 0)

    def lag(self, side: str) -> clock.Lag:
        """`side`'s lag compensation now."""
        quota, estimate = (self.x_lag_quota_ms, self.x_lag_ms) if side == "x" else (self.o_lag_quota_ms, self.o_lag_ms)
        if quota is None:
            return clock.Lag.start(self.lag_gain)
        return clock.Lag(quota, estimate or 0)


@dataclass(frozen=True)
class Change:
    """An accepted action: the row after it, what happened (the event's `kind`), the move
    played (with its ply), the ply from which moves were taken back, and a game that
    the action created (a rematch)."""

    row: GameRow
    kind: str
    by: str | None = None
    move: str | None = None
    truncate_to: int | None = None
    created: GameRow | None = None
    #: The mover's clock after the move, stored with it.
    move_clock: int | None = None

    @property
    def finished(self) -> bool:
        return self.row.state in FINISHED


def other(side: str) -> str:
    return "o" if side == "x" else "x"


def turn_of(ply: int) -> str:
    """Games start from the initial position, X first: the side to move after `ply` plies."""
    return "x" if ply % 2 == 0 else "o"


def new_game_id() -> str:
    return secrets.token_urlsafe(6)


# -- positions -----------------------------------------------------------------------

_POSITIONS: OrderedDict[tuple[str, str], State[Any]] = OrderedDict()
_POSITIONS_KEPT = 20_000
#: The store's threads and the event loop share the cache.
_POSITIONS_LOCK = threading.Lock()


def position(spec: str, moves: str) -> State[Any]:
    """The state after `moves` (canonical texts, space separated), kept for the next
    move of the same game so that a move costs one `play` and not a replay."""
    key = (spec, moves)
    head, _, last = moves.rpartition(" ")
    with _POSITIONS_LOCK:
        state = _POSITIONS.get(key)
        if state is not None:
            _POSITIONS.move_to_end(key)
            return state
        before = _POSITIONS.get((spec, head)) if moves else None
    if before is not None:
        state = before.play_text(last)
    else:
        state = parse_spec(spec).initial()
        for text in moves.split():
            state = state.play_text(text)
    with _POSITIONS_LOCK:
        _POSITIONS[key] = state
        if len(_POSITIONS) > _POSITIONS_KEPT:
            _POSITIONS.popitem(last=False)
    return state


# -- the actions -----------------------------------------------------------------------


def _live_side(row: GameRow, user_id: int | None) -> str:
    side = row.side_of(user_id)
    if side is None:
        raise ForbiddenError("not-a-player", "you are not playing in this game")
    if row.state == OPEN:
        raise ActionError("not-started", "the game has not started: it is waiting for an opponent")
    if row.state != PLAYING:
        raise ActionError("game-over", "the game is over")
    return side


def _finish(row: GameRow, now: int, result: str, termination: str, state: str = OVER) -> GameRow:
    clocks = row.clocks(now)
    x_ms, o_ms = (clocks.x_ms, clocks.o_ms) if clocks else (row.x_ms, row.o_ms)
    return replace(
        row,
        state=state,
        result=result,
        termination=termination if state == OVER else None,
        x_ms=x_ms,
        o_ms=o_ms,
        turn_started_at=None,
        draw_offer=None,
        takeback_offer=None,
        ended_at=now,
        version=row.version + 1,
    )


def _win(side: str) -> str:
    return f"{side}-wins"


def _time_up(row: GameRow, now: int, allowance_ms: int | None = None) -> Change | None:
    """The flag, if the player to move has run out of time by `now`, after
    `allowance_ms` given back to them (None: their lag grace, as the flag falls)."""
    end = row.clock_end()
    if end is None:
        return None
    if allowance_ms is None:
        allowance_ms = row.lag(turn_of(row.ply)).grace_ms
    if now < end + allowance_ms:
        return None
    loser = turn_of(row.ply)
    return Change(_finish(row, now, _win(other(loser)), "time"), "flag", loser)


def join(row: GameRow, user_id: int, guest: bool, now: int, coin: str | None = None) -> Change:
    """`user_id` takes the free seat; a random side is settled by `coin` (tests pass it)."""
    if row.state != OPEN:
        raise ActionError("room-closed", "this room is not open: somebody joined it already, or it was closed")
    if user_id == row.creator_id:
        raise ActionError("own-room", "this is your own room: share its link with your opponent")
    if row.invited_id is not None and user_id != row.invited_id:
        raise ForbiddenError("not-invited", "this room is a challenge to another player")
    if row.rated and guest:
        raise ForbiddenError("guest-rated", "guests play casual games only: sign up to play rated games")
    creator = row.creator_side if row.creator_side in ("x", "o") else (coin or secrets.choice("xo"))
    x_id, o_id = (row.creator_id, user_id) if creator == "x" else (user_id, row.creator_id)
    started = replace(
        row,
        x_id=x_id,
        o_id=o_id,
        state=PLAYING,
        started_at=now,
        turn_started_at=now,
        x_ms=row.clock_initial_ms,
        o_ms=row.clock_initial_ms,
        version=row.version + 1,
    )
    return Change(started, "start")


def decline(row: GameRow, user_id: int, now: int) -> Change:
    """The challenged player turns the challenge down: the room closes."""
    if row.invited_id != user_id:
        raise ForbiddenError("not-invited", "this is not a challenge to you")
    return _close(row, now)


def cancel(row: GameRow, user_id: int, now: int) -> Change:
    if row.creator_id != user_id:
        raise ForbiddenError("not-yours", "only the room's creator may close it")
    return _close(row, now)


def _close(row: GameRow, now: int) -> Change:
    if row.state != OPEN:
        raise ActionError("room-closed", "the room is not open any more")
    return Change(replace(row, state=CANCELLED, ended_at=now, version=row.version + 1), "cancel")


def move(
    row: GameRow,
    user_id: int | None,
    text: str,
    ply: int | None,
    now: int,
    timing: MoveTiming | None = None,
) -> Change:
    """Plays `text` for `user_id`. `ply` is the number of plies the player saw played
    (None: whatever is current); if the game has moved on since, the move is refused.
    `timing`: what of the time since the turn began was not the player's (the server's
    pauses, the network's delay as the player measured it)."""
    side = _live_side(row, user_id)
    if ply is not None and ply != row.ply:
        raise ActionError(
            "stale-ply", f"the game has moved on: {row.ply} plies are played, your move was for ply {ply + 1}"
        )
    if turn_of(row.ply) != side:
        raise ActionError("not-your-turn", "it is not your turn")
    given, lag = _given_back(row, side, now, timing or MoveTiming())
    flagged = _time_up(row, now, given)
    if flagged is not None:
        return flagged
    try:
        before = position(row.spec, row.moves)
        game = before.game
        value = game.parse_move(text)
        after = before.play(value)
    except NoughtsError as e:
        raise ActionError(error_kind(e), str(e)) from None
    canonical = game.move_text(value)
    clocks = row.clocks(now - given)
    x_ms, o_ms = row.x_ms, row.o_ms
    mover_clock = None
    if clocks is not None and row.days_per_move is not None:
        mover_clock = row.clock_initial_ms  # correspondence: the full days again for the next move
        x_ms, o_ms = (mover_clock, o_ms) if side == "x" else (x_ms, mover_clock)
    elif clocks is not None and row.clock_increment_ms is not None:
        mover_clock = clocks.left(side) + (row.clock_increment_ms if clocks.running else 0)
        x_ms, o_ms = (mover_clock, o_ms) if side == "x" else (x_ms, mover_clock)
    moved = replace(
        row,
        moves=f"{row.moves} {canonical}" if row.moves else canonical,
        ply=row.ply + 1,
        x_ms=x_ms,
        o_ms=o_ms,
        turn_started_at=now,
        draw_offer=None,
        takeback_offer=None,
        version=row.version + 1,
    )
    if lag is not None:
        moved = _with_lag(moved, side, lag)
    if after.is_over:
        moved = _finish(moved, now, after.status, "normal")
    return Change(moved, "move", side, move=canonical, move_clock=mover_clock)


@dataclass(frozen=True)
class MoveTiming:
    """What of a move's time was not the player's: `paused_ms`, this process standing
    still since the turn began (measured here: given back whole); `spent_ms`, the time
    the player's own clock says they took from seeing the position to sending the move,
    or else `lag_ms`, their estimate of the network's one-way delay (the rest of the
    time the server counted is the network's: given back up to their quota)."""

    paused_ms: int = 0
    spent_ms: int | None = None
    lag_ms: int | None = None


def _given_back(row: GameRow, side: str, now: int, timing: MoveTiming) -> tuple[int, clock.Lag | None]:
    """The milliseconds of a move's time not charged to `side`, and their lag
    compensation after it (None: unchanged, no live clock running)."""
    if row.lag_gain == 0 or row.clock_end() is None or row.turn_started_at is None:
        return 0, None
    counted = max(0, now - row.turn_started_at)
    paused = max(0, min(timing.paused_ms, counted))
    delay = counted - paused - timing.spent_ms if timing.spent_ms is not None else timing.lag_ms or 0
    given, lag = row.lag(side).compensate(delay, row.lag_gain)
    return paused + given, lag


def _with_lag(row: GameRow, side: str, lag: clock.Lag) -> GameRow:
    if side == "x":
        return replace(row, x_lag_quota_ms=lag.quota_ms, x_lag_ms=lag.estimate_ms)
    return replace(row, o_lag_quota_ms=lag.quota_ms, o_lag_ms=lag.estimate_ms)


def act(row: GameRow, user_id: int | None, action: str, now: int, grace_ms: int, paused_ms: int = 0) -> Change:
    """Any action of `ACTIONS` by `user_id` (`paused_ms`: this process's pauses since the
    turn began, which a flag gives back)."""
    if action == "flag":
        if row.state != PLAYING:
            raise ActionError("game-over" if row.state in FINISHED else "not-started", "the game is not being played")
        # The server's pauses since the turn began are the player's, beside their grace.
        flagged = _time_up(row, now, row.lag(turn_of(row.ply)).grace_ms + paused_ms)
        if flagged is None:
            raise ActionError("no-flag", "nobody's time has run out")
        return flagged
    if action.startswith("rematch-"):
        return _rematch(row, user_id, action, now)
    side = _live_side(row, user_id)
    flagged = _time_up(row, now)
    if flagged is not None:
        return flagged
    them = other(side)
    if action == "resign":
        return Change(_finish(row, now, _win(them), "resignation"), "resign", side)
    if action == "abort":
        if row.ply >= 2:
            raise ActionError("too-late", "a game can be aborted only before each player has moved: resign instead")
        return Change(_finish(row, now, "ongoing", "aborted", ABORTED), "abort", side)
    if action == "claim":
        return _claim(row, side, now, grace_ms)
    if action.startswith("draw-"):
        return _offer(row, side, action, "draw_offer", now)
    if action.startswith("takeback-"):
        return _offer(row, side, action, "takeback_offer", now)
    raise ActionError("unknown-type", f"unknown action {action!r}")


def _offer(row: GameRow, side: str, action: str, column: str, now: int) -> Change:
    standing = getattr(row, column)
    what = column.removesuffix("_offer")
    verb = action.rpartition("-")[2]
    bumped = row.version + 1
    if verb in ("offer", "request"):
        if standing == side:
            raise ActionError("already-offered", f"you already asked for a {what}")
        if standing == other(side):
            verb = "accept"
        else:
            if what == "takeback" and _last_move_of(side, row.ply) is None:
                raise ActionError("nothing-to-take-back", "you have no move to take back")
            return Change(_with_offer(row, column, side, bumped), action, side)
    if standing != other(side):
        raise ActionError("no-offer", f"your opponent has not asked for a {what}")
    if verb == "decline":
        return Change(_with_offer(row, column, None, bumped), action, side)
    if what == "draw":
        return Change(_finish(row, now, "draw", "agreement"), "draw-accept", side)
    asker_last = _last_move_of(other(side), row.ply)
    assert asker_last is not None  # checked when the request was made, and moves only grow since
    target = asker_last - 1
    moves = row.move_list[:target]
    clocks = row.clocks(now)
    back = replace(
        row,
        moves=" ".join(moves),
        ply=target,
        x_ms=clocks.x_ms if clocks else row.x_ms,
        o_ms=clocks.o_ms if clocks else row.o_ms,
        turn_started_at=now,
        takeback_offer=None,
        draw_offer=None,
        version=bumped,
    )
    return Change(back, "takeback-accept", side, truncate_to=target)


def _with_offer(row: GameRow, column: str, side: str | None, version: int) -> GameRow:
    if column == "draw_offer":
        return replace(row, draw_offer=side, version=version)
    return replace(row, takeback_offer=side, version=version)


def _last_move_of(side: str, ply: int) -> int | None:
    """The ply number (1-based) of `side`'s last move after `ply` plies."""
    last = ply if turn_of(ply - 1) == side else ply - 1
    return last if last >= 1 else None


def _claim(row: GameRow, side: str, now: int, grace_ms: int) -> Change:
    if row.days_per_move is not None:
        raise ActionError("correspondence", "a correspondence game waits for its moves: only the clock ends it")
    left_at = row.o_left_at if side == "x" else row.x_left_at
    if left_at is None:
        raise ActionError("opponent-here", "your opponent is connected")
    away = now - left_at
    if away < grace_ms:
        wait = (grace_ms - away + 999) // 1000
        raise ActionError("too-early", f"your opponent left {away // 1000} s ago: you can claim the game in {wait} s")
    if row.ply < 2:
        return Change(_finish(row, now, "ongoing", "aborted", ABORTED), "abort", side)
    return Change(_finish(row, now, _win(side), "abandoned"), "claim", side)


def abandon(row: GameRow, now: int, after_ms: int) -> Change:
    """Ends a game in play whose player has been away for `after_ms`, whether the other
    is here or not: when both left nobody is left to claim it, the one left may be a
    program that never claims (an engine bot), and without a clock nothing else would
    ever end it (lichess's server ends such games by itself too). It ends as a claim
    would: the first to leave loses (before the second move, it is aborted)."""
    if row.state != PLAYING:
        raise ActionError("game-over" if row.state in FINISHED else "not-started", "the game is not being played")
    if row.days_per_move is not None:
        raise ActionError("correspondence", "a correspondence game's players are away between moves")
    gone = sorted((left, side) for side, left in (("x", row.x_left_at), ("o", row.o_left_at)) if left is not None)
    if not gone or now - gone[0][0] < after_ms:
        raise ActionError("not-abandoned", "nobody has been away long enough")
    if row.ply < 2:
        return Change(_finish(row, now, "ongoing", "aborted", ABORTED), "abort")
    first = gone[0][1]
    return Change(_finish(row, now, _win(other(first)), "abandoned"), "claim")


def no_show(row: GameRow, now: int, wait_ms: int) -> Change:
    """Aborts a game whose player to move has not made their first move `wait_ms` after
    their turn began, connected or not (as lichess aborts a game nobody starts): the
    clock runs only from the third ply, so nothing else would end it. That player is
    marked away since their turn began, so that a tournament sees who did not play."""
    if row.state != PLAYING:
        raise ActionError("game-over" if row.state in FINISHED else "not-started", "the game is not being played")
    if row.days_per_move is not None:
        raise ActionError("correspondence", "a correspondence game waits for its moves: only the clock ends it")
    if row.ply >= 2:
        raise ActionError("started", "both players have moved")
    since = row.turn_started_at if row.turn_started_at is not None else row.started_at or now
    if now - since < wait_ms:
        raise ActionError("not-late", "the player to move still has time for their first move")
    aborted = _finish(row, now, "ongoing", "aborted", ABORTED)
    if turn_of(row.ply) == "x":
        aborted = replace(aborted, x_left_at=row.x_left_at if row.x_left_at is not None else since)
    else:
        aborted = replace(aborted, o_left_at=row.o_left_at if row.o_left_at is not None else since)
    return Change(aborted, "abort")


def _rematch(row: GameRow, user_id: int | None, action: str, now: int) -> Change:
    side = row.side_of(user_id)
    if side is None:
        raise ForbiddenError("not-a-player", "you are not playing in this game")
    if row.state not in (OVER, ABORTED):
        raise ActionError("not-over", "a rematch is offered after the game")
    if row.rematch_id is not None:
        raise ActionError("rematch-exists", "the rematch has already started")
    verb = action.rpartition("-")[2]
    standing = row.rematch_offer
    if verb == "offer" and standing is None:
        return Change(replace(row, rematch_offer=side, version=row.version + 1), action, side)
    if verb == "offer" and standing == side:
        raise ActionError("already-offered", "you already offered a rematch")
    if standing != other(side):
        raise ActionError("no-offer", "your opponent has not offered a rematch")
    if verb == "decline":
        return Change(replace(row, rematch_offer=None, version=row.version + 1), action, side)
    assert row.x_id is not None and row.o_id is not None  # a game that was played has both
    # Colours swap: the old O is the new X.
    created = GameRow(
        id=new_game_id(),
        spec=row.spec,
        rated=row.rated,
        private=row.private,  # as findable as the game it follows: in lists, or by its link only
        creator_id=row.o_id,
        creator_side="x",
        x_id=row.o_id,
        o_id=row.x_id,
        state=PLAYING,
        result="ongoing",
        termination=None,
        moves="",
        ply=0,
        version=1,
        clock_initial_ms=row.clock_initial_ms,
        clock_increment_ms=row.clock_increment_ms,
        x_ms=row.clock_initial_ms,
        o_ms=row.clock_initial_ms,
        turn_started_at=now,
        draw_offer=None,
        takeback_offer=None,
        rematch_offer=None,
        rematch_id=None,
        x_left_at=None,
        o_left_at=None,
        x_rating_before=None,
        x_rating_after=None,
        o_rating_before=None,
        o_rating_after=None,
        created_at=now,
        started_at=now,
        ended_at=None,
        days_per_move=row.days_per_move,
    )
    accepted = replace(row, rematch_offer=None, rematch_id=created.id, version=row.version + 1)
    return Change(accepted, "rematch-accept", side, created=created)
